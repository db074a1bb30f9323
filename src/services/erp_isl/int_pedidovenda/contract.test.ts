import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../../../test/harness.ts';
import type { Database } from '../../../platform/core/db/database.ts';
import { pedidosVenda } from './contract.ts';

// What int_pedidovenda publishes to erp_mer/ped_pedidos (contract.ts) reads the orders' tables as
// they are: header, product items numbered 1..n, service items with their values, per tenant.

let db: Database;

async function order(tenant: string, numero: number, situacao = 'AbertoTotal') {
  return db.tenant(tenant, async (tx) => {
    const rows = await tx.execute(sql`
      insert into isl_pedido_venda (created_by, last_modified_by, codigo_empresa, codigo_filial, numero_pedido_venda,
        sequencia_pedido_venda, data_emissao, codigo_cliente, valor_liquido, valor_total, codigo_condicao_pagamento,
        situacao_pedido_venda)
      values ('t', 't', 1, 2, ${numero}, 1, '2026-11-20', 77, 90.5, 100.25, ${numero === 10 ? 'C30' : null}, ${situacao})
      returning id`);
    const id = (rows as unknown as { rows: Array<{ id: string }> }).rows[0]!.id;
    await tx.execute(sql`
      insert into isl_pedido_venda_item_pro (created_by, last_modified_by, pedido_venda_id, sequencia_item,
        sequencia_embalagem, sequencia_conteudo, quantidade, volume, peso_bruto, peso_liquido, obs_produto, quantidade_aberta)
      values ('t', 't', ${id}, 2, 1, 1, 5, 1, 1, 1, '', 5), ('t', 't', ${id}, 1, 1, 1, 3, 1, 1, 1, '', 2)`);
    await tx.execute(sql`
      insert into isl_pedido_venda_item_ser (created_by, last_modified_by, pedido_venda_id, sequencia_item,
        codigo_servico, servico, quantidade, valor_unitario, valor_desconto, valor_liquido, valor_total)
      values ('t', 't', ${id}, 7, 'FRT', 'Frete', 1, 20, 0, 20, 20.25)`);
    return id;
  });
}

beforeAll(async () => {
  db = await openTestDb();
  await order('acme', 10);
  await order('acme', 11, 'Cancelado');
  await order('globex', 12);
});

describe('pedidosVenda', () => {
  it('answers each asked key in order: the order with its items, or undefined', async () => {
    const found = await db.tenant('acme', (tx) =>
      pedidosVenda(tx, 'acme', [
        { codigoEmpresa: 1, codigoFilial: 2, numeroPedidoVenda: 99 },
        { codigoEmpresa: 1, codigoFilial: 2, numeroPedidoVenda: 10 },
        { codigoEmpresa: 1, codigoFilial: 2, numeroPedidoVenda: 11 },
      ]),
    );
    expect(found[0]).toBeUndefined();
    expect(found[1]).toMatchObject({
      codigoEmpresa: 1,
      codigoFilial: 2,
      numeroPedidoVenda: 10,
      sequenciaPedidoVenda: 1,
      dataEmissao: '2026-11-20',
      codigoCliente: 77,
      codigoRepresentante: null,
      valorLiquido: 90.5,
      valorTotal: 100.25,
      codigoCondicaoPagamento: 'C30',
      situacaoPedidoVenda: 'AbertoTotal',
    });
    expect(found[1]!.itens).toEqual([
      expect.objectContaining({
        produto: true,
        sequenciaItem: 1,
        quantidade: 3,
        quantidadeAberta: 2,
        valorTotal: null,
      }),
      expect.objectContaining({ produto: true, sequenciaItem: 2, quantidade: 5, quantidadeCancelada: 0 }),
      {
        produto: false,
        sequenciaItem: 7,
        quantidade: 1,
        quantidadeAberta: 1,
        quantidadeCancelada: 0,
        valorUnitario: 20,
        valorDesconto: 0,
        valorLiquido: 20,
        valorTotal: 20.25,
        situacaoPedidoVenda: null,
      },
    ]);
    expect(found[2]).toMatchObject({
      numeroPedidoVenda: 11,
      situacaoPedidoVenda: 'Cancelado',
      codigoCondicaoPagamento: null,
    });
  });

  it("never reads another tenant's orders", async () => {
    const found = await db.tenant('acme', (tx) =>
      pedidosVenda(tx, 'acme', [{ codigoEmpresa: 1, codigoFilial: 2, numeroPedidoVenda: 12 }]),
    );
    expect(found).toEqual([undefined]);
    expect(await db.tenant('acme', (tx) => pedidosVenda(tx, 'acme', []))).toEqual([]);
  });
});
