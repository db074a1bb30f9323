import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { DateTime, Int64, Type } from '../../../platform/core/schema.ts';
import { DO_PATIO } from './contract.ts';
import { E } from './errors.ts';
import {
  exigirEstado,
  mudarEstadoPre,
  type PreAgendaRow,
  preAgendaParaAlterar,
  type StatusPreAgenda,
} from './preagenda-estados.ts';
import { StatusPreAgenda as StatusPreAgendaSchema } from './schemas.ts';
import { compact, quem } from './states.ts';
import {
  configuracaoAprovacaoAgenda,
  historicoAprovacaoAgenda,
  historicoAprovacaoAgendaItem,
  preAgenda,
  preAgendaLog,
} from './tables/preagendas.ts';

// The approval of pre-agendas (docs/agenda.md "Approval"): ConfiguracaoAprovacaoAgenda says, per
// plant and appointment type, whether approval is needed, in how many levels and by whom; each
// approval process is a HistoricoAprovacaoAgenda with one HistoricoAprovacaoAgendaItem per decision.

export const MAX_NIVEIS = 10;
type Aprovador = { nivel: number; usuario: string };

const Aprovadores = Type.Array(
  Type.Object({
    nivel: Int64({ minimum: 1, maximum: MAX_NIVEIS, description: 'the level this person decides' }),
    usuario: Type.String({ minLength: 1, maxLength: 255, description: 'the approver (user name or e-mail)' }),
  }),
  { maxItems: 100, description: 'who may decide each level; a level without names accepts any approver' },
);

export const configuracaoAprovacaoAgendaEntity = defineEntity({
  name: 'configuracaoAprovacaoAgenda',
  description:
    'Whether pre-agendas of a plant and appointment type need approval, in how many levels and by whom; ' +
    'an empty plant or type applies to all, the most specific configuration wins',
  table: configuracaoAprovacaoAgenda,
  naturalKey: ['plantaId', 'tipoAgendamentoId'],
  references: { plantaId: DO_PATIO.plantaId },
  fields: Type.Object({
    plantaId: Type.Optional(Type.String({ format: 'uuid', description: 'the plant; empty: every plant' })),
    tipoAgendamentoId: Type.Optional(
      Type.String({ format: 'uuid', description: 'the appointment type; empty: every type' }),
    ),
    exigeAprovacao: Type.Optional(
      Type.Boolean({ description: 'default true; false: a pre-agenda is born APROVADA' }),
    ),
    niveis: Type.Optional(
      Int64({
        minimum: 1,
        maximum: MAX_NIVEIS,
        description: 'approval levels, one decision each; default 1',
      }),
    ),
    aprovadores: Type.Optional(Aprovadores),
    descricao: Type.Optional(Type.String({ maxLength: 255 })),
  }),
  hooks: {
    beforeSave: async (_ctx, next) => {
      next.exigeAprovacao ??= true;
      next.niveis ??= 1;
      const aprovadores = (next.aprovadores as Aprovador[] | null | undefined) ?? [];
      aprovadores.forEach((a, indice) => {
        if (a.nivel > Number(next.niveis))
          throw E.configuracaoNivelInvalido({ indice, nivel: a.nivel, niveis: Number(next.niveis) });
      });
      next.aprovadores = aprovadores.map((a) => ({ nivel: a.nivel, usuario: a.usuario.trim() }));
    },
  },
});

/** The configuration for a plant and type: (plant, type), then (plant, any), (any, type), (any, any). */
export async function configuracaoPara(ctx: Ctx, plantaId: string, tipoAgendamentoId: string) {
  const t = configuracaoAprovacaoAgenda;
  const rows = await ctx.store.select(
    t,
    and(
      or(eq(t.plantaId, plantaId), isNull(t.plantaId)),
      or(eq(t.tipoAgendamentoId, tipoAgendamentoId), isNull(t.tipoAgendamentoId)),
    ),
  );
  const peso = (r: (typeof rows)[number]) => (r.plantaId ? 2 : 0) + (r.tipoAgendamentoId ? 1 : 0);
  return rows.sort((a, b) => peso(b) - peso(a))[0];
}

/**
 * Opens the approval process of a pre-agenda that enters PENDENTE, as its configuration says (a
 * snapshot of the levels and approvers: changing the configuration later does not move the goal
 * posts of a running process). Returns false when the configuration waives approval.
 */
export async function iniciarAprovacao(
  ctx: Ctx,
  pre: { id: string; plantaId: string; tipoAgendamentoId: string },
  forcar = false,
): Promise<boolean> {
  const config = await configuracaoPara(ctx, pre.plantaId, pre.tipoAgendamentoId);
  if (config && !config.exigeAprovacao && !forcar) return false;
  await ctx.store.insert(historicoAprovacaoAgenda, [
    {
      preAgendaId: pre.id,
      configuracaoId: config?.id ?? null,
      niveis: config?.niveis ?? 1,
      aprovadores: config?.aprovadores ?? [],
      nivelAtual: 1,
      status: 'EM_ANDAMENTO',
      inicio: ctx.now(),
    },
  ]);
  return true;
}

