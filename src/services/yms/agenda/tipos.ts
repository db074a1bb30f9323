import { and, count, eq, inArray } from 'drizzle-orm';
import { statement } from '../../../platform/core/db/statement.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { Double, Enum, Int64, type Static, type TSchema, Type } from '../../../platform/core/schema.ts';
import { DO_PATIO } from './contract.ts';
import { E } from './errors.ts';
import { exigirPlantaECircuito } from './referencias.ts';
import { compact, quem, type StatusAgendamento } from './states.ts';
import { agenda } from './tables/agendas.ts';
import { tipoAgendamento as tipoTable } from './tables/tipos.ts';

// Appointment types (spec 000 §2.5, §4.4, §4.5; docs/agenda.md "Appointment types"): the entity
// for their fields, the actions that activate, deactivate, block and unblock them (the only way
// `ativo`, `bloqueado` and `motivoBloqueio` change), and the query that tells whether a type still
// has agendas in progress.

export const OPERACOES = ['CARGA', 'DESCARGA'] as const;
/** The longest slot: one day. */
export const MAX_DURACAO_SLOT = 1440;

/** States of an agenda "scheduled or executing" (getExisteAgenda…): every state that is not final. */
export const PENDENTES: StatusAgendamento[] = [
  'AGENDADO',
  'AGUARDANDO_INTEGRACAO',
  'EXECUTANDO',
  'ERRO_INTEGRACAO',
];

const readOnly = <T extends TSchema>(schema: T, what: string) =>
  Type.Optional({ ...schema, description: `read-only: ${what}; a value sent is ignored` } as T);

export const tipoAgendamento = defineEntity({
  name: 'tipoAgendamento',
  description:
    'Appointment types: loading or unloading at a plant, slot length, capacity per slot and lead time; ' +
    'activated, deactivated, blocked and unblocked only through their actions',
  table: tipoTable,
  naturalKey: ['codigo'],
  references: { plantaId: DO_PATIO.plantaId, circuitoId: 'yms/patio/circuito' },
  fields: Type.Object({
    codigo: Type.String({ minLength: 1, maxLength: 50, description: 'unique in the tenant' }),
    descricao: Type.String({ minLength: 1, maxLength: 255 }),
    operacao: Enum(OPERACOES, { description: 'CARGA (loading) or DESCARGA (unloading)' }),
    plantaId: Type.String({ format: 'uuid', description: 'the plant (yms/patio planta.id)' }),
    circuitoId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'the yard circuit (yms/patio circuito.id) the appointments run',
      }),
    ),
    duracaoSlotMinutos: Int64({
      minimum: 5,
      maximum: MAX_DURACAO_SLOT,
      description: 'length of a slot, in minutes; slots start at the opening of a shift',
    }),
    minutosPorUnidade: Type.Optional(
      Double({
        minimum: 0,
        maximum: 1440,
        description:
          'execution rate: minutes per unit of associacaoAgendamento.quantidade; the execution takes ' +
          'quantidade × minutosPorUnidade rounded up to whole slots (absent: one slot)',
      }),
    ),
    capacidadePorSlot: Int64({ minimum: 1, maximum: 10_000, description: 'agendas a slot holds' }),
    antecedenciaMinutos: Type.Optional(
      Int64({
        minimum: 0,
        maximum: 525_600,
        default: 0,
        description: 'lead time: a slot is booked at least this many minutes before it starts',
      }),
    ),
    ativo: readOnly(Type.Boolean(), 'true on creation; ativarTipoAgendamento, desativarTipoAgendamento'),
    bloqueado: readOnly(Type.Boolean(), 'bloquearTipoAgendamento, desbloquearTipoAgendamento'),
    motivoBloqueio: readOnly(Type.String(), 'the reason given by bloquearTipoAgendamento'),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.antecedenciaMinutos ??= 0;
      const referencias = {
        plantaId: String(next.plantaId),
        circuitoId: (next.circuitoId as string | null | undefined) ?? null,
      };
      if (previous) {
        for (const f of ['ativo', 'bloqueado', 'motivoBloqueio'] as const) next[f] = previous[f] ?? null;
        // Checked when they change (a type saved before the checks keeps working).
        if (next.plantaId !== previous.plantaId || referencias.circuitoId !== (previous.circuitoId ?? null))
          await exigirPlantaECircuito(ctx, referencias);
        return;
      }
      next.ativo = true;
      next.bloqueado = false;
      next.motivoBloqueio = null;
      await exigirPlantaECircuito(ctx, referencias);
    },
    beforeDelete: async (ctx, row) => {
      // A type that agendas name stays (deactivate it): their history must keep its meaning.
      const [n] = await ctx.tx
        .select({ n: count() })
        .from(agenda)
        .where(ctx.store.scope(agenda, eq(agenda.tipoAgendamentoId, String(row.id))));
      if ((n?.n ?? 0) > 0) throw E.tipoEmUso({ codigo: String(row.codigo), n: n!.n });
    },
  },
});

export type TipoRow = typeof tipoTable.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A type by id or by code (the slots of horarioOperacao read it on every call), built once. */
const tipoPorId = statement('yms.agenda.tipoPorId', (b) =>
  b.db
    .select()
    .from(tipoTable)
    .where(b.scope(tipoTable, eq(tipoTable.id, b.param('id')))),
);
const tipoPorCodigo = statement('yms.agenda.tipoPorCodigo', (b) =>
  b.db
    .select()
    .from(tipoTable)
    .where(b.scope(tipoTable, eq(tipoTable.codigo, b.param('codigo')))),
);

