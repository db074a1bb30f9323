import type { TestApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { itemProduto, itemServico, pedidoVenda } from '../../erp_isl/int_pedidovenda/tables.ts';

// Orders for the ped_pedidos tests, written straight into int_pedidovenda's tables (test code may
// set a scene across services; the service itself reads them only through int_pedidovenda's contract).

const audit = { createdBy: 'test', lastModifiedBy: 'test' };

export interface PedidoTeste {
  numero: number;
  empresa?: number;
  filial?: number;
  dataEmissao?: string;
  valorTotal: number;
  condicao?: string | null;
  situacao?: typeof pedidoVenda.$inferInsert.situacaoPedidoVenda;
  produtos?: { quantidade: number; situacao?: typeof itemProduto.$inferInsert.situacaoPedidoVenda }[];
  servicos?: { sequenciaItem: number; valorTotal: number }[];
}

export async function seedPedidos(t: TestApp, tenant: string, pedidos: PedidoTeste[]): Promise<void> {
  await t.db.tenant(tenant, async (tx) => {
    const store = new Store(tx, tenant);
    for (const p of pedidos) {
      const [row] = await store
        .insert(pedidoVenda, [
          {
            ...audit,
            codigoEmpresa: p.empresa ?? 1,
            codigoFilial: p.filial ?? 1,
            numeroPedidoVenda: p.numero,
            sequenciaPedidoVenda: 1,
            data_emissao: p.dataEmissao ?? '2026-11-01',
            codigo_cliente: 1,
            valorLiquido: p.valorTotal,
            valorTotal: p.valorTotal,
            codigoCondicaoPagamento: p.condicao ?? null,
            situacaoPedidoVenda: p.situacao ?? 'AbertoTotal',
          },
        ])
        .returning({ id: pedidoVenda.id });
      const produtos = p.produtos ?? [];
      if (produtos.length)
        await store.insert(
          itemProduto,
          produtos.map((it, i) => ({
            ...audit,
            pedidoVendaId: String(row!.id),
            sequenciaItem: i + 1,
            sequenciaEmbalagem: 1,
            sequenciaConteudo: 1,
            quantidade: it.quantidade,
            volume: 0,
            pesoBruto: 0,
            pesoLiquido: 0,
            obsProduto: '',
            quantidadeAberta: it.quantidade,
            situacaoPedidoVenda: it.situacao ?? 'AbertoTotal',
          })),
        );
      const servicos = p.servicos ?? [];
      if (servicos.length)
        await store.insert(
          itemServico,
          servicos.map((s) => ({
            ...audit,
            pedidoVendaId: String(row!.id),
            sequenciaItem: s.sequenciaItem,
            codigoServico: 'S',
            servico: 'Frete',
            quantidade: 1,
            valorUnitario: s.valorTotal,
            valorDesconto: 0,
            valorLiquido: s.valorTotal,
            valorTotal: s.valorTotal,
          })),
        );
    }
  });
}
