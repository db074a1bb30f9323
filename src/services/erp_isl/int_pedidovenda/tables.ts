import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../platform/core/entity.ts';
import type { SituacaoPedidoVenda } from './situacoes.ts';

// erp_isl/int_pedidovenda's tables (spec 001 §2.4, §4.3; docs/int_pedidovenda.md). Property names
// are the JSON field names (the entity engine and the filter language read them), including the
// spec's snake_case ones (data_emissao, codigo_cliente). Ids are UUIDs; the order's key is the
// ERP's (tenant, codigoEmpresa, codigoFilial, numeroPedidoVenda), a unique index: a second insert
// of one key is refused by the index itself (409), never by a read before the write.

const int64 = (name: string) => bigint(name, { mode: 'number' });

/** The id (a UUID, typed as the string it is) and audit columns of an entity table. */
function entidade() {
  const { id: _id, ...audit } = entityColumns('uuid');
  return { id: uuid('id').notNull().defaultRandom(), ...audit };
}

const situacao = (name: string) => text(name).$type<SituacaoPedidoVenda>().notNull().default('AbertoTotal');

/** A sales order (the entity pedidoVenda): the header of inserirPedidoVenda. */
export const pedidoVenda = pgTable(
  'isl_pedido_venda',
  {
    ...entidade(),
    codigoEmpresa: int64('codigo_empresa').notNull(),
    codigoFilial: int64('codigo_filial').notNull(),
    numeroPedidoVenda: int64('numero_pedido_venda').notNull(),
    /** The ERP's sequence of the order as sent by inserirPedidoVenda (docs: kept, not interpreted). */
    sequenciaPedidoVenda: int64('sequencia_pedido_venda').notNull(),
    data_emissao: date('data_emissao', { mode: 'string' }).notNull(),
    codigo_cliente: int64('codigo_cliente').notNull(),
    valorLiquido: doublePrecision('valor_liquido').notNull(),
    valorTotal: doublePrecision('valor_total').notNull(),
    transacao_produto: text('transacao_produto'),
    transacao_servico: text('transacao_servico'),
    codigo_representante: int64('codigo_representante'),
    textoObservacao: text('texto_observacao'),
    /** Project extension (docs): the payment condition (com_comum condicaoPagamento.codigo). */
    codigoCondicaoPagamento: text('codigo_condicao_pagamento'),
    situacaoPedidoVenda: situacao('situacao_pedido_venda'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('isl_pedido_venda_chave').on(t.tenant, t.codigoEmpresa, t.codigoFilial, t.numeroPedidoVenda),
    index('isl_pedido_venda_situacao').on(t.tenant, t.situacaoPedidoVenda),
    index('isl_pedido_venda_emissao').on(t.tenant, t.data_emissao),
    tenantIsolation(t.tenant),
  ],
);

/**
 * A product item of an order (recItensPro), numbered 1..n in the order it was sent: sequenciaItem
 * is what recAlteracaoItensPro, alterarItemSitPedidoVenda (as sequenciaPedidoVenda) and the lots
 * name. Ponte keeps the open, cancelled and attended quantities and the item's own situation.
 */
export const itemProduto = pgTable(
  'isl_pedido_venda_item_pro',
  {
    ...entidade(),
    pedidoVendaId: uuid('pedido_venda_id').notNull(),
    sequenciaItem: int64('sequencia_item').notNull(),
    sequenciaEmbalagem: int64('sequencia_embalagem').notNull(),
    sequenciaConteudo: int64('sequencia_conteudo').notNull(),
    quantidade: doublePrecision('quantidade').notNull(),
    volume: doublePrecision('volume').notNull(),
    pesoBruto: doublePrecision('peso_bruto').notNull(),
    pesoLiquido: doublePrecision('peso_liquido').notNull(),
    obsProduto: text('obs_produto').notNull(),
    quantidadeAberta: doublePrecision('quantidade_aberta').notNull(),
    quantidadeCancelada: doublePrecision('quantidade_cancelada').notNull().default(0),
    /** What pre-invoices (int_prefatura) attend of this item. */
    quantidadeAtendida: doublePrecision('quantidade_atendida').notNull().default(0),
    situacaoPedidoVenda: situacao('situacao_pedido_venda'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('isl_pedido_venda_item_pro_pedido_fk', t, t.pedidoVendaId, pedidoVenda).onDelete(
      'cascade',
    ),
    uniqueIndex('isl_pedido_venda_item_pro_seq').on(t.tenant, t.pedidoVendaId, t.sequenciaItem),
    check('isl_pedido_venda_item_pro_qtd', sql`${t.quantidadeAberta} >= 0 and ${t.quantidadeCancelada} >= 0`),
    tenantIsolation(t.tenant),
  ],
);

/** A service item of an order (recItensSer), by the ERP's sequenciaItem. */
export const itemServico = pgTable(
  'isl_pedido_venda_item_ser',
  {
    ...entidade(),
    pedidoVendaId: uuid('pedido_venda_id').notNull(),
    sequenciaItem: int64('sequencia_item').notNull(),
    codigoServico: text('codigo_servico').notNull(),
    servico: text('servico').notNull(),
    quantidade: doublePrecision('quantidade').notNull(),
    valorUnitario: doublePrecision('valor_unitario').notNull(),
    valorDesconto: doublePrecision('valor_desconto').notNull(),
    valorLiquido: doublePrecision('valor_liquido').notNull(),
    valorTotal: doublePrecision('valor_total').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('isl_pedido_venda_item_ser_pedido_fk', t, t.pedidoVendaId, pedidoVenda).onDelete(
      'cascade',
    ),
    uniqueIndex('isl_pedido_venda_item_ser_seq').on(t.tenant, t.pedidoVendaId, t.sequenciaItem),
    tenantIsolation(t.tenant),
  ],
);

/** A lot of a product item (recAlteracaoItensLotes), as the last alterarPedidoVenda sent them. */
export const itemLote = pgTable(
  'isl_pedido_venda_lote',
  {
    ...entidade(),
    itemId: uuid('item_id').notNull(),
    /** The item's sequence (recAlteracaoItensLotes.sequenciaPedidoVenda). */
    sequenciaPedidoVenda: int64('sequencia_pedido_venda').notNull(),
    codigoProduto: text('codigo_produto').notNull(),
    codigoDerivacao: text('codigo_derivacao').notNull(),
    codigoDeposito: text('codigo_deposito').notNull(),
    dataEmissao: date('data_emissao', { mode: 'string' }).notNull(),
    quantidade: doublePrecision('quantidade').notNull(),
    codigoLote: text('codigo_lote'),
    valorDimensao1: doublePrecision('valor_dimensao1'),
    valorDimensao2: doublePrecision('valor_dimensao2'),
    valorDimensao3: doublePrecision('valor_dimensao3'),
    valorDimensao4: doublePrecision('valor_dimensao4'),
    valorDimensao5: doublePrecision('valor_dimensao5'),
    valorDimensao6: doublePrecision('valor_dimensao6'),
    dataFabricacao: date('data_fabricacao', { mode: 'string' }),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('isl_pedido_venda_lote_item_fk', t, t.itemId, itemProduto).onDelete('cascade'),
    index('isl_pedido_venda_lote_item').on(t.tenant, t.itemId),
    tenantIsolation(t.tenant),
  ],
);

/**
 * The history of an order (docs "History"): one row per change of the order or of one of its
 * items: through which operation, the situation before and after and what changed; createdBy
 * and createdDate say who made it and when.
 */
export const historicoPedidoVenda = pgTable(
  'isl_pedido_venda_historico',
  {
    ...entidade(),
    pedidoVendaId: uuid('pedido_venda_id').notNull(),
    /** The product item changed, when the change is an item's. */
    sequenciaItem: int64('sequencia_item'),
    operacao: text('operacao').notNull(),
    situacaoAnterior: text('situacao_anterior').$type<SituacaoPedidoVenda>(),
    situacaoNova: text('situacao_nova').$type<SituacaoPedidoVenda>(),
    alteracoes: jsonb('alteracoes').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('isl_pedido_venda_historico_pedido_fk', t, t.pedidoVendaId, pedidoVenda).onDelete(
      'cascade',
    ),
    index('isl_pedido_venda_historico_pedido').on(t.tenant, t.pedidoVendaId, t.createdDate),
    tenantIsolation(t.tenant),
  ],
);
