import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type pino from 'pino';
import { LogDestination } from './log-destination.ts';

// The request log at the default level (info): one line per request, written asynchronously
// (docs/performance.md "Request logging"). Fastify's own request logging writes two lines per
// request, each a system call of its own on the event loop; together they cost about a fifth of a
// short request. Here each request is one line with what an operator looks for (the request id, from
// the request's logger, the tenant, the operation, the status and the time), and lines go out in
// batches (log-destination.ts), what is left when the process exits too. A closed stdout (EPIPE)
// stops the logging, nothing else.

/** The logger's destination: standard output (or a file), written asynchronously in batches. */
export function logDestination(dest: number | string = 1): LogDestination {
  return LogDestination.to(dest);
}

/** The route's operation, e.g. `yms/patio/queries/buscaVagaLivre`; the route pattern elsewhere. */
function operationOf(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route === undefined) return request.url.split('?', 1)[0] ?? '';
  const rest = route.indexOf('/rest/');
  return rest >= 0 ? route.slice(rest + 6) : route;
}

/** What the line says about a request. */
function fields(request: FastifyRequest, reply: FastifyReply) {
  return {
    tenant: (request.params as { tenant?: string } | undefined)?.tenant,
    op: operationOf(request),
    method: request.method,
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
  };
}

/**
 * Fastify's `logController`: nothing when a request comes in, one line when it is answered, if
 * `enabled` (LOG_LEVEL info, debug or trace: README "Running").
 */
class OneLinePerRequest extends LogController {
  readonly enabled: boolean;

  constructor(enabled: boolean) {
    super();
    this.enabled = enabled;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) reply.log.error({ ...fields(request, reply), err: error }, 'request errored');
    else if (this.enabled && (reply.log as pino.Logger).isLevelEnabled('info'))
      reply.log.info(fields(request, reply), 'request');
  }
}

export function requestLogController(enabled: boolean): LogController {
  return new OneLinePerRequest(enabled);
}
