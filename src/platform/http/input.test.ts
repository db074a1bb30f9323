import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { defineService, query } from '../core/registry.ts';
import { Type } from '../core/schema.ts';

// How a request becomes input (http/input.ts) and how what never reaches a route is answered
// (http/errors.ts): every refusal is the error body, never Fastify's or Node's own.

const probe = defineService({
  domain: 'test',
  name: 'input',
  version: '1.0.0',
  title: 'Input probe',
  operations: {
    echo: query({
      get: true,
      input: Type.Object({ texto: Type.Optional(Type.String()) }),
      output: Type.Object({ texto: Type.Optional(Type.String()) }),
      handler: async (_ctx, input) => input,
    }),
  },
});

const URL = '/t/acme/bridge/1.0/rest/test/input/queries/echo';
let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await testApp({ services: [probe] });
  key = await t.tenant('acme');
});

const post = (payload: string | Buffer | undefined, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: URL,
    headers: {
      authorization: key,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload }),
  });

/** The answer is exactly the error body, with the status of its reason. */
function expectError(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  message: RegExp,
) {
  expect(res.statusCode).toBe(400);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['message', 'reason']);
  expect(body.reason).toBe('BAD_REQUEST');
  expect(body.message).toMatch(message);
}

describe('the body', () => {
  it('is the empty object when there is none, or it is empty or blank', async () => {
    for (const payload of [undefined, '', '  \n']) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(200);
      expect(res.json()).toEqual({});
    }
  });

  it('is refused when it is null, an array or a scalar where an object is declared', async () => {
    for (const payload of ['null', '[]', '[{"texto":"a"}]', '3', '"texto"', 'true']) {
      expectError(await post(payload), /field 'body' must be of type object/);
    }
  });

  it('may come compressed with gzip, deflate or br, and is read decompressed', async () => {
    const body = '{"texto":"caminh\u00e3o"}';
    for (const [coding, packed] of [
      ['gzip', gzipSync(body)],
      ['GZip', gzipSync(body)],
      ['x-gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
      ['identity, gzip', gzipSync(body)],
      ['identity', Buffer.from(body)],
    ] as const) {
      const res = await post(packed, { 'content-encoding': coding });
      expect(res.statusCode, `${coding}: ${res.body}`).toBe(200);
      expect(res.json()).toEqual({ texto: 'caminh\u00e3o' });
    }
  });

  it('is refused in a coding it is not in, or in one this server cannot undo', async () => {
    expectError(await post('{}', { 'content-encoding': 'gzip' }), /not valid gzip/);
    expectError(await post(gzipSync('{}').subarray(0, 12), { 'content-encoding': 'gzip' }), /not valid gzip/);
    expectError(await post(gzipSync('{}'), { 'content-encoding': 'br' }), /not valid br/);
    expectError(
      await post('{}', { 'content-encoding': 'compress' }),
      /Unsupported Content-Encoding 'compress'/,
    );
    expectError(await post(gzipSync(gzipSync('{}')), { 'content-encoding': 'gzip, gzip' }), /Unsupported/);
  });

  it('is refused when it nests deeper than 64 levels, anywhere, declared or not', async () => {
    const nested = (levels: number, open: string, close: string) =>
      `{"texto":"a","x":${open.repeat(levels)}1${close.repeat(levels)}}`;
    // The body is level 0, "x" level 1: a value at level 64 still fits, one at 65 does not.
    expect((await post(nested(63, '[', ']'))).statusCode).toBe(200);
    for (const levels of [64, 8_000, 100_000]) {
      expectError(
        await post(nested(levels, '[', ']')),
        /field 'x(\[0\]){64}' must not nest deeper than 64 levels/,
      );
      expectError(
        await post(nested(levels, '{"a":', '}')),
        /field 'x(\.a){64}' must not nest deeper than 64 levels/,
      );
    }
  });

  it('counts BODY_LIMIT on the bytes it decompresses to', async () => {
    // 1 MiB (the default limit) of spaces and more inflates from about 2 KB.
    const bomb = gzipSync(`{"texto":"a"${' '.repeat(2 * 1024 * 1024)}}`);
    expect(bomb.length).toBeLessThan(10_000);
    expectError(await post(bomb, { 'content-encoding': 'gzip' }), /larger than the limit of 1048576 bytes/);
    const fits = gzipSync(`{"texto":"a"${' '.repeat(1000)}}`);
    expect((await post(fits, { 'content-encoding': 'gzip' })).json()).toEqual({ texto: 'a' });
  });

  it('is refused when it is not UTF-8, whatever charset the header names', async () => {
    const latin1 = Buffer.from('{"texto":"caminh\u00e3o"}', 'latin1');
    expectError(await post(latin1), /not valid UTF-8/);
    expectError(
      await post(latin1, { 'content-type': 'application/json; charset=iso-8859-1' }),
      /not valid UTF-8/,
    );
    const utf8 = Buffer.from('{"texto":"caminh\u00e3o 🚚"}', 'utf8');
    expect((await post(utf8)).json()).toEqual({ texto: 'caminhão 🚚' });
  });
});

