import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../platform/core/db/keys.ts';
import { trigramIndex } from '../../../platform/core/db/search.ts';
import { tenantColumn, tenantIsolation } from '../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../platform/core/entity.ts';

// yms/patio's tables (docs/patio.md "The yard model"). Property names are the JSON field names:
// the entity engine and the queries read them. Ids are UUIDs (DESIGN.md "Time, ids, text"); every
// table has a unique index on (tenant, natural key) and indexes on the columns filtered or sorted.
// Every reference is (tenant, ref) → (tenant, id) (platform/core/db/keys.ts): the entity hooks check
// references first and answer 422 naming the field; behind them, the composite foreign key holds a
// row to its own tenant's rows (a foreign key check does not see row-level security).

const int64 = (name: string) => bigint(name, { mode: 'number' });
const ref = (name: string) => uuid(name);
/** The id (a UUID) and audit columns of an entity table, with the id typed as the string it is. */
function entity() {
  const { id: _id, ...audit } = entityColumns('uuid');
  return { id: uuid('id').notNull().defaultRandom(), ...audit };
}

export const planta = pgTable(
  'patio_planta',
  {
    ...entity(),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    cnpj: text('cnpj'),
    /** IANA time zone: shifts and "today" of the plant are computed in it. */
    fusoHorario: text('fuso_horario').notNull().default('America/Sao_Paulo'),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('patio_planta_codigo').on(t.tenant, t.codigo),
    trigramIndex('patio_planta_nome_trgm', t.nome),
    tenantIsolation(t.tenant),
  ],
);

export const area = pgTable(
  'patio_area',
  {
    ...entity(),
    plantaId: ref('planta_id').notNull(),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    tipo: text('tipo').notNull(),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_area_planta_fk', t, t.plantaId, planta),
    uniqueIndex('patio_area_codigo').on(t.tenant, t.plantaId, t.codigo),
    trigramIndex('patio_area_descricao_trgm', t.descricao),
    tenantIsolation(t.tenant),
  ],
);

