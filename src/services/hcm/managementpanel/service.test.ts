import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { rowsOf } from '../../../platform/core/db/database.ts';

const MP = 'hcm/managementpanel';

let t: TestApp;
let operator: string;
let operatorPublic: string;
let customer: string;
let light: string;

beforeAll(async () => {
  t = await testApp({ config: { operatorTenant: 'ops' } });
  operator = await t.tenant('ops');
  operatorPublic = (await t.key('ops', 'public')).apiKey;
  customer = await t.tenant('cliente');
  light = await t.tenant('lojinha', { edition: 'light' });
});

const lockedFlag = async (name: string) => {
  const [row] = await t.db.system(async (tx) =>
    rowsOf<{ license_locked: boolean }>(
      await tx.execute(sql`select license_locked from tenants where name = ${name}`),
    ),
  );
  return row!.license_locked;
};

const healthcheck = (tenant: string, auth: string) =>
  t.call(tenant, 'hcm/platform_integration/queries/healthcheck', {}, { auth });

describe('updateLicense', () => {
  it('locks a tenant: its calls answer 402 until unlocked', async () => {
    expect((await healthcheck('cliente', customer)).statusCode).toBe(200);
    const lock = await t.call(
      'ops',
      `${MP}/actions/updateLicense`,
      { tenant: 'cliente', isStatusLocked: true },
      { auth: operator },
    );
    expect(lock.statusCode).toBe(200);
    expect(lock.json()).toEqual({});

    const locked = await healthcheck('cliente', customer);
    expect(locked.statusCode).toBe(402);
    expect(locked.json().reason).toBe('PAYMENT_REQUIRED');

    const unlock = await t.call(
      'ops',
      `${MP}/actions/updateLicense`,
      { tenant: 'cliente', isStatusLocked: false },
      { auth: operator },
    );
    expect(unlock.statusCode).toBe(200);
    expect((await healthcheck('cliente', customer)).statusCode).toBe(200);
  });

  it('keeps an audit row per change', async () => {
    const rows = await t.db.system(async (tx) =>
      rowsOf<{ locked: boolean; changed_by: string }>(
        await tx.execute(
          sql`select locked, changed_by from license_changes where tenant = 'cliente' order by changed_at`,
        ),
      ),
    );
    expect(rows.map((r) => r.locked)).toEqual([true, false]);
    expect(rows[0]!.changed_by).toMatch(/^ops:/);
  });

  it('is the operator’s alone: another tenant gets 403 and nothing changes', async () => {
    const res = await t.call(
      'cliente',
      `${MP}/actions/updateLicense`,
      { tenant: 'lojinha', isStatusLocked: true },
      { auth: customer },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().reason).toBe('FORBIDDEN');
    expect(await lockedFlag('lojinha')).toBe(false);
  });

  it('refuses a public key of the operator (the operation is PRIVATE)', async () => {
    const res = await t.call(
      'ops',
      `${MP}/actions/updateLicense`,
      { tenant: 'cliente', isStatusLocked: true },
      { auth: operatorPublic },
    );
    expect(res.statusCode).toBe(403);
    expect((await healthcheck('cliente', customer)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown tenant', async () => {
    const res = await t.call(
      'ops',
      `${MP}/actions/updateLicense`,
      { tenant: 'nobody', isStatusLocked: true },
      { auth: operator },
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Tenant nobody not found', reason: 'OBJECT_NOT_FOUND' });
  });

  it('will not lock the operator itself', async () => {
    const res = await t.call(
      'ops',
      `${MP}/actions/updateLicense`,
      { tenant: 'ops', isStatusLocked: true },
      { auth: operator },
    );
    expect(res.statusCode).toBe(422);
    expect((await healthcheck('ops', operator)).statusCode).toBe(200);
  });
});

describe('updateLicenses signal', () => {
  it('answers 202 and leaves the work to a durable job that survives a restart', async () => {
    // A light tenant whose permissions are stale: it may not call the yard service yet.
    await t.db.system((tx) =>
      tx.execute(sql`update tenants set permissions = '[]'::jsonb where name = 'lojinha'`),
    );
    const res = await t.call('ops', `${MP}/signals/updateLicenses`, {}, { auth: operator });
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('');

    const queued = await t.db.system(async (tx) =>
      rowsOf<{ id: string; state: string }>(
        await tx.execute(sql`select id, state from jobs where kind like '%recomputeLightPanelPermissions'`),
      ),
    );
    expect(queued).toHaveLength(1);
    expect(queued[0]!.state).toBe('queued');

    // The first node stops before running it; a second node on the same database picks it up.
    await t.app.close();
    const second = await testApp({ db: t.db, config: { operatorTenant: 'ops' } });
    expect(await second.platform.jobs.drain()).toBe(1);

    const status = await second.admin('GET', `/tenants/ops/jobs/${queued[0]!.id}`);
    expect(status.json()).toMatchObject({ state: 'done', attempts: 1, result: { tenants: 1 } });
    const [row] = await second.db.system(async (tx) =>
      rowsOf<{ permissions: string[] }>(
        await tx.execute(sql`select permissions from tenants where name = 'lojinha'`),
      ),
    );
    expect(row!.permissions).toEqual(['yms/patio', 'yms/agenda']);
    t = second;
  });

  it('gives a locked light tenant no permission', async () => {
    await t.call(
      'ops',
      `${MP}/actions/updateLicense`,
      { tenant: 'lojinha', isStatusLocked: true },
      { auth: operator },
    );
    await t.call('ops', `${MP}/signals/updateLicenses`, {}, { auth: operator });
    await t.platform.jobs.drain();
    const [row] = await t.db.system(async (tx) =>
      rowsOf<{ permissions: string[] }>(
        await tx.execute(sql`select permissions from tenants where name = 'lojinha'`),
      ),
    );
    expect(row!.permissions).toEqual([]);
  });

  it('enforces the permission state: a light tenant may not call a service outside it', async () => {
    await t.call(
      'ops',
      `${MP}/actions/updateLicense`,
      { tenant: 'lojinha', isStatusLocked: false },
      { auth: operator },
    );
    const res = await healthcheck('lojinha', light);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/no permission for hcm\/platform_integration/);
  });

  it('is refused to other tenants with 403 and enqueues nothing', async () => {
    const res = await t.call('cliente', `${MP}/signals/updateLicenses`, {}, { auth: customer });
    expect(res.statusCode).toBe(403);
    expect(await t.platform.jobs.drain()).toBe(0);
  });
});

describe('standard operations', () => {
  it('healthcheck answers status and one checkDTO, by POST and GET', async () => {
    for (const method of ['POST', 'GET'] as const) {
      const res = await t.call('ops', `${MP}/queries/healthcheck`, method === 'POST' ? {} : undefined, {
        auth: operator,
        method,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'UP', checks: { name: 'database', status: 'UP' } });
    }
  });

  it('getDependencies lists none', async () => {
    const res = await t.call('ops', `${MP}/queries/getDependencies`, {}, { auth: operator });
    expect(res.json()).toEqual({ dependencies: [] });
  });
});
