import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { Int64, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { EnumProcessosTransacao, ProdutorVinculo, Str, VinculoTransacao } from './schemas.ts';
import { vinculoTransacao } from './tables/empresas.ts';
import { produtor, produtorVinculo } from './tables/produtores.ts';
import { sku, skuUnidadeMedida } from './tables/produtos.ts';

// The actions of erp_agr/com_comum (spec 001 §4.8) and the two operations the project added
// around excluirVinculoTransacao (docs/com_comum.md). Each runs in one transaction.

/** Both producers of a link, by id; 404 naming the first that does not exist in the tenant. */
async function producers(ctx: Ctx, produtorId: number, produtorVinculadoId: number) {
  const rows = await ctx.store.select(produtor, inArray(produtor.id, [produtorId, produtorVinculadoId]));
  const of = (id: number) => {
    const row = rows.find((r) => r.id === id);
    if (!row) throw E.produtorNotFound({ id });
    return row;
  };
  return { origem: of(produtorId), destino: of(produtorVinculadoId) };
}

const TransacaoId = () => Str(36, 'code of the ERP transaction', 1);

export const acoes = {
  deletarSkuUnidadeMedida: action({
    description: 'Deletes every unit-of-measure link (skuUnidadeMedida) of the SKU with this id',
    input: Type.Object({ id: Int64({ description: 'SKU id' }) }),
    output: Type.Object({ dummy: Type.Boolean() }),
    handler: async (ctx, input) => {
      const [found] = await ctx.store.select(sku, eq(sku.id, input.id));
      if (!found) throw E.skuNotFound({ id: input.id });
      await ctx.store.delete(skuUnidadeMedida, eq(skuUnidadeMedida.codigoSku, found.codigo));
      return { dummy: true };
    },
  }),

  criarVinculo: action({
    description: 'Links a producer to another (e.g. Cônjuge, Parceiro); a pair is linked once',
    input: Type.Object({
      produtorId: Int64(),
      produtorVinculadoId: Int64(),
      nomeVinculo: Type.Optional(Str(20, 'kind of link')),
    }),
    output: Type.Object({ produtorVinculo: ProdutorVinculo }),
    handler: async (ctx, input) => {
      if (input.produtorId === input.produtorVinculadoId) throw E.vinculoSelf({ id: input.produtorId });
      const { origem, destino } = await producers(ctx, input.produtorId, input.produtorVinculadoId);
      const nomeVinculo = input.nomeVinculo?.trim() || null;
      // The unique index decides between concurrent requests for the same pair.
      const [created] = await ctx.store
        .insert(produtorVinculo, [
          {
            codigoProdutor: origem.codigo,
            codigoProdutorVinculado: destino.codigo,
            nomeVinculo,
            criadoEm: ctx.now(),
          },
        ])
        .onConflictDoNothing()
        .returning({ id: produtorVinculo.id });
      if (!created) {
        throw E.vinculoExists({ produtorId: origem.id, produtorVinculadoId: destino.id });
      }
      return {
        produtorVinculo: {
          id: created.id,
          produtorId: origem.id,
          produtorVinculadoId: destino.id,
          codigoProdutor: origem.codigo,
          codigoProdutorVinculado: destino.codigo,
          ...(nomeVinculo ? { nomeVinculo } : {}),
        },
      };
    },
  }),

  removerVinculo: action({
    description: 'Removes the link of a producer to another; answers the id of the removed link',
    input: Type.Object({ produtorId: Int64(), produtorVinculadoId: Int64() }),
    output: Type.Object({ vinculoId: Int64() }),
    handler: async (ctx, input) => {
      if (input.produtorId === input.produtorVinculadoId) throw E.vinculoNotFound(input);
      const { origem, destino } = await producers(ctx, input.produtorId, input.produtorVinculadoId);
      const [removed] = await ctx.store
        .delete(
          produtorVinculo,
          and(
            eq(produtorVinculo.codigoProdutor, origem.codigo),
            eq(produtorVinculo.codigoProdutorVinculado, destino.codigo),
          ),
        )
        .returning({ id: produtorVinculo.id });
      if (!removed) throw E.vinculoNotFound(input);
      return { vinculoId: removed.id };
    },
  }),

  criarVinculoTransacao: action({
    description: 'Enables an ERP transaction for an agribusiness process (project design, see the docs)',
    input: Type.Object({ transacaoId: TransacaoId(), processo: EnumProcessosTransacao() }),
    output: Type.Object({ vinculoTransacao: VinculoTransacao }),
    handler: async (ctx, input) => {
      const transacaoId = input.transacaoId.trim();
      const [created] = await ctx.store
        .insert(vinculoTransacao, [{ transacaoId, processo: input.processo, criadoEm: ctx.now() }])
        .onConflictDoNothing()
        .returning({ id: vinculoTransacao.id });
      if (!created) throw E.vinculoTransacaoExists({ transacaoId, processo: input.processo });
      return { vinculoTransacao: { id: created.id, transacaoId, processo: input.processo } };
    },
  }),

  excluirVinculoTransacao: action({
    description: 'Removes the link of an ERP transaction to an agribusiness process',
    input: Type.Object({ transacaoId: TransacaoId(), processo: EnumProcessosTransacao() }),
    output: Type.Object({}),
    handler: async (ctx, input) => {
      const transacaoId = input.transacaoId.trim();
      const removed = await ctx.store
        .delete(
          vinculoTransacao,
          and(eq(vinculoTransacao.transacaoId, transacaoId), eq(vinculoTransacao.processo, input.processo)),
        )
        .returning({ id: vinculoTransacao.id });
      if (removed.length === 0) throw E.vinculoTransacaoNotFound({ transacaoId, processo: input.processo });
      return {};
    },
  }),

  pesquisarVinculoTransacao: query({
    description: 'Links of ERP transactions to processes, by transaction and/or process (project design)',
    input: Type.Object({
      transacaoId: Type.Optional(Str(36, 'code of the ERP transaction')),
      processo: Type.Optional(EnumProcessosTransacao()),
    }),
    output: Type.Object({ vinculos: Type.Array(VinculoTransacao) }),
    handler: async (ctx, input) => {
      const transacaoId = input.transacaoId?.trim();
      const rows = await ctx.tx
        .select({
          id: vinculoTransacao.id,
          transacaoId: vinculoTransacao.transacaoId,
          processo: vinculoTransacao.processo,
        })
        .from(vinculoTransacao)
        .where(
          ctx.store.scope(
            vinculoTransacao,
            and(
              transacaoId ? eq(vinculoTransacao.transacaoId, transacaoId) : undefined,
              input.processo ? eq(vinculoTransacao.processo, input.processo) : undefined,
            ),
          ),
        )
        .orderBy(asc(vinculoTransacao.transacaoId), asc(vinculoTransacao.processo));
      return { vinculos: rows };
    },
  }),
};
