import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApp, tableCounts, testApp } from '../../../test/harness.ts';
import { rowsOf } from '../core/db/database.ts';

// The operator's API (DESIGN.md "Administration"): tenants and keys under /admin, authenticated by
// ADMIN_TOKEN; what the `ponte` CLI calls.

const HEALTH = 'hcm/platform_integration/queries/healthcheck';

let t: TestApp;

beforeAll(async () => {
  t = await testApp();
});

describe('authentication', () => {
  const routes: Array<[method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown]> = [
    ['GET', '/tenants'],
    ['POST', '/tenants', { name: 'intruder' }],
    ['GET', '/tenants/acme'],
    ['PATCH', '/tenants/acme', { licenseLocked: true }],
    ['POST', '/tenants/acme/keys', { scope: 'full' }],
    ['GET', '/tenants/acme/keys'],
    ['DELETE', '/tenants/acme/keys/some-key'],
    ['GET', '/tenants/acme/jobs/00000000-0000-0000-0000-000000000000'],
  ];
  const badHeaders: Array<[string, Record<string, string>]> = [
    ['no token', {}],
    ['wrong token', { authorization: 'Bearer not-the-token' }],
    ['wrong token without Bearer', { authorization: 'not-the-token' }],
    ['token with a suffix', { authorization: `Bearer ${ADMIN_TOKEN}x` }],
    ['empty bearer', { authorization: 'Bearer ' }],
  ];

  beforeAll(async () => {
    await t.tenant('acme');
  });

  it.each(routes)(
    'answers 401 on %s %s without the admin token, changing nothing',
    async (method, path, body) => {
      const before = await tableCounts(t.db);
      for (const [name, headers] of badHeaders) {
        const res = await t.app.inject({
          method,
          url: `/admin${path}`,
          headers,
          ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
        });
        expect(res.statusCode, name).toBe(401);
        expect(res.json(), name).toEqual({
          message: 'Invalid Credentials',
          reason: 'UNAUTHORIZED',
          detail: expect.stringContaining('Authorization: Bearer <ADMIN_TOKEN>'),
        });
        expect(res.headers['www-authenticate'], name).toBe('Bearer realm="ponte-admin"');
      }
      expect(await tableCounts(t.db)).toEqual(before);
      expect((await t.admin('GET', '/tenants/acme')).json().licenseLocked).toBe(false);
    },
  );

  it('accepts the token with or without the Bearer prefix', async () => {
    for (const authorization of [`Bearer ${ADMIN_TOKEN}`, ADMIN_TOKEN]) {
      const res = await t.app.inject({ method: 'GET', url: '/admin/tenants', headers: { authorization } });
      expect(res.statusCode, authorization).toBe(200);
    }
  });
});

