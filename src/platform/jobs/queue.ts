import { and, eq, sql } from 'drizzle-orm';
import { executeJob } from '../core/context.ts';
import { rowsOf, type Tx } from '../core/db/database.ts';
import type { Ctx, Platform } from '../core/declarations.ts';
import { JobFailed } from '../core/errors.ts';
import { LeaseLost, Stopping } from '../core/lease.ts';
import type { JobState, JobStatus, Jobs } from '../core/ports.ts';
import { Pump } from '../core/pump.ts';
import { jobs } from './tables.ts';

// A PostgreSQL-backed queue (DESIGN.md "Events, signals, jobs"). A worker claims the oldest ready job
// with FOR UPDATE SKIP LOCKED and a lease, renewed while the job runs (lease.ts), then runs it in a
// second transaction that also marks it done: the effect and the completion commit together, so a
// crash mid-job loses nothing and doubles nothing (the lease expires and another worker takes the job
// again). A claim is identified by the job's attempt number, which every claim increments: renewals
// and the completion match it, so a worker whose lease was taken over commits nothing.

interface ClaimedJob {
  id: string;
  tenant: string;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

export class JobQueue implements Jobs {
  private platform: Platform | undefined;
  private readonly pump: Pump;
  /** Aborted by stop(): a running job that can resume later stops at its next safe point. */
  private readonly stopper = new AbortController();
  private stopped: Promise<void> | undefined;

  constructor(pollMs: number) {
    this.pump = new Pump(() => this.drain(), pollMs);
  }

  /** Set once stop() was called: a long drain stops between steps. */
  private get stopping(): boolean {
    return this.pump.stopping;
  }

  attach(platform: Platform): void {
    this.platform = platform;
  }

  async enqueue(
    tx: Tx,
    tenant: string,
    kind: string,
    payload: unknown,
    options: { runAt?: Date; maxAttempts?: number } = {},
  ): Promise<string> {
    const declared = this.p.registry.job(kind)?.job.maxAttempts;
    const [row] = await tx
      .insert(jobs)
      .values({
        tenant,
        kind,
        payload: payload ?? {},
        maxAttempts: options.maxAttempts ?? declared ?? 5,
        ...(options.runAt ? { runAt: options.runAt } : {}),
      })
      .returning({ id: jobs.id });
    return row!.id;
  }

