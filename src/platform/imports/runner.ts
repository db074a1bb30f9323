import { count, eq, getTableColumns, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Platform } from '../context.ts';
import type { Tx } from '../db/database.ts';
import { Store } from '../db/store.ts';
import { ApiError } from '../errors.ts';
import { compile, fieldErrors } from '../validation.ts';
import { byteCounter, type Format, readRows } from './reader.ts';
import { importErrors, imports } from './tables.ts';
import type { ImportTarget } from './target.ts';

// Runs one import (DESIGN.md "Imports"): reads the file as a stream, validates every row against
// the target's schema, upserts valid rows by natural key in batches, and records each bad row's
// errors without stopping. Each batch commits together with the progress row, whose `processed`
// count is the resume cursor: a restarted import skips what was committed, and upserts are
// idempotent, so nothing is lost or doubled.

export const BATCH_SIZE = 1000;
export const MAX_STORED_ERRORS = 10_000;

interface RowError {
  row: number;
  field: string | null;
  message: string;
}

type Record_ = Record<string, unknown>;

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

  /** Only the row schema's fields (and what `prepare` derives) are written: never tenant or id. */
  values(row: Record_): Record_ {
    const out: Record_ = {};
    for (const key of Object.keys(this.target.row.properties))
      if (row[key] !== undefined) out[key] = row[key];
    const prepared = this.target.prepare ? this.target.prepare(out) : out;
    for (const key of Object.keys(prepared)) {
      if (!(key in this.columns) || key === 'tenant' || key === 'id') delete prepared[key];
    }
    return prepared;
  }

  key(values: Record_): string {
    return JSON.stringify(this.target.naturalKey.map((k) => values[k] ?? null));
  }

  async write(tx: Tx, tenant: string, rows: Record_[], now: Date): Promise<void> {
    if (rows.length === 0) return;
    const audit = this.audited
      ? { createdBy: this.who, createdDate: now, lastModifiedBy: this.who, lastModifiedDate: now }
      : {};
    const written = new Set(rows.flatMap((r) => Object.keys(r)));
    for (const k of this.target.naturalKey) written.delete(k);
    const set: Record<string, unknown> = {};
    for (const k of written) set[k] = sql.raw(`excluded."${this.columns[k]!.name}"`);
    if (this.audited) {
      set.lastModifiedBy = sql.raw('excluded."last_modified_by"');
      set.lastModifiedDate = sql.raw('excluded."last_modified_date"');
    }
    const keyColumns = [this.columns.tenant!, ...this.target.naturalKey.map((k) => this.columns[k]!)];
    const insert = new Store(tx, tenant).insert(
      this.target.table,
      rows.map((r) => ({ ...r, ...audit })) as never[],
    );
    await (this.update && Object.keys(set).length
      ? insert.onConflictDoUpdate({ target: keyColumns, set })
      : insert.onConflictDoNothing({ target: keyColumns }));
  }
}

export interface ImportRun {
  platform: Platform;
  tenant: string;
  importId: string;
}

export async function runImport({ platform, tenant, importId }: ImportRun): Promise<Record_> {
  const db = platform.db;
  const [record] = await db.tenant(tenant, (tx) => tx.select().from(imports).where(eq(imports.id, importId)));
  if (!record) throw new Error(`import ${importId} has no record`);
  if (record.state === 'done' || record.state === 'failed') return { state: record.state };
  const setState = (values: Partial<typeof imports.$inferInsert>) =>
    db.tenant(tenant, (tx) => tx.update(imports).set(values).where(eq(imports.id, importId)));

  const target = platform.registry.service(record.service)?.imports[record.kind];
  if (!target) {
    await setState({
      state: 'failed',
      lastError: `${record.service} has no import ${record.kind}`,
      finishedAt: platform.now(),
    });
    return { state: 'failed' };
  }
  await setState({ state: 'running', startedAt: record.startedAt ?? platform.now() });

  const options = record.options as { separador?: string; atualizarExistentes?: boolean };
  const format = record.format as Format;
  const validate = compile(target.row, format === 'CSV' ? 'query' : 'body');
  const upserter = new Upserter(target, options.atualizarExistentes !== false, `import:${importId}`);
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

  let batch: Array<{ row: number; values: Record_ }> = [];
  let rowErrors: RowError[] = [];
  let lastRow = record.processed;

  /** Writes `good` (if any), records `bad`, and moves the cursor, all in one transaction. */
  const commit = async (good: Record_[], bad: RowError[], taken: number, failedRows: number) => {
    const keep = bad.slice(0, Math.max(0, MAX_STORED_ERRORS - storedErrors));
    const next = {
      ...progress,
      processed: lastRow,
      succeeded: progress.succeeded + taken,
      failed: progress.failed + failedRows,
    };
    await db.tenant(tenant, async (tx) => {
      await upserter.write(tx, tenant, good, platform.now());
      if (keep.length)
        await new Store(tx, tenant).insert(
          importErrors,
          keep.map((e) => ({ importId, ...e })),
        );
      await tx.update(imports).set(next).where(eq(imports.id, importId));
    });
    storedErrors += keep.length;
    Object.assign(progress, next);
  };

  const flush = async () => {
    if (lastRow === progress.processed) return;
    // Within a batch the last row of a natural key wins; earlier ones still count as taken.
    const byKey = new Map<string, Record_>();
    for (const { values } of batch) byKey.set(upserter.key(values), values);
    const failedRows = new Set(rowErrors.map((e) => e.row)).size;
    try {
      await commit([...byKey.values()], rowErrors, batch.length, failedRows);
    } catch (err) {
      if (!isRowRefusal(err)) throw err;
      // The database refused a row of the batch: write the rows one by one to find which.
      const refused: RowError[] = [];
      for (const { row, values } of batch) {
        try {
          await db.tenant(tenant, (tx) => upserter.write(tx, tenant, [values], platform.now()));
        } catch (rowErr) {
          if (!isRowRefusal(rowErr)) throw rowErr;
          const cause =
            (rowErr as { cause?: { message?: string } }).cause?.message ?? (rowErr as Error).message;
          refused.push({ row, field: null, message: `refused by the database: ${cause}` });
        }
      }
      const taken = batch.length - refused.length;
      await commit([], [...rowErrors, ...refused], taken, failedRows + refused.length);
    }
    batch = [];
    rowErrors = [];
  };

  try {
    const { stream } = await platform.blobs.open(tenant, record.fileKey);
    const source = stream.pipe(
      byteCounter((n) => {
        progress.bytesRead += n;
      }),
    );
    for await (const item of readRows(source, format, { delimiter: options.separador })) {
      if (item.row <= record.processed) continue;
      lastRow = item.row;
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
  } catch (err) {
    // A file that cannot be read (not found, not JSON) fails the import for good; anything else
    // (the database went away) fails this attempt, and the job is retried from the cursor.
    if (err instanceof ApiError) {
      await setState({ state: 'failed', lastError: err.message, finishedAt: platform.now() });
      return { state: 'failed', lastError: err.message };
    }
    await setState({ lastError: (err as Error).message });
    throw err;
  }
  await setState({ state: 'done', finishedAt: platform.now(), lastError: null });
  return {
    state: 'done',
    processed: progress.processed,
    succeeded: progress.succeeded,
    failed: progress.failed,
  };
}
