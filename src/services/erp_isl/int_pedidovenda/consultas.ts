import { and, asc, eq, sql } from 'drizzle-orm';
import { query } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { retrato } from './pedidos.ts';
import { ChavePedido } from './schemas.ts';
import { historicoPedidoVenda, pedidoVenda } from './tables.ts';

// Reading one order by the ERP's key (a project addition, docs/int_pedidovenda.md "Reading"): the
// order with its items, their lots and its history in one answer, where the entities need one
// request per collection.

export const consultas = {
  obterPedidoVenda: query({
    description:
      'One sales order by its key, with its product items (and lots), service items and history (a Ponte addition)',
    get: true,
    input: Type.Object(ChavePedido),
    output: Type.Object({
      pedidoVenda: Type.Object(
        {},
        { additionalProperties: true, description: 'the order, as the events show it' },
      ),
      historico: Type.Array(Type.Object({}, { additionalProperties: true })),
    }),
    handler: async (ctx, input) => {
      const [pedido] = await ctx.store.select(
        pedidoVenda,
        and(
          eq(pedidoVenda.codigoEmpresa, input.codigoEmpresa),
          eq(pedidoVenda.codigoFilial, input.codigoFilial),
          eq(pedidoVenda.numeroPedidoVenda, input.numeroPedidoVenda),
        ),
      );
      if (!pedido) throw E.pedidoNaoEncontrado(input);
      const historico = await ctx.tx
        .select()
        .from(historicoPedidoVenda)
        .where(ctx.store.scope(historicoPedidoVenda, eq(historicoPedidoVenda.pedidoVendaId, pedido.id)))
        .orderBy(
          asc(historicoPedidoVenda.createdDate),
          sql`${historicoPedidoVenda.sequenciaItem} asc nulls first`,
          asc(historicoPedidoVenda.id),
        );
      return {
        pedidoVenda: await retrato(ctx, pedido),
        historico: historico.map(
          ({ tenant: _t, pedidoVendaId: _p, lastModifiedBy: _b, lastModifiedDate: _d, ...h }) =>
            Object.fromEntries(
              Object.entries({ ...h, createdDate: h.createdDate.toISOString() }).filter(
                ([, v]) => v !== null,
              ),
            ),
        ),
      };
    },
  }),
};
