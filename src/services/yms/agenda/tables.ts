import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  pgView,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../platform/core/db/keys.ts';
import { trigramIndex } from '../../../platform/core/db/search.ts';
import { tenantColumn, tenantIsolation } from '../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../platform/core/entity.ts';

// yms/agenda's tables (docs/agenda.md "The record"). Property names are the JSON field names: the
// entity engine and the queries read them. References to patio's records (plant, vehicle, driver,
// composition, circuit) and to the appointment type are plain UUIDs: those records belong to other
// services, which check them (a foreign key across services would tie their tables together).

function entity() {
  const { id: _id, ...audit } = entityColumns('uuid');
  return { id: uuid('id').notNull().defaultRandom(), ...audit };
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
    /** What is loaded or unloaded (quantity…): the type's rate turns it into an execution time. */
    associacaoAgendamento: jsonb('associacao_agendamento').$type<Record<string, unknown>>(),
    /**
     * End of the booked execution (dataEsperada + the slots it takes), set by the checked booking
     * (entity POST, PUT, PATCH); empty for agendas created without the checks (they take one slot).
     */
    fimPrevisto: timestamp('fim_previsto', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('agenda_codigo').on(t.tenant, t.codigo),
    uniqueIndex('agenda_chave_integracao')
      .on(t.tenant, t.chaveIntegracao)
      .where(sql`${t.chaveIntegracao} is not null`),
    index('agenda_data_esperada').on(t.tenant, t.dataEsperada, t.codigo),
    index('agenda_planta_data').on(t.tenant, t.plantaId, t.dataEsperada),
    index('agenda_status_data').on(t.tenant, t.status, t.dataEsperada),
    // Also the slot counts of horarioOperacao: the agendas of one type on one day.
    index('agenda_tipo').on(t.tenant, t.tipoAgendamentoId, t.dataEsperada),
    index('agenda_veiculo').on(t.tenant, t.veiculoId),
    index('agenda_motorista').on(t.tenant, t.motoristaId),
    index('agenda_parceiro').on(t.tenant, t.parceiroId),
    index('agenda_agrupador').on(t.tenant, t.codigoAgrupador),
    index('agenda_inicio_execucao').on(t.tenant, t.inicioExecucao).where(sql`${t.inicioExecucao} = 'FALHOU'`),
    trigramIndex('agenda_descricao_trgm', t.descricao),
    // pesquisa ORs these with the description: every branch needs an index for a BitmapOr.
    trigramIndex('agenda_chave_integracao_trgm', t.chaveIntegracao),
    trigramIndex('agenda_agrupador_trgm', t.codigoAgrupador),
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
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    agendaId: uuid('agenda_id').notNull(),
    de: text('de'),
    para: text('para').notNull(),
    quem: text('quem').notNull(),
    quando: timestamp('quando', { withTimezone: true }).notNull(),
    motivo: text('motivo'),
  },
  (t) => [
    tenantPrimaryKey(t),
    index('agenda_historico_agenda').on(t.tenant, t.agendaId, t.quando),
    tenantIsolation(t.tenant),
  ],
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

// Partners, external users and attachments (docs/agenda.md "External partners and users",
// "Attachments").

/** An external partner (externalTenant): a carrier or customer by CNPJ or CPF. */
export const externalTenant = pgTable(
  'agenda_external_tenant',
  {
    ...entity(),
    /** CNPJ (14 digits) or CPF (11 digits), stored as digits. */
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    ativo: boolean('ativo').notNull().default(true),
    /** The partner's users may change the driver of its agendas. */
    permiteEdicaoMotorista: boolean('permite_edicao_motorista').notNull().default(true),
    /** The partner may not book grouped agendas (codigoAgrupador). */
    naoPermiteCriarAgendamentosAgrupado: boolean('nao_permite_criar_agendamentos_agrupado')
      .notNull()
      .default(false),
    /** The partner requests pre-agendas instead of booking directly. */
    preAgendaHabilitada: boolean('pre_agenda_habilitada').notNull().default(false),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('agenda_external_tenant_codigo').on(t.tenant, t.codigo),
    trigramIndex('agenda_external_tenant_nome_trgm', t.nome),
    tenantIsolation(t.tenant),
  ],
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

/** A user of one or more partners, by e-mail (stored lower case). */
export const externalUser = pgTable(
  'agenda_external_user',
  {
    ...entity(),
    email: text('email').notNull(),
    nome: text('nome').notNull(),
    ativo: boolean('ativo').notNull().default(true),
    /** The partners (externalTenant.id) the user acts for. */
    parceiroIds: uuid('parceiro_ids').array().notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('agenda_external_user_email').on(t.tenant, t.email),
    index('agenda_external_user_parceiros').using('gin', t.parceiroIds),
    tenantIsolation(t.tenant),
  ],
);

/** The vehicles (yms/patio veiculo) a partner may book with, linked by linkVehiclesToPartner. */
export const parceiroVeiculo = pgTable(
  'agenda_parceiro_veiculo',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    parceiroId: uuid('parceiro_id').notNull(),
    veiculoId: uuid('veiculo_id').notNull(),
    placa: text('placa').notNull(),
    createdBy: text('created_by').notNull(),
    createdDate: timestamp('created_date', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('agenda_parceiro_veiculo_parceiro_fk', t, t.parceiroId, externalTenant).onDelete(
      'cascade',
    ),

    uniqueIndex('agenda_parceiro_veiculo_key').on(t.tenant, t.parceiroId, t.veiculoId),
    index('agenda_parceiro_veiculo_veiculo').on(t.tenant, t.veiculoId),
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

/**
 * One version of an attachment: created by obterUrlUploadAnexo (the storage place, blob
 * `yms/agenda/anexos/<id>`), its facts filled when the bytes arrive. The name's versions count
 * within its folder: the agenda, else the caller's partner, else the tenant.
 */
export const anexo = pgTable(
  'agenda_anexo',
  {
    ...entity(),
    nome: text('nome').notNull(),
    versao: bigint('versao', { mode: 'number' }).notNull(),
    agendaId: uuid('agenda_id'),
    /** The partner whose user created it (none for internal callers). */
    parceiroId: uuid('parceiro_id'),
    /** The folder the versions of a name count in: `agenda:<id>`, `parceiro:<id>` or `tenant`. */
    pasta: text('pasta').notNull(),
    descricao: text('descricao'),
    tamanho: bigint('tamanho', { mode: 'number' }),
    contentType: text('content_type'),
    sha256: text('sha256'),
    enviadoEm: timestamp('enviado_em', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('agenda_anexo_agenda_fk', t, t.agendaId, agenda).onDelete('cascade'),
    uniqueIndex('agenda_anexo_versao').on(t.tenant, t.pasta, t.nome, t.versao),
    index('agenda_anexo_agenda').on(t.tenant, t.agendaId),
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

/**
 * Appointment types (tipoAgendamento, docs/agenda.md "Appointment types"): what a booking is for
 * (loading or unloading at a plant, through a circuit), how long its slots are, how many fit in a
 * slot and how far ahead it must be booked. Active and blocked change only through their actions.
 */
export const tipoAgendamento = pgTable(
  'agenda_tipo_agendamento',
  {
    ...entity(),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    /** CARGA (loading) or DESCARGA (unloading). */
    operacao: text('operacao').notNull(),
    plantaId: uuid('planta_id').notNull(),
    /** The yard circuit (yms/patio circuito) the appointments of the type run. */
    circuitoId: uuid('circuito_id'),
    duracaoSlotMinutos: integer('duracao_slot_minutos').notNull(),
    /** Minutes per unit of associacaoAgendamento.quantidade: the execution time of a booking. */
    minutosPorUnidade: doublePrecision('minutos_por_unidade'),
    capacidadePorSlot: integer('capacidade_por_slot').notNull(),
    /** Lead time: a slot must start at least this many minutes after now to be booked. */
    antecedenciaMinutos: integer('antecedencia_minutos').notNull().default(0),
    ativo: boolean('ativo').notNull().default(true),
    bloqueado: boolean('bloqueado').notNull().default(false),
    motivoBloqueio: text('motivo_bloqueio'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('agenda_tipo_agendamento_codigo').on(t.tenant, t.codigo),
    index('agenda_tipo_agendamento_planta').on(t.tenant, t.plantaId),
    tenantIsolation(t.tenant),
  ],
);
/**
 * The search view (docs/agenda.md "Indexes and plans"): ILIKE is not leakproof, so under the
 * row-level security policy PostgreSQL never uses it as an index condition and a pesquisa would read
 * every agenda of the tenant. The view belongs to the migrating role (the policy does not bind it)
 * and applies the policy's own predicate, so only the transaction's tenant is visible and the
 * trigram indexes serve the text; the searches (busca.ts) read it, never client SQL. Not a
 * security_barrier view (that brings the restriction back); CHECK OPTION keeps writes in the tenant.
 */
export const agendaBusca = pgView('agenda_busca')
  .with({ checkOption: 'cascaded' })
  .as((qb) => qb.select().from(agenda).where(sql`${agenda.tenant} = current_setting('ponte.tenant', true)`));

/**
 * The pre-agendas' search view, for filtrarPreAgenda (docs/agenda.md "filtrarPreAgenda: plans"): the
 * same reason and the same shape as agenda_busca above.
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
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('custom_table_chave').on(t.tenant, t.entidade, t.chave),
    tenantIsolation(t.tenant),
  ],
);
