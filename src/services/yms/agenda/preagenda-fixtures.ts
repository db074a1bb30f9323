import { asc, eq } from 'drizzle-orm';
import type { TestApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { makeTipo, PLANTA, seedPlanta, seedTipos, TIPO } from './fixtures.ts';
import { preAgenda, preAgendaLog } from './tables/preagendas.ts';

// Factories for the pre-agenda tests: pre-agendas inserted straight into a tenant's table in any
// state (the state table needs every source state), and readers of what the operations wrote.

type Row = Omit<typeof preAgenda.$inferInsert, 'tenant' | 'createdBy' | 'lastModifiedBy'>;

let counter = 0;

export const makePreAgenda = (o: Partial<Row> = {}): Row => ({
  plantaId: PLANTA,
  tipoAgendamentoId: TIPO,
  dataEsperada: new Date('2026-04-10T12:00:00Z'),
  descricao: `Pré-agenda ${++counter}`,
  ...o,
});

/** The clock of the pre-agenda tests: before the days their plants are open (TURNOS). */
export const AGORA = new Date('2026-03-01T12:00:00Z');
/** The days the pre-agendas ask for and are converted on (São Paulo time, 30-minute slots). */
const TURNOS: Array<[string, string, string]> = [
  ['2026-04-10', '04:00', '22:00'],
  ['2026-04-11', '04:00', '22:00'],
];

/**
 * The plants (yms/patio) and appointment types a pre-agenda names: `tipos` maps each type's id to
 * its plant's (a pre-agenda's type is one of its plant's). Default: TIPO of PLANTA. The plants are
 * open on TURNOS and the types take 100 agendas a slot: a conversion takes a slot's place.
 */
export async function seedCadastros(
  t: TestApp,
  tenant: string,
  tipos: Record<string, string> = { [TIPO]: PLANTA },
) {
  for (const plantaId of new Set(Object.values(tipos)))
    await seedPlanta(t, tenant, { id: plantaId, turnos: TURNOS });
  await seedTipos(
    t,
    tenant,
    Object.entries(tipos).map(([id, plantaId]) => makeTipo({ id, plantaId, capacidadePorSlot: 100 })),
  );
}

export async function seedPreAgendas(t: TestApp, tenant: string, rows: Row[]) {
  return t.db.tenant(tenant, (tx) =>
    new Store(tx, tenant)
      .insert(
        preAgenda,
        rows.map((r) => ({ createdBy: 'test', lastModifiedBy: 'test', ...r })),
      )
      .returning(),
  );
}

export async function preAgendaRow(t: TestApp, tenant: string, id: string) {
  const [row] = await t.db.tenant(tenant, (tx) =>
    new Store(tx, tenant).select(preAgenda, eq(preAgenda.id, id)),
  );
  return row;
}

export async function logs(t: TestApp, tenant: string, id: string) {
  return t.db.tenant(tenant, (tx) =>
    tx
      .select()
      .from(preAgendaLog)
      .where(new Store(tx, tenant).scope(preAgendaLog, eq(preAgendaLog.preAgendaId, id)))
      .orderBy(asc(preAgendaLog.seq)),
  );
}
