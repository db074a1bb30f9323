import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../core/errors.ts';
import { textProblem } from '../core/storable.ts';

// How a request's body and query string become the input that validation sees (docs/platform.md
// "Addressing and kinds" and "Errors"). JSON only, UTF-8 only, uncompressed only: what cannot be
// read exactly is refused rather than guessed at.

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Why the body, as its headers describe it, cannot be read; undefined when it can. */
function encodingProblem(request: FastifyRequest): string | undefined {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  // No decompression is installed: a gzip body read as JSON would be garbage, or worse, JSON.
  if (encoding && encoding !== 'identity') {
    return `Unsupported Content-Encoding '${encoding}': send the body uncompressed`;
  }
  return undefined;
}

/**
 * The field of the query string, if any, that is not valid percent-encoded UTF-8 or holds text the
 * database cannot store. Fastify's parser keeps an undecodable value as its raw text (`%zz`, an
 * encoded lone surrogate `%ED%A0%80`), which would then be taken as if the client meant it.
 */
function queryProblem(url: string): string | undefined {
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return undefined;
  for (const pair of url.slice(start + 1).split('&')) {
    const [rawKey = '', ...rest] = pair.split('=');
    const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
    let key = rawKey;
    try {
      key = decode(rawKey);
      const what = textProblem(key) ?? textProblem(decode(rest.join('=')));
      if (what)
        return `Invalid request: field '${JSON.stringify(key).slice(1, -1)}' must not contain ${what}`;
    } catch {
      return `Invalid request: field '${key}' of the query string is not valid percent-encoded UTF-8`;
    }
  }
  return undefined;
}

export function installInputParsing(app: FastifyInstance): void {
  // JSON only (no text/plain or form parser), and an empty JSON body is an empty object.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const problem = encodingProblem(request);
    if (problem) return done(errors.badRequest(problem), undefined);
    let text: string;
    try {
      // Invalid UTF-8 would otherwise become U+FFFD in silence (whatever charset the header names).
      text = UTF8.decode(body as Buffer);
    } catch {
      return done(errors.badRequest('Malformed JSON body: it is not valid UTF-8'), undefined);
    }
    if (text.trim() === '') return done(null, {});
    return json(request, text, done);
  });

  app.addHook('preValidation', async (request) => {
    const problem = queryProblem(request.url);
    if (problem) throw errors.badRequest(problem);
    // A POST without a body is an empty object: queries and signals with no fields are often sent
    // so. A body that is JSON `null` was sent, and is refused where an object is declared.
    if (request.method !== 'GET' && request.body === undefined) request.body = {};
  });
}
