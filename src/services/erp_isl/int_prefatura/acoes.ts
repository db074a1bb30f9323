import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action } from '../../../platform/core/registry.ts';
import { atenderItemPedidoVenda } from '../int_pedidovenda/contract.ts';
import { E } from './errors.ts';
import {
  acertarPedido,
  chaveDe,
  type Item,
  idDaPreFatura,
  itens,
  type Mudanca,
  type PreFatura,
  quem,
  registrar,
  travar,
  travarOu404,
  travarPedidosDe,
} from './prefaturas.ts';
import {
  AlterarItemSitPreFatura,
  AlterarPreFatura,
  AlterarSitPreFatura,
  InserirPreFatura,
  Vazio,
} from './schemas.ts';
import type { SituacaoPreFatura } from './situacoes.ts';
import { itemPreFatura, lotePreFatura, preFatura } from './tables.ts';

// The actions of erp_isl/int_prefatura (spec 001 §4.5), each in one transaction. An item's insert
// is decided by its unique index (409); every change locks the pre-invoice's row first. Rules and
// the order-item link: docs/int_prefatura.md.

/** Sets an item's situation; Cancelada lets go of what it held of its order item. */
async function situacaoItem(
  ctx: Ctx,
  p: PreFatura,
  item: Item,
  nova: SituacaoPreFatura,
  field: string,
  op: string,
) {
  if (item.situacaoPreFatura === nova) return undefined;
  if (nova === 'Cancelada') await acertarPedido(ctx, p, item, 0, field, op);
  const m: Mudanca = {
    sequenciaPreFatura: item.sequenciaPreFatura,
    situacaoAnterior: item.situacaoPreFatura,
    situacaoNova: nova,
    alteracoes: { situacaoPreFatura: { de: item.situacaoPreFatura, para: nova } },
  };
  await ctx.store.update(
    itemPreFatura,
    { situacaoPreFatura: nova, lastModifiedBy: quem(ctx), lastModifiedDate: ctx.now() },
    eq(itemPreFatura.id, item.id),
  );
  item.situacaoPreFatura = nova;
  return m;
}

async function gravarSituacao(ctx: Ctx, p: PreFatura, nova: SituacaoPreFatura, mudancas: Mudanca[]) {
  if (p.situacaoPreFatura === nova) return p;
  mudancas.unshift({
    situacaoAnterior: p.situacaoPreFatura,
    situacaoNova: nova,
    alteracoes: { situacaoPreFatura: { de: p.situacaoPreFatura, para: nova } },
  });
  const [row] = await ctx.store
    .update(
      preFatura,
      { situacaoPreFatura: nova, lastModifiedBy: quem(ctx), lastModifiedDate: ctx.now() },
      eq(preFatura.id, p.id),
    )
    .returning();
  return row!;
}

/** The pre-invoice's situation as the ERP sets it: the items that are not Cancelada follow it. */
async function definirSituacao(
  ctx: Ctx,
  p: PreFatura,
  nova: SituacaoPreFatura,
  op: string,
  mudancas: Mudanca[],
) {
  const lista = await itens(ctx, p.id);
  if (nova === 'Cancelada') await travarPedidosDe(ctx, p, lista);
  for (const item of lista) {
    if (item.situacaoPreFatura === 'Cancelada') continue;
    const m = await situacaoItem(ctx, p, item, nova, 'situacaoPreFatura', op);
    if (m) mudancas.push(m);
  }
  return gravarSituacao(ctx, p, nova, mudancas);
}

