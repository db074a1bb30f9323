import { and, eq, ne, sql } from 'drizzle-orm';
import { advisoryLock } from '../../../platform/core/db/locks.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action } from '../../../platform/core/registry.ts';
import { type Static, Type } from '../../../platform/core/schema.ts';
import { E, falhas } from './errors.ts';
import { exists, REF, removeItensDoVeiculo } from './refs.ts';
import { OK, upsert } from './salvar.ts';
import * as R from './schemas.ts';
import { veiculo } from './tables.ts';

// salvaListaVeiculos and removeVeiculo (docs/oficina.md "Saving and removing"). A list of vehicles
// (VeiculoRec) is saved whole or not at all: every reference and plate is checked before anything is
// written, and the first problem is the answer's dsErro. A vehicle sent without cdVeiculo is found by
// its plate, or is new and gets the tenant's next code: that choice is made under a transaction lock
// of the tenant's fleet (an advisory lock, core/db/locks.ts), so two lists saved at once never give
// one code twice nor create one plate twice (race-tested in veiculos-concorrentes.test.ts); the
// unique keys (tenant, cdVeiculo) and (tenant, nrPlaca) are the second wall.

export const MAX_LISTA = 1000;
type Veiculo = Static<typeof R.VeiculoRec>;

/** Holds the tenant's fleet numbering until commit. */
const travaFrota = (ctx: Ctx) => advisoryLock(ctx.tx, 'tms/oficina/veiculo', ctx.store.tenant);

/** The code of the vehicle with this plate, if any. */
async function codigoDaPlaca(ctx: Ctx, nrPlaca: string): Promise<number | undefined> {
  const [atual] = await ctx.store.select(veiculo, sql`upper(${veiculo.nrPlaca}) = ${nrPlaca}`);
  return atual?.cdVeiculo;
}

/** The tenant's highest vehicle code (0 when none): read under travaFrota. */
async function maiorCodigo(ctx: Ctx): Promise<number> {
  const [max] = await ctx.tx
    .select({ cd: sql<number>`coalesce(max(${veiculo.cdVeiculo}), 0)`.mapWith(Number) })
    .from(veiculo)
    .where(ctx.store.scope(veiculo));
  return max?.cd ?? 0;
}

/** What is wrong with one vehicle of the list, if anything (in the users' words). */
async function problemaDe(ctx: Ctx, v: Veiculo & { cdVeiculo: number }): Promise<string | undefined> {
  if (v.cdCentroCusto !== undefined && !(await exists(ctx, REF.centroCusto, v.cdCentroCusto)))
    return falhas.centroCusto(v.cdCentroCusto);
  if (v.cdEmpresa !== undefined && !(await exists(ctx, REF.filial, v.cdEmpresa)))
    return falhas.filial(v.cdEmpresa);
  const [outro] = await ctx.store.select(
    veiculo,
    and(sql`upper(${veiculo.nrPlaca}) = ${v.nrPlaca}`, ne(veiculo.cdVeiculo, v.cdVeiculo)),
  );
  return outro ? falhas.placaDeOutro(v.nrPlaca, outro.cdVeiculo) : undefined;
}

export const veiculos = {
  salvaListaVeiculos: action({
    description:
      'Saves a list of vehicles (VeiculoRec), all or none; answers each plate with its cdVeiculo (RetornoSalvaListaRec)',
    input: Type.Object({
      listaVeiculos: Type.Array(R.VeiculoRec, { minItems: 1, maxItems: MAX_LISTA }),
    }),
    output: Type.Object({
      ok: Type.Boolean(),
      dsErro: Type.String(),
      listaVeiculos: Type.Array(R.RetornoSalvaListaRec),
    }),
    handler: async (ctx, { listaVeiculos }) => {
      const placas = new Set<string>();
      const lista: Array<Veiculo & { cdVeiculo: number }> = [];
      let proximo = 0;
      if (listaVeiculos.some((v) => v.cdVeiculo === undefined)) {
        await travaFrota(ctx);
        const explicitos = listaVeiculos.map((v) => v.cdVeiculo ?? 0);
        proximo = Math.max(await maiorCodigo(ctx), ...explicitos) + 1;
      }
      for (const original of listaVeiculos) {
        const nrPlaca = original.nrPlaca.trim().toUpperCase();
        if (placas.has(nrPlaca))
          return { ok: false, dsErro: falhas.placaRepetida(nrPlaca), listaVeiculos: [] };
        placas.add(nrPlaca);
        const cdVeiculo = original.cdVeiculo ?? (await codigoDaPlaca(ctx, nrPlaca)) ?? proximo++;
        const v = { ...original, nrPlaca, cdVeiculo };
        const problema = await problemaDe(ctx, v);
        if (problema) return { ok: false, dsErro: problema, listaVeiculos: [] };
        lista.push(v);
      }
      for (const v of lista) {
        await upsert(
          ctx,
          veiculo,
          veiculo.cdVeiculo,
          {
            cdVeiculo: v.cdVeiculo,
            nrPlaca: v.nrPlaca,
            centroCusto: v.cdCentroCusto,
            dsStatusOficina: v.dsStatusOficina,
            dsStatus: v.dsStatus,
            cdEmpresa: v.cdEmpresa,
            dsMovimentacao: v.dsMovimentacao,
            hrMovimentacao: v.hrMovimentacao === undefined ? undefined : new Date(v.hrMovimentacao),
            nrHodometro: v.nrHodometro,
          },
          { dsStatusOficina: 'RODANDO', dsStatus: 'ATIVO' },
        );
      }
      return { ...OK, listaVeiculos: lista.map((v) => ({ nrPlaca: v.nrPlaca, cdVeiculo: v.cdVeiculo })) };
    },
  }),

  removeVeiculo: action({
    description:
      'Removes a vehicle (RremoveVeiculo: by cdVeiculo or by plate) with its pending items, reviews and maintenances',
    input: R.RremoveVeiculo,
    output: R.Rerros,
    handler: async (ctx, { cdVeiculo, nrPlaca }) => {
      if (cdVeiculo === undefined && nrPlaca === undefined) throw E.veiculoSemChave();
      const placa = nrPlaca?.trim().toUpperCase();
      const [alvo] = await ctx.store.select(
        veiculo,
        and(
          cdVeiculo === undefined ? undefined : eq(veiculo.cdVeiculo, cdVeiculo),
          placa === undefined ? undefined : sql`upper(${veiculo.nrPlaca}) = ${placa}`,
        ),
        { forUpdate: true },
      );
      if (!alvo) throw E.naoEncontrado({ record: 'veiculo', codigo: String(cdVeiculo ?? placa) });
      await removeItensDoVeiculo(ctx, alvo.cdVeiculo);
      await ctx.store.delete(veiculo, eq(veiculo.cdVeiculo, alvo.cdVeiculo));
      return OK;
    },
  }),
};
