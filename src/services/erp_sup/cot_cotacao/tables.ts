import { sql } from 'drizzle-orm';
import {
  bigint,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../platform/core/entity.ts';
import type * as S from './schemas.ts';

// erp_sup/cot_cotacao's tables (docs/cot_cotacao.md): a quotation and its items, one per purchase
// need. Property names are the JSON field names. Every key holds the tenant.

type Situacao = (typeof S.SITUACOES_COTACAO)[number];
type Json = Record<string, unknown>;

export const cotacao = pgTable(
  'cot_cotacao',
  {
    ...entityColumns(),
    situacao: text('situacao').$type<Situacao>().notNull().default('Aberta'),
    quantidadeItens: bigint('quantidade_itens', { mode: 'number' }).notNull(),
    canceladaEm: timestamp('cancelada_em', { withTimezone: true }),
    /**
     * The items as the quotation shows them (recCotacaoItem with their situacao), written under the
     * quotation's row lock by criarCotacao and cancelarCotacao; cot_cotacao_item holds them one
     * row each, for the rule of one open quotation per need and the lookups by need.
     */
    itens: jsonb('itens').$type<Json[]>().notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    index('cot_cotacao_situacao').on(t.tenant, t.situacao),
    tenantIsolation(t.tenant),
  ],
);

export const cotacaoItem = pgTable(
  'cot_cotacao_item',
  {
    ...entityColumns(),
    cotacaoId: uuid('cotacao_id').notNull(),
    idNecessidadeCompra: text('id_necessidade_compra').notNull(),
    numeroNecessidadeCompra: bigint('numero_necessidade_compra', { mode: 'number' }).notNull(),
    quantidade: doublePrecision('quantidade').notNull(),
    codigoEmpresa: text('codigo_empresa').notNull(),
    codigoFilial: text('codigo_filial').notNull(),
    codigoUnidadeMedida: text('codigo_unidade_medida').notNull(),
    codigoSKU: text('codigo_sku'),
    complemento: text('complemento'),
    observacao: text('observacao'),
    enderecoEntrega: jsonb('endereco_entrega').$type<Json>(),
    enderecoFaturamento: jsonb('endereco_faturamento').$type<Json>(),
    anexos: jsonb('anexos').$type<Json[]>(),
    detalhesUsuario: jsonb('detalhes_usuario').$type<Json>(),
    situacao: text('situacao').$type<Situacao>().notNull().default('Aberta'),
    canceladaEm: timestamp('cancelada_em', { withTimezone: true }),
    canceladaPor: text('cancelada_por'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('cot_cotacao_item_cotacao_fk', t, t.cotacaoId, cotacao).onDelete('cascade'),
    index('cot_cotacao_item_cotacao').on(t.tenant, t.cotacaoId),
    index('cot_cotacao_item_necessidade').on(t.tenant, t.idNecessidadeCompra),
    // A purchase need is in one open quotation at most: two creations of the same need race on this.
    uniqueIndex('cot_cotacao_item_necessidade_aberta')
      .on(t.tenant, t.idNecessidadeCompra)
      .where(sql`situacao = 'Aberta'`),
    tenantIsolation(t.tenant),
  ],
);
