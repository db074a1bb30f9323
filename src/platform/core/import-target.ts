import type { TObject } from 'typebox';
import type { Tx } from './db/database.ts';
import type { TenantTable } from './db/store.ts';

// What an import writes to (DESIGN.md "Imports"): a service declares, per importable kind, the
// table its rows are upserted into, the schema of one row of the file, and the natural key that
// identifies a record across imports. The platform's import job does the rest.

export interface ImportTarget {
  /** Rows are upserted here; the table has a unique index on (tenant, ...naturalKey). */
  table: TenantTable;
  /** One row of the file: its JSON field names are the table's property names. */
  row: TObject;
  /** Property names identifying a record; a row with the same key updates it. */
  naturalKey: string[];
  /** Optional pure mapping from a validated row to the values written (derived columns). */
  prepare?: (row: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Optional lookup over one batch, in the batch's transaction, after `prepare`: turns references
   * given by natural key (e.g. `plantaCodigo`) into the ids the table holds, and checks what needs
   * the database. Answers, for each row in order, its values or a `refuse(...)` (that row's error).
   * `update` is false when the import keeps existing records (a rule about changing one then holds
   * nothing back).
   */
  resolve?: (
    tx: Tx,
    rows: Record<string, unknown>[],
    tenant: string,
    options: { update: boolean },
  ) => Promise<Array<Record<string, unknown> | Refusal>>;
  /**
   * Optional writer for a kind spread over several tables: gets the resolved rows of a batch, in
   * order (not deduplicated, `tenant` and `id` kept), and upserts them itself in the batch's
   * transaction; `update` is false when the import keeps existing records.
   */
  write?: (
    tx: Tx,
    tenant: string,
    rows: Record<string, unknown>[],
    options: { update: boolean; now: Date },
  ) => Promise<void>;
}

/** A row the target's `resolve` will not write, with the field and the reason. */
export interface Refusal {
  refused: { field: string | null; message: string };
}

export const refuse = (field: string | null, message: string): Refusal => ({ refused: { field, message } });

export const isRefusal = (value: unknown): value is Refusal =>
  typeof value === 'object' && value !== null && 'refused' in value;