/** The running process of a pre-agenda, locked; ends it with `status` when given. */
async function processoAberto(ctx: Ctx, pre: PreAgendaRow) {
  const h = historicoAprovacaoAgenda;
  const aberto = () =>
    ctx.tx
      .select()
      .from(h)
      .where(ctx.store.scope(h, and(eq(h.preAgendaId, pre.id), eq(h.status, 'EM_ANDAMENTO'))))
      .for('update');
  let [row] = await aberto();
  // A pending pre-agenda written without a process (e.g. imported): the decision opens one.
  if (!row) {
    await iniciarAprovacao(ctx, pre, true);
    [row] = await aberto();
  }
  return row!;
}

/** Ends the running process (if any) of a pre-agenda that was cancelled. */
export async function encerrarAprovacao(ctx: Ctx, preAgendaId: string, status: 'CANCELADO') {
  const h = historicoAprovacaoAgenda;
  await ctx.store.update(
    h,
    { status, fim: ctx.now() },
    and(eq(h.preAgendaId, preAgendaId), eq(h.status, 'EM_ANDAMENTO')),
  );
}

const mesmoUsuario = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The checks every decision passes: the approver is one of the level's, and has not decided another level. */
async function decidir(
  ctx: Ctx,
  pre: PreAgendaRow,
  aprovador: string,
  decisao: 'APROVADO' | 'REPROVADO',
  comentario: string | undefined,
) {
  const processo = await processoAberto(ctx, pre);
  const nivel = processo.nivelAtual;
  const doNivel = processo.aprovadores.filter((a) => a.nivel === nivel).map((a) => a.usuario);
  if (doNivel.length && !doNivel.some((u) => mesmoUsuario(u, aprovador)))
    throw E.aprovadorNaoAutorizado({ aprovador, nivel, id: pre.id, aprovadores: doNivel.join(', ') });
  const itens = await ctx.store.select(
    historicoAprovacaoAgendaItem,
    eq(historicoAprovacaoAgendaItem.historicoAprovacaoId, processo.id),
  );
  const anterior = itens.find((i) => mesmoUsuario(i.aprovador, aprovador));
  if (anterior) throw E.aprovadorRepetido({ aprovador, nivelAnterior: anterior.nivel, id: pre.id });
  await ctx.store.insert(historicoAprovacaoAgendaItem, [
    {
      historicoAprovacaoId: processo.id,
      nivel,
      aprovador: aprovador.trim(),
      decisao,
      comentario: comentario ?? null,
      quem: quem(ctx),
      quando: ctx.now(),
    },
  ]);
  return processo;
}

// ── Records as the API shows them ──

const Uuid = Type.String({ format: 'uuid' });
export const PreAgendaLogSchema = Type.Object(
  {
    id: Uuid,
    preAgendaId: Uuid,
    acao: Type.String({
      description: 'CRIADA, ALTERADA, APROVACAO, REPROVACAO, CANCELAMENTO, REENVIO, CONVERSAO',
    }),
    de: Type.Optional({ ...StatusPreAgendaSchema, description: 'the state before (absent on creation)' }),
    para: Type.Optional({ ...StatusPreAgendaSchema, description: 'the state after' }),
    alteracoes: Type.Optional(
      Type.Record(Type.String(), Type.Object({ de: Type.Unknown(), para: Type.Unknown() }), {
        description: 'changed fields of an edit: {field: {de, para}}',
      }),
    ),
    motivo: Type.Optional(Type.String()),
    quem: Type.String(),
    quando: DateTime(),
  },
  { title: 'PreAgendaLog' },
);

export const HistoricoAprovacaoAgendaItemSchema = Type.Object(
  {
    id: Uuid,
    historicoAprovacaoId: Uuid,
    nivel: Int64(),
    aprovador: Type.String(),
    decisao: Type.String({ description: 'APROVADO or REPROVADO' }),
    comentario: Type.Optional(Type.String()),
    quem: Type.String({ description: 'the credential that recorded the decision' }),
    quando: DateTime(),
  },
  { title: 'HistoricoAprovacaoAgendaItem' },
);

export const HistoricoAprovacaoAgendaSchema = Type.Object(
  {
    id: Uuid,
    preAgendaId: Uuid,
    configuracaoId: Type.Optional(Uuid),
    niveis: Int64(),
    aprovadores: Type.Array(Type.Object({ nivel: Int64(), usuario: Type.String() })),
    nivelAtual: Int64({ description: 'the level waiting for a decision (the last one once decided)' }),
    status: Type.String({ description: 'EM_ANDAMENTO, APROVADO, REPROVADO, CANCELADO' }),
    inicio: DateTime(),
    fim: Type.Optional(DateTime()),
    itens: Type.Array(HistoricoAprovacaoAgendaItemSchema),
  },
  { title: 'HistoricoAprovacaoAgenda' },
);

