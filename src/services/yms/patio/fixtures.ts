import type { TestApp } from '../../../../test/harness.ts';
import { Store, type TenantTable } from '../../../platform/db/store.ts';
import type { area, planta, vaga, veiculo } from './tables.ts';

// Factories for the yms/patio tests: rows inserted straight into a tenant's tables (through the
// store, as that tenant), with defaults a test overrides only where it matters.

export const PATIO = 'yms/patio';
const audit = { createdBy: 'test', lastModifiedBy: 'test' };

/** Inserts `rows` into `table` as `tenant`; returns the inserted rows. */
export async function seed<T extends TenantTable>(
  t: TestApp,
  tenant: string,
  table: T,
  rows: Omit<T['$inferInsert'], 'tenant' | 'createdBy' | 'lastModifiedBy'>[],
): Promise<T['$inferSelect'][]> {
  if (rows.length === 0) return [];
  return t.db.tenant(
    tenant,
    (tx) =>
      new Store(tx, tenant)
        .insert(table, rows.map((r) => ({ ...audit, ...r })) as never)
        .returning() as Promise<T['$inferSelect'][]>,
  );
}

let counter = 0;
type Row<T extends TenantTable> = Omit<T['$inferInsert'], 'tenant' | 'createdBy' | 'lastModifiedBy'>;

export const makePlanta = (o: Partial<Row<typeof planta>> = {}): Row<typeof planta> => {
  counter++;
  return { codigo: `PL${counter}`, nome: `Planta ${counter}`, ...o };
};
export const makeArea = (plantaId: string, o: Partial<Row<typeof area>> = {}): Row<typeof area> => {
  counter++;
  return { plantaId, codigo: `A${counter}`, descricao: `Área ${counter}`, tipo: 'ESTACIONAMENTO', ...o };
};
export const makeVaga = (areaId: string, rua: number, numero: number, o: Partial<Row<typeof vaga>> = {}) => ({
  areaId,
  rua,
  numero,
  descricao: `Rua ${rua} vaga ${numero}`,
  ...o,
});
export const makeVeiculo = (o: Partial<Row<typeof veiculo>> = {}): Row<typeof veiculo> => {
  counter++;
  return { placa: `TST${String(counter).padStart(4, '0')}`, tipoVeiculo: 'CAMINHAO', ...o };
};

/** POSTs to an operation of yms/patio: `kind/operation`. */
export function patioCall(t: TestApp, tenant: string, auth: string) {
  return (
    operation: string,
    body: unknown = {},
    options: { method?: 'GET' | 'PUT' | 'PATCH' | 'DELETE'; query?: Record<string, string> } = {},
  ) => t.call(tenant, `${PATIO}/${operation}`, body, { auth, ...options });
}
