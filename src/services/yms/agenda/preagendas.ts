import { randomUUID } from 'node:crypto';
import { asc, desc, eq, gte, inArray, lte, type SQL } from 'drizzle-orm';
import { Where } from '../../../platform/core/db/where.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { action } from '../../../platform/core/registry.ts';
import { DateTime, Enum, Int64, Type } from '../../../platform/core/schema.ts';
import { aprovacaoOperations, encerrarAprovacao, iniciarAprovacao, PreAgendaId } from './aprovacao.ts';
import { pesquisaNosCadastros } from './cadastros.ts';
import { Custom, DO_PATIO, TipoAgendamentoRef } from './contract.ts';
import { filtrarCustom, validarCustom } from './custom.ts';
import { agenda as agendaEntity } from './entities.ts';
import { E } from './errors.ts';
import {
  exigirEstado,
  mudarEstadoPre,
  type PreAgendaRow,
  preAgendaParaAlterar,
  registrarLog,
  type StatusPreAgenda,
} from './preagenda-estados.ts';
import { exigirReferenciasDaPreAgenda } from './referencias.ts';
import {
  escopoParceiro,
  noEscopoParceiro,
  regrasDaPreAgenda,
  representacao,
  SUJEITOS,
} from './representacao.ts';
import { verificarReserva } from './reserva.ts';
import { preAgendaEditable, preAgendaReadOnly, StatusPreAgenda as StatusSchema } from './schemas.ts';
import { compact } from './states.ts';
import { agenda as agendaTable } from './tables/agendas.ts';
import {
  historicoAprovacaoAgenda,
  historicoAprovacaoAgendaItem,
  preAgendaBusca,
  preAgendaLog,
  preAgenda as preAgendaTable,
} from './tables/preagendas.ts';
import { idDoTipo } from './tipos.ts';

// Pre-agendas (spec 000 §2.5, §4.5 filtrarPreAgenda, §4.6 entity preAgenda; docs/agenda.md
// "Pre-agendas"): a carrier's or customer's request for an appointment that the plant approves
// (aprovacao.ts) before converterPreAgenda turns it into an agenda through criarAgendamento.

const EDITAVEIS = Object.keys(preAgendaEditable) as Array<keyof typeof preAgendaEditable>;
/** The fields only the state actions write: kept as stored on edits, empty on creation. */
const DO_ESTADO = ['status', 'motivo', 'codAgenda', 'agendaId'] as const;

const json = (v: unknown) => JSON.stringify(v instanceof Date ? v.toISOString() : (v ?? null));

