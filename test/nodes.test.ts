import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Database } from '../src/platform/core/db/database.ts';
import { yard } from '../src/platform/events/fixtures.test-support.ts';
import { allServices } from '../src/services/index.ts';
import { functionsCall, makeFunction } from '../src/services/platform/functions/fixtures.ts';
import { type TestApp, testApp, testDatabaseUrl } from './harness.ts';

// Two nodes on one PostgreSQL database (docs/platform.md "Caches across nodes", docs/events.md
// "Across nodes"), each with its own tenant and credential caches (TTL 30 s, the default) and its
// own outbox readers, polling once a minute here: only a notice explains what the other node sees
// within a second. What one node changes, the other stops trusting at once; events committed
// through one reach a live stream held by the other. Every worker process of `ponte serve` is such
// a node. A node that lost its listening connection may have missed notices, so it forgets
// everything it cached.

const describeOnServer = describe.skipIf(!process.env.DATABASE_URL);
const HEALTH = 'hcm/platform_integration/queries/healthcheck';
const PESQUISAR = 'erp_agr/com_comum/queries/pesquisarVinculoTransacao';
/** Far below the 30 s TTL: only a notice explains a change seen this soon. */
const SOON = { timeout: 2000, interval: 20 };

describeOnServer('two nodes of one database', () => {
  let a: TestApp;
  let b: TestApp;
  let url: string;

  beforeAll(async () => {
    url = (await testDatabaseUrl())!;
    const open = async () => {
      const db = await Database.open({ databaseUrl: url, poolSize: 3 });
      // Registered before the app's own teardown, so it runs after it.
      afterAll(() => db.close());
      return testApp({
        db,
        services: [...allServices, yard],
        config: { credentialCacheTtlMs: 30_000, eventPollMs: 60_000 },
      });
    };
    a = await open();
    b = await open();
    await Promise.all([a.db.notices.ready(), b.db.notices.ready()]);
  });

  const health = (node: TestApp, tenant: string, auth: string) =>
    node.call(tenant, HEALTH, {}, { auth }).then((r) => r.statusCode);

  it('a key revoked on one node is refused by the other at once', async () => {
    const key = await a.tenant('revoked-co');
    expect(await health(b, 'revoked-co', key)).toBe(200); // cached on b
    const accessKey = key.split('.')[0]!;
    expect((await a.admin('DELETE', `/tenants/revoked-co/keys/${accessKey}`)).statusCode).toBe(200);
    await vi.waitFor(async () => expect(await health(b, 'revoked-co', key)).toBe(401), SOON);
  });

  it('a session ended or refreshed on one node is refused by the other at once', async () => {
    await a.tenant('session-co');
    const { accessKey, secret } = await a.key('session-co');
    const login = async () => {
      const res = await a.call(
        'session-co',
        'platform/authentication/actions/loginWithKey',
        {
          accessKey,
          secret,
          tenantName: 'session-co',
        },
        { anonymous: true },
      );
      const token = JSON.parse(res.json().jsonToken);
      return { access: `Bearer ${token.access_token}`, refresh: token.refresh_token as string };
    };

    const ended = await login();
    expect(await health(b, 'session-co', ended.access)).toBe(200);
    const logout = await a.call(
      'session-co',
      'platform/authentication/actions/logout',
      {},
      { auth: ended.access },
    );
    expect(logout.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await health(b, 'session-co', ended.access)).toBe(401), SOON);

    const rotated = await login();
    expect(await health(b, 'session-co', rotated.access)).toBe(200);
    const refreshed = await a.call(
      'session-co',
      'platform/authentication/actions/refreshToken',
      {
        refreshToken: rotated.refresh,
      },
      { anonymous: true },
    );
    expect(refreshed.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await health(b, 'session-co', rotated.access)).toBe(401), SOON);
  });

  it('a tenant created, or its licenses locked, on one node is seen by the other at once', async () => {
    expect(await health(b, 'late-co', 'x.y')).not.toBe(200); // b caches that it does not exist
    const key = await a.tenant('late-co');
    await vi.waitFor(async () => expect(await health(b, 'late-co', key)).toBe(200), SOON);

    const locked = await a.admin('PATCH', '/tenants/late-co', { licenseLocked: true });
    expect(locked.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await health(b, 'late-co', key)).toBe(402), SOON);
  });

  it('a user function bound, changed or disabled on one node runs so on the other at once', async () => {
    const key = await a.tenant('fn-co');
    const onA = functionsCall(a, 'fn-co', key);
    const search = async () => (await b.call('fn-co', PESQUISAR, {}, { auth: key })).json();
    expect(await search()).toEqual({ vinculos: [] }); // b reads and keeps fn-co's bindings (none)
    const id = await makeFunction(
      onA,
      'marca',
      'erp_agr/com_comum/pesquisarVinculoTransacao',
      'function handler() { throw new Error("recusado") }',
    );
    expect((await onA(`entities/function/${id}`, { stage: 'ACTIVE' }, { method: 'PATCH' })).statusCode).toBe(
      200,
    );
    await vi.waitFor(
      async () => expect((await search()).message).toMatch(/^Function marca .*recusado/),
      SOON,
    );
    expect(
      (await onA(`entities/function/${id}`, { stage: 'DISABLED' }, { method: 'PATCH' })).statusCode,
    ).toBe(200);
    await vi.waitFor(async () => expect(await search()).toEqual({ vinculos: [] }), SOON);
  });

  it('a node that lost its listening connection forgets what it cached, then listens again', async () => {
    const key = await a.tenant('lost-co');
    expect(await health(b, 'lost-co', key)).toBe(200);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Every listening connection of this database goes; then the key is revoked behind the
      // nodes' backs (no notice at all): only forgetting everything on the reconnection explains a 401.
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and query = 'listen ponte_notices'`,
      );
      await admin.query(`update api_keys set revoked_at = now() where tenant = 'lost-co'`);
      await vi.waitFor(async () => expect(await health(b, 'lost-co', key)).toBe(401), {
        timeout: 5000,
        interval: 50,
      });

      // Listening again: a revocation through a is heard by b.
      const second = await a.key('lost-co');
      expect(await health(b, 'lost-co', second.apiKey)).toBe(200);
      await vi.waitFor(
        async () => {
          const listening = await admin.query(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and query = 'listen ponte_notices'`,
          );
          expect(listening.rows[0].n).toBe(2);
        },
        { timeout: 5000, interval: 50 },
      );
      await a.admin('DELETE', `/tenants/lost-co/keys/${second.accessKey}`);
      await vi.waitFor(async () => expect(await health(b, 'lost-co', second.apiKey)).toBe(401), SOON);
    } finally {
      await admin.end();
    }
  });

  it('a live stream on one node carries the events committed through the other at once', async () => {
    const key = await a.tenant('live-co');
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
    const arrived = new Map<string, number>();
    const stream = request(`${base}/t/live-co/bridge/1.0/events/stream`, { headers: { authorization: key } });
    await new Promise<void>((resolve, reject) => {
      stream.on('response', (res) => {
        expect(res.statusCode).toBe(200);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (chunk.startsWith(':')) resolve();
          for (const placa of chunk.matchAll(/"placa":"([A-Z0-9]+)"/g))
            arrived.set(placa[1]!, performance.now());
        });
      });
      stream.on('error', reject);
      stream.end();
    });
    try {
      const committed = new Map<string, number>();
      for (let i = 0; i < 20; i++) {
        const placa = `LIV${String(i).padStart(4, '0')}`;
        const res = await a.call('live-co', 'test/yard/events/vehicleEnteredYard', { placa }, { auth: key });
        expect(res.statusCode).toBe(200);
        committed.set(placa, performance.now());
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // b polls once a minute: every event there within 2 s came by a notice.
      await vi.waitFor(() => expect(arrived.size).toBe(20), { timeout: 2000, interval: 10 });
      const delays = [...committed]
        .map(([placa, at]) => Math.max(0, arrived.get(placa)! - at))
        .sort((x, y) => x - y);
      console.log(
        `live stream across nodes: 20 events, delay after the commit p50 ${delays[10]!.toFixed(0)} ms, max ${delays[19]!.toFixed(0)} ms`,
      );
    } finally {
      stream.destroy();
    }
  });
});
