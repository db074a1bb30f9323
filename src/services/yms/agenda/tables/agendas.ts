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
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { searchColumnIndex, searchColumnOf, trigramIndex } from '../../../../platform/core/db/search.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entity } from './columns.ts';

// The agenda, its state history, its code counter and its search view (docs/agenda.md "The record").

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
    /**
     * What pesquisa reads (busca.ts): description, integration key and group code, lowercased and
     * kept by the database; never written, never answered.
     */
    busca: text('busca')
      .notNull()
      .generatedAlwaysAs(searchColumnOf('descricao', 'chave_integracao', 'codigo_agrupador')),
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
    // Overdue agendas (filtrarAgenda somenteVencidas) in the page's order: the page reads its own 20
    // entries, not every finished agenda before them (docs/agenda.md "Indexes and plans").
    index('agenda_nao_iniciada')
      .on(t.tenant, t.dataEsperada, t.codigo)
      .where(sql`${t.status} in ('AGENDADO', 'AGUARDANDO_INTEGRACAO', 'ERRO_INTEGRACAO')`),
    // Also the slot counts of horarioOperacao: the agendas of one type on one day.
    index('agenda_tipo').on(t.tenant, t.tipoAgendamentoId, t.dataEsperada),
    index('agenda_veiculo').on(t.tenant, t.veiculoId),
    index('agenda_motorista').on(t.tenant, t.motoristaId),
    index('agenda_parceiro').on(t.tenant, t.parceiroId),
    index('agenda_agrupador').on(t.tenant, t.codigoAgrupador),
    index('agenda_inicio_execucao').on(t.tenant, t.inicioExecucao).where(sql`${t.inicioExecucao} = 'FALHOU'`),
    // The descricao filter; pesquisa reads the three text fields through busca's (docs/agenda.md).
    trigramIndex('agenda_descricao_trgm', t.descricao),
    searchColumnIndex('agenda_busca_trgm', t.busca),
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
