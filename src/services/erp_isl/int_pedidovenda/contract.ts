import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../../platform/core/db/database.ts';
import { uuid5 } from '../../../platform/core/uuid5.ts';
import type { SituacaoPedidoVenda } from './situacoes.ts';

// What erp_isl/int_pedidovenda publishes to the other services (docs/int_pedidovenda.md "What other
// services read"): the only file of this service another one may import. erp_mer/ped_pedidos reads
// the orders stored here to compute their installments, inside its own handler's transaction.
// This contract is stable: fields may be added, none is renamed or removed.

export { SITUACOES_PEDIDO_VENDA, type SituacaoPedidoVenda } from './situacoes.ts';

/** An order's key, as the ERP sends it (spec 001 §4.3). */
export interface ChavePedidoVenda {
  codigoEmpresa: number;
  codigoFilial: number;
  numeroPedidoVenda: number;
}

/** One item of an order: a product item (recItensPro) or a service item (recItensSer). */
export interface ItemPedidoVendaLido {
  /** true for a product item, false for a service item (recParcelaPedidoVenda.produto). */
  produto: boolean;
  /**
   * The item's sequence: product items are numbered 1..n in the order inserirPedidoVenda sent them;
   * service items keep the ERP's recItensSer.sequenciaItem. The two are separate series.
   */
  sequenciaItem: number;
  quantidade: number;
  /** Product items: what is still open (quantidade − cancelled − attended by pre-invoices). Services: quantidade. */
  quantidadeAberta: number;
  /** Product items: cancelled quantity. Services: 0. */
  quantidadeCancelada: number;
  /**
   * The item's values. The spec gives values to service items only (recItensSer); a product item
   * carries none (null): its share is the order's valorTotal less the service items' valorTotal.
   */
  valorUnitario: number | null;
  valorDesconto: number | null;
  valorLiquido: number | null;
  valorTotal: number | null;
  /** Product items: the item's own situation. Services: null (they follow the order). */
  situacaoPedidoVenda: SituacaoPedidoVenda | null;
}

/** An order as int_pedidovenda holds it. */
export interface PedidoVendaLido extends ChavePedidoVenda {
  /** The id of the order entity (`pedidoVenda`). */
  id: string;
  sequenciaPedidoVenda: number;
  /** data_emissao, `YYYY-MM-DD`. */
  dataEmissao: string;
  codigoCliente: number;
  codigoRepresentante: number | null;
  valorLiquido: number;
  valorTotal: number;
  /**
   * The payment condition (com_comum condicaoPagamento.codigo), or null when the ERP sent none. Not
   * a field of the spec's order record: a project extension of inserirPedidoVenda (docs).
   */
  codigoCondicaoPagamento: string | null;
  situacaoPedidoVenda: SituacaoPedidoVenda;
  /** Product items first (by sequenciaItem), then service items (by sequenciaItem). */
  itens: ItemPedidoVendaLido[];
}

interface HeaderRow {
  id: string;
  codigo_empresa: string | number;
  codigo_filial: string | number;
  numero_pedido_venda: string | number;
  sequencia_pedido_venda: string | number;
  data_emissao: string | Date;
  codigo_cliente: string | number;
  codigo_representante: string | number | null;
  valor_liquido: number | string;
  valor_total: number | string;
  codigo_condicao_pagamento: string | null;
  situacao_pedido_venda: SituacaoPedidoVenda;
}

interface ItemRow {
  pedido_venda_id: string;
  produto: boolean;
  sequencia_item: string | number;
  quantidade: number | string;
  quantidade_aberta: number | string;
  quantidade_cancelada: number | string;
  valor_unitario: number | string | null;
  valor_desconto: number | string | null;
  valor_liquido: number | string | null;
  valor_total: number | string | null;
  situacao_pedido_venda: SituacaoPedidoVenda | null;
}

/**
 * The id of the order of this key: a name-based UUID of the key (docs "Ids"), the same in every
 * tenant and every time the order is sent.
 */
export const idDoPedido = (k: ChavePedidoVenda) =>
  uuid5(`erp_isl/int_pedidovenda/pedidoVenda/${k.codigoEmpresa}/${k.codigoFilial}/${k.numeroPedidoVenda}`);

const num = (v: number | string) => Number(v);
const numOrNull = (v: number | string | null) => (v === null ? null : Number(v));
const isoDate = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
const keyOf = (e: unknown, f: unknown, n: unknown) => `${e}/${f}/${n}`;

