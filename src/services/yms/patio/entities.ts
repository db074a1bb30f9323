import { asc, eq, inArray } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  CNPJ_ESCRITO,
  CPF_ESCRITO,
  cnpjValido,
  cpfValido,
  semPontuacao,
} from '../../../platform/core/cpf-cnpj.ts';
import type { TenantTable } from '../../../platform/core/db/store.ts';
import type { Ctx, EntityRow } from '../../../platform/core/declarations.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { DateOnly, DateTime, Enum, Int64, Type } from '../../../platform/core/schema.ts';
import { Id, ReadOnly, Str } from './common.ts';
import { conferirNovaCategoria, conferirPosicoes, type Peca } from './composicoes.ts';
import { ComposicaoVeiculoCampos } from './contract.ts';
import { E } from './errors.ts';
import {
  area as areaTable,
  planta as plantaTable,
  turno as turnoTable,
  vaga as vagaTable,
} from './tables/plantas.ts';
import {
  composicaoVeiculo as composicaoTable,
  motorista as motoristaTable,
  veiculo as veiculoTable,
} from './tables/veiculos.ts';

// The generic entities of yms/patio (routes of spec 000 §2.3; fields: docs/patio.md). Hooks check
// what a schema cannot: references within the tenant (422), the defaults of not-null fields (PUT
// replaces every field), and the state fields that only the yard's actions change (read-only here).

const opt = Type.Optional;

export const TIPOS_AREA = [
  'PORTARIA',
  'ESTACIONAMENTO',
  'BALANCA',
  'DOCA',
  'ARMAZEM',
  'INSPECAO',
  'SAIDA',
  'OUTRO',
] as const;
export const TIPOS_VEICULO = [
  'CAVALO_MECANICO',
  'CAMINHAO',
  'REBOQUE',
  'SEMIRREBOQUE',
  'UTILITARIO',
  'OUTRO',
] as const;

/** HH:mm, 00:00 to 23:59. */
export const HORA = '^([01]\\d|2[0-3]):[0-5]\\d$';
export const Hora = (description: string) =>
  Type.String({ pattern: HORA, description: `${description} (HH:mm)` });
const PLACA = '^[A-Za-z]{3}-?\\d[A-Za-z0-9]\\d{2}$';
const CPF = `^${CPF_ESCRITO}$`;
const CNPJ = `^${CNPJ_ESCRITO}$`;

const digits = (value: unknown) => (typeof value === 'string' ? semPontuacao(value) : value);
/**
 * Whether a CPF or CNPJ must have its check digits verified (platform/core/cpf-cnpj.ts): a value
 * written now, not one the record already held (a row stored before the check keeps its number
 * through edits of other fields, until someone changes it).
 */
const novo = (value: unknown, previous: unknown): value is string =>
  typeof value === 'string' && value !== previous;
/** Plates are stored upper case without the dash: ABC-1D23 → ABC1D23. */
export const normalizePlaca = (placa: string) => placa.replace('-', '').toUpperCase();

/** 422 when `id` is not a row of `table` in the caller's tenant. */
export async function mustExist(
  ctx: Ctx,
  table: TenantTable & { id: AnyPgColumn },
  record: string,
  field: string,
  id: unknown,
): Promise<void> {
  const [row] = await ctx.store.select(table, eq(table.id, String(id)));
  if (!row) throw E.referenceNotFound({ record, id: String(id), field });
}

/**
 * Whether a composition of these parts is blocked: by its own reason or by a blocked part; and the
 * parts found (those of the tenant), by id.
 */