export const preAgendaEntity = defineEntity({
  name: 'preAgenda',
  description:
    'Requests for an appointment, approved by the plant before they become agendas; the state changes only ' +
    'through the state actions',
  table: preAgendaTable,
  // The yard's records, and the partner who asks and the customer (externalTenant): a partner
  // named by a pre-agenda is not deleted (docs/agenda.md "References").
  references: {
    ...DO_PATIO,
    externalTenantId: 'yms/agenda/externalTenant',
    clienteId: 'yms/agenda/externalTenant',
  },
  // A key acting for a partner's user asks for, reads, edits and deletes only its partners' pre-agendas.
  subjects: SUJEITOS,
  fields: Type.Object({
    id: Type.Optional(Type.String({ format: 'uuid', description: 'assigned by the server when absent' })),
    ...preAgendaEditable,
    // The type's id or its code (docs/agenda.md "Appointment types"), resolved to the id before saving.
    tipoAgendamentoId: TipoAgendamentoRef,
    ...preAgendaReadOnly,
  }),
  hooks: {
    rowScope: (ctx) => escopoParceiro(ctx, preAgendaTable.externalTenantId),
    beforeSave: async (ctx, next, previous) => {
      next.tipoAgendamentoId = await idDoTipo(ctx, next.tipoAgendamentoId);
      next.custom ??= {};
      if (typeof next.dataEsperada === 'string') next.dataEsperada = new Date(next.dataEsperada);
      if (previous) {
        // `previous` was read locked by the engine: an approval waits for this edit, or came first.
        exigirEstado(previous as PreAgendaRow, 'editar');
        await regrasDaPreAgenda(ctx, next, previous);
        await exigirReferenciasDaPreAgenda(ctx, next, previous);
        const de = previous.status as StatusPreAgenda;
        if (next.status != null && next.status !== de)
          throw E.preAgendaStatusSomenteLeitura({ id: String(previous.id), de, para: String(next.status) });
        next.id = previous.id;
        for (const f of DO_ESTADO) next[f] = previous[f] ?? null;
        await validarCustom(ctx, 'preAgenda', next.custom, previous.custom);
        const alteracoes: Record<string, { de: unknown; para: unknown }> = {};
        for (const f of EDITAVEIS) {
          if (json(previous[f]) !== json(next[f]))
            alteracoes[f] = { de: previous[f] ?? null, para: next[f] ?? null };
        }
        if (Object.keys(alteracoes).length)
          await registrarLog(ctx, String(previous.id), 'ALTERADA', de, de, { alteracoes });
        return;
      }
      if (next.status != null && next.status !== 'PENDENTE')
        throw E.preAgendaStatusInicial({ status: String(next.status) });
      await regrasDaPreAgenda(ctx, next, undefined);
      await exigirReferenciasDaPreAgenda(ctx, next);
      await validarCustom(ctx, 'preAgenda', next.custom);
      next.id ??= randomUUID();
      for (const f of DO_ESTADO) next[f] = null;
      const exige = await iniciarAprovacao(ctx, {
        id: String(next.id),
        plantaId: String(next.plantaId),
        tipoAgendamentoId: String(next.tipoAgendamentoId),
      });
      next.status = exige ? 'PENDENTE' : 'APROVADA';
      await registrarLog(ctx, String(next.id), 'CRIADA', null, next.status as string, {
        motivo: exige ? null : 'aprovação não exigida pela configuração',
      });
    },
    beforeDelete: async (ctx, row) => {
      exigirEstado(row as unknown as PreAgendaRow, 'excluir');
      const id = String(row.id);
      const processos = await ctx.store.select(
        historicoAprovacaoAgenda,
        eq(historicoAprovacaoAgenda.preAgendaId, id),
      );
      if (processos.length)
        await ctx.store.delete(
          historicoAprovacaoAgendaItem,
          inArray(
            historicoAprovacaoAgendaItem.historicoAprovacaoId,
            processos.map((p) => p.id),
          ),
        );
      await ctx.store.delete(historicoAprovacaoAgenda, eq(historicoAprovacaoAgenda.preAgendaId, id));
      await ctx.store.delete(preAgendaLog, eq(preAgendaLog.preAgendaId, id));
    },
  },
});

const PreAgenda = preAgendaEntity.schema;
const Uuid = (description: string) => Type.String({ format: 'uuid', description });

export const SORT_FIELDS_PRE = [
  'createdDate',
  'dataEsperada',
  'descricao',
  'status',
  'plantaId',
  'tipoAgendamentoId',
  'externalTenantId',
  'clienteId',
  'codAgenda',
  'lastModifiedDate',
] as const;
export const MAX_PAGE_SIZE_PRE = 1000;

/** The start of a period, as a date. */
const desde = (inicio?: string) => (inicio ? new Date(inicio) : undefined);

/** The end of a period, as a date; 422 when it is before the start. */
function ate(nomes: [string, string], inicio?: string, fim?: string): Date | undefined {
  if (inicio && fim && new Date(inicio) > new Date(fim))
    throw E.periodoPreAgendaInvalido({ inicio: nomes[0], de: inicio, fim: nomes[1], ate: fim });
  return fim ? new Date(fim) : undefined;
}

const ordensPre = new Map<string, SQL[]>();

