import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { BRIDGE_CREDENTIALS } from '../../../platform/core/errors.ts';

// platform/authentication (DESIGN.md "Credentials"): loginWithKey, refreshToken and logout as the
// original platform's SDKs call them, and how the bearer tokens they issue behave afterwards.

const LOGIN = 'platform/authentication/actions/loginWithKey';
const REFRESH = 'platform/authentication/actions/refreshToken';
const LOGOUT = 'platform/authentication/actions/logout';
const HEALTH = 'hcm/platform_integration/queries/healthcheck';
/** A PRIVATE operation: a public-scope caller gets 403 there. */
const SAVE_BATCH = 'hcm/platform_integration/actions/integrationSaveBatch';
const INVALID = { message: 'Invalid Credentials', reason: 'UNAUTHORIZED', detail: BRIDGE_CREDENTIALS.detail };
const ACCESS_TTL = 900;

interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
}

let t: TestApp;

beforeAll(async () => {
  t = await testApp({ config: { accessTokenTtlSeconds: ACCESS_TTL } });
});

/** Parses the `jsonToken` string of a loginWithKey / refreshToken answer. */
function tokensOf(res: { statusCode: number; body: string; json(): { jsonToken: string } }): Tokens {
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.json().jsonToken) as Tokens;
}

function login(app: TestApp, tenant: string, body: Record<string, unknown>) {
  return app.call(tenant, LOGIN, body, { anonymous: true });
}

async function loginAs(app: TestApp, tenant: string, key: { accessKey: string; secret: string }) {
  return tokensOf(
    await login(app, tenant, { accessKey: key.accessKey, secret: key.secret, tenantName: tenant }),
  );
}

const bearer = (tokens: Tokens) => `Bearer ${tokens.access_token}`;

