import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { trigramIndex } from '../../../platform/db/search.ts';
import { tenantColumn, tenantIsolation } from '../../../platform/db/tenancy.ts';
import { entityColumns } from '../../../platform/entities/entity.ts';

// yms/agenda's tables (docs/agenda.md "The record"). Property names are the JSON field names: the
// entity engine and the queries read them. References to patio's records (plant, vehicle, driver,
// composition, circuit) and to the appointment type are plain UUIDs: those records belong to other
// services, which check them (a foreign key across services would tie their tables together).

function entity() {
  const { id: _id, ...audit } = entityColumns('uuid');
  return { id: uuid('id').primaryKey().defaultRandom(), ...audit };
}

export const agenda = pgTable(
  'agenda',
  {
    ...entity(),
    /** Sequential per tenant, from agenda_contador (never read-then-write). */
    codigo: bigint('codigo', { mode: 'number' }).notNull(),
    chaveIntegracao: text('chave_integracao'),
    codigoAgrupador: text('codigo_agrupador'),
    descricao: text('descricao'),
    dataEsperada: timestamp('data_esperada', { withTimezone: true }).notNull(),
    plantaId: uuid('planta_id').notNull(),
    tipoAgendamentoId: uuid('tipo_agendamento_id').notNull(),
    veiculoId: uuid('veiculo_id'),
    composicaoVeiculoId: uuid('composicao_veiculo_id'),
    motoristaId: uuid('motorista_id'),
    /** The external partner (externalTenant) the appointment is for. */
    parceiroId: uuid('parceiro_id'),
    observacao: text('observacao'),
    /** Custom fields of the tenant (spec 000 §4.6: the agenda entity is customizable). */
    custom: jsonb('custom').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /** Created by arrival control without a prior appointment. */
    unscheduled: boolean('unscheduled').notNull().default(false),
    /** statusAgendamento (states.ts); changed only by the state actions. */
    status: text('status').notNull().default('AGENDADO'),
    // Hand-over to the yard, recorded by aguardarIntegracao for the execution to start from.
    circuitoId: uuid('circuito_id'),
    sequenciaInicialId: uuid('sequencia_inicial_id'),
    vagaInicialId: uuid('vaga_inicial_id'),
    /** The integrating service that last reported (informarIntegracao). */
    servicoIntegracao: text('servico_integracao'),
    motivoDeFalha: text('motivo_de_falha'),
    /** Where the start of the circuit execution stands: SOLICITADO, INICIADO, FALHOU. */
    inicioExecucao: text('inicio_execucao'),
    execucaoCircuitoId: uuid('execucao_circuito_id'),
  },
  (t) => [
    uniqueIndex('agenda_codigo').on(t.tenant, t.codigo),
    uniqueIndex('agenda_chave_integracao')
      .on(t.tenant, t.chaveIntegracao)
      .where(sql`${t.chaveIntegracao} is not null`),
    index('agenda_data_esperada').on(t.tenant, t.dataEsperada, t.codigo),
    index('agenda_planta_data').on(t.tenant, t.plantaId, t.dataEsperada),
    index('agenda_status_data').on(t.tenant, t.status, t.dataEsperada),
    index('agenda_tipo').on(t.tenant, t.tipoAgendamentoId),
    index('agenda_veiculo').on(t.tenant, t.veiculoId),
    index('agenda_motorista').on(t.tenant, t.motoristaId),
    index('agenda_parceiro').on(t.tenant, t.parceiroId),
    index('agenda_agrupador').on(t.tenant, t.codigoAgrupador),
    index('agenda_inicio_execucao').on(t.tenant, t.inicioExecucao).where(sql`${t.inicioExecucao} = 'FALHOU'`),
    trigramIndex('agenda_descricao_trgm', t.descricao),
    tenantIsolation(t.tenant),
  ],
);

/**
 * Every change of an agenda's state: from (de, empty on creation), to (para), who, when and why.
 * No foreign key: the entity's create path writes the creation row before the agenda row exists
 * (its hook runs before the insert); deleting an agenda deletes its history (entities.ts).
 */
export const agendaHistorico = pgTable(
  'agenda_historico',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant: tenantColumn(),
    agendaId: uuid('agenda_id').notNull(),
    de: text('de'),
    para: text('para').notNull(),
    quem: text('quem').notNull(),
    quando: timestamp('quando', { withTimezone: true }).notNull(),
    motivo: text('motivo'),
  },
  (t) => [index('agenda_historico_agenda').on(t.tenant, t.agendaId, t.quando), tenantIsolation(t.tenant)],
);

/** The last agenda code of each tenant: one row, incremented in the creating transaction. */
export const agendaContador = pgTable(
  'agenda_contador',
  {
    tenant: tenantColumn().primaryKey(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [tenantIsolation(t.tenant)],
);

// ── Pre-agendas, their approval and the custom-field definitions (docs/agenda.md "Pre-agendas") ──

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
    index('pre_agenda_criacao').on(t.tenant, t.createdDate, t.id),
    index('pre_agenda_data_esperada').on(t.tenant, t.dataEsperada, t.id),
    index('pre_agenda_planta_data').on(t.tenant, t.plantaId, t.dataEsperada),
    index('pre_agenda_status_criacao').on(t.tenant, t.status, t.createdDate),
    index('pre_agenda_tipo').on(t.tenant, t.tipoAgendamentoId),
    index('pre_agenda_parceiro').on(t.tenant, t.externalTenantId, t.createdDate),
    index('pre_agenda_cliente').on(t.tenant, t.clienteId, t.createdDate),
    uniqueIndex('pre_agenda_cod_agenda').on(t.tenant, t.codAgenda).where(sql`${t.codAgenda} is not null`),
    trigramIndex('pre_agenda_descricao_trgm', t.descricao),
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
    id: uuid('id').primaryKey().defaultRandom(),
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
    index('historico_aprovacao_agenda_pre').on(t.tenant, t.preAgendaId, t.seq),
    tenantIsolation(t.tenant),
  ],
);

/** One approver's decision in an approval process. */
export const historicoAprovacaoAgendaItem = pgTable(
  'historico_aprovacao_agenda_item',
  {
    id: uuid('id').primaryKey().defaultRandom(),
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
    index('historico_aprovacao_agenda_item_hist').on(t.tenant, t.historicoAprovacaoId, t.seq),
    tenantIsolation(t.tenant),
  ],
);

/** Every change of a pre-agenda: who, when, what (changed fields), and the state it went from and to. */
export const preAgendaLog = pgTable(
  'pre_agenda_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
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
  (t) => [index('pre_agenda_log_pre').on(t.tenant, t.preAgendaId, t.seq), tenantIsolation(t.tenant)],
);

/** The tenant's custom-field definitions of the customizable records (agenda, preAgenda). */
export const customTable = pgTable(
  'custom_table',
  {
    ...entity(),
    /** agenda or preAgenda */
    entidade: text('entidade').notNull(),
    chave: text('chave').notNull(),
    rotulo: text('rotulo').notNull(),
    /** TEXTO, NUMERO, BOOLEANO, DATA, LISTA */
    tipo: text('tipo').notNull(),
    obrigatorio: boolean('obrigatorio').notNull().default(false),
    opcoes: jsonb('opcoes').$type<string[]>(),
    tamanhoMaximo: bigint('tamanho_maximo', { mode: 'number' }),
  },
  (t) => [uniqueIndex('custom_table_chave').on(t.tenant, t.entidade, t.chave), tenantIsolation(t.tenant)],
);