describe('tenants', () => {
  it('creates a tenant: 201 with the tenant', async () => {
    const res = await t.admin('POST', '/tenants', { name: 'initech' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      id: expect.any(String),
      name: 'initech',
      edition: 'standard',
      licenseLocked: false,
      permissions: [],
    });
    expect(Number.isNaN(Date.parse(res.json().createdAt))).toBe(false);
    const got = await t.admin('GET', '/tenants/initech');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(res.json());
  });

  it('creates a light-panel tenant with its permissions', async () => {
    const res = await t.admin('POST', '/tenants', { name: 'lightco', edition: 'light' });
    expect(res.statusCode).toBe(201);
    expect(res.json().edition).toBe('light');
    expect(res.json().permissions.length).toBeGreaterThan(0);
  });

  it('answers 409 for a duplicate name', async () => {
    expect((await t.admin('POST', '/tenants', { name: 'dupe' })).statusCode).toBe(201);
    const res = await t.admin('POST', '/tenants', { name: 'dupe' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/dupe already exists/);
  });

  it.each([
    ['upper case', 'Acme'],
    ['space', 'a b'],
    ['empty', ''],
    ['64 characters', 'a'.repeat(64)],
    ['slash', 'a/b'],
    ['leading dash', '-acme'],
  ])('answers 400 with a message for an invalid name (%s)', async (_case, name) => {
    const before = await tableCounts(t.db);
    const res = await t.admin('POST', '/tenants', { name });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('BAD_REQUEST');
    expect(res.json().message).toMatch(/field 'name'/);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('accepts a 63-character name', async () => {
    const res = await t.admin('POST', '/tenants', { name: 'b'.repeat(63) });
    expect(res.statusCode).toBe(201);
  });

  it('answers 400 for a missing name or an unknown edition', async () => {
    const missing = await t.admin('POST', '/tenants', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/'name' is required/);
    const edition = await t.admin('POST', '/tenants', { name: 'edco', edition: 'gold' });
    expect(edition.statusCode).toBe(400);
    expect(edition.json().message).toMatch(/edition/);
  });

  it('lists the tenants', async () => {
    await t.admin('POST', '/tenants', { name: 'listed' });
    const res = await t.admin('GET', '/tenants');
    expect(res.statusCode).toBe(200);
    const names = (res.json().tenants as Array<{ name: string }>).map((x) => x.name);
    expect(names).toContain('listed');
    expect(names).toContain('initech');
  });

  it('answers 404 for an unknown tenant', async () => {
    const res = await t.admin('GET', '/tenants/nobody');
    expect(res.statusCode).toBe(404);
    expect(res.json().reason).toBe('OBJECT_NOT_FOUND');
    expect((await t.admin('PATCH', '/tenants/nobody', { licenseLocked: true })).statusCode).toBe(404);
  });
});

describe('keys', () => {
  beforeAll(async () => {
    await t.admin('POST', '/tenants', { name: 'keyco' });
  });

  it('creates a public key whose apiKey works on a PUBLIC operation only', async () => {
    const res = await t.admin('POST', '/tenants/keyco/keys', { scope: 'public' });
    expect(res.statusCode).toBe(201);
    const key = res.json();
    expect(key).toMatchObject({
      apiKey: expect.any(String),
      accessKey: expect.any(String),
      secret: expect.any(String),
      scope: 'public',
    });
    expect(key.apiKey).toBe(`${key.accessKey}.${key.secret}`);

    // logout is PUBLIC: a key reaches its handler (which refuses keys with 400, not 401 or 403).
    const publicOp = await t.call(
      'keyco',
      'platform/authentication/actions/logout',
      {},
      { auth: key.apiKey },
    );
    expect(publicOp.statusCode).toBe(400);
    const privateOp = await t.call('keyco', HEALTH, {}, { auth: key.apiKey });
    expect(privateOp.statusCode).toBe(403);
  });

  it('creates a full key by default, whose apiKey works', async () => {
    const res = await t.admin('POST', '/tenants/keyco/keys', {});
    expect(res.statusCode).toBe(201);
    expect(res.json().scope).toBe('full');
    const call = await t.call('keyco', HEALTH, {}, { auth: res.json().apiKey });
    expect(call.statusCode).toBe(200);
    expect(call.json().status).toBe('UP');
  });

  it('answers 400 for an unknown scope', async () => {
    const res = await t.admin('POST', '/tenants/keyco/keys', { scope: 'root' });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('BAD_REQUEST');
    expect(res.json().message).toMatch(/scope/);
  });

  it('answers 404 for the keys of an unknown tenant', async () => {
    for (const [method, path] of [
      ['POST', '/tenants/nobody/keys'],
      ['GET', '/tenants/nobody/keys'],
    ] as const) {
      const res = await t.admin(method, path, method === 'POST' ? { scope: 'full' } : undefined);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().reason).toBe('OBJECT_NOT_FOUND');
    }
  });

  it('lists the keys without any secret or hash', async () => {
    await t.admin('POST', '/tenants', { name: 'listco' });
    const created = [await t.key('listco', 'full'), await t.key('listco', 'public')];
    const res = await t.admin('GET', '/tenants/listco/keys');
    expect(res.statusCode).toBe(200);
    const keys = res.json().keys as Array<Record<string, unknown>>;
    expect(keys.map((k) => k.accessKey)).toEqual(created.map((k) => k.accessKey));
    expect(keys.map((k) => k.scope)).toEqual(['full', 'public']);
    for (const k of keys) {
      expect(Object.keys(k).filter((f) => /secret|hash|apikey/i.test(f))).toEqual([]);
      expect(k.revokedAt).toBeNull();
    }
    for (const k of created) expect(res.body).not.toContain(k.secret);
  });

  it('revokes a key: it stops working and the list shows when', async () => {
    await t.admin('POST', '/tenants', { name: 'revokeco' });
    const key = await t.key('revokeco');
    expect((await t.call('revokeco', HEALTH, {}, { auth: key.apiKey })).statusCode).toBe(200);
    const res = await t.admin('DELETE', `/tenants/revokeco/keys/${key.accessKey}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect((await t.call('revokeco', HEALTH, {}, { auth: key.apiKey })).statusCode).toBe(401);
    const [listed] = (await t.admin('GET', '/tenants/revokeco/keys')).json().keys;
    expect(listed.revokedAt).toEqual(expect.any(String));
    // Revoking it again finds no active key.
    expect((await t.admin('DELETE', `/tenants/revokeco/keys/${key.accessKey}`)).statusCode).toBe(404);
  });

  it('answers 404 revoking an unknown key, or a key through another tenant', async () => {
    const key = await t.key('keyco');
    for (const path of ['/tenants/keyco/keys/no-such-key', `/tenants/listco/keys/${key.accessKey}`]) {
      const res = await t.admin('DELETE', path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().reason).toBe('OBJECT_NOT_FOUND');
    }
    expect((await t.call('keyco', HEALTH, {}, { auth: key.apiKey })).statusCode).toBe(200);
  });

  it('stores secrets hashed', async () => {
    const key = await t.key('keyco');
    const rows = rowsOf<{ secret_hash: string }>(
      await t.db.db.execute(sql`select secret_hash from api_keys where access_key = ${key.accessKey}`),
    );
    expect(rows).toHaveLength(1);
    const hash = rows[0]!.secret_hash;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key.secret);
    const all = rowsOf<{ secret_hash: string }>(await t.db.db.execute(sql`select secret_hash from api_keys`));
    for (const row of all) expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
