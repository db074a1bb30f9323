import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../../platform/core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { circuito, sequenciaCircuito } from './circuitos.ts';
import { entity, ref } from './columns.ts';
import { composicaoVeiculo, motorista, veiculo } from './veiculos.ts';

// The executions of circuits (docs/patio.md "Executions"): the execution, its variables and camera
// images per target, and the history of its steps. The conventions of every table: columns.ts.

export const execucaoCircuito = pgTable(
  'patio_execucao_circuito',
  {
    ...entity(),
    circuitoId: ref('circuito_id').notNull(),
    veiculoId: ref('veiculo_id'),
    composicaoVeiculoId: ref('composicao_veiculo_id'),
    motoristaId: ref('motorista_id'),
    /** yms/agenda's agenda: no foreign key, the record belongs to the other service. */
    agendaId: uuid('agenda_id'),
    sequenciaAtualId: ref('sequencia_atual_id'),
    /** When the execution entered its current sequence (the queue order of a sequence). */
    sequenciaAtualDesde: timestamp('sequencia_atual_desde', { withTimezone: true }),
    /** EXECUTANDO, FINALIZADO, CANCELADO (docs/patio.md). */
    situacao: text('situacao').notNull().default('EXECUTANDO'),
    /** The branch this execution runs as (ramoExecucao), with the execution it returns to. */
    execucaoPaiId: uuid('execucao_pai_id'),
    /** For a branch: the parent's step visit (its history row n) the branch was started from. */
    ramoEtapaN: bigint('ramo_etapa_n', { mode: 'number' }),
    iniciadaEm: timestamp('iniciada_em', { withTimezone: true }).notNull(),
    finalizadaEm: timestamp('finalizada_em', { withTimezone: true }),
    motivoCancelamento: text('motivo_cancelamento'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_execucao_circuito_circuito_fk', t, t.circuitoId, circuito),
    tenantReference('patio_execucao_circuito_veiculo_fk', t, t.veiculoId, veiculo),
    tenantReference(
      'patio_execucao_circuito_composicao_veiculo_fk',
      t,
      t.composicaoVeiculoId,
      composicaoVeiculo,
    ),
    tenantReference('patio_execucao_circuito_motorista_fk', t, t.motoristaId, motorista),
    tenantReference('patio_execucao_circuito_sequencia_atual_fk', t, t.sequenciaAtualId, sequenciaCircuito),
    index('patio_execucao_circuito_veiculo').on(t.tenant, t.veiculoId, t.situacao),
    index('patio_execucao_circuito_motorista').on(t.tenant, t.motoristaId, t.situacao),
    index('patio_execucao_circuito_agenda').on(t.tenant, t.agendaId),
    index('patio_execucao_circuito_sequencia').on(t.tenant, t.sequenciaAtualId),
    // A vehicle, and a driver, is in at most one running (main) execution: the last wall against
    // two concurrent starts (iniciarExecucao checks first, for a clear message).
    uniqueIndex('patio_execucao_circuito_veiculo_executando')
      .on(t.tenant, t.veiculoId)
      .where(sql`${t.situacao} = 'EXECUTANDO' and ${t.execucaoPaiId} is null`),
    uniqueIndex('patio_execucao_circuito_motorista_executando')
      .on(t.tenant, t.motoristaId)
      .where(sql`${t.situacao} = 'EXECUTANDO' and ${t.execucaoPaiId} is null`),
    index('patio_execucao_circuito_pai').on(t.tenant, t.execucaoPaiId),
    tenantIsolation(t.tenant),
  ],
);

/** Variables of an execution per target (a sequence or an area): an existing key is overwritten. */
export const execucaoCircuitoVariavel = pgTable(
  'patio_execucao_circuito_variavel',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    execucaoCircuitoId: ref('execucao_circuito_id').notNull(),
    alvoId: text('alvo_id').notNull(),
    chave: text('chave').notNull(),
    valor: text('valor').notNull(),
    /** How the value was captured (addVariavelCircuito: tipoCaptura). */
    tipoCaptura: text('tipo_captura'),
    /** The routine that captured it, when one did. */
    rotina: text('rotina'),
    alteradaEm: timestamp('alterada_em', { withTimezone: true }).notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference(
      'patio_execucao_circuito_variavel_execucao_circuito_fk',
      t,
      t.execucaoCircuitoId,
      execucaoCircuito,
    ).onDelete('cascade'),

    uniqueIndex('patio_execucao_circuito_variavel_chave').on(
      t.tenant,
      t.execucaoCircuitoId,
      t.alvoId,
      t.chave,
    ),
    tenantIsolation(t.tenant),
  ],
);

/** Camera images taken during an execution, per target. */
export const execucaoCircuitoImagem = pgTable(
  'patio_execucao_circuito_imagem',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    execucaoCircuitoId: ref('execucao_circuito_id').notNull(),
    alvoId: text('alvo_id').notNull(),
    cameraIp: text('camera_ip').notNull(),
    imagemUrl: text('imagem_url').notNull(),
    capturadaEm: timestamp('capturada_em', { withTimezone: true }).notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference(
      'patio_execucao_circuito_imagem_execucao_circuito_fk',
      t,
      t.execucaoCircuitoId,
      execucaoCircuito,
    ).onDelete('cascade'),

    index('patio_execucao_circuito_imagem_execucao').on(t.tenant, t.execucaoCircuitoId, t.capturadaEm),
    tenantIsolation(t.tenant),
  ],
);

/** Every step of an execution, with its times: entered a sequence, left it, advanced or reverted. */
export const historicoExecucaoCircuito = pgTable(
  'patio_historico_execucao_circuito',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    /** Insertion order: steps taken at the same instant keep the order they were taken in. */
    n: bigint('n', { mode: 'number' }).generatedByDefaultAsIdentity(),
    execucaoCircuitoId: ref('execucao_circuito_id').notNull(),
    sequenciaCircuitoId: ref('sequencia_circuito_id'),
    /** INICIADA, AVANCOU, RETORNOU, RAMIFICOU, FINALIZADA, CANCELADA. */
    acao: text('acao').notNull(),
    /** MANUAL or COMANDO, with who or which command. */
    origem: text('origem').notNull(),
    entradaEm: timestamp('entrada_em', { withTimezone: true }).notNull(),
    saidaEm: timestamp('saida_em', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference(
      'patio_historico_execucao_circuito_execucao_circuito_fk',
      t,
      t.execucaoCircuitoId,
      execucaoCircuito,
    ).onDelete('cascade'),
    tenantReference(
      'patio_historico_execucao_circuito_sequencia_circuito_fk',
      t,
      t.sequenciaCircuitoId,
      sequenciaCircuito,
    ),

    index('patio_historico_execucao_circuito_execucao').on(t.tenant, t.execucaoCircuitoId, t.entradaEm),
    tenantIsolation(t.tenant),
  ],
);
