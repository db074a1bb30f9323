import { PassThrough, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errors } from '../core/errors.ts';
import { textProblem } from '../core/storable.ts';

// How a request's body and query string become the input that validation sees (docs/platform.md
// "Addressing and kinds" and "Errors"). JSON only, UTF-8 only; a body may come compressed (gzip,
// deflate, br: what ERP clients send large batches with), and BODY_LIMIT then counts the bytes it
// decompresses to. What cannot be read exactly is refused rather than guessed at.

const UTF8 = new TextDecoder('utf-8', { fatal: true });

const DECOMPRESSORS = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};
type Coding = keyof typeof DECOMPRESSORS;

/** The body's one content coding to undo, if any; a coding this server cannot undo is a 400. */
function codingOf(request: FastifyRequest): Coding | undefined {
  const header = request.headers['content-encoding'];
  if (header === undefined) return undefined;
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return undefined;
  const [coding] = codings;
  if (codings.length > 1 || !Object.hasOwn(DECOMPRESSORS, coding!))
    throw errors.badRequest(
      `Unsupported Content-Encoding '${header.trim()}': send the body uncompressed, or in one of gzip, deflate, br`,
    );
  return coding as Coding;
}

/**
 * The body decompressed as it arrives. Fastify counts BODY_LIMIT on what this stream gives (a small
 * body that inflates past it is a 413 after BODY_LIMIT bytes, never held whole) and checks
 * Content-Length against the compressed bytes read. A body that is not what its header says is a 400.
 */
function decompressed(payload: Readable, coding: Coding): Readable {
  const decoder = DECOMPRESSORS[coding]();
  const out = new PassThrough() as PassThrough & { receivedEncodedLength: number };
  out.receivedEncodedLength = 0;
  payload.on('data', (chunk: Buffer) => {
    out.receivedEncodedLength += chunk.length;
  });
  const fail = () =>
    out.destroy(errors.badRequest(`Malformed body: it is not valid ${coding} (Content-Encoding: ${coding})`));
  decoder.on('error', fail);
  payload.on('error', (err) => out.destroy(err));
  out.on('close', () => {
    payload.unpipe(decoder);
    decoder.destroy();
  });
  payload.pipe(decoder).pipe(out);
  return out;
}

/** Whether the request announces a body (Fastify reads one only then). */
const announcesBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined ||
  (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');

/**
 * The body as it arrives, refused with 408 when no byte of it comes for `idleMs`: a client that
 * announces a body and stops sending it holds its connection that long, not forever. The answer
 * closes the connection (what is left of the body will not be read). An upload that keeps sending,
 * however large and slow, is never cut.
 */
function watched(payload: Readable, reply: FastifyReply, idleMs: number): Readable {
  const out = new PassThrough();
  const expire = () => {
    payload.unpipe(out);
    reply.header('connection', 'close');
    out.destroy(
      new ApiError('REQUEST_TIMEOUT', `The request body was not received in time (no byte for ${idleMs} ms)`),
    );
  };
  const timer = setTimeout(expire, idleMs);
  payload.on('data', () => timer.refresh());
  payload.on('error', (err) => out.destroy(err));
  out.on('close', () => clearTimeout(timer));
  payload.on('end', () => clearTimeout(timer));
  payload.pipe(out);
  return out;
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

export function installInputParsing(app: FastifyInstance, bodyTimeoutMs: number): void {
  // JSON only (no text/plain or form parser), and an empty JSON body is an empty object.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addHook('preParsing', async (request, reply, payload) => {
    const coding = codingOf(request);
    const body = announcesBody(request) ? watched(payload, reply, bodyTimeoutMs) : payload;
    return coding ? decompressed(body, coding) : body;
  });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
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
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.body === undefined)
      request.body = {};
  });
}
