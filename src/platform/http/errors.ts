import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, REASON_STATUS, type Reason } from '../errors.ts';
import { validationMessage } from '../validation.ts';

// Every failure path answers the genericError body with a reason of the spec's enumeration and the
// status of DESIGN.md's table. Internal errors are logged with the request id and never leak detail.

const STATUS_REASON = new Map<number, Reason>(
  Object.entries(REASON_STATUS).map(([reason, status]) => [status, reason as Reason]),
);

function fromFastify(err: FastifyError, bodyLimit: number): ApiError | undefined {
  if (err.validation) return new ApiError('BAD_REQUEST', validationMessage(err.validation as never));
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('BAD_REQUEST', 'Unsupported Content-Type: send the body as application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('BAD_REQUEST', `Request body is larger than the limit of ${bodyLimit} bytes`);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('BAD_REQUEST', `Malformed JSON body: ${err.message}`);
  }
  if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return new ApiError('BAD_REQUEST', `Malformed JSON body: ${err.message}`);
  }
  const status = err.statusCode;
  if (status && status >= 400 && status < 500) {
    return new ApiError(STATUS_REASON.get(status) ?? 'BAD_REQUEST', err.message);
  }
  return undefined;
}

export function installErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = err instanceof ApiError ? err : fromFastify(err, bodyLimit);
    if (known) {
      if (known.status >= 500) request.log.error({ err }, known.message);
      return reply.code(known.status).type('application/json').send(known.toBody());
    }
    request.log.error({ err }, 'unexpected error');
    return reply
      .code(500)
      .type('application/json')
      .send({ message: `Internal error; reference ${request.id}`, reason: 'INTERNAL_ERROR' });
  });

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
