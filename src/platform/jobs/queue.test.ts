import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { integrationEntities } from '../../services/hcm/platform_integration/tables.ts';
import { allServices } from '../../services/index.ts';
import { rowsOf } from '../core/db/database.ts';
import { JobFailed } from '../core/errors.ts';
import { LeaseLost, Stopping } from '../core/lease.ts';
import { defineService, signal } from '../core/registry.ts';
import { Type } from '../core/schema.ts';
import { until } from '../events/fixtures.test-support.ts';
import { JobQueue } from './queue.ts';
import { jobs } from './tables.ts';

// A job's effect and its completion commit together; failures retry with backoff and end dead;
// a worker that dies mid-job leaves a lease that expires, and the job runs again exactly once; a
// running job's lease is renewed, a worker that lost it commits nothing, and a stopping node hands
// its job back.

let failuresLeft = 0;
/** The next run of `record` fails for good (JobFailed) with this message. */
let hopeless: string | undefined;
/** The `hold` job runs until the gate opens or it is told to stop. */
function makeGate() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
let gate = makeGate();
let held: AbortSignal | undefined;
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
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
        if (hopeless) throw new JobFailed(hopeless);
        return { recorded: id };
      },
    },
    hold: {
      transaction: 'none',
      handler: async (ctx) => {
        held = ctx.signal;
        await Promise.race([gate.promise, aborted(ctx.signal)]);
        // A safe point, as an import's batch boundary is.
        ctx.signal.throwIfAborted();
        return { held: true };
      },
    },
  },
});

let t: TestApp;
let key: string;

beforeAll(async () => {
  // Leases of 1 s (renewed every third of a second), so a job outlives several of them here.
  t = await testApp({ services: [...allServices, worker], config: { leaseSeconds: 1 } });
  key = await t.tenant('acme');
});

beforeEach(() => {
  failuresLeft = 0;
  hopeless = undefined;
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

  it('fails a job that says another attempt cannot help at once, with its error, rolling its effect back', async () => {
    hopeless = 'input file gone';
    const id = await start('r-hopeless');
    await t.platform.jobs.drain();
    expect(await status(id)).toMatchObject({ state: 'failed', attempts: 1, lastError: 'input file gone' });
    expect((await status(id)).finishedAt).not.toBeNull();
    expect(await runs('r-hopeless')).toHaveLength(0);
    await makeReady(id);
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

describe('job leases', () => {
  const hold = async () => {
    gate = makeGate();
    held = undefined;
    return t.db.system((tx) => t.platform.jobs.enqueue(tx, 'acme', 'test/worker/hold', {}));
  };
  const row = async (id: string) => {
    const [found] = await t.db.system((tx) => tx.select().from(jobs).where(eq(jobs.id, id)));
    return found!;
  };

  it("renews a running job's lease: no other worker takes it, however long it runs", async () => {
    const id = await hold();
    const running = t.platform.jobs.drain();
    await until(() => held !== undefined);
    await new Promise((r) => setTimeout(r, 2_500)); // two and a half leases
    expect(await t.platform.jobs.drain()).toBe(0);
    const during = await row(id);
    expect(during).toMatchObject({ state: 'running', attempts: 1 });
    expect(during.leaseUntil!.getTime()).toBeGreaterThan(Date.now());
    gate.resolve();
    expect(await running).toBe(1);
    expect(await row(id)).toMatchObject({
      state: 'done',
      attempts: 1,
      leaseUntil: null,
      result: { held: true },
    });
  });

  it('tells a worker whose job was taken over to stop, and lets it mark nothing', async () => {
    const id = await hold();
    const running = t.platform.jobs.drain();
    await until(() => held !== undefined);
    // Another worker claimed the job (its lease had run out): a new attempt, a new lease.
    const theirs = new Date(Date.now() + 60_000);
    await t.db.system((tx) =>
      tx.update(jobs).set({ attempts: sql`attempts + 1`, leaseUntil: theirs }).where(eq(jobs.id, id)),
    );
    await until(() => held!.aborted, 5_000);
    expect(held!.reason).toBeInstanceOf(LeaseLost);
    await running;
    expect(await row(id)).toMatchObject({ state: 'running', attempts: 2, leaseUntil: theirs, result: null });
    await t.db.system((tx) => tx.delete(jobs).where(eq(jobs.id, id)));
  });

  it('hands a job back when its node stops: queued at once, the attempt not counted, no lease', async () => {
    const node = new JobQueue(1000);
    node.attach(t.platform);
    const id = await hold();
    const running = node.drain();
    await until(() => held !== undefined);
    await node.stop();
    expect(await running).toBe(1);
    expect(held!.reason).toBeInstanceOf(Stopping);
    const back = await row(id);
    expect(back).toMatchObject({ state: 'queued', attempts: 0, leaseUntil: null });
    expect(back.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    // Another node takes it right away and finishes it.
    gate.resolve();
    const again = t.platform.jobs.drain();
    await until(() => held !== undefined && !held.aborted);
    expect(await again).toBe(1);
    expect(await row(id)).toMatchObject({ state: 'done', attempts: 1 });
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
