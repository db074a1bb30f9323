import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../../platform/core/db/database.ts';
import type { ExportField } from '../../../platform/core/export-target.ts';
import { refuse } from '../../../platform/core/import-target.ts';
import { Type } from '../../../platform/core/schema.ts';
import type { circuito } from './tables/circuitos.ts';
import { type area, planta } from './tables/plantas.ts';

// A file names a referenced record by its natural code, never by id (importacoes.ts): the export
// fields that write a reference as its code, and the lookups that turn one batch's codes back into
// ids in the importing tenant, one query per batch.

export type Row = Record<string, unknown>;

export const Codigo = (what: string) =>
  Type.String({ minLength: 1, maxLength: 20, description: `code of the ${what}` });

export const str = (value: SQL): ExportField => ({ sql: value, type: 'string' });
export const int = (value: SQL): ExportField => ({ sql: value, type: 'integer' });
/** The code of a referenced record, by its id column: a scalar subquery per row, on the primary key. */
export const codigoDe = (table: typeof planta | typeof area | typeof circuito, id: AnyPgColumn) =>
  str(sql`(select ${table.codigo} from ${table} where ${table.id} = ${id})`);
/** The code of the plant of an area or circuit, by that record's id column. */
export const plantaDe = (table: typeof area | typeof circuito, id: AnyPgColumn) =>
  str(
    sql`(select ${planta.codigo} from ${table} join ${planta} on ${planta.id} = ${table.plantaId} where ${table.id} = ${id})`,
  );

// --- lookups of one batch --------------------------------------------------------------------

export const key = (...parts: unknown[]) => JSON.stringify(parts);
export const distinct = (rows: Row[], field: string) =>
  [...new Set(rows.map((r) => r[field]).filter((v) => typeof v === 'string'))] as string[];

async function plantas(tx: Tx, tenant: string, rows: Row[]): Promise<Map<string, string>> {
  const codigos = distinct(rows, 'plantaCodigo');
  if (codigos.length === 0) return new Map();
  const found = await tx
    .select({ id: planta.id, codigo: planta.codigo })
    .from(planta)
    .where(and(eq(planta.tenant, tenant), inArray(planta.codigo, codigos)));
  return new Map(found.map((p) => [p.codigo, p.id]));
}

/** The rows' plantaCodigo as plantaId, in the importing tenant (an unknown plant is the row's error). */
export async function daPlanta(tx: Tx, rows: Row[], tenant: string) {
  const ids = await plantas(tx, tenant, rows);
  return rows.map((row) => {
    const plantaId = ids.get(String(row.plantaCodigo));
    return plantaId ? { ...row, plantaId } : semPlanta(row.plantaCodigo);
  });
}

/** Areas or circuits of the batch's plants, by (plant code, own code). */
export async function dasPlantas(
  tx: Tx,
  tenant: string,
  table: typeof area | typeof circuito,
  rows: Row[],
): Promise<Map<string, string>> {
  const codigos = distinct(rows, 'plantaCodigo');
  if (codigos.length === 0) return new Map();
  const found = await tx
    .select({ id: table.id, codigo: table.codigo, plantaCodigo: planta.codigo })
    .from(table)
    .innerJoin(planta, eq(planta.id, table.plantaId))
    .where(and(eq(table.tenant, tenant), inArray(planta.codigo, codigos)));
  return new Map(found.map((r) => [key(r.plantaCodigo, r.codigo), r.id]));
}

const semPlanta = (codigo: unknown) => refuse('plantaCodigo', `planta ${String(codigo)} não existe`);
export const semRegistro = (field: string, record: string, plantaCodigo: unknown, codigo: unknown) =>
  refuse(field, `${record} ${String(codigo)} não existe na planta ${String(plantaCodigo)}`);