/** A page's order, then the id (unique: pages never overlap or skip); one array an order (core/db/reads.ts). */
function ordemPre(field: (typeof SORT_FIELDS_PRE)[number], direction: 'asc' | 'desc'): SQL[] {
  const key = `${field} ${direction}`;
  let order = ordensPre.get(key);
  if (!order) {
    const t = preAgendaBusca;
    order = [direction === 'desc' ? desc(t[field]) : asc(t[field]), asc(t.id)];
    ordensPre.set(key, order);
  }
  return order;
}

/** The input of criarAgendamento for a pre-agenda: its fields, what the plant overrides, and the agenda's custom keys. */
async function agendaDe(ctx: Ctx, pre: PreAgendaRow, input: Record<string, unknown>) {
  const custom = {
    ...(await filtrarCustom(ctx, 'agenda', pre.custom)),
    ...((input.custom as Record<string, unknown> | undefined) ?? {}),
  };
  const campos: Record<string, unknown> = {
    plantaId: pre.plantaId,
    tipoAgendamentoId: pre.tipoAgendamentoId,
    dataEsperada: (input.dataEsperada as string | undefined) ?? pre.dataEsperada.toISOString(),
    descricao: pre.descricao,
    veiculoId: pre.veiculoId,
    composicaoVeiculoId: pre.composicaoVeiculoId,
    motoristaId: pre.motoristaId,
    parceiroId: pre.externalTenantId,
    observacao: pre.observacao,
    chaveIntegracao: input.chaveIntegracao,
    codigoAgrupador: input.codigoAgrupador,
    custom,
    motivo: `convertida da pré-agenda ${pre.id}`,
  };
  return Object.fromEntries(Object.entries(campos).filter(([, v]) => v !== null && v !== undefined));
}

/** The pre-agenda locked for a state change; for a partner's user, another partner's is 404 (unknown). */
async function daMinhaParte(ctx: Ctx, id: string): Promise<PreAgendaRow> {
  const atual = await preAgendaParaAlterar(ctx, id);
  const rep = await representacao(ctx);
  if (rep && !(atual.externalTenantId && rep.ids.includes(atual.externalTenantId)))
    throw E.preAgendaNotFound({ id });
  return atual;
}

