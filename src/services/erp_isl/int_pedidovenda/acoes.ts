import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action } from '../../../platform/core/registry.ts';
import type { Static } from '../../../platform/core/schema.ts';
import { idDoPedido } from './contract.ts';
import { E } from './errors.ts';
import {
  diferencas,
  gravarItem,
  itensProduto,
  type Mudanca,
  pedidoOu404,
  publicarAlteracao,
  quem,
  registrarHistorico,
  retrato,
  TOPICO,
} from './pedidos.ts';
import { EPS } from './regras.ts';
import {
  AlterarItemSitPedidoVenda,
  AlterarPedidoVenda,
  AlterarSitPedidoVenda,
  InserirPedidoVenda,
  type RecAlteracaoItensPro,
  Vazio,
} from './schemas.ts';
import { cancelarItem, definirSituacaoPedido, seguirItens } from './situacao.ts';
import { itemLote, itemProduto, itemServico, pedidoVenda } from './tables.ts';

// The actions of erp_isl/int_pedidovenda (spec 001 §4.3), each in one transaction. An insert is
// decided by the key's unique index (a concurrent second insert waits for the first and gets 409);
// a change locks the order's row first. Rules: docs/int_pedidovenda.md.

const chave = (i: { codigoEmpresa: number; codigoFilial: number; numeroPedidoVenda: number }) => ({
  codigoEmpresa: i.codigoEmpresa,
  codigoFilial: i.codigoFilial,
  numeroPedidoVenda: i.numeroPedidoVenda,
});

/** 400 naming the second element of `list` whose `field` repeats an earlier one. */
function semRepetidos<T>(list: readonly T[] | undefined, of: (x: T) => number, path: (i: number) => string) {
  const seen = new Set<number>();
  (list ?? []).forEach((x, i) => {
    const s = of(x);
    if (seen.has(s)) throw E.sequenciaRepetida({ field: path(i), sequencia: s });
    seen.add(s);
  });
}

type Alteracao = Static<typeof RecAlteracaoItensPro>;

/** Applies one recAlteracaoItensPro to its item (already found and checked). */
async function alterarItem(
  ctx: Ctx,
  item: typeof itemProduto.$inferSelect,
  a: Alteracao,
): Promise<Mudanca | undefined> {
  const cancela = a.situacaoPedidoVenda === 'Cancelado';
  const depois = {
    quantidadeAberta: cancela ? 0 : a.quantidadeAberta,
    quantidadeCancelada: cancela ? a.quantidadeCancelada + a.quantidadeAberta : a.quantidadeCancelada,
    situacaoPedidoVenda: a.situacaoPedidoVenda,
  };
  const alteracoes = diferencas(item, depois);
  if (a.recItensLotes) {
    const antes = await ctx.store
      .delete(itemLote, eq(itemLote.itemId, item.id))
      .returning({ id: itemLote.id });
    if (a.recItensLotes.length) {
      const who = quem(ctx);
      await ctx.store.insert(
        itemLote,
        a.recItensLotes.map((l) => ({ ...l, itemId: item.id, createdBy: who, lastModifiedBy: who })),
      );
    }
    alteracoes.recItensLotes = { de: antes.length, para: a.recItensLotes };
  }
  if (Object.keys(alteracoes).length === 0) return undefined;
  const situacaoAnterior = item.situacaoPedidoVenda;
  await gravarItem(ctx, item, depois);
  Object.assign(item, depois);
  return {
    sequenciaItem: item.sequenciaItem,
    situacaoAnterior,
    situacaoNova: item.situacaoPedidoVenda,
    alteracoes,
  };
}