export const acoes = {
  inserirPreFatura: action({
    description:
      'Stores an item of a pre-invoice (the pre-invoice is created by its first item); an item that exists is 409 with nothing changed. An item naming an order item Ponte holds attends it',
    input: InserirPreFatura,
    output: Vazio,
    handler: async (ctx, input) => {
      const ligado = input.numeroPedidoVenda !== undefined;
      if (ligado !== (input.sequenciaPedidoVenda !== undefined))
        throw E.pedidoIncompleto({ field: ligado ? 'sequenciaPedidoVenda' : 'numeroPedidoVenda' });
      const who = quem(ctx);
      const [novo] = await ctx.store
        .insert(preFatura, [
          {
            ...chaveDe(input),
            id: idDaPreFatura(input),
            textoObservacao: input.textoObservacao ?? null,
            createdBy: who,
            lastModifiedBy: who,
          },
        ])
        .onConflictDoNothing()
        .returning({ id: preFatura.id });
      const p = (await travar(ctx, input))!;
      if (p.situacaoPreFatura === 'Cancelada') throw E.cancelada(chaveDe(p));
      const [item] = await ctx.store
        .insert(itemPreFatura, [
          {
            preFaturaId: p.id,
            sequenciaPreFatura: input.sequenciaPreFatura,
            codigoDepositoItem: input.codigoDepositoItem,
            qtdItemPreFatura: input.qtdItemPreFatura,
            quantidadeAtendida: input.qtdItemPreFatura,
            cancelaSaldoPedido: input.cancelaSaldoPedido,
            textoObservacao: input.textoObservacao ?? null,
            situacaoPreFatura: p.situacaoPreFatura,
            numeroPedidoVenda: input.numeroPedidoVenda ?? null,
            sequenciaPedidoVenda: input.sequenciaPedidoVenda ?? null,
            createdBy: who,
            lastModifiedBy: who,
          },
        ])
        .onConflictDoNothing()
        .returning();
      if (!item) throw E.itemExiste({ ...chaveDe(p), sequenciaPreFatura: input.sequenciaPreFatura });
      if (ligado) {
        const r = await atenderItemPedidoVenda(ctx, {
          chave: {
            codigoEmpresa: p.codigoEmpresa,
            codigoFilial: p.codigoFilial,
            numeroPedidoVenda: input.numeroPedidoVenda!,
          },
          sequenciaItem: input.sequenciaPedidoVenda!,
          atender: input.qtdItemPreFatura,
          cancelarSaldo: input.cancelaSaldoPedido,
          field: 'sequenciaPedidoVenda',
          operacao: 'int_prefatura/inserirPreFatura',
        });
        if (r) {
          const set = { quantidadePedido: input.qtdItemPreFatura, saldoCancelado: r.saldoCancelado };
          await ctx.store.update(itemPreFatura, set, eq(itemPreFatura.id, item.id));
        }
      }
      const mudancas: Mudanca[] = [
        ...(novo ? [{ situacaoNova: p.situacaoPreFatura, alteracoes: {} }] : []),
        { sequenciaPreFatura: item.sequenciaPreFatura, situacaoNova: item.situacaoPreFatura, alteracoes: {} },
      ];
      await registrar(ctx, p, 'inserirPreFatura', p.situacaoPreFatura, mudancas);
      return {};
    },
  }),

  alterarPreFatura: action({
    description:
      "Changes the attended quantity and lots of a pre-invoice's items and its situation; unknown pre-invoice or item 404, a Cancelada one 409",
    input: AlterarPreFatura,
    output: Vazio,
    handler: async (ctx, input) => {
      let p = await travarOu404(ctx, input);
      const antes = p.situacaoPreFatura;
      const alteracoes = input.itensPro ?? [];
      if (antes === 'Cancelada' && (alteracoes.length || (input.situacaoPreFatura ?? antes) !== antes))
        throw E.cancelada(chaveDe(p));
      const seen = new Set<number>();
      alteracoes.forEach((a, i) => {
        if (seen.has(a.sequenciaItem))
          throw E.sequenciaRepetida({ field: `itensPro[${i}].sequenciaItem`, sequencia: a.sequenciaItem });
        seen.add(a.sequenciaItem);
      });
      const lista = await itens(ctx, p.id);
      await travarPedidosDe(
        ctx,
        p,
        lista.filter((x) => seen.has(x.sequenciaPreFatura)),
      );
      const mudancas: Mudanca[] = [];
      const who = quem(ctx);
      for (const [i, a] of alteracoes.entries()) {
        const field = `itensPro[${i}].sequenciaItem`;
        const item = lista.find((x) => x.sequenciaPreFatura === a.sequenciaItem);
        if (!item) throw E.itemNaoEncontrado({ ...chaveDe(p), sequencia: a.sequenciaItem, field });
        if (item.situacaoPreFatura === 'Cancelada')
          throw E.itemCancelado({ ...chaveDe(p), sequencia: a.sequenciaItem, field });
        const alt: Mudanca['alteracoes'] = {};
        if (a.quantidadeAtendida !== item.quantidadeAtendida) {
          alt.quantidadeAtendida = { de: item.quantidadeAtendida, para: a.quantidadeAtendida };
          await acertarPedido(
            ctx,
            p,
            item,
            a.quantidadeAtendida,
            `itensPro[${i}].quantidadeAtendida`,
            'alterarPreFatura',
          );
          await ctx.store.update(
            itemPreFatura,
            { quantidadeAtendida: a.quantidadeAtendida, lastModifiedBy: who, lastModifiedDate: ctx.now() },
            eq(itemPreFatura.id, item.id),
          );
        }
        const removidos = await ctx.store
          .delete(lotePreFatura, eq(lotePreFatura.itemId, item.id))
          .returning({ id: lotePreFatura.id });
        await ctx.store.insert(
          lotePreFatura,
          a.recItensLotes.map((l) => ({ ...l, itemId: item.id, createdBy: who, lastModifiedBy: who })),
        );
        alt.recItensLotes = { de: removidos.length, para: a.recItensLotes };
        mudancas.push({ sequenciaPreFatura: item.sequenciaPreFatura, alteracoes: alt });
      }
      if (input.situacaoPreFatura !== undefined && input.situacaoPreFatura !== p.situacaoPreFatura)
        p = await definirSituacao(ctx, p, input.situacaoPreFatura, 'alterarPreFatura', mudancas);
      await registrar(ctx, p, 'alterarPreFatura', antes, mudancas);
      return {};
    },
  }),

  alterarItemSitPreFatura: action({
    description:
      "Changes one item's situation; Cancelada gives its order item back what it held, and all items Cancelada cancel the pre-invoice",
    input: AlterarItemSitPreFatura,
    output: Vazio,
    handler: async (ctx, input) => {
      let p = await travarOu404(ctx, input);
      const antes = p.situacaoPreFatura;
      const lista = await itens(ctx, p.id);
      const field = 'sequenciaPreFatura';
      const item = lista.find((x) => x.sequenciaPreFatura === input.sequenciaPreFatura);
      if (!item) throw E.itemNaoEncontrado({ ...chaveDe(p), sequencia: input.sequenciaPreFatura, field });
      if (item.situacaoPreFatura === input.situacaoPreFatura) return {};
      if (antes === 'Cancelada') throw E.cancelada(chaveDe(p));
      if (item.situacaoPreFatura === 'Cancelada')
        throw E.itemCancelado({ ...chaveDe(p), sequencia: item.sequenciaPreFatura, field });
      const mudancas: Mudanca[] = [];
      const m = await situacaoItem(ctx, p, item, input.situacaoPreFatura, field, 'alterarItemSitPreFatura');
      if (m) mudancas.push(m);
      if (lista.every((x) => x.situacaoPreFatura === 'Cancelada'))
        p = await gravarSituacao(ctx, p, 'Cancelada', mudancas);
      await registrar(ctx, p, 'alterarItemSitPreFatura', antes, mudancas);
      return {};
    },
  }),

  alterarSitPreFatura: action({
    description:
      "Changes a pre-invoice's situation; its items that are not Cancelada follow; Cancelada is final and gives the order items back what they held",
    input: AlterarSitPreFatura,
    output: Vazio,
    handler: async (ctx, input) => {
      const p = await travarOu404(ctx, input);
      const antes = p.situacaoPreFatura;
      if (input.situacaoPreFatura === antes) return {};
      if (antes === 'Cancelada') throw E.cancelada(chaveDe(p));
      const mudancas: Mudanca[] = [];
      const depois = await definirSituacao(ctx, p, input.situacaoPreFatura, 'alterarSitPreFatura', mudancas);
      await registrar(ctx, depois, 'alterarSitPreFatura', antes, mudancas);
      return {};
    },
  }),
};