describe('loginWithKey', () => {
  let key: { apiKey: string; accessKey: string; secret: string };

  beforeAll(async () => {
    await t.tenant('acme');
    await t.tenant('globex');
    key = await t.key('acme');
  });

  it('returns a jsonToken with bearer tokens that call other operations', async () => {
    const res = await login(t, 'acme', { accessKey: key.accessKey, secret: key.secret, tenantName: 'acme' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['jsonToken']);
    const tokens = tokensOf(res);
    expect(tokens.access_token).toEqual(expect.any(String));
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.access_token).not.toBe(tokens.refresh_token);
    expect(tokens.expires_in).toBe(ACCESS_TTL);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('full');

    const health = await t.call('acme', HEALTH, {}, { auth: bearer(tokens) });
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json().status).toBe('UP');
  });

  it('issues a different session on each login', async () => {
    const a = await loginAs(t, 'acme', key);
    const b = await loginAs(t, 'acme', key);
    expect(a.access_token).not.toBe(b.access_token);
    expect(a.refresh_token).not.toBe(b.refresh_token);
  });

  it('answers 401 Invalid Credentials for wrong, unknown, revoked or foreign credentials', async () => {
    const revoked = await t.key('acme');
    expect((await t.admin('DELETE', `/tenants/acme/keys/${revoked.accessKey}`)).statusCode).toBe(200);
    const foreign = await t.key('globex');
    const cases: Array<[string, Record<string, unknown>]> = [
      ['wrong secret', { accessKey: key.accessKey, secret: `${key.secret}x`, tenantName: 'acme' }],
      ['unknown accessKey', { accessKey: 'no-such-key', secret: key.secret, tenantName: 'acme' }],
      ['revoked key', { accessKey: revoked.accessKey, secret: revoked.secret, tenantName: 'acme' }],
      [
        'tenantName of another tenant',
        { accessKey: key.accessKey, secret: key.secret, tenantName: 'globex' },
      ],
      ['key of another tenant', { accessKey: foreign.accessKey, secret: foreign.secret, tenantName: 'acme' }],
    ];
    for (const [name, body] of cases) {
      const res = await login(t, 'acme', body);
      expect(res.statusCode, name).toBe(401);
      expect(res.json(), name).toEqual(INVALID);
    }
    // The foreign key is valid in its own tenant: the 401 above is about the tenant, not the key.
    expect((await login(t, 'globex', { ...cases[4]![1], tenantName: 'globex' })).statusCode).toBe(200);
  });

  it('answers 400 naming a missing field', async () => {
    const full = { accessKey: key.accessKey, secret: key.secret, tenantName: 'acme' };
    for (const field of ['accessKey', 'secret', 'tenantName'] as const) {
      const { [field]: _omitted, ...body } = full;
      const res = await login(t, 'acme', body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().reason).toBe('BAD_REQUEST');
      expect(res.json().message).toMatch(new RegExp(`'${field}' is required`));
    }
  });

  it('gives a public key a token of scope public: 403 on a PRIVATE operation', async () => {
    const publicKey = await t.key('acme', 'public');
    const tokens = await loginAs(t, 'acme', publicKey);
    expect(tokens.scope).toBe('public');
    const denied = await t.call('acme', SAVE_BATCH, {}, { auth: bearer(tokens) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().reason).toBe('FORBIDDEN');
    // A full key's token passes the visibility check (and reaches validation of the empty body).
    const full = await loginAs(t, 'acme', key);
    expect((await t.call('acme', SAVE_BATCH, {}, { auth: bearer(full) })).statusCode).toBe(400);
  });

  it('answers 401 for a token used on another tenant', async () => {
    const tokens = await loginAs(t, 'acme', key);
    const res = await t.call('globex', HEALTH, {}, { auth: bearer(tokens) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID);
  });
});

describe('refreshToken', () => {
  let key: { apiKey: string; accessKey: string; secret: string };

  beforeAll(async () => {
    await t.tenant('refresh-co');
    key = await t.key('refresh-co');
  });

  it('rotates the tokens: the old refresh and access tokens stop working', async () => {
    const old = await loginAs(t, 'refresh-co', key);
    expect((await t.call('refresh-co', HEALTH, {}, { auth: bearer(old) })).statusCode).toBe(200);

    const res = await t.call(
      'refresh-co',
      REFRESH,
      { refreshToken: old.refresh_token, tenantName: 'refresh-co' },
      { anonymous: true },
    );
    const fresh = tokensOf(res);
    expect(fresh.access_token).not.toBe(old.access_token);
    expect(fresh.refresh_token).not.toBe(old.refresh_token);
    expect(fresh.expires_in).toBe(ACCESS_TTL);
    expect(fresh.token_type).toBe('bearer');
    expect((await t.call('refresh-co', HEALTH, {}, { auth: bearer(fresh) })).statusCode).toBe(200);

    const again = await t.call(
      'refresh-co',
      REFRESH,
      { refreshToken: old.refresh_token },
      { anonymous: true },
    );
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual(INVALID);
    const oldAccess = await t.call('refresh-co', HEALTH, {}, { auth: bearer(old) });
    expect(oldAccess.statusCode).toBe(401);
    expect(oldAccess.json()).toEqual(INVALID);
  });

  it('answers 401 for an unknown refresh token, or one of another tenant', async () => {
    await t.tenant('refresh-other');
    const other = await loginAs(t, 'refresh-other', await t.key('refresh-other'));
    for (const [tenant, body] of [
      ['refresh-co', { refreshToken: 'nope' }],
      ['refresh-co', { refreshToken: other.refresh_token }],
      ['refresh-other', { refreshToken: other.refresh_token, tenantName: 'refresh-co' }],
    ] as const) {
      const res = await t.call(tenant, REFRESH, body, { anonymous: true });
      expect(res.statusCode, JSON.stringify(body)).toBe(401);
      expect(res.json()).toEqual(INVALID);
    }
    // None of the refused attempts consumed the token.
    const res = await t.call(
      'refresh-other',
      REFRESH,
      { refreshToken: other.refresh_token },
      { anonymous: true },
    );
    expect(tokensOf(res).token_type).toBe('bearer');
  });
});

describe('logout', () => {
  let key: { apiKey: string; accessKey: string; secret: string };

  beforeAll(async () => {
    await t.tenant('logout-co');
    key = await t.key('logout-co');
  });

  it('ends a bearer session: its access and refresh tokens are then refused', async () => {
    const tokens = await loginAs(t, 'logout-co', key);
    // Verified once, so the token sits in the credential cache when logout happens.
    expect((await t.call('logout-co', HEALTH, {}, { auth: bearer(tokens) })).statusCode).toBe(200);

    const res = await t.call('logout-co', LOGOUT, {}, { auth: bearer(tokens) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});

    const after = await t.call('logout-co', HEALTH, {}, { auth: bearer(tokens) });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(INVALID);
    expect((await t.call('logout-co', LOGOUT, {}, { auth: bearer(tokens) })).statusCode).toBe(401);
    const refresh = await t.call(
      'logout-co',
      REFRESH,
      { refreshToken: tokens.refresh_token },
      { anonymous: true },
    );
    expect(refresh.statusCode).toBe(401);
  });

  it('answers 400 for an API key, which stays valid', async () => {
    const res = await t.call('logout-co', LOGOUT, {}, { auth: key.apiKey });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('BAD_REQUEST');
    expect((await t.call('logout-co', HEALTH, {}, { auth: key.apiKey })).statusCode).toBe(200);
  });

  it('is not anonymous', async () => {
    const res = await t.call('logout-co', LOGOUT, {}, { anonymous: true });
    expect(res.statusCode).toBe(401);
  });
});

describe('expiry', () => {
  // Nodes on a clock the test moves, far ahead of the wall clock: expiry must be read from `now`.
  let current = new Date('2100-03-01T12:00:00Z');
  let clocked: TestApp;
  let cold: TestApp;

  beforeAll(async () => {
    const now = () => current;
    clocked = await testApp({ db: t.db, now, config: { accessTokenTtlSeconds: 60 } });
    cold = await testApp({ db: t.db, now });
  });

  it('refuses an access token past its TTL, even one held in the credential cache', async () => {
    await clocked.tenant('clock-co');
    const key = await clocked.key('clock-co');
    const tokens = await loginAs(clocked, 'clock-co', key);
    expect(tokens.expires_in).toBe(60);

    current = new Date(current.getTime() + 59_000);
    expect((await clocked.call('clock-co', HEALTH, {}, { auth: bearer(tokens) })).statusCode).toBe(200);

    current = new Date(current.getTime() + 2_000);
    const expired = await clocked.call('clock-co', HEALTH, {}, { auth: bearer(tokens) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual(INVALID);
    // A node that never cached the token refuses it too: the database check reads the same clock.
    expect((await cold.call('clock-co', HEALTH, {}, { auth: bearer(tokens) })).statusCode).toBe(401);

    // The refresh token outlives the access token.
    const res = await clocked.call(
      'clock-co',
      REFRESH,
      { refreshToken: tokens.refresh_token },
      { anonymous: true },
    );
    const fresh = tokensOf(res);
    expect((await clocked.call('clock-co', HEALTH, {}, { auth: bearer(fresh) })).statusCode).toBe(200);
  });
});

describe('revocation', () => {
  const ttl = 50;
  /** A second node on the same database, trusting verified credentials for `ttl` ms. */
  let other: TestApp;

  beforeAll(async () => {
    other = await testApp({ db: t.db, config: { credentialCacheTtlMs: ttl } });
  });

  it('takes effect at once on the node that revokes, for the key and its sessions', async () => {
    await t.tenant('revoke-co');
    const key = await t.key('revoke-co');
    const tokens = await loginAs(t, 'revoke-co', key);
    // Both are verified, hence cached, before the revocation.
    expect((await t.call('revoke-co', HEALTH, {}, { auth: key.apiKey })).statusCode).toBe(200);
    expect((await t.call('revoke-co', HEALTH, {}, { auth: bearer(tokens) })).statusCode).toBe(200);

    expect((await t.admin('DELETE', `/tenants/revoke-co/keys/${key.accessKey}`)).statusCode).toBe(200);

    for (const auth of [key.apiKey, bearer(tokens)]) {
      const res = await t.call('revoke-co', HEALTH, {}, { auth });
      expect(res.statusCode, auth).toBe(401);
      expect(res.json()).toEqual(INVALID);
    }
    const relogin = await login(t, 'revoke-co', {
      accessKey: key.accessKey,
      secret: key.secret,
      tenantName: 'revoke-co',
    });
    expect(relogin.statusCode).toBe(401);
  });

  it('reaches another node sharing the database once its cache TTL has passed', async () => {
    await t.tenant('revoke-two');
    const key = await t.key('revoke-two');
    const tokens = await loginAs(t, 'revoke-two', key);
    expect((await other.call('revoke-two', HEALTH, {}, { auth: key.apiKey })).statusCode).toBe(200);
    expect((await other.call('revoke-two', HEALTH, {}, { auth: bearer(tokens) })).statusCode).toBe(200);

    expect((await t.admin('DELETE', `/tenants/revoke-two/keys/${key.accessKey}`)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, ttl * 3));

    for (const auth of [key.apiKey, bearer(tokens)]) {
      const res = await other.call('revoke-two', HEALTH, {}, { auth });
      expect(res.statusCode, auth).toBe(401);
      expect(res.json()).toEqual(INVALID);
    }
  });
});

describe('locked licenses', () => {
  it('answers 402 PAYMENT_REQUIRED to login and every call while locked; unlocking restores', async () => {
    await t.tenant('locked-co');
    const key = await t.key('locked-co');
    const tokens = await loginAs(t, 'locked-co', key);
    const credentials = { accessKey: key.accessKey, secret: key.secret, tenantName: 'locked-co' };

    const lock = await t.admin('PATCH', '/tenants/locked-co', { licenseLocked: true });
    expect(lock.statusCode).toBe(200);
    expect(lock.json().licenseLocked).toBe(true);

    const loginRes = await login(t, 'locked-co', credentials);
    expect(loginRes.statusCode).toBe(402);
    expect(loginRes.json().reason).toBe('PAYMENT_REQUIRED');
    for (const auth of [key.apiKey, bearer(tokens)]) {
      const res = await t.call('locked-co', HEALTH, {}, { auth });
      expect(res.statusCode, auth).toBe(402);
      expect(res.json().reason).toBe('PAYMENT_REQUIRED');
    }

    const unlock = await t.admin('PATCH', '/tenants/locked-co', { licenseLocked: false });
    expect(unlock.statusCode).toBe(200);
    expect(unlock.json().licenseLocked).toBe(false);

    expect(tokensOf(await login(t, 'locked-co', credentials)).token_type).toBe('bearer');
    for (const auth of [key.apiKey, bearer(tokens)]) {
      expect((await t.call('locked-co', HEALTH, {}, { auth })).statusCode, auth).toBe(200);
    }
  });
});
