import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  doublePrecision,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { numberedId, tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../../platform/core/entity.ts';
import type * as S from '../schemas.ts';
import { oneOf } from './columns.ts';

// Currencies and their quotes, payment conditions and forms of payment.

export const moeda = pgTable(
  'com_moeda',
  {
    ...entityColumns('int64', 'com_moeda'),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    simbolo: text('simbolo'),
    quantidadeDecimais: integer('quantidade_decimais'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_moeda_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const cotacaoMoeda = pgTable(
  'com_cotacao_moeda',
  {
    id: numberedId('com_cotacao_moeda'),
    tenant: tenantColumn(),
    codigoMoeda: text('codigo_moeda').notNull(),
    data: date('data', { mode: 'string' }).notNull(),
    valor: doublePrecision('valor').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_cotacao_moeda_data').on(t.tenant, t.codigoMoeda, t.data),
    check('com_cotacao_moeda_valor', sql`${t.valor} > 0`),
    tenantIsolation(t.tenant),
  ],
);

export const condicaoPagamento = pgTable(
  'com_condicao_pagamento',
  {
    ...entityColumns('int64', 'com_condicao_pagamento'),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    quantidadeParcelas: integer('quantidade_parcelas').notNull().default(1),
    diasPrimeiraParcela: integer('dias_primeira_parcela').notNull().default(0),
    intervaloDias: integer('intervalo_dias').notNull().default(0),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_condicao_pagamento_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const formaPagamento = pgTable(
  'com_forma_pagamento',
  {
    id: numberedId('com_forma_pagamento'),
    tenant: tenantColumn(),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    tipo: oneOf<typeof S.TIPOS_FORMA_PAGAMENTO>('tipo').default('Outros'),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_forma_pagamento_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);