export async function bloqueioDaComposicao(
  ctx: Ctx,
  partes: string[],
  motivo: string | null,
): Promise<{ bloqueado: boolean; pecas: Map<string, Peca> }> {
  // The parts FOR SHARE, in id order: a part's block change (bloqueios.ts) or category change (the
  // veiculo entity) waits for this composition's write to commit, then sees it; or this read waits
  // for it, and sees what it wrote.
  const pecas = await ctx.tx
    .select({
      id: veiculoTable.id,
      placa: veiculoTable.placa,
      tipoVeiculo: veiculoTable.tipoVeiculo,
      bloqueado: veiculoTable.bloqueado,
    })
    .from(veiculoTable)
    .where(ctx.store.scope(veiculoTable, inArray(veiculoTable.id, partes)))
    .orderBy(asc(veiculoTable.id))
    .for('share');
  return {
    bloqueado: motivo !== null || pecas.some((p) => p.bloqueado),
    pecas: new Map(pecas.map((p) => [p.id, p])),
  };
}

/** Keeps the fields only the yard's actions change: their stored value, or the default on create. */
function keep(
  next: Record<string, unknown>,
  previous: EntityRow | undefined,
  defaults: Record<string, unknown>,
) {
  for (const [field, value] of Object.entries(defaults)) next[field] = previous?.[field] ?? value;
}

/** The spot, locked FOR UPDATE until the transaction ends (allocations wait or skip it meanwhile). */
async function vagaTravada(ctx: Ctx, id: string): Promise<EntityRow | undefined> {
  const [row] = await ctx.tx
    .select()
    .from(vagaTable)
    .where(ctx.store.scope(vagaTable, eq(vagaTable.id, id)))
    .for('update');
  return row as EntityRow | undefined;
}

export const planta = defineEntity({
  name: 'planta',
  description: 'Plants (units of the company) whose yard is run here, each in its time zone',
  table: plantaTable,
  naturalKey: ['codigo'],
  // yms/agenda names a plant by its CNPJ too (horarioOperacao): one plant per CNPJ in the tenant,
  // decided by the unique index (two plants created at once with one CNPJ: one 409).
  uniqueKeys: { patio_planta_cnpj: ['cnpj'] },
  fields: Type.Object({
    codigo: Str(20, 'plant code, unique in the tenant', 1),
    nome: Str(100, undefined, 1),
    cnpj: opt(
      Type.String({
        pattern: CNPJ,
        description:
          'CNPJ, 14 characters, numeric or alphanumeric (punctuation allowed), check digits verified; stored without punctuation, letters upper case; unique in the tenant',
      }),
    ),
    fusoHorario: opt(Str(64, 'IANA time zone, default America/Sao_Paulo')),
    ativo: opt(Type.Boolean({ description: 'default true' })),
  }),
  hooks: {
    beforeSave: async (_ctx, next, previous) => {
      next.fusoHorario ??= 'America/Sao_Paulo';
      next.ativo ??= true;
      next.cnpj = digits(next.cnpj);
      if (novo(next.cnpj, previous?.cnpj) && !cnpjValido(next.cnpj))
        throw E.cnpjInvalido({ cnpj: next.cnpj });
      try {
        new Intl.DateTimeFormat('en', { timeZone: String(next.fusoHorario) });
      } catch {
        throw E.fusoInvalido({ fuso: String(next.fusoHorario) });
      }
    },
  },
});

export const area = defineEntity({
  name: 'area',
  description: 'Areas of a plant: gate, parking, scale, dock, warehouse, inspection, exit',
  table: areaTable,
  naturalKey: ['plantaId', 'codigo'],
  fields: Type.Object({
    plantaId: Id('the plant (planta.id)'),
    codigo: Str(20, 'area code, unique in the plant', 1),
    descricao: Str(100, undefined, 1),
    tipo: Enum(TIPOS_AREA, { description: 'kind of area' }),
    ativo: opt(Type.Boolean({ description: 'default true' })),
    ws_users: opt(
      Type.String({
        maxLength: 2000,
        description:
          'who gets the area’s queue events (wsFilaItem): comma-separated user names; empty, every console',
      }),
    ),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.ativo ??= true;
      if (next.plantaId !== previous?.plantaId)
        await mustExist(ctx, plantaTable, 'planta', 'plantaId', next.plantaId);
    },
  },
});

