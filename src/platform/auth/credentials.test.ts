import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { holdFirstRead } from '../../../test/held-read.ts';
import { BRIDGE_CREDENTIALS } from '../core/errors.ts';
import { newAccessKey } from './credentials.ts';

// The credential forms of docs/platform.md "Tenants and credentials": an API key goes as
// `Authorization: <apiKey>` or `Authorization: Bearer <apiKey>` (clients that send every credential
// as a bearer), a token from loginWithKey as `Authorization: Bearer <accessToken>`. A 401 says how
// credentials go, never which part was wrong: every refusal is the same bytes.

/** A PRIVATE operation (a public key gets 403 there) and a PUBLIC one. */
const HEALTH = 'hcm/platform_integration/queries/healthcheck';
const LOGIN = 'platform/authentication/actions/loginWithKey';
const LOGOUT = 'platform/authentication/actions/logout';
const TOKEN_TTL = 60;

let t: TestApp;
/** The clock of the node: the test moves it to expire tokens. */
let current = new Date('2100-01-01T00:00:00Z');
let full: { apiKey: string; accessKey: string; secret: string };
let publicKey: { apiKey: string; accessKey: string; secret: string };
let bound: { apiKey: string; accessKey: string; secret: string };
let foreign: { apiKey: string; accessKey: string; secret: string };

beforeAll(async () => {
  t = await testApp({ now: () => current, config: { accessTokenTtlSeconds: TOKEN_TTL } });
  await t.tenant('acme');
  await t.tenant('globex');
  full = await t.key('acme');
  publicKey = await t.key('acme', 'public');
  bound = await t.key('acme', 'public', { subject: `externalUser:${randomUUID()}` });
  foreign = await t.key('globex');
});

async function accessToken(tenant: string, key: { accessKey: string; secret: string }): Promise<string> {
  const res = await t.call(
    tenant,
    LOGIN,
    { accessKey: key.accessKey, secret: key.secret, tenantName: tenant },
    { anonymous: true },
  );
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.json().jsonToken).access_token;
}