/**
 * The orders of `tenant` with these keys, each with its items, in the order asked: the order, or
 * undefined when the tenant has no order with that key. Two queries whatever the number of keys
 * (the unique index of the key answers the first, the items' index the second). Runs in the
 * caller's transaction `tx` (its tenant setting must be `tenant`).
 */
export async function pedidosVenda(
  tx: Tx,
  tenant: string,
  chaves: readonly ChavePedidoVenda[],
): Promise<Array<PedidoVendaLido | undefined>> {
  if (chaves.length === 0) return [];
  const wanted = sql.join(
    chaves.map(
      (k) => sql`(${k.codigoEmpresa}::bigint, ${k.codigoFilial}::bigint, ${k.numeroPedidoVenda}::bigint)`,
    ),
    sql`, `,
  );
  const headers = rowsOf<HeaderRow>(
    await tx.execute(sql`
      select id, codigo_empresa, codigo_filial, numero_pedido_venda, sequencia_pedido_venda, data_emissao,
             codigo_cliente, codigo_representante, valor_liquido, valor_total, codigo_condicao_pagamento,
             situacao_pedido_venda
      from isl_pedido_venda
      where tenant = ${tenant} and (codigo_empresa, codigo_filial, numero_pedido_venda) in (${wanted})`),
  );
  if (headers.length === 0) return chaves.map(() => undefined);
  const ids = sql.join(
    headers.map((h) => sql`${h.id}::uuid`),
    sql`, `,
  );
  const items = rowsOf<ItemRow>(
    await tx.execute(sql`
      select pedido_venda_id, true as produto, sequencia_item, quantidade, quantidade_aberta, quantidade_cancelada,
             null::float8 as valor_unitario, null::float8 as valor_desconto, null::float8 as valor_liquido,
             null::float8 as valor_total, situacao_pedido_venda
      from isl_pedido_venda_item_pro where tenant = ${tenant} and pedido_venda_id in (${ids})
      union all
      select pedido_venda_id, false, sequencia_item, quantidade, quantidade, 0::float8,
             valor_unitario, valor_desconto, valor_liquido, valor_total, null
      from isl_pedido_venda_item_ser where tenant = ${tenant} and pedido_venda_id in (${ids})
      order by 1, 2 desc, 3`),
  );
  const itemsOf = new Map<string, ItemPedidoVendaLido[]>();
  for (const r of items) {
    const list = itemsOf.get(r.pedido_venda_id) ?? [];
    list.push({
      produto: r.produto,
      sequenciaItem: num(r.sequencia_item),
      quantidade: num(r.quantidade),
      quantidadeAberta: num(r.quantidade_aberta),
      quantidadeCancelada: num(r.quantidade_cancelada),
      valorUnitario: numOrNull(r.valor_unitario),
      valorDesconto: numOrNull(r.valor_desconto),
      valorLiquido: numOrNull(r.valor_liquido),
      valorTotal: numOrNull(r.valor_total),
      situacaoPedidoVenda: r.situacao_pedido_venda,
    });
    itemsOf.set(r.pedido_venda_id, list);
  }
  const byKey = new Map<string, PedidoVendaLido>();
  for (const h of headers) {
    byKey.set(keyOf(num(h.codigo_empresa), num(h.codigo_filial), num(h.numero_pedido_venda)), {
      id: h.id,
      codigoEmpresa: num(h.codigo_empresa),
      codigoFilial: num(h.codigo_filial),
      numeroPedidoVenda: num(h.numero_pedido_venda),
      sequenciaPedidoVenda: num(h.sequencia_pedido_venda),
      dataEmissao: isoDate(h.data_emissao),
      codigoCliente: num(h.codigo_cliente),
      codigoRepresentante: numOrNull(h.codigo_representante),
      valorLiquido: num(h.valor_liquido),
      valorTotal: num(h.valor_total),
      codigoCondicaoPagamento: h.codigo_condicao_pagamento,
      situacaoPedidoVenda: h.situacao_pedido_venda,
      itens: itemsOf.get(h.id) ?? [],
    });
  }
  return chaves.map((k) => byKey.get(keyOf(k.codigoEmpresa, k.codigoFilial, k.numeroPedidoVenda)));
}

// Pre-invoices attending order items (erp_isl/int_prefatura): atendimento.ts says how.
export { type Atendimento, atenderItemPedidoVenda, travarPedidosVenda } from './atendimento.ts';