/**
 * The job that hands on a spot an edit freed (created, activated or unblocked through the vaga
 * entity, whose hook enqueues it with the spot's area; automacao-jobs.ts runs fila.ts entregarVagas)
 * in a transaction of its own, which takes the area's lock before any spot's, as an arrival does:
 * the edit holds the spot's row, and taking the area's lock then could deadlock with an arrival.
 */
export const ENTREGAR_VAGAS = 'entregarVagas';

/** The areas whose hand-on a transaction already enqueued: one job per area, whatever a bulk frees. */
const ENTREGAS_PEDIDAS = Symbol('yms/patio: entregas pedidas');
async function entregarDepois(ctx: Ctx, areaId: unknown): Promise<void> {
  const pedidas = ctx.transactionLocal(ENTREGAS_PEDIDAS, () => new Set<unknown>());
  if (pedidas.has(areaId)) return;
  pedidas.add(areaId);
  await ctx.enqueue(ENTREGAR_VAGAS, { areaId });
}

export const vaga = defineEntity({
  name: 'vaga',
  description:
    'Parking spots of an area, by street (rua) and number; free when unoccupied, active and unblocked',
  table: vagaTable,
  naturalKey: ['areaId', 'rua', 'numero'],
  fields: Type.Object({
    areaId: Id('the area (area.id)'),
    rua: Int64({ minimum: 0, maximum: 999_999, description: 'street (row) of the spot' }),
    numero: Int64({ minimum: 0, maximum: 999_999, description: 'number of the spot in its street' }),
    descricao: opt(Str(100)),
    ativo: opt(Type.Boolean({ description: 'default true' })),
    bloqueio: opt(Type.Boolean({ description: 'blocked (maintenance, reserved); default false' })),
    motivoBloqueio: opt(Str(255, 'required when bloqueio is true; cleared when false')),
    ocupada: ReadOnly(Type.Boolean(), 'set by spot allocation'),
    veiculoId: ReadOnly(Type.String({ format: 'uuid' }), 'the vehicle in the spot, set by spot allocation'),
    ocupadaEm: ReadOnly(DateTime(), 'when the spot was occupied'),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.ativo ??= true;
      next.bloqueio ??= false;
      // The occupation belongs to spot allocation (vagas.ts), which decides it under this row's lock:
      // an edit reads it locked, never from the engine's earlier unlocked read, so it cannot write
      // back a spot as free that an allocation took meanwhile.
      const atual = previous ? await vagaTravada(ctx, String(previous.id)) : undefined;
      keep(next, atual, { ocupada: false, veiculoId: null, ocupadaEm: null });
      if (next.bloqueio && !next.motivoBloqueio) throw E.motivoObrigatorio({ record: 'a vaga' });
      if (!next.bloqueio) next.motivoBloqueio = null;
      if (next.areaId !== previous?.areaId) await mustExist(ctx, areaTable, 'area', 'areaId', next.areaId);
      // A spot this edit frees (created, activated, unblocked, moved to another area) goes to the
      // area's queue at once, by a job that takes the area's lock first (ENTREGAR_VAGAS).
      const livre = (v: Record<string, unknown> | undefined) =>
        !!v && !v.ocupada && v.ativo !== false && !v.bloqueio;
      if (livre(next) && (!livre(atual) || atual?.areaId !== next.areaId))
        await entregarDepois(ctx, next.areaId);
    },
    beforeDelete: async (ctx, lida) => {
      const row = await vagaTravada(ctx, String(lida.id));
      if (row?.ocupada) {
        throw E.vagaOcupada({
          rua: Number(row.rua),
          numero: Number(row.numero),
          veiculoId: String(row.veiculoId),
        });
      }
    },
  },
});

