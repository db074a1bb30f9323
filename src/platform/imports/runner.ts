import { asc, count, eq, getTableColumns, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../core/db/database.ts';
import { Store } from '../core/db/store.ts';
import type { Platform } from '../core/declarations.ts';
import { ApiError, JobFailed } from '../core/errors.ts';
import { type ImportTarget, isRefusal } from '../core/import-target.ts';
import { appendStatusEvent } from '../core/transfer-events.ts';
import { compile, fieldErrors } from '../core/validation.ts';
import { mergeBatch } from './merge.ts';
import { byteCounter, type Format, readRows } from './reader.ts';
import { importErrors, imports } from './tables.ts';

// Runs one import (DESIGN.md "Imports"): reads the file as a stream, validates every row against
// the target's schema, upserts valid rows by natural key in batches, and records each bad row's
// errors without stopping. Each batch commits together with the progress row, whose `processed`
// count is the resume cursor: a restarted import skips what was committed, and upserts are
// idempotent, so nothing is lost or doubled.

export const BATCH_SIZE = 1000;
export const MAX_STORED_ERRORS = 10_000;
const YIELD_ROWS = 50;

interface RowError {
  row: number;
  field: string | null;
  message: string;
}

type Record_ = Record<string, unknown>;

/**
 * `errors` (sorted by row) with `seq`, the place of each among its row's errors: the key of
 * import_errors is (tenant, import_id, row, seq). A row's errors are all written in one batch.
 */
function numbered(errors: RowError[]): Array<RowError & { seq: number }> {
  let seq = 0;
  return errors.map((e, i) => {
    seq = i > 0 && errors[i - 1]!.row === e.row ? seq + 1 : 0;
    return { ...e, seq };
  });
}

function sqlState(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string; message?: string } };
  return e?.cause?.code ?? e?.code;
}

/** A database refusal of one row (constraint, range): reported, not fatal. */
function isRowRefusal(err: unknown): boolean {
  const state = sqlState(err);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}

class Upserter {
  private readonly columns: Record<string, AnyPgColumn>;
  private readonly audited: boolean;

  constructor(
    private readonly target: ImportTarget,
    private readonly update: boolean,
    private readonly who: string,
  ) {
    this.columns = getTableColumns(target.table) as Record<string, AnyPgColumn>;
    this.audited = 'createdBy' in this.columns;
  }

  /** The row schema's fields, through `prepare`: may still hold references `resolve` turns into ids. */
  values(row: Record_): Record_ {
    const out: Record_ = {};
    for (const key of Object.keys(this.target.row.properties))
      if (row[key] !== undefined) out[key] = row[key];
    return this.target.prepare ? this.target.prepare(out) : out;
  }

  /**
   * Only columns of the table are written, never tenant, and id only when it is the natural key
   * (records that keep their ids across systems, whose files join by them).
   */
  columnsOnly(values: Record_): Record_ {
    const idIsKey = this.target.naturalKey.includes('id');
    const out: Record_ = {};
    for (const key of Object.keys(values))
      if (key in this.columns && key !== 'tenant' && (key !== 'id' || idIsKey)) out[key] = values[key];
    return out;
  }

  key(values: Record_): string {
    return JSON.stringify(this.target.naturalKey.map((k) => values[k] ?? null));
  }

  async write(tx: Tx, tenant: string, rows: Record_[], now: Date): Promise<void> {
    if (rows.length === 0) return;
    if (this.target.write) return this.target.write(tx, tenant, rows, { update: this.update, now });
    const audit = this.audited
      ? { createdBy: this.who, createdDate: now, lastModifiedBy: this.who, lastModifiedDate: now }
      : {};
    await mergeBatch(tx, {
      table: this.target.table,
      columns: this.columns,
      rows,
      naturalKey: this.target.naturalKey,
      update: this.update,
      audit: this.audited ? audit : undefined,
      auditOnUpdate: ['lastModifiedBy', 'lastModifiedDate'],
    });
  }
}

export interface ImportRun {
  platform: Platform;
  tenant: string;
  importId: string;
  /** The job's Ctx.signal: when aborted, the import stops before its next batch and resumes later. */
  signal?: AbortSignal;
}

const iso = (d: Date | null | undefined) => d?.toISOString();

