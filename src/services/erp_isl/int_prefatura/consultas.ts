import { asc, eq, sql } from 'drizzle-orm';
import { query } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { chaveDe, ler, retrato } from './prefaturas.ts';
import { ChavePreFatura } from './schemas.ts';
import { historicoPreFatura } from './tables.ts';

// Reading one pre-invoice by its key, with its items, lots and history (a project addition).

export const consultas = {
  obterPreFatura: query({
    description: 'One pre-invoice by its key, with its items (and lots) and history (a Ponte addition)',
    get: true,
    input: Type.Object(ChavePreFatura),
    output: Type.Object({
      preFatura: Type.Object({}, { additionalProperties: true }),
      historico: Type.Array(Type.Object({}, { additionalProperties: true })),
    }),
    handler: async (ctx, input) => {
      const p = await ler(ctx, input);
      if (!p) throw E.preFaturaNaoEncontrada(chaveDe(input));
      const historico = await ctx.tx
        .select()
        .from(historicoPreFatura)
        .where(ctx.store.scope(historicoPreFatura, eq(historicoPreFatura.preFaturaId, p.id)))
        .orderBy(
          asc(historicoPreFatura.createdDate),
          sql`${historicoPreFatura.sequenciaPreFatura} asc nulls first`,
          asc(historicoPreFatura.id),
        );
      return {
        preFatura: await retrato(ctx, p),
        historico: historico.map((h) =>
          Object.fromEntries(
            Object.entries({
              id: h.id,
              sequenciaPreFatura: h.sequenciaPreFatura,
              operacao: h.operacao,
              situacaoAnterior: h.situacaoAnterior,
              situacaoNova: h.situacaoNova,
              alteracoes: h.alteracoes,
              createdBy: h.createdBy,
              createdDate: h.createdDate.toISOString(),
            }).filter(([, v]) => v !== null),
          ),
        ),
      };
    },
  }),
};
