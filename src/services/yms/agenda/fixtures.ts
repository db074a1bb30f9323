import { asc, eq } from 'drizzle-orm';
import type { TestApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { makeArea, makeCircuito, makeSequencia, makeVaga, seed } from '../patio/fixtures.ts';
import { circuito, sequenciaCircuito } from '../patio/tables/circuitos.ts';
import { area, planta, turno, vaga } from '../patio/tables/plantas.ts';
import type { StatusAgendamento } from './states.ts';
import { agenda, agendaHistorico, tipoAgendamento } from './tables.ts';

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

/**
 * A yms/patio plant with `id` in `fusoHorario`, its shifts (`[data, horaInicio, horaFim]`) and
 * the types given, as `tenant`.
 */
export async function seedPlanta(
  t: TestApp,
  tenant: string,
  o: { id?: string; fusoHorario?: string; cnpj?: string; turnos?: Array<[string, string, string]> } = {},
) {
  const id = o.id ?? PLANTA;
  await t.db.tenant(tenant, async (tx) => {
    const store = new Store(tx, tenant);
    const audit = { createdBy: 'test', lastModifiedBy: 'test' };
    await store.insert(planta, [
      {
        ...audit,
        id,
        codigo: `PL-${id.slice(-4)}`,
        nome: 'Planta de teste',
        fusoHorario: o.fusoHorario ?? 'America/Sao_Paulo',
        cnpj: o.cnpj ?? null,
      },
    ]);
    if (o.turnos?.length)
      await store.insert(
        turno,
        o.turnos.map(([data, horaInicio, horaFim]) => ({
          ...audit,
          plantaId: id,
          data,
          horaInicio,
          horaFim,
        })),
      );
  });
  return id;
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
 * The yard of a plant (PLANTA by default, already seeded): an area with one spot, a circuit and its
 * first sequence on that area. What aguardarIntegracao's checked references point at.
 */
export async function seedPatioDaPlanta(t: TestApp, tenant: string, plantaId = PLANTA) {
  const [a] = await seed(t, tenant, area, [makeArea(plantaId)]);
  const [c] = await seed(t, tenant, circuito, [makeCircuito(plantaId)]);
  const [s] = await seed(t, tenant, sequenciaCircuito, [makeSequencia(c!.id, 1, a!.id)]);
  const [v] = await seed(t, tenant, vaga, [makeVaga(a!.id, 1, 1)]);
  return { circuitoId: c!.id, sequenciaId: s!.id, vagaId: v!.id };
}