/** The importEventStatus of an import as it stands in `tx` (docs/events.md). */
async function importEventStatus(tx: Tx, importId: string): Promise<Record_> {
  const [row] = await tx.select().from(imports).where(eq(imports.id, importId));
  const first = await tx
    .select({ row: importErrors.row, field: importErrors.field, message: importErrors.message })
    .from(importErrors)
    .where(eq(importErrors.importId, importId))
    .orderBy(asc(importErrors.row), asc(importErrors.seq))
    .limit(10);
  if (!row) return { importJobId: importId, state: 'failed' };
  return {
    importJobId: row.id,
    state: row.state,
    service: row.service,
    kind: row.kind,
    arquivo: row.fileKey,
    formato: row.format,
    size: row.size,
    processed: row.processed,
    succeeded: row.succeeded,
    failed: row.failed,
    lastError: row.lastError,
    ...(first.length
      ? {
          firstErrors: first.map((e) => ({
            row: e.row,
            ...(e.field ? { field: e.field } : {}),
            message: e.message,
          })),
        }
      : {}),
    createdAt: iso(row.createdAt),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
  };
}

export async function runImport({ platform, tenant, importId, signal }: ImportRun): Promise<Record_> {
  const db = platform.db;
  const [record] = await db.tenant(tenant, (tx) => tx.select().from(imports).where(eq(imports.id, importId)));
  if (!record) throw new Error(`import ${importId} has no record`);
  if (record.state === 'done') return { state: 'done' };
  // Failed for good by an earlier attempt whose job was not marked (the node died in between).
  if (record.state === 'failed') throw new JobFailed(record.lastError ?? `import ${importId} failed`);
  /** Sets the state; with `announce`, publishes `import<Kind>Event` in the same transaction. */
  const setState = async (values: Partial<typeof imports.$inferInsert>, announce = false) => {
    const emitted = await db.tenant(tenant, async (tx) => {
      await tx.update(imports).set(values).where(eq(imports.id, importId));
      if (!announce) return false;
      const status = await importEventStatus(tx, importId);
      return appendStatusEvent(platform, tx, tenant, record.service, `import${record.kind}Event`, status);
    });
    if (emitted) platform.events.wake();
  };
  const fail = (lastError: string) =>
    setState({ state: 'failed', lastError, finishedAt: platform.now() }, true);

  const target = platform.registry.service(record.service)?.imports[record.kind];
  if (!target) {
    const message = `${record.service} has no import ${record.kind}`;
    await fail(message);
    throw new JobFailed(message);
  }
  // The start is announced once: a retry after a crash resumes silently.
  await setState(
    { state: 'running', startedAt: record.startedAt ?? platform.now() },
    record.state === 'queued',
  );

  const options = record.options as { separador?: string; atualizarExistentes?: boolean };
  const format = record.format as Format;
  const validate = compile(target.row, format === 'CSV' ? 'query' : 'body');
  const update = options.atualizarExistentes !== false;
  const upserter = new Upserter(target, update, `import:${importId}`);
  const [stored] = await db.tenant(tenant, (tx) =>
    tx.select({ n: count() }).from(importErrors).where(eq(importErrors.importId, importId)),
  );
  let storedErrors = stored?.n ?? 0;
  const progress = {
    processed: record.processed,
    succeeded: record.succeeded,
    failed: record.failed,
    bytesRead: 0,
  };

  type Item = { row: number; values: Record_ };
  let batch: Item[] = [];
  let rowErrors: RowError[] = [];
  let lastRow = record.processed;

  /** The target's lookups over `items`: the values to write (the last row of a key wins) and the refusals. */
  const resolveRows = async (tx: Tx, items: Item[]) => {
    const values = items.map((i) => i.values);
    const resolved = target.resolve ? await target.resolve(tx, values, tenant, { update }) : values;
    const byKey = new Map<string, Record_>();
    const own: Record_[] = [];
    const refused: RowError[] = [];
    resolved.forEach((r, i) => {
      if (isRefusal(r)) refused.push({ row: items[i]!.row, ...r.refused });
      else if (target.write) own.push(r);
      else {
        const v = upserter.columnsOnly(r);
        byKey.set(upserter.key(v), v);
      }
    });
    return { good: target.write ? own : [...byKey.values()], refused };
  };

  /**
   * Writes `items` (if any), records `bad` and the refused rows, and moves the cursor, all in one
   * transaction. `failedRows` counts the rows of `bad`; refusals of `resolve` are added to it.
   */
  const commit = async (items: Item[], bad: RowError[], taken: number, failedRows: number, upTo: number) => {
    let next = progress;
    await db.tenant(tenant, async (tx) => {
      // The batch and its cursor commit together and its writes are upserts: a batch lost to a
      // crash right after its commit is read and written again from the older cursor. So the
      // commit need not wait for the disk (docs/performance.md (g)).
      await tx.execute(sql`select set_config('synchronous_commit', 'off', true)`);
      const { good, refused } = await resolveRows(tx, items);
      await upserter.write(tx, tenant, good, platform.now());
      const errorsNow = [...bad, ...refused].sort((a, b) => a.row - b.row);
      const keep = errorsNow.slice(0, Math.max(0, MAX_STORED_ERRORS - storedErrors));
      next = {
        ...progress,
        processed: upTo,
        succeeded: progress.succeeded + taken - refused.length,
        failed: progress.failed + failedRows + refused.length,
      };
      if (keep.length)
        await new Store(tx, tenant).insert(
          importErrors,
          numbered(keep).map((e) => ({ importId, ...e })),
        );
      await tx.update(imports).set(next).where(eq(imports.id, importId));
      storedErrors += keep.length;
    });
    Object.assign(progress, next);
  };

  /** Writes one batch: its rows, its errors and the cursor up to `upTo`, in one transaction. */
  const write = async (items: Item[], errs: RowError[], upTo: number) => {
    const failedRows = new Set(errs.map((e) => e.row)).size;
    const saved = storedErrors;
    try {
      await commit(items, errs, items.length, failedRows, upTo);
    } catch (err) {
      if (!isRowRefusal(err)) throw err;
      storedErrors = saved;
      // The database refused a row of the batch: write the rows one by one to find which.
      const refused: RowError[] = [];
      for (const item of items) {
        try {
          await db.tenant(tenant, async (tx) => {
            const one = await resolveRows(tx, [item]);
            refused.push(...one.refused);
            await upserter.write(tx, tenant, one.good, platform.now());
          });
        } catch (rowErr) {
          if (!isRowRefusal(rowErr)) throw rowErr;
          const cause =
            (rowErr as { cause?: { message?: string } }).cause?.message ?? (rowErr as Error).message;
          refused.push({ row: item.row, field: null, message: `refused by the database: ${cause}` });
        }
      }
      await commit(
        [],
        [...errs, ...refused],
        items.length - refused.length,
        failedRows + refused.length,
        upTo,
      );
    }
  };

  // One batch is written while the next is read and validated (docs/performance.md (g)): the
  // database and Node work at the same time instead of in turns. Batches still commit one after
  // another, in file order, each with its cursor.
  let writing: Promise<void> = Promise.resolve();
  let queuedTo = record.processed;
  const flush = async () => {
    if (lastRow === queuedTo) return;
    const previous = writing;
    // Wait for the batch before: at most one in flight, and the memory of two.
    await previous;
    // A safe point: what is committed is the cursor the next attempt resumes from.
    signal?.throwIfAborted();
    const items = batch;
    const errs = rowErrors;
    queuedTo = lastRow;
    batch = [];
    rowErrors = [];
    writing = write(items, errs, queuedTo);
    // Its failure is thrown at the next flush (or at the end), not as an unhandled rejection now.
    writing.catch(() => undefined);
  };

  try {
    const { stream } = await platform.blobs.open(tenant, record.fileKey);
    const source = stream.pipe(
      byteCounter((n) => {
        progress.bytesRead += n;
      }),
    );
    let sinceYield = 0;
    for await (const item of readRows(source, format, { delimiter: options.separador })) {
      if (item.row <= record.processed) continue;
      lastRow = item.row;
      // The parser hands over rows it already holds without ever leaving the microtask queue, so
      // the batch being written would wait, between its statements, for a whole chunk to be parsed:
      // every YIELD_ROWS rows the loop lets the event loop answer the database.
      if (++sinceYield === YIELD_ROWS) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if ('error' in item) {
        rowErrors.push({ row: item.row, field: null, message: item.error });
      } else if (validate(item.value)) {
        batch.push({ row: item.row, values: upserter.values(item.value as Record_) });
      } else {
        for (const { field, rule } of fieldErrors(validate.errors ?? [])) {
          rowErrors.push({ row: item.row, field, message: `field '${field}' ${rule}` });
        }
      }
      if (batch.length + rowErrors.length >= BATCH_SIZE) await flush();
    }
    await flush();
    await writing;
  } catch (err) {
    // Whatever stopped the reading, the batch in flight finishes (or fails) first.
    await writing.catch(() => undefined);
    // Stopped on request (the node is going, or lost the job): nothing failed; it resumes later.
    if (signal?.aborted) throw err;
    // A file that cannot be read (not found, not JSON) fails the import and its job for good, so
    // that every view (getImport, the job's status) says failed with the same error; anything else
    // (the database went away) fails this attempt, and the job is retried from the cursor, unless
    // it was the job's last attempt: then the import has failed too, and says so.
    if (err instanceof ApiError) {
      await fail(err.message);
      throw new JobFailed(err.message);
    }
    const message = (err as Error).message;
    const job = await platform.jobs.status(tenant, importId).catch(() => undefined);
    if (job && job.attempts >= job.maxAttempts) await fail(message).catch(() => undefined);
    else await setState({ lastError: message }).catch(() => undefined);
    throw err;
  }
  await setState({ state: 'done', finishedAt: platform.now(), lastError: null }, true);
  return {
    state: 'done',
    processed: progress.processed,
    succeeded: progress.succeeded,
    failed: progress.failed,
  };
}
