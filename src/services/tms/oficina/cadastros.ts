import { and, asc, count, eq, sql } from 'drizzle-orm';
import { query } from '../../../platform/core/registry.ts';
import { Int64, type Static, Type } from '../../../platform/core/schema.ts';
import { like, Page, pageOf, record, when } from './busca.ts';
import { ordem } from './ordem.ts';
import { CentroCustoRec, FilialRec, RsalvaSetor, Str } from './schemas.ts';
import { centroCusto, filial, setor, veiculo } from './tables.ts';

// buscaFilial, buscaCentroCusto, buscaSetor (spec 001 §4.7): the workshop's registers, by code
// (exact) or description (a part, case-insensitive), in code order. A cost centre comes with its
// available vehicles (dsStatus not INATIVO), running and in the garage, as visaoGeral counts them.

const opt = Type.Optional;
const Ok = { ok: Type.Boolean(), dsErro: opt(Type.String()) };

export const cadastros = {
  buscaFilial: query({
    description: "The fleet's branches, by code or part of the name",
    get: true,
    input: Type.Object({ cdEmpresa: opt(Int64()), dsEmpresa: opt(Str(100, 'part of the name')), ...Page }),
    output: Type.Object({ ...Ok, listaFiliais: Type.Array(FilialRec) }),
    handler: async (ctx, input) => {
      const { limit, offset } = pageOf(input);
      const campos = {
        cdEmpresa: filial.cdEmpresa,
        dsEmpresa: sql<string>`coalesce(${filial.dsEmpresa}, '')`,
      };
      const rows = await ctx.tx
        .select(campos)
        .from(filial)
        .where(
          ctx.store.scope(
            filial,
            and(
              when(input.cdEmpresa, (c) => eq(filial.cdEmpresa, c)),
              like(filial.dsEmpresa, input.dsEmpresa),
            ),
          ),
        )
        .orderBy(...ordem(input.orderBy, campos, 'FilialRec', [asc(filial.cdEmpresa)]))
        .limit(limit)
        .offset(offset);
      return { ok: true, listaFiliais: rows };
    },
  }),

  buscaCentroCusto: query({
    description:
      'Cost centres, by code or part of the name, each with its available vehicles running and in the garage',
    get: true,
    input: Type.Object({
      cdCentroCusto: opt(Int64()),
      dsCentroCusto: opt(Str(100, 'part of the name')),
      ...Page,
    }),
    output: Type.Object({ ...Ok, listaCentroCusto: Type.Array(CentroCustoRec) }),
    handler: async (ctx, input) => {
      const { limit, offset } = pageOf(input);
      const frota = ctx.tx
        .select({
          centro: veiculo.centroCusto,
          garagem: sql<number>`count(*) filter (where ${veiculo.dsStatusOficina} = 'GARAGEM')`.as('garagem'),
          total: count().as('total'),
        })
        .from(veiculo)
        .where(ctx.store.scope(veiculo, sql`${veiculo.dsStatus} is distinct from 'INATIVO'`))
        .groupBy(veiculo.centroCusto)
        .as('frota');
      const campos = {
        cdCentroCusto: centroCusto.cdCentroCusto,
        dsCentroCusto: centroCusto.dsCentroCusto,
        inExibePainelOfi: centroCusto.inExibePainelOfi,
        garagem: sql<number>`coalesce(${frota.garagem}, 0)::int`.mapWith(Number),
        total: sql<number>`coalesce(${frota.total}, 0)::int`.mapWith(Number),
      };
      // rodando is computed from the two counts; ordered by the same difference.
      const rodando = sql`coalesce(${frota.total}, 0) - coalesce(${frota.garagem}, 0)`;
      const rows = await ctx.tx
        .select(campos)
        .from(centroCusto)
        .leftJoin(frota, eq(frota.centro, centroCusto.cdCentroCusto))
        .where(
          ctx.store.scope(
            centroCusto,
            and(
              when(input.cdCentroCusto, (c) => eq(centroCusto.cdCentroCusto, c)),
              like(centroCusto.dsCentroCusto, input.dsCentroCusto),
            ),
          ),
        )
        .orderBy(
          ...ordem(input.orderBy, { ...campos, rodando }, 'CentroCustoRec', [asc(centroCusto.cdCentroCusto)]),
        )
        .limit(limit)
        .offset(offset);
      return {
        ok: true,
        listaCentroCusto: rows.map(({ garagem, total, ...c }) =>
          record<Static<typeof CentroCustoRec>>({ ...c, rodando: total - garagem, garagem, total }),
        ),
      };
    },
  }),

  buscaSetor: query({
    description: "The workshop's sectors, by code or part of the name",
    get: true,
    input: Type.Object({ cdSetor: opt(Int64()), dsSetor: opt(Str(100, 'part of the name')), ...Page }),
    output: Type.Object({ ...Ok, listaSetores: Type.Array(RsalvaSetor) }),
    handler: async (ctx, input) => {
      const { limit, offset } = pageOf(input);
      const campos = { cdSetor: setor.cdSetor, dsSetor: setor.dsSetor };
      const rows = await ctx.tx
        .select(campos)
        .from(setor)
        .where(
          ctx.store.scope(
            setor,
            and(
              when(input.cdSetor, (c) => eq(setor.cdSetor, c)),
              like(setor.dsSetor, input.dsSetor),
            ),
          ),
        )
        .orderBy(...ordem(input.orderBy, campos, 'RsalvaSetor', [asc(setor.cdSetor)]))
        .limit(limit)
        .offset(offset);
      return { ok: true, listaSetores: rows.map((r) => record<Static<typeof RsalvaSetor>>(r)) };
    },
  }),
};
