import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import { quem } from './states.ts';
import { preAgenda, preAgendaLog } from './tables/preagendas.ts';

// The states of a pre-agenda (spec 000 §2.5 statusPreAgenda, values not shown: docs/agenda.md
// "statusPreAgenda") as data: which operation may start from which state. The state actions, the
// entity's hooks and the table-driven test all read TRANSICOES.

export const STATUS_PRE_AGENDA = [
  'PENDENTE',
  'EM_APROVACAO',
  'APROVADA',
  'REPROVADA',
  'CANCELADA',
  'CONVERTIDA',
] as const;
export type StatusPreAgenda = (typeof STATUS_PRE_AGENDA)[number];

/** Final states: nothing about the pre-agenda changes any more. */
export const FINAIS: readonly StatusPreAgenda[] = ['CANCELADA', 'CONVERTIDA'];

/** Operation → the states it may start from, and the state it leads to. */
export const TRANSICOES = {
  aprovarPreAgenda: {
    de: ['PENDENTE', 'EM_APROVACAO'],
    para: 'EM_APROVACAO while levels remain, APROVADA at the last',
  },
  reprovarPreAgenda: { de: ['PENDENTE', 'EM_APROVACAO'], para: 'REPROVADA' },
  cancelarPreAgenda: { de: ['PENDENTE', 'EM_APROVACAO', 'APROVADA', 'REPROVADA'], para: 'CANCELADA' },
  reenviarPreAgenda: { de: ['REPROVADA'], para: 'PENDENTE' },
  converterPreAgenda: { de: ['APROVADA'], para: 'CONVERTIDA' },
  /** Entity PUT/PATCH: the requester fixes the request before (re)sending it. */
  editar: { de: ['PENDENTE', 'REPROVADA'], para: 'unchanged' },
  /** Entity DELETE: nothing was decided yet. */
  excluir: { de: ['PENDENTE'], para: '(removed)' },
} as const satisfies Record<string, { de: readonly StatusPreAgenda[]; para: string }>;
export type OperacaoPreAgenda = keyof typeof TRANSICOES;

export type PreAgendaRow = typeof preAgenda.$inferSelect;

/** Refuses `operacao` on a pre-agenda in a state it may not start from: 409 (422 for a delete). */
export function exigirEstado(row: Pick<PreAgendaRow, 'id' | 'status'>, operacao: OperacaoPreAgenda): void {
  const status = row.status as StatusPreAgenda;
  const permitidos: readonly StatusPreAgenda[] = TRANSICOES[operacao].de;
  if (permitidos.includes(status)) return;
  if (operacao === 'excluir') throw E.preAgendaExclusaoNaoPermitida({ id: row.id, status });
  if (FINAIS.includes(status)) throw E.preAgendaFinalizada({ id: row.id, status });
  if (operacao === 'editar') throw E.preAgendaNaoEditavel({ id: row.id, status });
  throw E.preAgendaEstadoInvalido({ id: row.id, status, operacao, esperado: permitidos.join(' ou ') });
}

/** The pre-agenda, locked FOR UPDATE until the transaction ends; unknown or another tenant's: 404. */
export async function preAgendaParaAlterar(ctx: Ctx, id: string): Promise<PreAgendaRow> {
  const [row] = await ctx.tx
    .select()
    .from(preAgenda)
    .where(ctx.store.scope(preAgenda, eq(preAgenda.id, id.toLowerCase())))
    .for('update');
  if (!row) throw E.preAgendaNotFound({ id });
  return row;
}

export type AcaoLog =
  | 'CRIADA'
  | 'ALTERADA'
  | 'APROVACAO'
  | 'REPROVACAO'
  | 'CANCELAMENTO'
  | 'REENVIO'
  | 'CONVERSAO'
  | 'EXCLUIDA';

/** Writes one PreAgendaLog row. */
export async function registrarLog(
  ctx: Ctx,
  preAgendaId: string,
  acao: AcaoLog,
  de: string | null | undefined,
  para: string | null | undefined,
  extra: { motivo?: string | null; alteracoes?: Record<string, { de: unknown; para: unknown }> } = {},
): Promise<void> {
  await ctx.store.insert(preAgendaLog, [
    {
      preAgendaId,
      acao,
      de: de ?? null,
      para: para ?? null,
      motivo: extra.motivo ?? null,
      alteracoes: extra.alteracoes ?? null,
      quem: quem(ctx),
      quando: ctx.now(),
    },
  ]);
}

/** Moves a locked pre-agenda to `para` with `changes`, writing its log row. */
export async function mudarEstadoPre(
  ctx: Ctx,
  atual: PreAgendaRow,
  para: StatusPreAgenda,
  acao: AcaoLog,
  changes: Partial<PreAgendaRow> = {},
  motivo?: string | null,
): Promise<PreAgendaRow> {
  const [row] = await ctx.store
    .update(
      preAgenda,
      { ...changes, status: para, lastModifiedBy: quem(ctx), lastModifiedDate: ctx.now() },
      eq(preAgenda.id, atual.id),
    )
    .returning();
  await registrarLog(ctx, atual.id, acao, atual.status, para, { motivo: motivo ?? null });
  return row!;
}
