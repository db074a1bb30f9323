import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import { BRIDGE_CREDENTIALS, errors } from '../core/errors.ts';
import { action, defineService, event, query, signal } from '../core/registry.ts';
import { DateOnly, DateTime, Double, Enum, Int64, Type } from '../core/schema.ts';

// The bridge contract, exercised through a test service that uses every kind and every rule.

const probe = defineService({
  domain: 'test',
  name: 'probe',
  version: '1.2.3',
  title: 'Probe',
  operations: {
    echo: query({
      get: true,
      visibility: 'PUBLIC',
      input: Type.Object({
        texto: Type.String({ maxLength: 5 }),
        numero: Type.Optional(Int64({ minimum: 1, maximum: 7 })),
        ativo: Type.Optional(Type.Boolean()),
      }),
      output: Type.Object({
        texto: Type.String(),
        numero: Type.Optional(Int64()),
        ativo: Type.Optional(Type.Boolean()),
      }),
      handler: async (_ctx, input) => input,
    }),
    postOnly: query({
      input: Type.Object({}),
      output: Type.Object({ ok: Type.Boolean() }),
      handler: async () => ({ ok: true }),
    }),
    rules: action({
      input: Type.Object({
        quando: DateTime(),
        dia: DateOnly(),
        valor: Double(),
        dias: Type.Array(Int64({ minimum: 1, maximum: 7 }), { minItems: 1 }),
        status: Enum(['A', 'B']),
      }),
      output: Type.Object({}),
      handler: async () => ({}),
    }),
    whoami: action({
      visibility: 'PUBLIC',
      anonymous: true,
      transaction: 'none',
      input: Type.Object({}),
      output: Type.Object({ tenant: Type.String(), caller: Type.String(), scope: Type.String() }),
      handler: async (ctx) => ({ tenant: ctx.tenant.name, caller: ctx.caller.kind, scope: ctx.caller.scope }),
    }),
    boom: action({
      input: Type.Object({}),
      output: Type.Object({}),
      handler: async (ctx) => {
        await ctx.tx.execute('select * from no_such_table' as never);
        return {};
      },
    }),
    conflict: action({
      input: Type.Object({}),
      output: Type.Object({}),
      handler: async () => {
        throw errors.conflict('Agenda 42 is already executing');
      },
    }),
    happened: event({ input: Type.Object({ plantaId: Type.String() }), handler: async () => undefined }),
    kick: signal({ input: Type.Object({}), handler: async () => undefined }),
  },
});

let t: TestApp;
let key: string;
let publicKey: string;
let otherKey: string;

beforeAll(async () => {
  t = await testApp({ services: [...allServices, probe], config: { bodyLimit: 4096 } });
  key = await t.tenant('acme');
  publicKey = (await t.key('acme', 'public')).apiKey;
  otherKey = await t.tenant('globex');
});

describe('addressing and kinds', () => {
  it('answers a query by POST with its JSON object', async () => {
    const res = await t.call('acme', 'test/probe/queries/echo', { texto: 'oi', numero: 3 }, { auth: key });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ texto: 'oi', numero: 3 });
  });

  it('answers GET where declared, coercing query-string values to the declared types', async () => {
    const res = await t.call('acme', 'test/probe/queries/echo', undefined, {
      auth: key,
      method: 'GET',
      query: { texto: 'oi', numero: '7', ativo: 'true' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ texto: 'oi', numero: 7, ativo: true });
  });

  it('answers 405 with the error body for a method the operation does not take', async () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      const res = await t.call('acme', 'test/probe/queries/postOnly', undefined, { auth: key, method });
      expect(res.statusCode, method).toBe(405);
      if (method !== 'HEAD') expect(res.json().reason).toBe('BAD_REQUEST');
      expect(res.headers.allow).toBe('POST');
    }
    // HEAD where GET is served: GET's answer without its body; OPTIONS is 405 there too.
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/t/acme/bridge/1.0/rest/test/probe/queries/echo?texto=oi',
      headers: { authorization: key },
    });
    expect([head.statusCode, head.body, head.headers['content-type']]).toEqual([
      200,
      '',
      'application/json; charset=utf-8',
    ]);
    const options = await t.call('acme', 'test/probe/queries/echo', undefined, {
      auth: key,
      method: 'OPTIONS',
    });
    expect([options.statusCode, options.headers.allow]).toEqual([405, 'POST, GET']);
  });

  it('answers an event with 200 and no body, a signal with 202', async () => {
    const ev = await t.call('acme', 'test/probe/events/happened', { plantaId: 'p1' }, { auth: key });
    expect(ev.statusCode).toBe(200);
    expect(ev.body).toBe('');
    const sig = await t.call('acme', 'test/probe/signals/kick', {}, { auth: key });
    expect(sig.statusCode).toBe(202);
    expect(sig.body).toBe('');
  });

  it('treats a POST without a body as an empty object', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/t/acme/bridge/1.0/rest/test/probe/queries/postOnly',
      headers: { authorization: key },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('answers 404 OBJECT_NOT_FOUND for an unknown service, operation or kind', async () => {
    for (const address of ['test/nope/queries/echo', 'test/probe/queries/nope', 'test/probe/actions/echo']) {
      const res = await t.call('acme', address, {}, { auth: key });
      expect(res.statusCode, address).toBe(404);
      expect(res.json().reason).toBe('OBJECT_NOT_FOUND');
      expect(res.json().message).toContain('not found');
    }
  });
});

