import { Readable } from 'node:stream';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../core/db/database.ts';
import { isDataException } from '../core/db/errors.ts';
import { compileFilter } from '../core/db/filter.ts';
import type { Ctx, Platform } from '../core/declarations.ts';
import { ApiError, errors, JobFailed } from '../core/errors.ts';
import { type ExportField, type ExportTarget, filterFieldsOf } from '../core/export-target.ts';
import { appendStatusEvent } from '../core/transfer-events.ts';
import type { ExportFormat } from './actions.ts';
import { exports } from './tables.ts';
import { CONTENT_TYPE, EXTENSION, RowWriter } from './writer.ts';

// Runs one export (docs/exports.md): reads the kind's rows in keyset-paginated batches (`key >
// last order by key limit n`, one short transaction each, never an OFFSET), writes each batch as
// text into a stream that the blob store consumes with back-pressure, so memory stays flat at any
// row count. The blob store writes atomically (a temporary file renamed at the end): a failed
// attempt leaves no partial file, and the retry starts again from the first row.

export const EXPORT_BATCH = 2000;
/** How long the URL published in the final event is valid; getExport signs a fresh one. */
export const EVENT_URL_SECONDS = 24 * 3600;

type Row = Record<string, unknown>;

/** The rows of `target` that belong to the tenant, the kind and, when given, the export's filter. */
function exportConditions(target: ExportTarget, tenant: string, filter: string | null | undefined): SQL[] {
  const conditions: SQL[] = [sql`${target.tenant} = ${tenant}`];
  if (target.where) conditions.push(target.where);
  if (filter) conditions.push(compileFilter(filter, filterFieldsOf(target)));
  return conditions;
}

/**
 * A filter the export could not run is refused when the export is asked for, not found out by its
 * job: compiled here (syntax, fields, literal types), then planned and bound by the database with
 * no row read, in a savepoint (a literal the column cannot take, such as 2^31 against an int4
 * expression, is SQLSTATE class 22 only there).
 */
export async function checkExportFilter(
  ctx: Pick<Ctx, 'tx' | 'tenant'>,
  target: ExportTarget,
  filter: string,
) {
  const conditions = exportConditions(target, ctx.tenant.name, filter);
  await ctx.tx.execute(sql`savepoint ponte_export_filter`);
  try {
    await ctx.tx.execute(sql`select 1 from ${target.from} where ${and(...conditions)} limit 0`);
    await ctx.tx.execute(sql`release savepoint ponte_export_filter`);
  } catch (err) {
    await ctx.tx.execute(sql`rollback to savepoint ponte_export_filter`);
    if (!isDataException(err)) throw err;
    throw errors.badRequest(
      `Invalid field 'filtro': ${(err as { cause?: Error }).cause?.message ?? (err as Error).message}`,
    );
  }
}