describe('the query string', () => {
  const get = (query: string) =>
    t.app.inject({ method: 'GET', url: `${URL}?${query}`, headers: { authorization: key } });

  it('is decoded as UTF-8, + as a space', async () => {
    expect((await get('texto=caminh%C3%A3o+azul')).json()).toEqual({ texto: 'caminhão azul' });
  });

  it('is refused where a value is not valid percent-encoded UTF-8, naming the field', async () => {
    for (const value of ['%zz', '%FF', '%ED%A0%80', '50%']) {
      expectError(
        await get(`texto=${value}`),
        /field 'texto' of the query string is not valid percent-encoded UTF-8/,
      );
    }
  });

  it('is refused where a value holds a NUL, declared or not', async () => {
    expectError(await get('texto=a%00b'), /field 'texto' must not contain the NUL character/);
    expectError(await get('outro=%00'), /field 'outro' must not contain the NUL character/);
  });
});

describe('what the router refuses', () => {
  it('answers a path that is not valid percent-encoding with the error body and the request id', async () => {
    for (const path of [`${URL}/%zz`, '/t/acme/%ED%A0%80', '/%zz']) {
      const res = await t.app.inject({ method: 'GET', url: path, headers: { authorization: key } });
      expectError(res, /Malformed URL: a path segment is not valid percent-encoded UTF-8/);
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('answers a path parameter over 100 characters with the error body', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/t/${'a'.repeat(101)}/bridge/1.0/rest/test/input/queries/echo`,
    });
    expectError(res, /longer than 100 characters/);
  });
});

describe('what Node’s HTTP parser refuses', () => {
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.app.server.close());

  /** Sends raw bytes and reads the whole answer (the server closes the connection). */
  const raw = (request: string) =>
    new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk.toString('utf8');
      });
      socket.on('error', reject);
      socket.on('close', () => {
        const [head = '', body = ''] = data.split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), headers: head, body });
      });
      socket.end(request);
    });

  it('answers a malformed request and headers too large with the error body', async () => {
    const cases = [
      'GARBAGE\r\n\r\n',
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
    ];
    for (const request of cases) {
      const res = await raw(request);
      expect(res.status, request.slice(0, 30)).toBe(400);
      expect(res.headers).toMatch(/content-type: application\/json/i);
      expect(Object.keys(JSON.parse(res.body)).sort()).toEqual(['message', 'reason']);
      expect(JSON.parse(res.body).reason).toBe('BAD_REQUEST');
    }
  });
});

describe('a body that stops arriving', () => {
  let slow: TestApp;
  let port: number;
  beforeAll(async () => {
    slow = await testApp({ services: [probe], config: { bodyTimeoutMs: 300 } });
    await slow.app.listen({ port: 0, host: '127.0.0.1' });
    port = (slow.app.server.address() as AddressInfo).port;
  });

  /** Sends the head and `sent` of the body, keeps the connection open, and reads what comes back. */
  const stalled = (sent: string, length: number, auth: string) =>
    new Promise<{ data: string; closed: boolean; ms: number }>((resolve) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1');
      let data = '';
      const done = (closed: boolean) => resolve({ data, closed, ms: Date.now() - started });
      const giveUp = setTimeout(() => {
        socket.destroy();
        done(false);
      }, 5_000);
      socket.on('data', (chunk) => {
        data += chunk.toString('utf8');
      });
      socket.on('close', () => {
        clearTimeout(giveUp);
        done(true);
      });
      socket.write(
        `POST ${URL} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${length}\r\n\r\n${sent}`,
      );
    });

  it('is refused with 408 and the error body once no byte came for BODY_TIMEOUT_MS, and the connection closes', async () => {
    const auth = await slow.tenant('acme');
    const res = await stalled('{', 100, auth);
    expect(res.closed).toBe(true);
    expect(res.data).toMatch(/^HTTP\/1.1 408 /);
    expect(res.data).toMatch(/connection: close/i);
    const body = JSON.parse(res.data.split('\r\n\r\n')[1]!);
    expect(body).toEqual({
      reason: 'REQUEST_TIMEOUT',
      message: 'The request body was not received in time (no byte for 300 ms)',
    });
    expect(res.ms).toBeLessThan(4_000);
    // A body that keeps coming, slower than the whole timeout, is read.
    const steady = await new Promise<number>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      socket.on('data', (c) => {
        data += c.toString('utf8');
        if (data.includes('\r\n\r\n') && data.endsWith('}')) {
          socket.destroy();
          resolve(Number(data.split(' ')[1]));
        }
      });
      socket.on('error', reject);
      const body = '{"texto":"devagar"}';
      socket.write(
        `POST ${URL} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\n\r\n`,
      );
      let i = 0;
      const tick = setInterval(() => {
        socket.write(body.slice(i, i + 4));
        i += 4;
        if (i >= body.length) clearInterval(tick);
      }, 150);
    });
    expect(steady).toBe(200);
  });
});