/** The type named by its id or its code; `lock` holds it FOR UPDATE until the transaction ends. 404 otherwise. */
export async function tipoPorRef(ctx: Ctx, ref: string, lock = false): Promise<TipoRow> {
  const trimmed = ref.trim();
  const porId = UUID.test(trimmed);
  const where = porId ? eq(tipoTable.id, trimmed.toLowerCase()) : eq(tipoTable.codigo, trimmed);
  const [row] = lock
    ? await ctx.tx.select().from(tipoTable).where(ctx.store.scope(tipoTable, where)).for('update')
    : porId
      ? await ctx.store.run(tipoPorId, { id: trimmed.toLowerCase() })
      : await ctx.store.run(tipoPorCodigo, { codigo: trimmed });
  if (!row) throw E.tipoNotFound({ id: ref });
  return row;
}

/**
 * The id of the type `ref` names: an id as it is (lower case; checked where it is used), a code
 * resolved in the tenant. A code of no type is 422 naming tipoAgendamentoId, as an unknown id is
 * (docs/agenda.md "References").
 */
export async function idDoTipo(ctx: Ctx, ref: unknown): Promise<string> {
  const text = String(ref).trim();
  if (UUID.test(text)) return text.toLowerCase();
  const [row] = await ctx.store.select(tipoTable, eq(tipoTable.codigo, text));
  if (!row) throw E.tipoInexistente({ id: text });
  return row.id;
}

const Tipo = tipoAgendamento.schema;
/** A type as a client holds it: the record, of which the id (or else the code) names it. */
const TipoRef = Type.Object(
  {
    ...(Type.Partial(tipoAgendamento.schema).properties as object),
    id: Type.Optional(Type.String({ format: 'uuid' })),
    codigo: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  },
  { title: 'tipoAgendamentoRef', description: 'the appointment type: its id, or else its codigo, names it' },
);

function refDe(tipo: Static<typeof TipoRef>): string {
  const ref = tipo.id ?? tipo.codigo;
  if (!ref) throw E.tipoSemReferencia();
  return ref;
}

async function alterar(ctx: Ctx, atual: TipoRow, changes: Partial<TipoRow>) {
  const [row] = await ctx.store
    .update(
      tipoTable,
      { ...changes, lastModifiedBy: quem(ctx), lastModifiedDate: ctx.now() },
      eq(tipoTable.id, atual.id),
    )
    .returning();
  return { tipoAgendamento: compact(row!) as never };
}

export const tipos = {
  ativarTipoAgendamento: action({
    description:
      'Activates an appointment type: its slots can be booked again (unless it is blocked). Already active: unchanged',
    input: Type.Object({ tipoAgendamento: TipoRef }),
    output: Type.Object({ tipoAgendamento: Tipo }),
    handler: async (ctx, input) => {
      const atual = await tipoPorRef(ctx, refDe(input.tipoAgendamento), true);
      return alterar(ctx, atual, { ativo: true });
    },
  }),

  desativarTipoAgendamento: action({
    description:
      'Deactivates an appointment type: no new booking or rescheduling to it; its agendas in progress stay as ' +
      'they are (getExisteAgendaAgendadoExecucaoComTipoAgendamento tells whether there are any)',
    input: Type.Object({ tipoAgendamento: TipoRef }),
    output: Type.Object({ tipoAgendamento: Tipo }),
    handler: async (ctx, input) => {
      const atual = await tipoPorRef(ctx, refDe(input.tipoAgendamento), true);
      return alterar(ctx, atual, { ativo: false });
    },
  }),

  bloquearTipoAgendamento: action({
    description:
      'Blocks an appointment type with a reason: its slots show TIPO_BLOQUEADO and cannot be booked until unblocked',
    input: Type.Object({
      id: Type.String({ minLength: 1, maxLength: 50, description: 'the type: its id or its code' }),
      motivo: Type.String({ minLength: 1, maxLength: 255, description: 'why; shown to the carriers' }),
    }),
    output: Type.Object({ tipoAgendamento: Tipo }),
    handler: async (ctx, input) => {
      const motivo = input.motivo.trim();
      if (!motivo) throw E.motivoObrigatorio();
      const atual = await tipoPorRef(ctx, input.id, true);
      return alterar(ctx, atual, { bloqueado: true, motivoBloqueio: motivo });
    },
  }),

  desbloquearTipoAgendamento: action({
    description: 'Unblocks an appointment type and clears its reason. Not blocked: unchanged',
    input: Type.Object({
      id: Type.String({ minLength: 1, maxLength: 50, description: 'the type: its id or its code' }),
    }),
    output: Type.Object({ tipoAgendamento: Tipo }),
    handler: async (ctx, input) => {
      const atual = await tipoPorRef(ctx, input.id, true);
      return alterar(ctx, atual, { bloqueado: false, motivoBloqueio: null });
    },
  }),

  getExisteAgendaAgendadoExecucaoComTipoAgendamento: query({
    description:
      'Whether an agenda of the type is scheduled or executing: in AGENDADO, AGUARDANDO_INTEGRACAO, EXECUTANDO ' +
      'or ERRO_INTEGRACAO (every state but CONCLUIDO and CANCELADO)',
    input: Type.Object({ tipoAgendamento: TipoRef }),
    output: Type.Object({ possuiAgendamento: Type.Boolean() }),
    handler: async (ctx, input) => {
      const tipo = await tipoPorRef(ctx, refDe(input.tipoAgendamento));
      const [row] = await ctx.tx
        .select({ id: agenda.id })
        .from(agenda)
        .where(
          ctx.store.scope(
            agenda,
            and(eq(agenda.tipoAgendamentoId, tipo.id), inArray(agenda.status, PENDENTES)),
          ),
        )
        .limit(1);
      return { possuiAgendamento: row !== undefined };
    },
  }),
};