describe('a new access key', () => {
  it('is 20 characters of base64url and never begins with "-" (a command line would read an option)', () => {
    // One key in 64 began with "-" before: 5,000 keys hold about 78 such.
    const keys = Array.from({ length: 5000 }, newAccessKey);
    expect(keys.every((k) => /^[A-Za-z0-9_][A-Za-z0-9_-]{19}$/.test(k))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('an API key sent as a bearer', () => {
  it('verifies as the key itself: the same tenant, scope, subject and key', async () => {
    for (const key of [full, publicKey, bound, foreign]) {
      const plain = await t.platform.credentials.verify(key.apiKey);
      expect(plain).toBeDefined();
      for (const header of [`Bearer ${key.apiKey}`, `bearer ${key.apiKey}`, `BEARER  ${key.apiKey} `]) {
        expect(await t.platform.credentials.verify(header), header).toEqual(plain);
      }
    }
    expect((await t.platform.credentials.verify(`Bearer ${bound.apiKey}`))?.caller.subject?.kind).toBe(
      'externalUser',
    );
  });

  it('calls what the key calls, and only in its tenant', async () => {
    const ok = await t.call('acme', HEALTH, {}, { auth: `Bearer ${full.apiKey}` });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().status).toBe('UP');
    // A public key stays public: 403 on a PRIVATE operation, as when sent without Bearer.
    for (const auth of [publicKey.apiKey, `Bearer ${publicKey.apiKey}`]) {
      expect((await t.call('acme', HEALTH, {}, { auth })).statusCode, auth).toBe(403);
    }
    expect((await t.call('globex', HEALTH, {}, { auth: `Bearer ${foreign.apiKey}` })).statusCode).toBe(200);
    expect((await t.call('acme', HEALTH, {}, { auth: `Bearer ${foreign.apiKey}` })).statusCode).toBe(401);
  });

  it('is a key, not a session: logout refuses it as it refuses the key', async () => {
    const res = await t.call('acme', LOGOUT, {}, { auth: `Bearer ${full.apiKey}` });
    expect(res.statusCode).toBe(400);
    expect((await t.call('acme', HEALTH, {}, { auth: `Bearer ${full.apiKey}` })).statusCode).toBe(200);
  });

  it('stops working when the key is revoked, like the key and its tokens', async () => {
    const key = await t.key('acme');
    const token = await accessToken('acme', key);
    for (const auth of [key.apiKey, `Bearer ${key.apiKey}`, `Bearer ${token}`]) {
      expect((await t.call('acme', HEALTH, {}, { auth })).statusCode, auth).toBe(200);
    }
    expect((await t.admin('DELETE', `/tenants/acme/keys/${key.accessKey}`)).statusCode).toBe(200);
    for (const auth of [key.apiKey, `Bearer ${key.apiKey}`, `Bearer ${token}`]) {
      expect((await t.call('acme', HEALTH, {}, { auth })).statusCode, auth).toBe(401);
    }
  });
});

describe('a look-up under way when its key is revoked', () => {
  it('does not keep what it read: the key is refused from then on', async () => {
    const key = await t.key('acme');
    // The store's read of the key, held after it read "valid" until the revocation has committed
    // and been forgotten: the race of a request on a cold cache with the revocation.
    const held = holdFirstRead(t.platform.credentials, 'verifyKey');
    try {
      const first = t.platform.credentials.verify(key.apiKey);
      await held.started();
      expect(held.reads()).toBe(1);
      expect((await t.admin('DELETE', `/tenants/acme/keys/${key.accessKey}`)).statusCode).toBe(200);
      held.release();
      // It read again after the forget, and cached nothing stale.
      expect(await first).toBeUndefined();
      expect(held.reads()).toBe(2);
    } finally {
      held.restore();
    }
    expect(await t.platform.credentials.verify(key.apiKey)).toBeUndefined();
    expect((await t.call('acme', HEALTH, {}, { auth: key.apiKey })).statusCode).toBe(401);
  });
});

describe('a 401', () => {
  /** What a client sees of an answer, but its request id. */
  const seen = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => ({
    status: res.statusCode,
    contentType: res.headers['content-type'],
    challenge: res.headers['www-authenticate'],
    body: res.body,
  });

  it('says how credentials go, in the body and in WWW-Authenticate', async () => {
    const res = await t.call('acme', HEALTH, {}, { auth: `Bearer ${full.accessKey}` });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="ponte"');
    const body = res.json();
    // The message stays the one clients compare (DESIGN.md); the help is beside it.
    expect(body).toEqual({
      message: 'Invalid Credentials',
      reason: 'UNAUTHORIZED',
      detail: expect.any(String),
    });
    for (const form of ['Authorization: <apiKey>', 'Authorization: Bearer <apiKey>', 'Bearer <accessToken>'])
      expect(body.detail).toContain(form);
    expect(body.detail).toContain('loginWithKey');
  });

  it('is byte-identical whatever was wrong: unknown, wrong, revoked, expired or foreign', async () => {
    const revoked = await t.key('acme');
    const revokedToken = await accessToken('acme', revoked);
    expect((await t.admin('DELETE', `/tenants/acme/keys/${revoked.accessKey}`)).statusCode).toBe(200);
    const loggedOut = await accessToken('acme', full);
    expect((await t.call('acme', LOGOUT, {}, { auth: `Bearer ${loggedOut}` })).statusCode).toBe(200);
    const expiring = await accessToken('acme', full);
    expect((await t.call('acme', HEALTH, {}, { auth: `Bearer ${expiring}` })).statusCode).toBe(200);
    current = new Date(current.getTime() + (TOKEN_TTL + 1) * 1000);
    const foreignToken = await accessToken('globex', foreign);

    const refused: Array<[string, string, string | undefined]> = [
      ['no Authorization', 'acme', undefined],
      ['malformed', 'acme', 'Basic dXNlcjpwYXNz'],
      ['a bare word', 'acme', 'nonsense'],
      ['an empty bearer', 'acme', 'Bearer '],
      ['an unknown key', 'acme', `nokey.${full.secret}`],
      ['an unknown key as a bearer', 'acme', `Bearer nokey.${full.secret}`],
      ['a wrong secret', 'acme', `${full.accessKey}.${publicKey.secret}`],
      ['a wrong secret as a bearer', 'acme', `Bearer ${full.accessKey}.${publicKey.secret}`],
      ['a revoked key', 'acme', revoked.apiKey],
      ['a revoked key as a bearer', 'acme', `Bearer ${revoked.apiKey}`],
      ['a token of a revoked key', 'acme', `Bearer ${revokedToken}`],
      ['a logged-out token', 'acme', `Bearer ${loggedOut}`],
      ['an expired token', 'acme', `Bearer ${expiring}`],
      ['an unknown token', 'acme', 'Bearer bm90LWEtdG9rZW4'],
      ["another tenant's key", 'acme', foreign.apiKey],
      ["another tenant's key as a bearer", 'acme', `Bearer ${foreign.apiKey}`],
      ["another tenant's token", 'acme', `Bearer ${foreignToken}`],
      ['a tenant that does not exist', 'nobody', full.apiKey],
    ];
    const answers = await Promise.all(
      refused.map(async ([name, tenant, auth]) => [name, seen(await t.call(tenant, HEALTH, {}, { auth }))]),
    );
    const first = answers[0]![1];
    expect(first).toMatchObject({ status: 401, challenge: 'Bearer realm="ponte"' });
    expect(JSON.parse(String((first as { body: string }).body)).detail).toBe(BRIDGE_CREDENTIALS.detail);
    for (const [name, answer] of answers) expect(answer, String(name)).toEqual(first);

    // loginWithKey refuses the same way, for a wrong secret as for a tenant that does not exist.
    const login = (tenant: string, body: Record<string, unknown>) =>
      t.call(tenant, LOGIN, body, { anonymous: true });
    const wrong = seen(await login('acme', { accessKey: full.accessKey, secret: 'x', tenantName: 'acme' }));
    expect(wrong).toEqual(first);
    expect(
      seen(await login('nobody', { accessKey: full.accessKey, secret: full.secret, tenantName: 'nobody' })),
    ).toEqual(first);
  });
});
