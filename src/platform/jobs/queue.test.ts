import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { integrationEntities } from '../../services/hcm/platform_integration/tables.ts';
import { allServices } from '../../services/index.ts';
import { rowsOf } from '../db/database.ts';
import { defineService, signal } from '../registry.ts';
import { Type } from '../schema.ts';
import { jobs } from './tables.ts';

// A job's effect and its completion commit together; failures retry with backoff and end dead;
// a worker that dies mid-job leaves a lease that expires, and the job runs again exactly once.

let failuresLeft = 0;
const worker = defineService({
  domain: 'test',
  name: 'worker',
  version: '1.0.0',
  title: 'Worker',
  dependencies: ['hcm/platform_integration'],
  operations: {
    start: signal({
      input: Type.Object({ id: Type.String() }),
      handler: async (ctx, input) => {
        await ctx.enqueue('record', { id: input.id });
        return undefined;
      },
    }),
  },
  jobs: {
    record: {
      transaction: 'tenant',
      maxAttempts: 3,
      handler: async (ctx, payload) => {
        const { id } = payload as { id: string };
        await ctx.store.insert(integrationEntities, [
          { serviceName: 'jobs', collectionName: 'runs', entityId: id, className: 'Run', data: {} },
        ]);
        if (failuresLeft > 0) {
          failuresLeft--;
          throw new Error('receiver unavailable');
        }
        return { recorded: id };
      },
    },
  },
});

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await testApp({ services: [...allServices, worker] });
  key = await t.tenant('acme');
});

beforeEach(() => {
  failuresLeft = 0;
});

const runs = (id: string) =>
  t.db.tenant('acme', async (tx) =>
    rowsOf<{ entity_id: string }>(
      await tx.execute(
        sql`select entity_id from integration_entities where service_name = 'jobs' and entity_id = ${id}`,
      ),
    ),
  );

async function start(id: string): Promise<string> {
  const res = await t.call('acme', 'test/worker/signals/start', { id }, { auth: key });
  expect(res.statusCode).toBe(202);
  const [row] = await t.db.system(async (tx) =>
    rowsOf<{ id: string }>(await tx.execute(sql`select id from jobs where payload->>'id' = ${id}`)),
  );
  return row!.id;
}

const status = async (id: string) => (await t.admin('GET', `/tenants/acme/jobs/${id}`)).json();
const makeReady = (id: string) =>
  t.db.system((tx) =>
    tx
      .update(jobs)
      .set({ runAt: new Date(0) })
      .where(eq(jobs.id, id)),
  );

describe('job queue', () => {
  it('runs a job once; its status is visible', async () => {
    const id = await start('r1');
    expect(await status(id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(await t.platform.jobs.drain()).toBe(1);
    expect(await status(id)).toMatchObject({
      state: 'done',
      attempts: 1,
      result: { recorded: 'r1' },
      lastError: null,
    });
    expect(await runs('r1')).toHaveLength(1);
    expect(await t.platform.jobs.drain()).toBe(0);
  });

  it('rolls back a failed attempt and retries it later, without doubling the effect', async () => {
    failuresLeft = 1;
    const id = await start('r2');
    await t.platform.jobs.drain();
    const failed = await status(id);
    expect(failed).toMatchObject({ state: 'queued', attempts: 1, lastError: 'receiver unavailable' });
    expect(await runs('r2')).toHaveLength(0);
    // Backoff: not ready yet.
    expect(await t.platform.jobs.drain()).toBe(0);
    await makeReady(id);
    expect(await t.platform.jobs.drain()).toBe(1);
    expect(await status(id)).toMatchObject({ state: 'done', attempts: 2 });
    expect(await runs('r2')).toHaveLength(1);
  });

  it('gives up after maxAttempts and keeps the last error', async () => {
    failuresLeft = 99;
    const id = await start('r3');
    for (let i = 0; i < 3; i++) {
      await makeReady(id);
      await t.platform.jobs.drain();
    }
    expect(await status(id)).toMatchObject({
      state: 'failed',
      attempts: 3,
      lastError: 'receiver unavailable',
    });
    await makeReady(id);
    expect(await t.platform.jobs.drain()).toBe(0);
  });

  it('takes over a job whose worker died mid-run once its lease expires', async () => {
    const id = await start('r4');
    // A worker claimed it and died: running, lease still valid → nobody else takes it.
    await t.db.system((tx) =>
      tx
        .update(jobs)
        .set({ state: 'running', attempts: 1, leaseUntil: new Date(Date.now() + 60_000) })
        .where(eq(jobs.id, id)),
    );
    expect(await t.platform.jobs.drain()).toBe(0);
    // The lease runs out → the job runs again, once.
    await t.db.system((tx) =>
      tx
        .update(jobs)
        .set({ leaseUntil: new Date(Date.now() - 1000) })
        .where(eq(jobs.id, id)),
    );
    expect(await t.platform.jobs.drain()).toBe(1);
    expect(await status(id)).toMatchObject({ state: 'done', attempts: 2 });
    expect(await runs('r4')).toHaveLength(1);
  });

  it('never gives one job to two workers running at once', async () => {
    const ids = await Promise.all(['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].map(start));
    const counts = await Promise.all([
      t.platform.jobs.drain(),
      t.platform.jobs.drain(),
      t.platform.jobs.drain(),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(6);
    for (const id of ids) expect((await status(id)).attempts).toBe(1);
  });

  it('keeps a job that was enqueued by a rejected request out of the queue', async () => {
    const before = await t.db.system(async (tx) =>
      rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from jobs`)),
    );
    const res = await t.call('acme', 'test/worker/signals/start', { id: 42 }, { auth: key });
    expect(res.statusCode).toBe(400);
    const after = await t.db.system(async (tx) =>
      rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from jobs`)),
    );
    expect(after[0]!.n).toBe(before[0]!.n);
  });
});

describe('job status for the tenant', () => {
  it('answers a signal with the job id, and getJob follows it; another tenant cannot see it', async () => {
    const res = await t.call('acme', 'test/worker/signals/start', { id: 'seen' }, { auth: key });
    const jobId = res.headers['x-job-id'] as string;
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    const queued = await t.call('acme', 'platform/jobs/queries/getJob', { jobId }, { auth: key });
    expect(queued.json()).toMatchObject({
      jobId,
      kind: 'test/worker/record',
      state: 'queued',
      attempts: 0,
      maxAttempts: 3,
    });
    await t.platform.jobs.drain();
    const done = await t.call('acme', 'platform/jobs/queries/getJob', undefined, {
      auth: key,
      method: 'GET',
      query: { jobId },
    });
    expect(done.json()).toMatchObject({ state: 'done', attempts: 1, result: { recorded: 'seen' } });
    expect(done.json().finishedAt).toBeDefined();
    const other = await t.tenant('globex');
    const hidden = await t.call('globex', 'platform/jobs/queries/getJob', { jobId }, { auth: other });
    expect(hidden.statusCode).toBe(404);
  });
});
