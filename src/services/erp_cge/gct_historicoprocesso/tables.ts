import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../platform/core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../../../platform/core/db/tenancy.ts';

// The runs an ERP reports (docs/gct_historicoprocesso.md): started by iniciarProcesso, ended once by
// finalizarProcesso or interromperProcesso. Ponte's own runs are its jobs, read where the platform
// keeps them (historico.ts), not copied here.

export const execucaoProcesso = pgTable(
  'gct_execucao_processo',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    empresa: bigint('empresa', { mode: 'number' }).notNull(),
    filial: bigint('filial', { mode: 'number' }).notNull(),
    processo: text('processo').notNull(),
    /** The ERP's own id of the run: a start sent twice is one run (409 the second time). */
    chaveExecucao: text('chave_execucao'),
    dataInicio: date('data_inicio', { mode: 'string' }).notNull(),
    dataFinal: date('data_final', { mode: 'string' }).notNull(),
    inicioProcessamento: timestamp('inicio_processamento', { withTimezone: true }).notNull(),
    fimProcessamento: timestamp('fim_processamento', { withTimezone: true }),
    /** Iniciado → Finalizado | Interrompido, once. */
    situacao: text('situacao').notNull().default('Iniciado'),
    motivo: text('motivo'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('gct_execucao_processo_chave').on(t.tenant, t.empresa, t.filial, t.processo, t.chaveExecucao),
    index('gct_execucao_processo_periodo').on(t.tenant, t.empresa, t.filial, t.processo, t.dataInicio),
    check('gct_execucao_processo_periodo_ok', sql`${t.dataFinal} >= ${t.dataInicio}`),
    check('gct_execucao_processo_situacao', sql`${t.situacao} in ('Iniciado', 'Finalizado', 'Interrompido')`),
    tenantIsolation(t.tenant),
  ],
);