  async status(tenant: string, id: string): Promise<JobStatus | undefined> {
    const [row] = await this.p.db.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.tenant, tenant), eq(jobs.id, id)));
    if (!row) return undefined;
    return {
      id: row.id,
      tenant: row.tenant,
      kind: row.kind,
      state: row.state as JobState,
      attempts: row.attempts,
      maxAttempts: row.maxAttempts,
      lastError: row.lastError,
      result: row.result,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
    };
  }

  start(): void {
    this.pump.start();
  }

  /** Claims nothing more; the running job finishes, or hands itself back at its next safe point. */
  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopper.abort(new Stopping());
      this.stopped = this.pump.stop();
    }
    return this.stopped;
  }

  /** Runs every ready job now (called after a commit that enqueued one, and on each poll). */
  wake(): void {
    this.pump.wake();
  }

  /** Processes ready jobs until none is left; returns how many ran. Tests call it directly. */
  async drain(): Promise<number> {
    let count = 0;
    while (!this.stopping) {
      const ran = await this.runOne().catch((err: unknown) => {
        this.p.log.error({ err }, 'job worker failed to claim a job');
        return false;
      });
      if (!ran) break;
      count++;
    }
    return count;
  }

  private get p(): Platform {
    if (!this.platform) throw new Error('JobQueue used before the platform was attached');
    return this.platform;
  }

  private async claim(): Promise<ClaimedJob | undefined> {
    const kinds = [...this.kinds()];
    if (kinds.length === 0) return undefined;
    const result = await this.p.db.db.execute(sql`
      update jobs set state = 'running', attempts = attempts + 1, updated_at = now(),
        lease_until = now() + make_interval(secs => ${this.p.config.leaseSeconds})
      where id = (
        select id from jobs
        where kind in (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )})
          and ((state = 'queued' and run_at <= now()) or (state = 'running' and lease_until < now()))
        order by run_at, created_at
        for update skip locked
        limit 1
      )
      returning id, tenant, kind, payload, attempts, max_attempts`);
    return rowsOf<ClaimedJob>(result)[0];
  }

  private *kinds(): Iterable<string> {
    for (const service of this.p.registry.all())
      for (const name of Object.keys(service.jobs)) yield `${service.id}/${name}`;
  }

  private async runOne(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    const p = this.p;
    const declared = p.registry.job(job.kind)!;
    const log = p.log.child({ job: job.id, kind: job.kind, tenant: job.tenant });
    const ours = sql`id = ${job.id} and state = 'running' and attempts = ${job.attempts}`;
    const lease = p.leases.hold({
      what: { job: job.id },
      renew: async () =>
        rowsOf(
          await p.db.db.execute(sql`
            update jobs set lease_until = now() + make_interval(secs => ${p.config.leaseSeconds})
            where ${ours} returning id`),
        ).length > 0,
      // Handed back unfinished (the node stops): queued again at once, and the attempt not counted.
      release: async () => {
        await p.db.db.execute(sql`
          update jobs set state = 'queued', attempts = attempts - 1, lease_until = null, run_at = now(),
            updated_at = now()
          where ${ours}`);
      },
    });
    const signal = AbortSignal.any([lease.signal, this.stopper.signal]);
    try {
      const tenant = await p.tenants.find(job.tenant);
      if (!tenant) throw new Error(`tenant ${job.tenant} no longer exists`);
      const invocation = {
        tenant,
        caller: { kind: 'system', scope: 'full' } as const,
        requestId: `job-${job.id}`,
        log,
        signal,
      };
      const done = { state: 'done', leaseUntil: null, finishedAt: p.now(), updatedAt: p.now() } as const;
      const work = async (tx: Tx | undefined) => {
        const { result, hooks } = await executeJob(p, declared.service, invocation, tx, (ctx) =>
          declared.job.handler(ctx, job.payload),
        );
        // A job without a transaction of its own is marked done once its work returned. Only under
        // this claim: a worker whose lease was taken over rolls its effect back (or, without a
        // transaction, leaves the job to its new worker).
        const marked = await (tx ?? p.db.db)
          .update(jobs)
          .set({ ...done, result: result ?? null })
          .where(ours)
          .returning({ id: jobs.id });
        if (marked.length === 0) throw new LeaseLost('the job was taken over');
        return hooks;
      };
      const mode = declared.job.transaction;
      const hooks =
        mode === 'none'
          ? await work(undefined)
          : mode === 'system'
            ? await p.db.system(work)
            : await p.db.tenant(job.tenant, work);
      lease.end();
      for (const hook of hooks) await hook();
      log.info({ attempts: job.attempts }, 'job done');
    } catch (err) {
      if (lease.lost || (err instanceof LeaseLost && !signal.aborted)) {
        lease.lose('the job was taken over');
        return true;
      }
      if (signal.aborted) {
        await lease.release();
        log.info({ attempts: job.attempts }, 'job handed back: the node is stopping');
        return true;
      }
      lease.end();
      // A job that says another attempt cannot help fails now; any other error is retried.
      const failed = err instanceof JobFailed || job.attempts >= job.max_attempts;
      const backoffMs = Math.min(1000 * 2 ** (job.attempts - 1), 300_000);
      log.warn({ err, attempts: job.attempts, failed }, 'job attempt failed');
      await p.db.db
        .update(jobs)
        .set({
          state: failed ? 'failed' : 'queued',
          lastError: err instanceof Error ? err.message : String(err),
          runAt: new Date(Date.now() + backoffMs),
          leaseUntil: null,
          updatedAt: p.now(),
          ...(failed ? { finishedAt: p.now() } : {}),
        })
        .where(ours);
    }
    return true;
  }
}

/**
 * The job behind a tracked piece of work (an import, an export: the job's id is the record's) when
 * it gave up for good while the record was not done: its last error, or null without one.
 * Undefined while the job may still run. The record's queries report such work as failed.
 */
export async function jobAbandonado(
  ctx: Pick<Ctx, 'store'>,
  jobId: string,
  recordState: string,
): Promise<{ lastError: string | null } | undefined> {
  if (recordState === 'done') return undefined;
  const [job] = await ctx.store.select(jobs, eq(jobs.id, jobId));
  return job?.state === 'failed' ? { lastError: job.lastError } : undefined;
}