/** The SQL that selects a field as the file shows it: date-times ISO 8601 in UTC, dates YYYY-MM-DD. */
function selected(field: ExportField): SQL {
  if (field.type === 'datetime')
    return sql`to_char(${field.sql} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  if (field.type === 'date' || field.type === 'uuid') return sql`${field.sql}::text`;
  return sql`${field.sql}`;
}

/** pg answers bigint and numeric as strings: numbers in the file are numbers. */
function normalise(row: Row, numeric: string[]): Row {
  for (const name of numeric) if (typeof row[name] === 'string') row[name] = Number(row[name]);
  return row;
}

export interface ExportRun {
  platform: Platform;
  tenant: string;
  exportId: string;
  /** The job's Ctx.signal: when aborted, the export stops before its next batch and starts again later. */
  signal?: AbortSignal;
}

const iso = (d: Date | null | undefined) => d?.toISOString();

/** The exportEventStatus of an export as it stands in `tx`; done ones carry a signed download URL. */
export async function exportEventStatus(
  platform: Platform,
  tx: Tx,
  tenant: string,
  exportId: string,
  urlSeconds = EVENT_URL_SECONDS,
): Promise<Row> {
  const [row] = await tx.select().from(exports).where(eq(exports.id, exportId));
  if (!row) return { exportJobId: exportId, state: 'failed' };
  const signed =
    row.state === 'done' && row.fileKey
      ? platform.blobs.sign(tenant, row.fileKey, 'get', urlSeconds)
      : undefined;
  return {
    exportJobId: row.id,
    state: row.state,
    service: row.service,
    kind: row.kind,
    formato: row.format,
    filtro: row.filter,
    rows: row.rows,
    size: row.size,
    arquivo: row.fileKey,
    downloadUrl: signed?.url,
    downloadExpiresAt: signed?.expiresAt,
    lastError: row.lastError,
    createdAt: iso(row.createdAt),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
  };
}

export async function runExport({ platform, tenant, exportId, signal }: ExportRun): Promise<Row> {
  const db = platform.db;
  const [record] = await db.tenant(tenant, (tx) => tx.select().from(exports).where(eq(exports.id, exportId)));
  if (!record) throw new Error(`export ${exportId} has no record`);
  if (record.state === 'done') return { state: 'done' };
  // Failed for good by an earlier attempt whose job was not marked (the node died in between).
  if (record.state === 'failed') throw new JobFailed(record.lastError ?? `export ${exportId} failed`);
  /** Sets the state; with `announce`, publishes `export<Kind>Event` in the same transaction. */
  const setState = async (values: Partial<typeof exports.$inferInsert>, announce = false) => {
    const emitted = await db.tenant(tenant, async (tx) => {
      await tx.update(exports).set(values).where(eq(exports.id, exportId));
      if (!announce) return false;
      const status = await exportEventStatus(platform, tx, tenant, exportId);
      return appendStatusEvent(platform, tx, tenant, record.service, `export${record.kind}Event`, status);
    });
    if (emitted) platform.events.wake();
  };
  const fail = (lastError: string) =>
    setState({ state: 'failed', lastError, finishedAt: platform.now() }, true);

  const target = platform.registry.service(record.service)?.exports[record.kind];
  if (!target) {
    const message = `${record.service} has no export ${record.kind}`;
    await fail(message);
    throw new JobFailed(message);
  }
  await setState(
    { state: 'running', rows: 0, startedAt: record.startedAt ?? platform.now() },
    record.state === 'queued',
  );

  const format = record.format as ExportFormat;
  const names = record.fields;
  const numeric = names.filter((n) => ['integer', 'number'].includes(target.fields[n]!.type));
  const columns = sql.join(
    names.map((n) => sql`${selected(target.fields[n]!)} as ${sql.identifier(n)}`),
    sql`, `,
  );
  const conditions = exportConditions(target, tenant, record.filter);
  const fileKey = `exports/${exportId}/${record.kind}.${EXTENSION[format]}`;
  let written = 0;

  /** The file, batch by batch: each batch is read in its own short transaction with the progress row. */
  async function* chunks(): AsyncGenerator<string> {
    const writer = new RowWriter(format, names, record!.delimiter);
    yield writer.header();
    const key = target!.key;
    const keyColumns = sql.join(
      key.map((k, i) => sql`${k} as ${sql.identifier(`__k${i}`)}`),
      sql`, `,
    );
    const keyRow = sql.join(key, sql`, `);
    let last: unknown[] | undefined;
    for (;;) {
      signal?.throwIfAborted();
      // (k1, k2) > (last1, last2): a row comparison, which PostgreSQL serves as one index range.
      const after =
        last === undefined
          ? []
          : [
              sql`(${keyRow}) > (${sql.join(
                last.map((v) => sql`${v}`),
                sql`, `,
              )})`,
            ];
      const rows = await db.tenant(tenant, async (tx) => {
        const found = rowsOf<Row>(
          await tx.execute(sql`
            select ${keyColumns}, ${columns} from ${target!.from}
            where ${and(...conditions, ...after)}
            order by ${keyRow} limit ${EXPORT_BATCH}`),
        );
        if (found.length)
          await tx
            .update(exports)
            .set({ rows: written + found.length })
            .where(eq(exports.id, exportId));
        return found;
      });
      if (rows.length === 0) break;
      const lastRow = rows.at(-1)!;
      last = key.map((_, i) => lastRow[`__k${i}`]);
      written += rows.length;
      yield writer.rows(rows.map((r) => normalise(r, numeric)));
      if (rows.length < EXPORT_BATCH) break;
    }
    yield writer.footer();
  }

  try {
    const info = await platform.blobs.write(tenant, fileKey, Readable.from(chunks()), CONTENT_TYPE[format]);
    await setState(
      {
        state: 'done',
        rows: written,
        fileKey,
        size: info.size,
        sha256: info.sha256,
        lastError: null,
        finishedAt: platform.now(),
      },
      true,
    );
  } catch (err) {
    // Stopped on request (the node is going, or lost the job): nothing failed; it runs again later.
    if (signal?.aborted) throw err;
    // A request the export cannot serve (a filter the database refuses) fails it and its job for
    // good; anything else fails this attempt, and the job starts again, unless it was the last.
    const message = (err as Error).message;
    const refused = err instanceof ApiError || isDataException(err);
    const job = await platform.jobs.status(tenant, exportId).catch(() => undefined);
    if (refused || (job && job.attempts >= job.maxAttempts)) {
      await fail(message).catch(() => undefined);
      if (refused) throw new JobFailed(message);
    } else await setState({ lastError: message }).catch(() => undefined);
    throw err;
  }
  return { state: 'done', rows: written };
}
