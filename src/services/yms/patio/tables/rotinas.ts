import {
  bigint,
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entity, int64 } from './columns.ts';

// The tenant's conditions and commands and the log of every run (docs/patio.md "Conditions and
// commands"). The conventions of every table: columns.ts.

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