/** The approval processes of a pre-agenda with their decisions, oldest first. */
export async function aprovacoesDe(ctx: Ctx, preAgendaId: string) {
  const h = historicoAprovacaoAgenda;
  const i = historicoAprovacaoAgendaItem;
  const processos = await ctx.tx
    .select()
    .from(h)
    .where(ctx.store.scope(h, eq(h.preAgendaId, preAgendaId)))
    .orderBy(asc(h.seq));
  const itens = processos.length
    ? await ctx.tx
        .select()
        .from(i)
        .where(
          ctx.store.scope(
            i,
            inArray(
              i.historicoAprovacaoId,
              processos.map((p) => p.id),
            ),
          ),
        )
        .orderBy(asc(i.seq))
    : [];
  return processos.map((p) => ({
    ...compact(p),
    itens: itens.filter((x) => x.historicoAprovacaoId === p.id).map(compact),
  }));
}

export const PreAgendaId = Type.String({ format: 'uuid', description: 'the pre-agenda' });
const AprovadorInput = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'who decides (user name or e-mail); checked against the level’s approvers when it names any',
});

export function aprovacaoOperations(PreAgenda: ReturnType<typeof Type.Object>) {
  return {
    aprovarPreAgenda: action({
      description:
        'An approver approves the current level of a PENDENTE or EM_APROVACAO pre-agenda: EM_APROVACAO while ' +
        'levels remain, APROVADA at the last one; 403 for someone who is not an approver of the level',
      input: Type.Object({
        preAgendaId: PreAgendaId,
        aprovador: AprovadorInput,
        comentario: Type.Optional(Type.String({ maxLength: 2000 })),
      }),
      output: Type.Object({ preAgenda: PreAgenda, aprovacao: HistoricoAprovacaoAgendaSchema }),
      handler: async (ctx, input) => {
        const atual = await preAgendaParaAlterar(ctx, input.preAgendaId);
        exigirEstado(atual, 'aprovarPreAgenda');
        const processo = await decidir(ctx, atual, input.aprovador, 'APROVADO', input.comentario);
        const ultimo = processo.nivelAtual >= processo.niveis;
        await ctx.store.update(
          historicoAprovacaoAgenda,
          ultimo ? { status: 'APROVADO', fim: ctx.now() } : { nivelAtual: processo.nivelAtual + 1 },
          eq(historicoAprovacaoAgenda.id, processo.id),
        );
        const para: StatusPreAgenda = ultimo ? 'APROVADA' : 'EM_APROVACAO';
        const row = await mudarEstadoPre(
          ctx,
          atual,
          para,
          'APROVACAO',
          {},
          `nível ${processo.nivelAtual}/${processo.niveis} aprovado por ${input.aprovador.trim()}`,
        );
        const aprovacao = (await aprovacoesDe(ctx, atual.id)).find((p) => p.id === processo.id)!;
        return { preAgenda: compact(row), aprovacao } as never;
      },
    }),

    reprovarPreAgenda: action({
      description:
        'An approver rejects a PENDENTE or EM_APROVACAO pre-agenda at its current level: REPROVADA with the ' +
        'reason; the requester may edit it and reenviarPreAgenda',
      input: Type.Object({
        preAgendaId: PreAgendaId,
        aprovador: AprovadorInput,
        motivo: Type.String({ minLength: 1, maxLength: 255, description: 'why it was rejected' }),
      }),
      output: Type.Object({ preAgenda: PreAgenda, aprovacao: HistoricoAprovacaoAgendaSchema }),
      handler: async (ctx, input) => {
        const atual = await preAgendaParaAlterar(ctx, input.preAgendaId);
        exigirEstado(atual, 'reprovarPreAgenda');
        const processo = await decidir(ctx, atual, input.aprovador, 'REPROVADO', input.motivo);
        await ctx.store.update(
          historicoAprovacaoAgenda,
          { status: 'REPROVADO', fim: ctx.now() },
          eq(historicoAprovacaoAgenda.id, processo.id),
        );
        const row = await mudarEstadoPre(
          ctx,
          atual,
          'REPROVADA',
          'REPROVACAO',
          { motivo: input.motivo },
          input.motivo,
        );
        const aprovacao = (await aprovacoesDe(ctx, atual.id)).find((p) => p.id === processo.id)!;
        return { preAgenda: compact(row), aprovacao } as never;
      },
    }),

    historicoPreAgenda: query({
      get: true,
      description:
        'The log of every change of a pre-agenda (PreAgendaLog) and its approval processes with each decision',
      input: Type.Object({ preAgendaId: PreAgendaId }),
      output: Type.Object({
        logs: Type.Array(PreAgendaLogSchema),
        aprovacoes: Type.Array(HistoricoAprovacaoAgendaSchema),
      }),
      handler: async (ctx, input) => {
        const [pre] = await ctx.store.select(preAgenda, eq(preAgenda.id, input.preAgendaId.toLowerCase()));
        if (!pre) throw E.preAgendaNotFound({ id: input.preAgendaId });
        const logs = await ctx.tx
          .select()
          .from(preAgendaLog)
          .where(ctx.store.scope(preAgendaLog, eq(preAgendaLog.preAgendaId, pre.id)))
          .orderBy(asc(preAgendaLog.seq));
        return { logs: logs.map(compact), aprovacoes: await aprovacoesDe(ctx, pre.id) } as never;
      },
    }),
  };
}