export const veiculo = defineEntity({
  name: 'veiculo',
  description: 'Vehicles by plate; blocked vehicles carry the reason',
  table: veiculoTable,
  naturalKey: ['placa'],
  fields: Type.Object({
    placa: Type.String({
      pattern: PLACA,
      description: 'plate, old or Mercosul format (ABC1234, ABC1D23); stored upper case without dash',
    }),
    tipoVeiculo: Enum(TIPOS_VEICULO),
    descricao: opt(Str(100)),
    renavam: opt(Type.String({ pattern: '^\\d{9,11}$', description: 'RENAVAM, 9 to 11 digits' })),
    bloqueado: ReadOnly(Type.Boolean(), 'changed by bloquearVeiculo / desbloquearVeiculo'),
    motivoBloqueio: ReadOnly(Type.String(), 'reason of the block'),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.placa = normalizePlaca(String(next.placa));
      keep(next, previous, { bloqueado: false, motivoBloqueio: null });
      // Its place in a composition must still take its category (composicoes.ts).
      if (previous && next.tipoVeiculo !== previous.tipoVeiculo)
        await conferirNovaCategoria(ctx, String(previous.id), String(next.placa), String(next.tipoVeiculo));
    },
  },
});

export const motorista = defineEntity({
  name: 'motorista',
  description: 'Drivers by document (CPF); blocked drivers carry the reason',
  table: motoristaTable,
  naturalKey: ['documento'],
  fields: Type.Object({
    documento: Type.String({
      pattern: CPF,
      description: 'CPF, 11 digits (punctuation allowed), check digits verified; stored as digits',
    }),
    nome: Str(150, undefined, 1),
    cnh: opt(Type.String({ pattern: '^\\d{11}$', description: 'driving licence number, 11 digits' })),
    telefone: opt(Str(20)),
    bloqueado: ReadOnly(Type.Boolean(), 'changed by bloquearMotorista / desbloquearMotorista'),
    motivoBloqueio: ReadOnly(Type.String(), 'reason of the block'),
  }),
  hooks: {
    beforeSave: async (_ctx, next, previous) => {
      next.documento = digits(next.documento);
      if (novo(next.documento, previous?.documento) && !cpfValido(next.documento))
        throw E.cpfInvalido({ documento: next.documento });
      keep(next, previous, { bloqueado: false, motivoBloqueio: null });
    },
  },
});

export const composicaoVeiculo = defineEntity({
  name: 'composicaoVeiculo',
  description:
    'A tractor (or truck) and its trailers; blocked when it has its own reason or any part is blocked',
  table: composicaoTable,
  fields: ComposicaoVeiculoCampos,
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.reboqueIds ??= [];
      keep(next, previous, { motivoBloqueio: null });
      const partes = [String(next.cavaloId), ...(next.reboqueIds as string[])];
      const repetido = partes.find((id, i) => partes.indexOf(id) !== i);
      if (repetido) throw E.composicaoCavaloReboque({ id: repetido });
      const { bloqueado, pecas } = await bloqueioDaComposicao(
        ctx,
        partes,
        next.motivoBloqueio as string | null,
      );
      const peca = (id: string) => {
        const p = pecas.get(id);
        if (!p) throw E.referenceNotFound({ record: 'veiculo', id, field: 'cavaloId/reboqueIds' });
        return p;
      };
      const [cavalo, ...reboques] = partes.map(peca);
      // Each vehicle in a place its category takes (composicoes.ts), read under the parts' lock.
      conferirPosicoes(cavalo!, reboques);
      next.bloqueado = bloqueado;
    },
  },
});

export const turno = defineEntity({
  name: 'turno',
  description: "Work shifts of a plant on a date, in the plant's time zone",
  table: turnoTable,
  naturalKey: ['plantaId', 'data', 'horaInicio', 'horaFim'],
  fields: Type.Object({
    plantaId: Id('the plant (planta.id)'),
    data: DateOnly({ description: 'the day the shift starts' }),
    horaInicio: Hora('start'),
    horaFim: Hora('end; before horaInicio: the shift ends on the next day'),
    descricao: opt(Str(100)),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      if (next.horaInicio === next.horaFim) throw E.horarioInvalido({ hora: String(next.horaInicio) });
      if (next.plantaId !== previous?.plantaId)
        await mustExist(ctx, plantaTable, 'planta', 'plantaId', next.plantaId);
    },
  },
});

export const patioEntities = [planta, area, vaga, veiculo, motorista, composicaoVeiculo, turno];