describe('error body', () => {
  it('rejects malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/t/acme/bridge/1.0/rest/test/probe/queries/echo',
      headers: { authorization: key, 'content-type': 'application/json' },
      payload: '{"texto": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'BAD_REQUEST' });
    expect(res.json().message).toMatch(/Malformed JSON/);
  });

  it('rejects a body over the size limit', async () => {
    const res = await t.call('acme', 'test/probe/queries/echo', { texto: 'x'.repeat(5000) }, { auth: key });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/larger than the limit of 4096 bytes/);
  });

  it('rejects a wrong content type', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/t/acme/bridge/1.0/rest/test/probe/queries/echo',
      headers: { authorization: key, 'content-type': 'text/plain' },
      payload: 'texto=oi',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/application\/json/);
  });

  it('answers 500 without a stack trace or SQL, naming the request id', async () => {
    const res = await t.call('acme', 'test/probe/actions/boom', {}, { auth: key });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body.reason).toBe('INTERNAL_ERROR');
    expect(body.message).toContain(res.headers['x-request-id']);
    expect(res.body).not.toMatch(/no_such_table|select|at .*\.ts/);
  });

  it('answers a state conflict with 409', async () => {
    const res = await t.call('acme', 'test/probe/actions/conflict', {}, { auth: key });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Agenda 42 is already executing', reason: 'UNPROCESSABLE' });
  });
});

describe('validation', () => {
  const valid = {
    quando: '2026-01-31T08:00:00-03:00',
    dia: '2026-01-31',
    valor: 1.5,
    dias: [1, 7],
    status: 'A',
  };
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['required', { ...valid, quando: undefined }, /field 'quando' is required/],
    [
      'date-time format',
      { ...valid, quando: '2026-01-31 08:00' },
      /field 'quando' must be a valid date-time/,
    ],
    ['date format', { ...valid, dia: '31/01/2026' }, /field 'dia' must be a valid date/],
    ['type', { ...valid, valor: '1.5' }, /field 'valor' must be of type number/],
    ['int64', { ...valid, dias: [1.5] }, /field 'dias\[0\]' must be of type integer/],
    ['maximum', { ...valid, dias: [8] }, /field 'dias\[0\]' must be <= 7/],
    ['minimum', { ...valid, dias: [0] }, /field 'dias\[0\]' must be >= 1/],
    ['minItems', { ...valid, dias: [] }, /field 'dias' must have at least 1 item/],
    ['enum', { ...valid, status: 'C' }, /field 'status' must be one of A, B/],
  ];
  it.each(cases)('names the field and the rule: %s', async (_name, body, message) => {
    const before = await tableCounts(t.db);
    const res = await t.call('acme', 'test/probe/actions/rules', body, { auth: key });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('BAD_REQUEST');
    expect(res.json().message).toMatch(message);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('accepts the valid body', async () => {
    const res = await t.call('acme', 'test/probe/actions/rules', valid, { auth: key });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
  });

  it('checks maxLength', async () => {
    const res = await t.call('acme', 'test/probe/queries/echo', { texto: 'abcdef' }, { auth: key });
    expect(res.json().message).toMatch(/field 'texto' must have at most 5 characters/);
  });

  it('validates before the handler runs: a rejected int64 never reaches it', async () => {
    const res = await t.call(
      'acme',
      'test/probe/queries/echo',
      { texto: 'a', numero: 2 ** 60 },
      { auth: key },
    );
    expect(res.statusCode).toBe(400);
  });
});

describe('credentials', () => {
  it('answers 401 Invalid Credentials without, with unknown, or with another tenant credentials', async () => {
    for (const auth of [undefined, 'nope', `${key}x`, 'Bearer nope', otherKey]) {
      const res = await t.call('acme', 'test/probe/queries/postOnly', {}, { auth });
      expect(res.statusCode, String(auth)).toBe(401);
      expect(res.json()).toEqual({
        message: 'Invalid Credentials',
        reason: 'UNAUTHORIZED',
        detail: BRIDGE_CREDENTIALS.detail,
      });
    }
  });

  it('answers 401 for an unknown tenant', async () => {
    const res = await t.call('nobody', 'test/probe/queries/postOnly', {}, { auth: key });
    expect(res.statusCode).toBe(401);
  });

  it('lets a public key call PUBLIC operations only', async () => {
    const ok = await t.call('acme', 'test/probe/queries/echo', { texto: 'a' }, { auth: publicKey });
    expect(ok.statusCode).toBe(200);
    const denied = await t.call('acme', 'test/probe/queries/postOnly', {}, { auth: publicKey });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().reason).toBe('FORBIDDEN');
  });

  it('serves anonymous operations without credentials, and answers 401 for the others there', async () => {
    const ok = await t.call('acme', 'test/probe/actions/whoami', {}, { anonymous: true });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ tenant: 'acme', caller: 'anonymous', scope: 'public' });
    const denied = await t.call(
      'acme',
      'test/probe/queries/echo',
      { texto: 'a' },
      { anonymous: true, auth: key },
    );
    expect(denied.statusCode).toBe(401);
    expect(denied.json().message).toBe('Invalid Credentials');
  });

  it('tells the handler who calls', async () => {
    const res = await t.call('acme', 'test/probe/actions/whoami', {}, { auth: key });
    expect(res.json()).toEqual({ tenant: 'acme', caller: 'key', scope: 'full' });
  });
});
