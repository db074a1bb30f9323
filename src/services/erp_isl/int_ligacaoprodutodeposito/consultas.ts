import { and, asc, eq } from 'drizzle-orm';
import { query } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { retrato } from './acoes.ts';
import { E } from './errors.ts';
import { ChaveLigacao } from './schemas.ts';
import { historicoLigacao, ligacao } from './tables.ts';

// Reading one link by its key, with its history (a project addition, docs/int_ligacaoprodutodeposito.md).
// A removed link is 404 here; its history stays in the entity historicoLigacaoProdutoDeposito.

export const consultas = {
  obterLigacao: query({
    description: 'One product-to-warehouse link by its key, with its history (a Ponte addition)',
    get: true,
    input: Type.Object(ChaveLigacao),
    output: Type.Object({
      ligacao: Type.Object({}, { additionalProperties: true }),
      historico: Type.Array(Type.Object({}, { additionalProperties: true })),
    }),
    handler: async (ctx, input) => {
      const [row] = await ctx.store.select(
        ligacao,
        and(
          eq(ligacao.codigoEmpresa, input.codigoEmpresa),
          eq(ligacao.codigoProduto, input.codigoProduto),
          eq(ligacao.codigoDerivacao, input.codigoDerivacao),
          eq(ligacao.codigoDeposito, input.codigoDeposito),
        ),
      );
      if (!row) throw E.ligacaoNaoEncontrada(input);
      const historico = await ctx.tx
        .select()
        .from(historicoLigacao)
        .where(ctx.store.scope(historicoLigacao, eq(historicoLigacao.ligacaoId, row.id)))
        .orderBy(asc(historicoLigacao.createdDate), asc(historicoLigacao.id));
      return {
        ligacao: retrato(row),
        historico: historico.map((h) => ({
          id: h.id,
          operacao: h.operacao,
          alteracoes: h.alteracoes,
          createdBy: h.createdBy,
          createdDate: h.createdDate.toISOString(),
        })),
      };
    },
  }),
};
