import { and, eq, type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../../platform/core/db/database.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { compactRow } from '../../../platform/core/rows.ts';
import type { STATUS_AGENDAMENTO } from './contract.ts';
import { E } from './errors.ts';
import { agenda, agendaHistorico } from './tables/agendas.ts';

// The states of an agenda (spec 000 §3; docs/agenda.md "statusAgendamento") and the few store
// functions every state change goes through: the code counter, the locked read, the history row.

export type StatusAgendamento = (typeof STATUS_AGENDAMENTO)[number];

/** Finished agendas: nothing about them changes any more. */
export const FINALIZADOS: readonly StatusAgendamento[] = ['CONCLUIDO', 'CANCELADO'];

/** statusIntegracao (spec 000 §2.5, values not shown): what an integrating service reports. */
export const STATUS_INTEGRACAO = ['SUCESSO', 'ERRO'] as const;

/** Where the start of the circuit execution stands after a successful integration. */
export type InicioExecucao = 'SOLICITADO' | 'INICIADO' | 'FALHOU';

export type AgendaRow = typeof agenda.$inferSelect;

/** The audit name of the caller, as the entity engine writes it. */
export const quem = (ctx: Pick<Ctx, 'caller'>) =>
  ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind;

/**
 * The next code of the tenant. One statement increments the tenant's counter row and returns it:
 * the row stays locked until the creating transaction ends, so concurrent creations queue on it and
 * never share a code, and a rolled-back creation gives its code back (DESIGN.md "Persistence").
 */
export async function proximoCodigo(ctx: Pick<Ctx, 'tx' | 'tenant'>): Promise<number> {
  const result = await ctx.tx.execute(sql`
    insert into agenda_contador (tenant, n) values (${ctx.tenant.name}, 1)
    on conflict (tenant) do update set n = agenda_contador.n + 1
    returning n`);
  return Number(rowsOf<{ n: number | string }>(result)[0]!.n);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The agenda named by its id or its code, locked FOR UPDATE until the transaction ends, so two
 * state changes of one agenda run one after the other. Unknown (or another tenant's, or outside
 * `alcance`: a partner's user's partners): 404.
 */
export async function agendaParaAlterar(ctx: Ctx, ref: string, alcance?: SQL): Promise<AgendaRow> {
  const trimmed = ref.trim();
  const where = UUID.test(trimmed)
    ? eq(agenda.id, trimmed.toLowerCase())
    : /^\d{1,15}$/.test(trimmed)
      ? eq(agenda.codigo, Number(trimmed))
      : undefined;
  if (!where) throw E.agendaNotFound({ id: ref });
  const [row] = await ctx.tx
    .select()
    .from(agenda)
    .where(ctx.store.scope(agenda, and(where, alcance) as SQL))
    .for('update');
  if (!row) throw E.agendaNotFound({ id: ref });
  return row;
}

/** What `agendaAlterada` tells of an agenda (docs/agenda.md "Events"). */
export type AgendaAvisada = Pick<
  AgendaRow,
  'id' | 'codigo' | 'plantaId' | 'tipoAgendamentoId' | 'dataEsperada'
>;

export const AGENDA_ALTERADA = 'yms/agenda/agendaAlterada';

/**
 * Tells integrations and the console that an agenda was created, changed state, was edited or
 * deleted: the outbox event `yms/agenda/agendaAlterada`, committed with the change.
 */
export async function avisarAgenda(
  ctx: Ctx,
  a: AgendaAvisada,
  operacao: 'CRIADA' | 'ESTADO' | 'ALTERADA' | 'EXCLUIDA',
  extra: { status?: string; de?: string | null; para?: string } = {},
): Promise<void> {
  await ctx.emit(AGENDA_ALTERADA, {
    agendaId: a.id,
    codigo: Number(a.codigo),
    plantaId: a.plantaId,
    tipoAgendamentoId: a.tipoAgendamentoId,
    dataEsperada: new Date(a.dataEsperada).toISOString(),
    operacao,
    ...extra,
  });
}

/** Writes one history row, and tells it: the agenda went from `de` (undefined on creation) to `para`. */
export async function registrarHistorico(
  ctx: Ctx,
  a: AgendaAvisada,
  de: StatusAgendamento | undefined,
  para: StatusAgendamento,
  motivo?: string | null,
): Promise<void> {
  await ctx.store.insert(agendaHistorico, [
    { agendaId: a.id, de: de ?? null, para, quem: quem(ctx), quando: ctx.now(), motivo: motivo ?? null },
  ]);
  await avisarAgenda(ctx, a, de ? 'ESTADO' : 'CRIADA', { status: para, de: de ?? null, para });
}

/**
 * Moves a locked agenda to `para` with `changes`, and writes the history row, in the caller's
 * transaction. Returns the updated row.
 */
export async function mudarEstado(
  ctx: Ctx,
  atual: AgendaRow,
  para: StatusAgendamento,
  changes: Partial<AgendaRow> = {},
  motivo?: string | null,
): Promise<AgendaRow> {
  const [row] = await ctx.store
    .update(
      agenda,
      { ...changes, status: para, lastModifiedBy: quem(ctx), lastModifiedDate: ctx.now() },
      eq(agenda.id, atual.id),
    )
    .returning();
  await registrarHistorico(ctx, atual, atual.status as StatusAgendamento, para, motivo);
  return row!;
}

/** Drops null fields and the tenant: outputs show only what is set. */
export const compact = compactRow;

/**
 * Asks yms/patio to start the circuit execution an agenda recorded (its circuit, initial sequence
 * and spot, vehicle, composition, driver), in the caller's transaction; answers the execution's id.
 * The yard's refusals (4xx) are thrown as they come: each caller decides what a refusal means.
 */
export async function pedirInicioAoPatio(ctx: Ctx, atual: AgendaRow): Promise<string> {
  const { execucaoCircuito } = await ctx.call<{ execucaoCircuito: { id: string } }>(
    'yms/patio/actions/iniciarExecucaoCircuito',
    {
      circuitoId: atual.circuitoId,
      veiculoId: atual.veiculoId,
      agendaId: atual.id,
      ...(atual.motoristaId ? { motoristaId: atual.motoristaId } : {}),
      // The execution's composition: what the yard's veiculoNaoBloqueado looks at (docs/patio.md).
      ...(atual.composicaoVeiculoId ? { composicaoVeiculoId: atual.composicaoVeiculoId } : {}),
      ...(atual.sequenciaInicialId ? { sequenciaInicialId: atual.sequenciaInicialId } : {}),
      ...(atual.vagaInicialId ? { vagaInicialId: atual.vagaInicialId } : {}),
    },
  );
  return execucaoCircuito.id;
}
