import type { TestApp } from '../../../../test/harness.ts';
import { Store, type TenantTable } from '../../../platform/core/db/store.ts';
import type { pessoa } from './tables/pessoas.ts';

// Factories for the com_comum tests: rows inserted straight into a tenant's tables (through the
// store, as that tenant), with defaults a test overrides only where it matters.

export const COM = 'erp_agr/com_comum';

/** Inserts `rows` into `table` as `tenant`; returns the inserted rows (with their ids). */
export async function seed<T extends TenantTable>(
  t: TestApp,
  tenant: string,
  table: T,
  rows: Omit<T['$inferInsert'], 'tenant'>[],
): Promise<T['$inferSelect'][]> {
  if (rows.length === 0) return [];
  return t.db.tenant(
    tenant,
    (tx) => new Store(tx, tenant).insert(table, rows).returning() as Promise<T['$inferSelect'][]>,
  );
}

let counter = 0;

/** A person: a customer by default, active, natural person with no document. */
export function makePessoa(
  overrides: Partial<typeof pessoa.$inferInsert> = {},
): Omit<typeof pessoa.$inferInsert, 'tenant'> {
  counter++;
  return {
    codigo: `P${counter}`,
    nome: `Pessoa ${counter}`,
    tipoPessoa: 'F',
    cliente: true,
    ...overrides,
  };
}

/** POSTs to an operation of com_comum: `kind/operation`. */
export function comCall(t: TestApp, tenant: string, auth: string) {
  return (
    operation: string,
    body: unknown = {},
    options: { method?: 'GET'; query?: Record<string, string> } = {},
  ) => t.call(tenant, `${COM}/${operation}`, body, { auth, ...options });
}