export const veiculo = pgTable(
  'patio_veiculo',
  {
    ...entity(),
    placa: text('placa').notNull(),
    tipoVeiculo: text('tipo_veiculo').notNull(),
    descricao: text('descricao'),
    renavam: text('renavam'),
    bloqueado: boolean('bloqueado').notNull().default(false),
    motivoBloqueio: text('motivo_bloqueio'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('patio_veiculo_placa').on(t.tenant, t.placa),
    tenantIsolation(t.tenant),
  ],
);

export const motorista = pgTable(
  'patio_motorista',
  {
    ...entity(),
    /** CPF, 11 digits. */
    documento: text('documento').notNull(),
    nome: text('nome').notNull(),
    cnh: text('cnh'),
    telefone: text('telefone'),
    bloqueado: boolean('bloqueado').notNull().default(false),
    motivoBloqueio: text('motivo_bloqueio'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('patio_motorista_documento').on(t.tenant, t.documento),
    trigramIndex('patio_motorista_nome_trgm', t.nome),
    tenantIsolation(t.tenant),
  ],
);

export const composicaoVeiculo = pgTable(
  'patio_composicao_veiculo',
  {
    ...entity(),
    descricao: text('descricao'),
    /** The tractor (cavalo mecânico) or the truck itself. */
    cavaloId: ref('cavalo_id').notNull(),
    /** The trailers, in coupling order. */
    reboqueIds: uuid('reboque_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Effective state: blocked by its own reason or because a part is blocked (docs/patio.md). */
    bloqueado: boolean('bloqueado').notNull().default(false),
    /** The composition's own reason (atualizarBloqueioComposicaoVeiculo). */
    motivoBloqueio: text('motivo_bloqueio'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_composicao_veiculo_cavalo_fk', t, t.cavaloId, veiculo),
    index('patio_composicao_veiculo_cavalo').on(t.tenant, t.cavaloId),
    index('patio_composicao_veiculo_reboques').using('gin', t.reboqueIds),
    tenantIsolation(t.tenant),
  ],
);

export const vaga = pgTable(
  'patio_vaga',
  {
    ...entity(),
    areaId: ref('area_id').notNull(),
    rua: int64('rua').notNull(),
    numero: int64('numero').notNull(),
    descricao: text('descricao'),
    ocupada: boolean('ocupada').notNull().default(false),
    ativo: boolean('ativo').notNull().default(true),
    bloqueio: boolean('bloqueio').notNull().default(false),
    motivoBloqueio: text('motivo_bloqueio'),
    /** The vehicle in the spot while ocupada. */
    veiculoId: ref('veiculo_id'),
    ocupadaEm: timestamp('ocupada_em', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_vaga_area_fk', t, t.areaId, area),
    tenantReference('patio_vaga_veiculo_fk', t, t.veiculoId, veiculo),
    uniqueIndex('patio_vaga_posicao').on(t.tenant, t.areaId, t.rua, t.numero),
    // The free spots of an area in allocation order (alocarVaga, buscaVagaLivre).
    index('patio_vaga_livre')
      .on(t.tenant, t.areaId, t.rua, t.numero)
      .where(sql`not ${t.ocupada} and ${t.ativo} and not ${t.bloqueio}`),
    // A vehicle holds at most one spot.
    uniqueIndex('patio_vaga_veiculo').on(t.tenant, t.veiculoId).where(sql`${t.veiculoId} is not null`),
    trigramIndex('patio_vaga_descricao_trgm', t.descricao),
    tenantIsolation(t.tenant),
  ],
);

export const turno = pgTable(
  'patio_turno',
  {
    ...entity(),
    plantaId: ref('planta_id').notNull(),
    data: date('data', { mode: 'string' }).notNull(),
    /** HH:mm in the plant's time zone; horaFim before horaInicio ends on the next day. */
    horaInicio: text('hora_inicio').notNull(),
    horaFim: text('hora_fim').notNull(),
    descricao: text('descricao'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_turno_planta_fk', t, t.plantaId, planta),
    uniqueIndex('patio_turno_janela').on(t.tenant, t.plantaId, t.data, t.horaInicio, t.horaFim),
    tenantIsolation(t.tenant),
  ],
);

// Circuits and their executions, yard presence and arrival control (docs/patio.md "Circuits",
// "Executions", "Yard events").

export const circuito = pgTable(
  'patio_circuito',
  {
    ...entity(),
    plantaId: ref('planta_id').notNull(),
    /** The appointment type (yms/agenda tipoAgendamento) the circuit serves: a string until that service settles its ids. */
    tipoAgendamentoId: text('tipo_agendamento_id'),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    descricao: text('descricao'),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_circuito_planta_fk', t, t.plantaId, planta),
    uniqueIndex('patio_circuito_codigo').on(t.tenant, t.plantaId, t.codigo),
    index('patio_circuito_tipo').on(t.tenant, t.plantaId, t.tipoAgendamentoId),
    tenantIsolation(t.tenant),
  ],
);

export const sequenciaCircuito = pgTable(
  'patio_sequencia_circuito',
  {
    ...entity(),
    circuitoId: ref('circuito_id').notNull(),
    ordem: integer('ordem').notNull(),
    areaId: ref('area_id').notNull(),
    nome: text('nome').notNull(),
    descricao: text('descricao'),
    /** The condition (listCondicoes) that must hold to enter this step, by name. */
    nomeCondicao: text('nome_condicao'),
    /** The command (listComandos) in charge of this step, by name (buscaControladorAtivo). */
    nomeComando: text('nome_comando'),
    /** A sub-circuit this step branches into (ramoExecucao), returning here when it ends. */
    subCircuitoId: ref('sub_circuito_id'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_sequencia_circuito_circuito_fk', t, t.circuitoId, circuito).onDelete('cascade'),
    tenantReference('patio_sequencia_circuito_area_fk', t, t.areaId, area),
    tenantReference('patio_sequencia_circuito_sub_circuito_fk', t, t.subCircuitoId, circuito),
    uniqueIndex('patio_sequencia_circuito_ordem').on(t.tenant, t.circuitoId, t.ordem),
    tenantIsolation(t.tenant),
  ],
);

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

/** Arrival control: the arrivals in an area, in order. */
export const controleArea = pgTable(
  'patio_controle_area',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    areaId: ref('area_id').notNull(),
    veiculoId: ref('veiculo_id'),
    motoristaId: ref('motorista_id'),
    execucaoCircuitoId: ref('execucao_circuito_id'),
    agendaId: uuid('agenda_id'),
    placa: text('placa').notNull(),
    /** The device or person that reported the arrival (yardInput.origem). */
    origem: text('origem'),
    chegadaEm: timestamp('chegada_em', { withTimezone: true }).notNull(),
    saidaEm: timestamp('saida_em', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_controle_area_area_fk', t, t.areaId, area),
    tenantReference('patio_controle_area_veiculo_fk', t, t.veiculoId, veiculo),
    tenantReference('patio_controle_area_motorista_fk', t, t.motoristaId, motorista),
    tenantReference('patio_controle_area_execucao_circuito_fk', t, t.execucaoCircuitoId, execucaoCircuito),
    index('patio_controle_area_chegada').on(t.tenant, t.areaId, t.chegadaEm, t.id),
    // The vehicle's open arrival (where it is now), closed when it enters another area or leaves.
    index('patio_controle_area_veiculo_aberta').on(t.tenant, t.veiculoId).where(sql`${t.saidaEm} is null`),
    tenantIsolation(t.tenant),
  ],
);

/** A vehicle's stay in a plant's yard, from vehicleEnteredYard to vehicleExitedYard. */
export const presencaPatio = pgTable(
  'patio_presenca_patio',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    plantaId: ref('planta_id').notNull(),
    veiculoId: ref('veiculo_id').notNull(),
    motoristaId: ref('motorista_id'),
    placa: text('placa').notNull(),
    /** The gate area it entered through, when reported. */
    areaEntradaId: ref('area_entrada_id'),
    origemEntrada: text('origem_entrada'),
    entradaEm: timestamp('entrada_em', { withTimezone: true }).notNull(),
    areaSaidaId: ref('area_saida_id'),
    origemSaida: text('origem_saida'),
    saidaEm: timestamp('saida_em', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_presenca_patio_planta_fk', t, t.plantaId, planta),
    tenantReference('patio_presenca_patio_veiculo_fk', t, t.veiculoId, veiculo),
    tenantReference('patio_presenca_patio_motorista_fk', t, t.motoristaId, motorista),
    tenantReference('patio_presenca_patio_area_entrada_fk', t, t.areaEntradaId, area),
    tenantReference('patio_presenca_patio_area_saida_fk', t, t.areaSaidaId, area),
    // A vehicle is in at most one yard at a time: a second entry, even a concurrent one, is refused.
    uniqueIndex('patio_presenca_patio_veiculo').on(t.tenant, t.veiculoId).where(sql`${t.saidaEm} is null`),
    index('patio_presenca_patio_planta').on(t.tenant, t.plantaId, t.entradaEm),
    tenantIsolation(t.tenant),
  ],
);

/**
 * A tenant's own condition or command (docs/patio.md "Conditions and commands"): a name and the
 * built-in parts it is made of, ANDed or ORed (a condition) or run in order (a command).
 */
export const rotina = pgTable(
  'patio_rotina',
  {
    ...entity(),
    /** CONDICAO or COMANDO. */
    tipo: text('tipo').notNull(),
    nome: text('nome').notNull(),
    descricao: text('descricao'),
    /** A condition's parts: TODAS (all hold) or ALGUMA (any holds). */
    operador: text('operador'),
    /** [{nome, parametros}]: built-in conditions or commands with their parameters. */
    partes: jsonb('partes').notNull(),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('patio_rotina_nome').on(t.tenant, t.tipo, t.nome),
    tenantIsolation(t.tenant),
  ],
);

/** Every run of a condition or command (logRotina), newest read first. */
export const logRotina = pgTable(
  'patio_log_rotina',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    tipo: text('tipo').notNull(),
    nome: text('nome').notNull(),
    servico: text('servico').notNull(),
    alvo: text('alvo').notNull(),
    /** EXPLICITO (executarCondicao / executarComando), ETAPA (a step's own), COMPOSTA (a part of a tenant's routine). */
    origem: text('origem').notNull(),
    escopo: jsonb('escopo').notNull(),
    variaveis: jsonb('variaveis'),
    parametros: jsonb('parametros'),
    /** A condition's outcome. */
    resultado: boolean('resultado'),
    sucesso: boolean('sucesso').notNull(),
    mensagem: text('mensagem').notNull(),
    /** The parts of a tenant's routine, each with its outcome. */
    detalhes: jsonb('detalhes'),
    execucaoCircuitoId: uuid('execucao_circuito_id'),
    sequenciaCircuitoId: uuid('sequencia_circuito_id'),
    /** The step visit (history row n) a step's command ran in: it runs once per visit. */
    etapaN: int64('etapa_n'),
    inicio: timestamp('inicio', { withTimezone: true }).notNull(),
    fim: timestamp('fim', { withTimezone: true }).notNull(),
    n: bigint('n', { mode: 'number' }).generatedByDefaultAsIdentity(),
  },
  (t) => [
    tenantPrimaryKey(t),
    index('patio_log_rotina_execucao').on(t.tenant, t.execucaoCircuitoId, t.n),
    index('patio_log_rotina_n').on(t.tenant, t.n),
    tenantIsolation(t.tenant),
  ],
);

// Registers of imports and exports (docs/patio.md "Imports and exports"): a plant's address and the
// tenant's catalogue of vehicle types.

/** The address of a plant: one per plant. */
export const endereco = pgTable(
  'patio_endereco',
  {
    ...entity(),
    plantaId: ref('planta_id').notNull(),
    logradouro: text('logradouro').notNull(),
    numero: text('numero'),
    complemento: text('complemento'),
    bairro: text('bairro'),
    cidade: text('cidade').notNull(),
    /** Brazilian state abbreviation, upper case. */
    uf: text('uf').notNull(),
    /** CEP, 8 digits. */
    cep: text('cep'),
    /** ISO 3166-1 alpha-2, default BR. */
    pais: text('pais').notNull().default('BR'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_endereco_planta_fk', t, t.plantaId, planta).onDelete('cascade'),
    uniqueIndex('patio_endereco_planta').on(t.tenant, t.plantaId),
    tenantIsolation(t.tenant),
  ],
);

/** The tenant's catalogue of vehicle types (e.g. "Bitrem 9 eixos"), each of one vehicle category. */
export const tipoVeiculo = pgTable(
  'patio_tipo_veiculo',
  {
    ...entity(),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    /** The category of veiculo.tipoVeiculo this type belongs to. */
    categoria: text('categoria').notNull(),
    eixos: integer('eixos'),
    pesoMaximoKg: doublePrecision('peso_maximo_kg'),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('patio_tipo_veiculo_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);
