import { asc, eq } from 'drizzle-orm';
import type { TestApp } from '../../../../test/harness.ts';
import { comDigitosCpf, semPontuacao } from '../../../platform/core/cpf-cnpj.ts';
import { Store, type TenantTable } from '../../../platform/core/db/store.ts';
import { appendEvent } from '../../../platform/core/outbox.ts';
import { outbox } from '../../../platform/events/tables.ts';
import type { ExecCtx } from './execucao.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { area, planta, turno, vaga } from './tables/plantas.ts';
import { presencaPatio } from './tables/presencas.ts';
import { type motorista, veiculo } from './tables/veiculos.ts';

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

export const makeMotorista = (o: Partial<Row<typeof motorista>> = {}): Row<typeof motorista> => {
  counter++;
  // A valid CPF (check digits) per driver, as the entity requires.
  return { documento: comDigitosCpf(String(100_000_000 + counter)), nome: `Motorista ${counter}`, ...o };
};
export const makeCircuito = (
  plantaId: string,
  o: Partial<Row<typeof circuito>> = {},
): Row<typeof circuito> => {
  counter++;
  return { plantaId, codigo: `C${counter}`, nome: `Circuito ${counter}`, ...o };
};
export const makeSequencia = (
  circuitoId: string,
  ordem: number,
  areaId: string,
  o: Partial<Row<typeof sequenciaCircuito>> = {},
): Row<typeof sequenciaCircuito> => ({ circuitoId, ordem, areaId, nome: `Etapa ${ordem}`, ...o });

/** Runs store functions of yms/patio (iniciarExecucao, alocarVaga…) in a transaction of `tenant`, as the system. */
export function asTenant<T>(
  t: TestApp,
  tenant: string,
  work: (ctx: ExecCtx) => Promise<T>,
  now = () => new Date(),
) {
  return t.db.tenant(tenant, (tx) =>
    work({
      tx,
      store: new Store(tx, tenant),
      now,
      caller: { kind: 'system', scope: 'full' },
      emit: async (topic, payload) => void (await appendEvent(tx, tenant, topic, payload)),
    }),
  );
}

/** The tenant's outbox, in event order. */
export function outboxOf(t: TestApp, tenant: string) {
  return t.db.tenant(tenant, (tx) =>
    tx.select().from(outbox).where(eq(outbox.tenant, tenant)).orderBy(asc(outbox.id)),
  );
}

/**
 * A plant with `id` in `fusoHorario` and its shifts (`[data, horaInicio, horaFim]`), as `tenant`
 * (yms/agenda's tests seed their plant with it).
 */
export async function seedPlantaComTurnos(
  t: TestApp,
  tenant: string,
  o: { id: string; fusoHorario?: string; cnpj?: string; turnos?: Array<[string, string, string]> },
) {
  const id = o.id;
  await t.db.tenant(tenant, async (tx) => {
    const store = new Store(tx, tenant);
    await store.insert(planta, [
      {
        ...audit,
        id,
        codigo: `PL-${id.slice(-4)}`,
        nome: 'Planta de teste',
        fusoHorario: o.fusoHorario ?? 'America/Sao_Paulo',
        // Stored as the entity stores it: digits (listarTurnosPlanta matches them exactly).
        cnpj: o.cnpj === undefined ? null : semPontuacao(o.cnpj),
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

/**
 * The yard of a plant (already seeded): an area with one spot, a circuit and its first sequence on
 * that area.
 */
export async function seedPatio(t: TestApp, tenant: string, plantaId: string) {
  const [a] = await seed(t, tenant, area, [makeArea(plantaId)]);
  const [c] = await seed(t, tenant, circuito, [makeCircuito(plantaId)]);
  const [s] = await seed(t, tenant, sequenciaCircuito, [makeSequencia(c!.id, 1, a!.id)]);
  const [v] = await seed(t, tenant, vaga, [makeVaga(a!.id, 1, 1)]);
  return { circuitoId: c!.id, sequenciaId: s!.id, vagaId: v!.id };
}

/** `n` new trucks in the plant's yard since `entradaEm` (no area reported yet). */
export async function caminhoesNoPatio(
  t: TestApp,
  tenant: string,
  plantaId: string,
  n: number,
  entradaEm = new Date(),
) {
  const vs = await seed(
    t,
    tenant,
    veiculo,
    Array.from({ length: n }, () => makeVeiculo()),
  );
  await seed(
    t,
    tenant,
    presencaPatio,
    vs.map((v) => ({ plantaId, veiculoId: v.id, placa: v.placa, entradaEm })),
  );
  return vs;
}
