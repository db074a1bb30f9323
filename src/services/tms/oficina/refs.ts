import { eq, inArray } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TenantTable } from '../../../platform/core/db/store.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { centroCusto, filial, manutencao, pendencia, revisao, setor, veiculo } from './tables.ts';

// The references between the workshop's records, by code (tables.ts): whether a code exists in the
// tenant, and what uses a cost centre, a sector or a vehicle. The entities answer a missing
// reference with 422, the save operations with ok false (docs/oficina.md).

/** One reference: the table, the column holding the code, the record's name for messages. */
export interface Ref {
  record: string;
  table: TenantTable;
  code: AnyPgColumn;
  /** The code's JSON field. */
  key: string;
}

export const REF = {
  filial: { record: 'filial', table: filial, code: filial.cdEmpresa, key: 'cdEmpresa' },
  centroCusto: {
    record: 'centroCusto',
    table: centroCusto,
    code: centroCusto.cdCentroCusto,
    key: 'cdCentroCusto',
  },
  setor: { record: 'setor', table: setor, code: setor.cdSetor, key: 'cdSetor' },
  veiculo: { record: 'veiculo', table: veiculo, code: veiculo.cdVeiculo, key: 'cdVeiculo' },
} satisfies Record<string, Ref>;

/**
 * Whether the tenant holds `code`, for a write that will reference it: the row is locked until
 * commit, so a removal of it (which locks it too) waits and then sees the reference.
 */
export async function exists(ctx: Ctx, ref: Ref, code: unknown): Promise<boolean> {
  const rows = await ctx.store.select(ref.table, eq(ref.code, code as number), { forUpdate: true });
  return rows.length > 0;
}

/** The codes of `codes` that no row of `ref` holds. */
export async function missing(ctx: Ctx, ref: Ref, codes: number[]): Promise<number[]> {
  if (codes.length === 0) return [];
  const rows = (await ctx.store.select(ref.table, inArray(ref.code, codes))) as Record<string, unknown>[];
  const found = new Set(rows.map((r) => Number(r[ref.key])));
  return codes.filter((c) => !found.has(c));
}

/** How many vehicles sit in cost centre `cd`. */
export async function veiculosNoCentro(ctx: Ctx, cd: number): Promise<number> {
  return ctx.store.count(veiculo, eq(veiculo.centroCusto, cd));
}

/** How many pending items, reviews and maintenances are in sector `cd`. */
export async function itensNoSetor(ctx: Ctx, cd: number): Promise<number> {
  let n = 0;
  for (const table of [pendencia, revisao, manutencao]) {
    n += await ctx.store.count(table, eq(table.setor, cd));
  }
  return n;
}

/** Removes a vehicle's pending items, reviews and maintenances (they belong to it). */
export async function removeItensDoVeiculo(ctx: Ctx, cdVeiculo: number): Promise<void> {
  for (const table of [pendencia, revisao, manutencao]) {
    await ctx.store.delete(table, eq(table.veiculo, cdVeiculo));
  }
}
