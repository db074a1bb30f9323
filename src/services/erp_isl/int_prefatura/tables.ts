import {
  bigint,
  boolean,
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

// erp_isl/int_prefatura's tables (spec 001 §2.6, §4.5; docs/int_prefatura.md). Property names are
// the JSON field names. A pre-invoice is keyed by the ERP's (tenant, codigoEmpresa, codigoFilial,
// analiseEmbarque, numeroPreFatura) and its items by sequenciaPreFatura: unique indexes, so a
// second insert of one key is refused by the index (409), never by a read before the write.

const int64 = (name: string) => bigint(name, { mode: 'number' });

/** The id (a UUID, typed as the string it is) and audit columns of an entity table. */
function entidade() {
  const { id: _id, ...audit } = entityColumns('uuid');
  return { id: uuid('id').notNull().defaultRandom(), ...audit };
}

/** enumSituacaoPreFatura, in the spec's order. */
export const SITUACOES_PRE_FATURA = [
  'EmAnalise',
  'EmPreparacao',
  'ParaFaturar',
  'Faturada',
  'EmConferencia',
  'AguardandoIntWMS',
  'SemEstoqueReq',
  'Cancelada',
] as const;
export type SituacaoPreFatura = (typeof SITUACOES_PRE_FATURA)[number];

const situacao = (name: string) => text(name).$type<SituacaoPreFatura>().notNull().default('EmAnalise');

/** A pre-invoice (the entity preFatura): created by its first inserirPreFatura. */
export const preFatura = pgTable(
  'isl_pre_fatura',
  {
    ...entidade(),
    codigoEmpresa: int64('codigo_empresa').notNull(),
    codigoFilial: int64('codigo_filial').notNull(),
    analiseEmbarque: doublePrecision('analise_embarque').notNull(),
    numeroPreFatura: int64('numero_pre_fatura').notNull(),
    situacaoPreFatura: situacao('situacao_pre_fatura'),
    textoObservacao: text('texto_observacao'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('isl_pre_fatura_chave').on(
      t.tenant,
      t.codigoEmpresa,
      t.codigoFilial,
      t.analiseEmbarque,
      t.numeroPreFatura,
    ),
    index('isl_pre_fatura_situacao').on(t.tenant, t.situacaoPreFatura),
    tenantIsolation(t.tenant),
  ],
);

/**
 * An item of a pre-invoice (one inserirPreFatura). When it names an order item Ponte holds
 * (numeroPedidoVenda and sequenciaPedidoVenda, a project extension: docs), the order item's
 * attended quantity follows it.
 */
export const itemPreFatura = pgTable(
  'isl_pre_fatura_item',
  {
    ...entidade(),
    preFaturaId: uuid('pre_fatura_id').notNull(),
    sequenciaPreFatura: int64('sequencia_pre_fatura').notNull(),
    codigoDepositoItem: text('codigo_deposito_item').notNull(),
    qtdItemPreFatura: doublePrecision('qtd_item_pre_fatura').notNull(),
    /** What the WMS attended (recAlteracaoItemPreFaturaPro.quantidadeAtendida); qtdItemPreFatura until told. */
    quantidadeAtendida: doublePrecision('quantidade_atendida').notNull(),
    cancelaSaldoPedido: boolean('cancela_saldo_pedido').notNull(),
    textoObservacao: text('texto_observacao'),
    situacaoPreFatura: situacao('situacao_pre_fatura'),
    numeroPedidoVenda: int64('numero_pedido_venda'),
    sequenciaPedidoVenda: int64('sequencia_pedido_venda'),
    /** The quantity this item holds of the order item right now (0 when none, or once cancelled). */
    quantidadePedido: doublePrecision('quantidade_pedido').notNull().default(0),
    /** The order item's open balance this item cancelled (cancelaSaldoPedido), to give back if cancelled. */
    saldoCancelado: doublePrecision('saldo_cancelado').notNull().default(0),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('isl_pre_fatura_item_pre_fatura_fk', t, t.preFaturaId, preFatura).onDelete('cascade'),
    uniqueIndex('isl_pre_fatura_item_seq').on(t.tenant, t.preFaturaId, t.sequenciaPreFatura),
    index('isl_pre_fatura_item_pedido').on(t.tenant, t.numeroPedidoVenda),
    tenantIsolation(t.tenant),
  ],
);

/** A lot of a pre-invoice item (recAlteracaoItensPreFaturaLotes), as the last alterarPreFatura sent them. */
export const lotePreFatura = pgTable(
  'isl_pre_fatura_lote',
  {
    ...entidade(),
    itemId: uuid('item_id').notNull(),
    sequenciaPedidoVenda: int64('sequencia_pedido_venda').notNull(),
    codigoProduto: text('codigo_produto').notNull(),
    codigoDerivacao: text('codigo_derivacao').notNull(),
    codigoDeposito: text('codigo_deposito').notNull(),
    dataEmissao: date('data_emissao', { mode: 'string' }).notNull(),
    quantidade: doublePrecision('quantidade').notNull(),
    codigoLote: text('codigo_lote').notNull(),
    dataFabricacao: date('data_fabricacao', { mode: 'string' }).notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('isl_pre_fatura_lote_item_fk', t, t.itemId, itemPreFatura).onDelete('cascade'),
    index('isl_pre_fatura_lote_item').on(t.tenant, t.itemId),
    tenantIsolation(t.tenant),
  ],
);

/** The history of a pre-invoice: one row per change of it or of one of its items. */
export const historicoPreFatura = pgTable(
  'isl_pre_fatura_historico',
  {
    ...entidade(),
    preFaturaId: uuid('pre_fatura_id').notNull(),
    sequenciaPreFatura: int64('sequencia_pre_fatura'),
    operacao: text('operacao').notNull(),
    situacaoAnterior: text('situacao_anterior').$type<SituacaoPreFatura>(),
    situacaoNova: text('situacao_nova').$type<SituacaoPreFatura>(),
    alteracoes: jsonb('alteracoes').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('isl_pre_fatura_historico_pre_fatura_fk', t, t.preFaturaId, preFatura).onDelete(
      'cascade',
    ),
    index('isl_pre_fatura_historico_pre_fatura').on(t.tenant, t.preFaturaId, t.createdDate),
    tenantIsolation(t.tenant),
  ],
);
