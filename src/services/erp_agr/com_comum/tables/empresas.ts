import { pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { numberedId, tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import type * as S from '../schemas.ts';
import { oneOf, situacao } from './columns.ts';

// Companies, their branches, and the ERP transactions enabled for agribusiness processes.

export const empresa = pgTable(
  'com_empresa',
  {
    id: numberedId('com_empresa'),
    tenant: tenantColumn(),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    nomeFantasia: text('nome_fantasia'),
    cnpj: text('cnpj'),
    situacao: situacao(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_empresa_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const filial = pgTable(
  'com_filial',
  {
    id: numberedId('com_filial'),
    tenant: tenantColumn(),
    codigoEmpresa: text('codigo_empresa').notNull(),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    nomeFantasia: text('nome_fantasia'),
    cnpj: text('cnpj'),
    inscricaoEstadual: text('inscricao_estadual'),
    codigoCidade: text('codigo_cidade'),
    siglaEstado: text('sigla_estado'),
    situacao: situacao(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_filial_codigo').on(t.tenant, t.codigoEmpresa, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

/** A transaction of the ERP (its code) enabled for an agribusiness process. */
export const vinculoTransacao = pgTable(
  'com_vinculo_transacao',
  {
    id: numberedId('com_vinculo_transacao'),
    tenant: tenantColumn(),
    transacaoId: text('transacao_id').notNull(),
    processo: oneOf<typeof S.PROCESSOS_TRANSACAO>('processo'),
    criadoEm: timestamp('criado_em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_vinculo_transacao_par').on(t.tenant, t.transacaoId, t.processo),
    tenantIsolation(t.tenant),
  ],
);
