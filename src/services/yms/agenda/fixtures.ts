import { asc, eq } from 'drizzle-orm';
import type { TestApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { seedPatio, seedPlantaComTurnos } from '../patio/fixtures.ts';
import type { StatusAgendamento } from './states.ts';
import { agenda, agendaHistorico } from './tables/agendas.ts';
import { tipoAgendamento } from './tables/tipos.ts';

// Factories for the yms/agenda tests: agendas inserted straight into a tenant's table in any state
// (the state table needs every source state), and readers of what the operations wrote.

export const AGENDA = 'yms/agenda';
type Row = Omit<typeof agenda.$inferInsert, 'tenant' | 'createdBy' | 'lastModifiedBy' | 'codigo'>;

let counter = 0;
export const PLANTA = '00000000-0000-4000-8000-00000000a001';
export const TIPO = '00000000-0000-4000-8000-00000000b001';

export const makeAgenda = (o: Partial<Row> = {}): Row => ({
  plantaId: PLANTA,
  tipoAgendamentoId: TIPO,
  dataEsperada: new Date('2026-03-10T12:00:00Z'),
  descricao: `Agenda ${++counter}`,
  ...o,
});

/** Inserts agendas as `tenant` with codes far above the counter's (they never collide). */
export async function seedAgendas(t: TestApp, tenant: string, rows: Row[]) {
  return t.db.tenant(tenant, (tx) =>
    new Store(tx, tenant)
      .insert(
        agenda,
        rows.map((r) => ({ createdBy: 'test', lastModifiedBy: 'test', codigo: 900_000 + ++counter, ...r })),
      )
      .returning(),
  );
}

export async function agendaRow(t: TestApp, tenant: string, id: string) {
  const [row] = await t.db.tenant(tenant, (tx) => new Store(tx, tenant).select(agenda, eq(agenda.id, id)));
  return row!;
}

export async function historico(t: TestApp, tenant: string, agendaId: string) {
  return t.db.tenant(tenant, (tx) =>
    tx
      .select()
      .from(agendaHistorico)
      .where(new Store(tx, tenant).scope(agendaHistorico, eq(agendaHistorico.agendaId, agendaId)))
      .orderBy(asc(agendaHistorico.quando), asc(agendaHistorico.id)),
  );
}

export type Status = StatusAgendamento;

/** POSTs to an operation of yms/agenda: `kind/operation`. */
export function agendaCall(t: TestApp, tenant: string, auth: string) {
  return (
    operation: string,
    body: unknown = {},
    options: { method?: 'GET' | 'PUT' | 'PATCH' | 'DELETE'; query?: Record<string, string> } = {},
  ) => t.call(tenant, `${AGENDA}/${operation}`, body, { auth, ...options });
}

// --- appointment types and the plant's open time (tipos.test.ts, horarios.test.ts) ---------------

type TipoRowIn = Omit<typeof tipoAgendamento.$inferInsert, 'tenant' | 'createdBy' | 'lastModifiedBy'>;

export const makeTipo = (o: Partial<TipoRowIn> = {}): TipoRowIn => ({
  codigo: `T${++counter}`,
  descricao: `Tipo ${counter}`,
  operacao: 'DESCARGA',
  plantaId: PLANTA,
  duracaoSlotMinutos: 30,
  capacidadePorSlot: 2,
  antecedenciaMinutos: 0,
  ...o,
});

/** A yms/patio plant (PLANTA by default) with its shifts, as `tenant` (patio's seedPlantaComTurnos). */
export function seedPlanta(
  t: TestApp,
  tenant: string,
  o: Partial<Parameters<typeof seedPlantaComTurnos>[2]> = {},
) {
  return seedPlantaComTurnos(t, tenant, { ...o, id: o.id ?? PLANTA });
}

export async function seedTipos(t: TestApp, tenant: string, rows: TipoRowIn[]) {
  return t.db.tenant(tenant, (tx) =>
    new Store(tx, tenant)
      .insert(
        tipoAgendamento,
        rows.map((r) => ({ createdBy: 'test', lastModifiedBy: 'test', ...r })),
      )
      .returning(),
  );
}

/**
 * The yard of a plant (PLANTA by default, already seeded): what aguardarIntegracao's checked
 * references point at (patio's seedPatio).
 */
export function seedPatioDaPlanta(t: TestApp, tenant: string, plantaId = PLANTA) {
  return seedPatio(t, tenant, plantaId);
}