export const acoes = {
  inserirPedidoVenda: action({
    description:
      'Stores a sales order with its product (itensPro, numbered 1..n as sent) and service items; a key that exists is 409 with nothing changed',
    input: InserirPedidoVenda,
    output: Vazio,
    handler: async (ctx, input) => {
      semRepetidos(
        input.itensSer,
        (s) => s.sequenciaItem,
        (i) => `itensSer[${i}].sequenciaItem`,
      );
      const { itensPro = [], itensSer = [], ...header } = input;
      const who = quem(ctx);
      const [pedido] = await ctx.store
        .insert(pedidoVenda, [{ ...header, id: idDoPedido(input), createdBy: who, lastModifiedBy: who }])
        .onConflictDoNothing()
        .returning();
      if (!pedido) throw E.pedidoExiste(chave(input));
      if (itensPro.length) {
        await ctx.store.insert(
          itemProduto,
          itensPro.map((p, i) => ({
            ...p,
            pedidoVendaId: pedido.id,
            sequenciaItem: i + 1,
            quantidadeAberta: p.quantidade,
            createdBy: who,
            lastModifiedBy: who,
          })),
        );
      }
      if (itensSer.length) {
        await ctx.store.insert(
          itemServico,
          itensSer.map((s) => ({ ...s, pedidoVendaId: pedido.id, createdBy: who, lastModifiedBy: who })),
        );
      }
      await registrarHistorico(ctx, pedido.id, 'inserirPedidoVenda', [
        { situacaoNova: pedido.situacaoPedidoVenda, alteracoes: {} },
      ]);
      await ctx.emit(`${TOPICO}/pedidoVendaInserido`, {
        ...chave(pedido),
        id: pedido.id,
        pedidoVenda: await retrato(ctx, pedido),
      });
      return {};
    },
  }),

  alterarPedidoVenda: action({
    description:
      "Changes an order's product items (open and cancelled quantities, situation, lots) and its situation; unknown order or item 404, a Cancelado order 409",
    input: AlterarPedidoVenda,
    output: Vazio,
    handler: async (ctx, input) => {
      semRepetidos(
        input.itensPro,
        (a) => a.sequenciaItem,
        (i) => `itensPro[${i}].sequenciaItem`,
      );
      let pedido = await pedidoOu404(ctx, input);
      const antes = pedido.situacaoPedidoVenda;
      const alteracoes = input.itensPro ?? [];
      if (antes === 'Cancelado' && (alteracoes.length || (input.situacaoPedidoVenda ?? antes) !== antes))
        throw E.pedidoCancelado(chave(pedido));
      const itens = await itensProduto(ctx, pedido.id);
      const mudancas: Mudanca[] = [];
      for (const [i, a] of alteracoes.entries()) {
        const field = `itensPro[${i}].sequenciaItem`;
        const item = itens.find((x) => x.sequenciaItem === a.sequenciaItem);
        if (!item) throw E.itemNaoEncontrado({ ...chave(pedido), sequencia: a.sequenciaItem, field });
        if (item.situacaoPedidoVenda === 'Cancelado' && a.situacaoPedidoVenda !== 'Cancelado')
          throw E.itemCancelado({ ...chave(pedido), sequencia: a.sequenciaItem, field });
        if (a.quantidadeAberta + a.quantidadeCancelada > item.quantidade + EPS)
          throw E.quantidades({
            field: `itensPro[${i}].quantidadeAberta`,
            aberta: a.quantidadeAberta,
            cancelada: a.quantidadeCancelada,
            quantidade: item.quantidade,
          });
        (a.recItensLotes ?? []).forEach((l, j) => {
          if (l.sequenciaPedidoVenda !== a.sequenciaItem)
            throw E.loteDeOutroItem({
              field: `itensPro[${i}].recItensLotes[${j}].sequenciaPedidoVenda`,
              lote: l.sequenciaPedidoVenda,
              item: a.sequenciaItem,
            });
        });
        const m = await alterarItem(ctx, item, a);
        if (m) mudancas.push(m);
      }
      if (
        input.situacaoPedidoVenda !== undefined &&
        input.situacaoPedidoVenda !== pedido.situacaoPedidoVenda
      ) {
        const r = await definirSituacaoPedido(ctx, pedido, itens, input.situacaoPedidoVenda);
        pedido = r.pedido;
        mudancas.push(...r.mudancas);
      } else {
        pedido = await seguirItens(ctx, pedido, itens, mudancas);
      }
      await registrarHistorico(ctx, pedido.id, 'alterarPedidoVenda', mudancas);
      await publicarAlteracao(ctx, 'alterarPedidoVenda', antes, pedido, mudancas);
      return {};
    },
  }),

  alterarItemSitPedidoVenda: action({
    description:
      "Changes the situation of one product item (sequenciaPedidoVenda is the item's sequenciaItem); the order follows its items",
    input: AlterarItemSitPedidoVenda,
    output: Vazio,
    handler: async (ctx, input) => {
      let pedido = await pedidoOu404(ctx, input);
      const antes = pedido.situacaoPedidoVenda;
      const itens = await itensProduto(ctx, pedido.id);
      const field = 'sequenciaPedidoVenda';
      const item = itens.find((x) => x.sequenciaItem === input.sequenciaPedidoVenda);
      if (!item)
        throw E.itemNaoEncontrado({ ...chave(pedido), sequencia: input.sequenciaPedidoVenda, field });
      const nova = input.situacaoPedidoVenda;
      if (nova === item.situacaoPedidoVenda) return {};
      if (antes === 'Cancelado') throw E.pedidoCancelado(chave(pedido));
      if (item.situacaoPedidoVenda === 'Cancelado')
        throw E.itemCancelado({ ...chave(pedido), sequencia: item.sequenciaItem, field });
      const mudancas: Mudanca[] = [];
      if (nova === 'Cancelado') {
        const m = await cancelarItem(ctx, item);
        if (m) mudancas.push(m);
      } else {
        mudancas.push({
          sequenciaItem: item.sequenciaItem,
          situacaoAnterior: item.situacaoPedidoVenda,
          situacaoNova: nova,
          alteracoes: { situacaoPedidoVenda: { de: item.situacaoPedidoVenda, para: nova } },
        });
        await gravarItem(ctx, item, { situacaoPedidoVenda: nova });
        item.situacaoPedidoVenda = nova;
      }
      pedido = await seguirItens(ctx, pedido, itens, mudancas);
      await registrarHistorico(ctx, pedido.id, 'alterarItemSitPedidoVenda', mudancas);
      await publicarAlteracao(ctx, 'alterarItemSitPedidoVenda', antes, pedido, mudancas);
      return {};
    },
  }),

  alterarSitPedidoVenda: action({
    description:
      "Changes an order's situation: Cancelado cancels its items and is final; its items follow the situations the ERP sets",
    input: AlterarSitPedidoVenda,
    output: Vazio,
    handler: async (ctx, input) => {
      const pedido = await pedidoOu404(ctx, input);
      const antes = pedido.situacaoPedidoVenda;
      if (input.situacaoPedidoVenda === antes) return {};
      if (antes === 'Cancelado') throw E.pedidoCancelado(chave(pedido));
      const itens = await itensProduto(ctx, pedido.id);
      const r = await definirSituacaoPedido(ctx, pedido, itens, input.situacaoPedidoVenda);
      await registrarHistorico(ctx, pedido.id, 'alterarSitPedidoVenda', r.mudancas);
      await publicarAlteracao(ctx, 'alterarSitPedidoVenda', antes, r.pedido, r.mudancas);
      return {};
    },
  }),
};
