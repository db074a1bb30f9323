import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  jsonb,
  pgTable,
  pgView,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { trigramIndex } from '../../../../platform/core/db/search.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entity } from './columns.ts';

// Pre-agendas, their search view and log, and their approval: the configuration, the processes and
// the decisions (docs/agenda.md "Pre-agendas", "Approval").

/**
 * A carrier's or customer's request for an appointment, approved by the plant before it becomes an
 * agenda (statusPreAgenda in preagenda-states.ts). codAgenda/agendaId name the agenda it became.
 */
export const preAgenda = pgTable(
  'pre_agenda',
  {
    ...entity(),
    plantaId: uuid('planta_id').notNull(),
    tipoAgendamentoId: uuid('tipo_agendamento_id').notNull(),
    /** The partner (externalTenant) who asks. */
    externalTenantId: uuid('external_tenant_id'),
    /** The customer the load belongs to. */
    clienteId: uuid('cliente_id'),
    descricao: text('descricao'),
    dataEsperada: timestamp('data_esperada', { withTimezone: true }).notNull(),
    veiculoId: uuid('veiculo_id'),
    composicaoVeiculoId: uuid('composicao_veiculo_id'),
    motoristaId: uuid('motorista_id'),
    observacao: text('observacao'),
    custom: jsonb('custom').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /** statusPreAgenda; changed only by the state actions. */
    status: text('status').notNull().default('PENDENTE'),
    /** Why it was rejected or cancelled (the last such decision). */
    motivo: text('motivo'),
    codAgenda: bigint('cod_agenda', { mode: 'number' }),
    agendaId: uuid('agenda_id'),
  },
  (t) => [
    tenantPrimaryKey(t),
    index('pre_agenda_criacao').on(t.tenant, t.createdDate, t.id),
    index('pre_agenda_data_esperada').on(t.tenant, t.dataEsperada, t.id),
    index('pre_agenda_planta_data').on(t.tenant, t.plantaId, t.dataEsperada),
    index('pre_agenda_status_criacao').on(t.tenant, t.status, t.createdDate),
    index('pre_agenda_tipo').on(t.tenant, t.tipoAgendamentoId),
    index('pre_agenda_parceiro').on(t.tenant, t.externalTenantId, t.createdDate),
    index('pre_agenda_cliente').on(t.tenant, t.clienteId, t.createdDate),
    uniqueIndex('pre_agenda_cod_agenda').on(t.tenant, t.codAgenda).where(sql`${t.codAgenda} is not null`),
    trigramIndex('pre_agenda_descricao_trgm', t.descricao),
    // pesquisa ORs the observation with the description: both indexed, for a BitmapOr.
    trigramIndex('pre_agenda_observacao_trgm', t.observacao),
    tenantIsolation(t.tenant),
  ],
);

/**
 * The pre-agendas' search view, for filtrarPreAgenda (docs/agenda.md "filtrarPreAgenda: plans"): the
 * same reason and the same shape as agenda_busca (agendas.ts).
 */
export const preAgendaBusca = pgView('pre_agenda_busca')
  .with({ checkOption: 'cascaded' })
  .as((qb) =>
    qb.select().from(preAgenda).where(sql`${preAgenda.tenant} = current_setting('ponte.tenant', true)`),
  );

/** Every change of a pre-agenda: who, when, what (changed fields), and the state it went from and to. */
export const preAgendaLog = pgTable(
  'pre_agenda_log',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    /** Order of the changes (several may share a millisecond). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    preAgendaId: uuid('pre_agenda_id').notNull(),
    /** CRIADA, ALTERADA, APROVACAO, REPROVACAO, CANCELAMENTO, REENVIO, CONVERSAO */
    acao: text('acao').notNull(),
    de: text('de'),
    para: text('para'),
    /** {field: {de, para}} of an edit. */
    alteracoes: jsonb('alteracoes').$type<Record<string, { de: unknown; para: unknown }>>(),
    motivo: text('motivo'),
    quem: text('quem').notNull(),
    quando: timestamp('quando', { withTimezone: true }).notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    index('pre_agenda_log_pre').on(t.tenant, t.preAgendaId, t.seq),
    uniqueIndex('pre_agenda_log_seq').on(t.tenant, t.seq),
    tenantIsolation(t.tenant),
  ],
);

/**
 * Whether pre-agendas of a plant and appointment type need approval, in how many levels and by whom.
 * An empty plantaId or tipoAgendamentoId applies to every plant or type; the most specific wins.
 */
export const configuracaoAprovacaoAgenda = pgTable(
  'configuracao_aprovacao_agenda',
  {
    ...entity(),
    plantaId: uuid('planta_id'),
    tipoAgendamentoId: uuid('tipo_agendamento_id'),
    exigeAprovacao: boolean('exige_aprovacao').notNull().default(true),
    niveis: bigint('niveis', { mode: 'number' }).notNull().default(1),
    /** [{nivel, usuario}]: who may decide each level; a level without names accepts any approver. */
    aprovadores: jsonb('aprovadores')
      .$type<Array<{ nivel: number; usuario: string }>>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    descricao: text('descricao'),
  },
  (t) => [
    tenantPrimaryKey(t),
    unique('configuracao_aprovacao_agenda_escopo')
      .on(t.tenant, t.plantaId, t.tipoAgendamentoId)
      .nullsNotDistinct(),
    tenantIsolation(t.tenant),
  ],
);

/** One approval process of a pre-agenda: the levels it needs (a snapshot of the configuration) and its outcome. */
export const historicoAprovacaoAgenda = pgTable(
  'historico_aprovacao_agenda',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    /** Order of the processes of a pre-agenda. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    preAgendaId: uuid('pre_agenda_id').notNull(),
    configuracaoId: uuid('configuracao_id'),
    niveis: bigint('niveis', { mode: 'number' }).notNull(),
    aprovadores: jsonb('aprovadores').$type<Array<{ nivel: number; usuario: string }>>().notNull(),
    nivelAtual: bigint('nivel_atual', { mode: 'number' }).notNull(),
    /** EM_ANDAMENTO, APROVADO, REPROVADO, CANCELADO */
    status: text('status').notNull(),
    inicio: timestamp('inicio', { withTimezone: true }).notNull(),
    fim: timestamp('fim', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    index('historico_aprovacao_agenda_pre').on(t.tenant, t.preAgendaId, t.seq),
    // The export's order (transferencias.ts): each batch is one range of it.
    uniqueIndex('historico_aprovacao_agenda_seq').on(t.tenant, t.seq),
    tenantIsolation(t.tenant),
  ],
);

/** One approver's decision in an approval process. */
export const historicoAprovacaoAgendaItem = pgTable(
  'historico_aprovacao_agenda_item',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    /** Order of the decisions (several may share a millisecond). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    historicoAprovacaoId: uuid('historico_aprovacao_id').notNull(),
    nivel: bigint('nivel', { mode: 'number' }).notNull(),
    aprovador: text('aprovador').notNull(),
    /** APROVADO or REPROVADO */
    decisao: text('decisao').notNull(),
    comentario: text('comentario'),
    quem: text('quem').notNull(),
    quando: timestamp('quando', { withTimezone: true }).notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    index('historico_aprovacao_agenda_item_hist').on(t.tenant, t.historicoAprovacaoId, t.seq),
    uniqueIndex('historico_aprovacao_agenda_item_seq').on(t.tenant, t.seq),
    tenantIsolation(t.tenant),
  ],
);
