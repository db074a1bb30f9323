import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { numberedId, tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../../platform/core/entity.ts';
import type * as S from '../schemas.ts';
import { oneOf } from './columns.ts';

// Units of measure and their conversions, SKUs and the units each is sold in.

export const unidadeMedida = pgTable(
  'com_unidade_medida',
  {
    id: numberedId('com_unidade_medida'),
    tenant: tenantColumn(),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    quantidadeDecimais: integer('quantidade_decimais'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_unidade_medida_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const unidadeMedidaConversao = pgTable(
  'com_unidade_medida_conversao',
  {
    ...entityColumns('int64', 'com_unidade_medida_conversao'),
    codigoUnidadeMedidaOrigem: text('codigo_unidade_medida_origem').notNull(),
    codigoUnidadeMedidaDestino: text('codigo_unidade_medida_destino').notNull(),
    operacao: oneOf<typeof S.OPERACOES_CONVERSAO>('operacao').default('Multiplicar'),
    fatorConversao: doublePrecision('fator_conversao').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_unidade_medida_conversao_par').on(
      t.tenant,
      t.codigoUnidadeMedidaOrigem,
      t.codigoUnidadeMedidaDestino,
    ),
    check(
      'com_unidade_medida_conversao_distintas',
      sql`${t.codigoUnidadeMedidaOrigem} <> ${t.codigoUnidadeMedidaDestino}`,
    ),
    check('com_unidade_medida_conversao_fator', sql`${t.fatorConversao} > 0`),
    tenantIsolation(t.tenant),
  ],
);

export const sku = pgTable(
  'com_sku',
  {
    ...entityColumns('int64', 'com_sku'),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    codigoProduto: text('codigo_produto'),
    codigoUnidadeMedida: text('codigo_unidade_medida').notNull(),
    codigoBarras: text('codigo_barras'),
    ncm: text('ncm'),
    pesoLiquido: doublePrecision('peso_liquido'),
    pesoBruto: doublePrecision('peso_bruto'),
    ativo: boolean('ativo').notNull().default(true),
    tipoProduto: oneOf<typeof S.TIPOS_PRODUTO>('tipo_produto').default('NaoClassificado'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_sku_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const skuUnidadeMedida = pgTable(
  'com_sku_unidade_medida',
  {
    id: numberedId('com_sku_unidade_medida'),
    tenant: tenantColumn(),
    codigoSku: text('codigo_sku').notNull(),
    codigoUnidadeMedida: text('codigo_unidade_medida').notNull(),
    fatorConversao: doublePrecision('fator_conversao').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_sku_unidade_medida_par').on(t.tenant, t.codigoSku, t.codigoUnidadeMedida),
    check('com_sku_unidade_medida_fator', sql`${t.fatorConversao} > 0`),
    tenantIsolation(t.tenant),
  ],
);
