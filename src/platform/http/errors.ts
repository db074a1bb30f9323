import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, REASON_STATUS, type Reason } from '../core/errors.ts';
import { validationMessage } from '../core/validation.ts';

// Every failure path answers the genericError body with a reason of the spec's enumeration and the
// status of DESIGN.md's table. Internal errors are logged with the request id and never leak detail.

const STATUS_REASON = new Map<number, Reason>(
  Object.entries(REASON_STATUS).map(([reason, status]) => [status, reason as Reason]),
);

/** The longest path parameter (an id, a tenant name) the router takes. */
export const MAX_PARAM_LENGTH = 100;

function fromFastify(err: FastifyError, bodyLimit: number): ApiError | undefined {
  if (err.validation) return new ApiError('BAD_REQUEST', validationMessage(err.validation as never));
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('BAD_REQUEST', 'Unsupported Content-Type: send the body as application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('BAD_REQUEST', 'The body is not as long as its Content-Length header says');
    // The router's own errors (frameworkErrors), before any route is known.
    case 'FST_ERR_BAD_URL':
      return new ApiError('BAD_REQUEST', 'Malformed URL: a path segment is not valid percent-encoded UTF-8');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError(
        'BAD_REQUEST',
        `Malformed URL: a path segment is longer than ${MAX_PARAM_LENGTH} characters`,
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('BAD_REQUEST', `Request body is larger than the limit of ${bodyLimit} bytes`);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('BAD_REQUEST', `Malformed JSON body: ${err.message}`);
  }
  if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return new ApiError('BAD_REQUEST', `Malformed JSON body: ${err.message}`);
  }
  // decodeURIComponent of a path or key the client wrote (a blob key's %zz).
  if (err instanceof URIError) return new ApiError('BAD_REQUEST', `Malformed URL: ${err.message}`);
  const status = err.statusCode;
  if (status && status >= 400 && status < 500) {
    return new ApiError(STATUS_REASON.get(status) ?? 'BAD_REQUEST', err.message);
  }
  return undefined;
}

function answer(bodyLimit: number) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // Also here: a router error is answered before the hooks that set it on every other reply.
    reply.header('x-request-id', request.id);
    const known = err instanceof ApiError ? err : fromFastify(err, bodyLimit);
    if (known) {
      if (known.status >= 500) request.log.error({ err }, known.message);
      if (known.help) reply.header('www-authenticate', known.help.challenge);
      return reply.code(known.status).type('application/json').send(known.toBody());
    }
    request.log.error({ err }, 'unexpected error');
    return reply
      .code(500)
      .type('application/json')
      .send({ message: `Internal error; reference ${request.id}`, reason: 'INTERNAL_ERROR' });
  };
}

/**
 * Fastify's `frameworkErrors`: the router's answers to a URL it cannot decode or a parameter over
 * MAX_PARAM_LENGTH, which would otherwise be Fastify's own body, take the error body too.
 */
export const frameworkErrors = (bodyLimit: number) => answer(bodyLimit);

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (malformed, headers too
 * large, too slow) never reaches a route; it is answered on the socket with the error body too.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const error = timeout
    ? new ApiError('REQUEST_TIMEOUT', 'The request was not received in time')
    : new ApiError(
        'BAD_REQUEST',
        err.code === 'HPE_HEADER_OVERFLOW' ? 'The request headers are too large' : 'Malformed HTTP request',
      );
  const body = JSON.stringify(error.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${error.status} ${timeout ? 'Request Timeout' : 'Bad Request'}\r\nConnection: close\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

export function installErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler(answer(bodyLimit));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const match =
      /^\/t\/[^/]+\/bridge\/1\.0\/(?:anonymous\/)?rest\/([^/]+)\/([^/]+)(?:\/([^/]+)\/([^/]+))?/.exec(path);
    const message = match
      ? `Operation ${match[1]}/${match[2]}/${match[3] ?? ''}/${match[4] ?? ''} not found`
      : `Nothing found at ${path}`;
    return reply.code(404).type('application/json').send({ message, reason: 'OBJECT_NOT_FOUND' });
  });
}