export const preAgendas = {
  ...aprovacaoOperations(PreAgenda),

  cancelarPreAgenda: action({
    // The requester (a partner's user) may withdraw or resend its own request.
    subjects: SUJEITOS,
    description:
      'Cancels a pre-agenda that did not become an agenda (PENDENTE, EM_APROVACAO, APROVADA, REPROVADA): ' +
      'CANCELADA, final; its running approval process ends CANCELADO',
    input: Type.Object({
      preAgendaId: PreAgendaId,
      motivo: Type.String({ minLength: 1, maxLength: 255, description: 'why it was cancelled' }),
    }),
    output: Type.Object({ preAgenda: PreAgenda }),
    handler: async (ctx, input) => {
      const atual = await daMinhaParte(ctx, input.preAgendaId);
      exigirEstado(atual, 'cancelarPreAgenda');
      await encerrarAprovacao(ctx, atual.id, 'CANCELADO');
      const row = await mudarEstadoPre(
        ctx,
        atual,
        'CANCELADA',
        'CANCELAMENTO',
        { motivo: input.motivo },
        input.motivo,
      );
      return { preAgenda: compact(row) };
    },
  }),

  reenviarPreAgenda: action({
    // The requester (a partner's user) may withdraw or resend its own request.
    subjects: SUJEITOS,
    description:
      'Sends a REPROVADA pre-agenda (edited by the requester) to approval again: PENDENTE with a new approval ' +
      'process (APROVADA when the configuration no longer asks for approval)',
    input: Type.Object({
      preAgendaId: PreAgendaId,
      comentario: Type.Optional(Type.String({ maxLength: 255, description: 'what was fixed' })),
    }),
    output: Type.Object({ preAgenda: PreAgenda }),
    handler: async (ctx, input) => {
      const atual = await daMinhaParte(ctx, input.preAgendaId);
      exigirEstado(atual, 'reenviarPreAgenda');
      const exige = await iniciarAprovacao(ctx, atual);
      const row = await mudarEstadoPre(
        ctx,
        atual,
        exige ? 'PENDENTE' : 'APROVADA',
        'REENVIO',
        { motivo: null },
        input.comentario ?? (exige ? null : 'aprovação não exigida pela configuração'),
      );
      return { preAgenda: compact(row) };
    },
  }),

  converterPreAgenda: action({
    description:
      'Turns an APROVADA pre-agenda into an agenda (criarAgendamento: next code, AGENDADO, history) on a ' +
      "slot's place, checked as the agenda entity's booking without the lead time (422 unavailable, 409 full): " +
      'CONVERTIDA with codAgenda and agendaId. The plant may set the final expected date, the integration key, ' +
      'the group and agenda custom fields',
    input: Type.Object({
      preAgendaId: PreAgendaId,
      dataEsperada: Type.Optional(DateTime({ description: 'the booked arrival; default the one asked for' })),
      chaveIntegracao: Type.Optional(Type.String({ maxLength: 100 })),
      codigoAgrupador: Type.Optional(Type.String({ maxLength: 100 })),
      custom: Type.Optional({
        ...Custom,
        description:
          "agenda custom fields, over the pre-agenda's (only its keys defined for agenda are carried)",
      }),
    }),
    output: Type.Object({ preAgenda: PreAgenda, agenda: agendaEntity.schema }),
    handler: async (ctx, input) => {
      const atual = await preAgendaParaAlterar(ctx, input.preAgendaId);
      exigirEstado(atual, 'converterPreAgenda');
      const campos = await agendaDe(ctx, atual, input);
      // A slot's place, like the carriers' booking (the lead time aside): partners who book only
      // through pre-agendas never exceed the capacity either.
      const fimPrevisto = await verificarReserva(ctx, {
        tipoAgendamentoId: atual.tipoAgendamentoId,
        plantaId: atual.plantaId,
        dataEsperada: new Date(String(campos.dataEsperada)),
        semAntecedencia: true,
      });
      const criada = await ctx.call<{ agenda: { id: string; codigo: number } }>(
        'yms/agenda/actions/criarAgendamento',
        campos,
      );
      const [linha] = await ctx.store
        .update(agendaTable, { fimPrevisto }, eq(agendaTable.id, criada.agenda.id))
        .returning();
      const agenda = compact(linha!) as { id: string; codigo: number };
      const row = await mudarEstadoPre(
        ctx,
        atual,
        'CONVERTIDA',
        'CONVERSAO',
        { codAgenda: agenda.codigo, agendaId: agenda.id },
        `agenda ${agenda.codigo}`,
      );
      return { preAgenda: compact(row), agenda };
    },
  }),

  filtrarPreAgenda: action({
    // A carrier's key searches its partners' pre-agendas (the partner scope in the handler).
    subjects: SUJEITOS,
    description:
      'Pre-agendas by plant, type, partner, customer, states, description, creation and expected periods, ' +
      'agenda code and free text, one page at a time, in a stable order',
    input: Type.Object({
      page: Int64({ minimum: 0, maximum: 1_000_000, description: 'page index, from 0' }),
      size: Int64({ minimum: 1, maximum: MAX_PAGE_SIZE_PRE }),
      plantaId: Type.Optional(Uuid('the plant')),
      tipoAgendamentoId: Type.Optional(Uuid('the appointment type')),
      externalTenantId: Type.Optional(Uuid('the partner who asked')),
      clienteId: Type.Optional(Uuid('the customer')),
      status: Type.Optional(Type.Array(StatusSchema, { maxItems: 6, description: 'any of these states' })),
      descricao: Type.Optional(Type.String({ maxLength: 255, description: 'part of the description' })),
      dataCriacaoInicio: Type.Optional(DateTime({ description: 'created at or after' })),
      dataCriacaoFim: Type.Optional(DateTime({ description: 'created at or before' })),
      dataEsperadaInicio: Type.Optional(DateTime({ description: 'expected at or after' })),
      dataEsperadaFim: Type.Optional(DateTime({ description: 'expected at or before' })),
      codAgenda: Type.Optional(Int64({ description: 'code of the agenda it became' })),
      pesquisa: Type.Optional(
        Type.String({
          maxLength: 100,
          description:
            'free text, ORed: part of the description or observation, the code of the agenda it became, the ' +
            "partner's name or CNPJ/CPF digits, the appointment type's description or code",
        }),
      ),
      sortField: Type.Optional(Enum(SORT_FIELDS_PRE, { description: 'default createdDate' })),
      sortOrder: Type.Optional(
        Int64({ minimum: -1, maximum: 1, description: '1 or 0 ascending, -1 descending' }),
      ),
    }),
    output: Type.Object({ preAgenda: Type.Array(PreAgenda), totalElements: Int64(), totalPages: Int64() }),
    handler: async (ctx, input) => {
      // The search view, so the trigram indexes serve the text (tables/preagendas.ts preAgendaBusca);
      // its filters a shape, whose statements are built once (platform core/db/where.ts).
      const t = preAgendaBusca;
      const descricao = input.descricao?.trim();
      const texto = input.pesquisa?.trim();
      const cadastros = texto ? await pesquisaNosCadastros(ctx, texto) : undefined;
      const filtros = Where.all()
        .value('planta', input.plantaId, (v) => eq(t.plantaId, v))
        .value('tipo', input.tipoAgendamentoId, (v) => eq(t.tipoAgendamentoId, v))
        .value('parceiro', input.externalTenantId, (v) => eq(t.externalTenantId, v))
        .value('cliente', input.clienteId, (v) => eq(t.clienteId, v))
        .list('status', input.status, (v) => inArray(t.status, v))
        .contains('descricao', t.descricao, descricao)
        .value('criadaDesde', desde(input.dataCriacaoInicio), (v) => gte(t.createdDate, v))
        .value(
          'criadaAte',
          ate(['dataCriacaoInicio', 'dataCriacaoFim'], input.dataCriacaoInicio, input.dataCriacaoFim),
          (v) => lte(t.createdDate, v),
        )
        .value('esperadaDesde', desde(input.dataEsperadaInicio), (v) => gte(t.dataEsperada, v))
        .value(
          'esperadaAte',
          ate(['dataEsperadaInicio', 'dataEsperadaFim'], input.dataEsperadaInicio, input.dataEsperadaFim),
          (v) => lte(t.dataEsperada, v),
        )
        .value('codAgenda', input.codAgenda, (v) => eq(t.codAgenda, v))
        .any('pesquisa', (w) => {
          if (!texto || !cadastros) return;
          w.contains('texto', t.descricao, texto);
          w.contains('textoObservacao', t.observacao, texto);
          if (/^\d{1,15}$/.test(texto)) w.value('codigoTexto', Number(texto), (v) => eq(t.codAgenda, v));
          w.list('parceiros', cadastros.parceiroIds, (ids) => inArray(t.externalTenantId, ids));
          w.list('tipos', cadastros.tipoIds, (ids) => inArray(t.tipoAgendamentoId, ids));
        });
      // A partner's user finds only its partners' pre-agendas, whatever it asks.
      const where = await noEscopoParceiro(ctx, filtros, t.externalTenantId);
      const { rows, total: totalElements } = await ctx.store.page<PreAgendaRow>(t, where, {
        orderBy: ordemPre(input.sortField ?? 'createdDate', input.sortOrder === -1 ? 'desc' : 'asc'),
        limit: input.size,
        offset: input.page * input.size,
      });
      return {
        preAgenda: rows.map(compact),
        totalElements,
        totalPages: Math.ceil(totalElements / input.size),
      };
    },
  }),
};
