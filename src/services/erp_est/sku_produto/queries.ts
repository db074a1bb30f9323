import { and, asc, count, desc, eq, or, type SQL } from 'drizzle-orm';
import { containsText } from '../../../platform/core/db/search.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { query } from '../../../platform/core/registry.ts';
import { Int64, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { RecMascaraSku, RecMascaraSkuComponente, RecPaginacao } from './schemas.ts';
import { componente, mascara } from './tables.ts';

// The searches of erp_est/sku_produto (spec 001 §4.9): the masks of a company and family, and the
// components of a mask, filtered and paged (docs/sku_produto.md "Searches").

type MascaraRow = typeof mascara.$inferSelect;
type ComponenteRow = typeof componente.$inferSelect;

const drop = <T extends Record<string, unknown>>(row: T) =>
  Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined));

/** A mask row as recMascaraSku. */
export const recMascara = (m: MascaraRow) => {
  const {
    tenant: _t,
    codigoEmpresa: _c,
    createdBy: _a,
    createdDate: _b,
    lastModifiedBy: _d,
    lastModifiedDate: _e,
    ...rest
  } = m;
  return drop(rest) as never;
};

const recComponente = (c: ComponenteRow, m: MascaraRow) => {
  const {
    tenant: _t,
    mascaraId: _m,
    createdBy: _a,
    createdDate: _b,
    lastModifiedBy: _d,
    lastModifiedDate: _e,
    ...rest
  } = c;
  return { ...drop(rest), mascara: recMascara(m) } as never;
};

/** The columns a page of components may be ordered by. */
const ORDENAVEIS = {
  codigo: componente.codigo,
  descricao: componente.descricao,
  abreviatura: componente.abreviatura,
  sequencia: componente.sequencia,
  agrupamento: componente.agrupamento,
  situacao: componente.situacao,
} as const;

/** `campo [asc|desc]`, by a field of ORDENAVEIS; empty: sequencia. Always ends with id, so pages never overlap. */
export function ordenacao(orderBy: string): SQL[] {
  const text = orderBy.trim();
  if (text === '') return [asc(componente.sequencia), asc(componente.id)];
  const m = /^(\w+)(?:\s+(asc|desc))?$/i.exec(text);
  const column = m ? ORDENAVEIS[m[1] as keyof typeof ORDENAVEIS] : undefined;
  if (!m || !column || !Object.hasOwn(ORDENAVEIS, m[1]!))
    throw E.ordenacaoInvalida({
      orderBy: JSON.stringify(orderBy),
      campos: Object.keys(ORDENAVEIS).join(', '),
    });
  const dir = m[2]?.toLowerCase() === 'desc' ? desc : asc;
  return [dir(column), asc(componente.id)];
}

async function mascarasDe(ctx: Ctx, where: SQL): Promise<MascaraRow[]> {
  return ctx.store.rows<MascaraRow>(mascara, where, {
    orderBy: [asc(mascara.codigo), asc(mascara.codigoFamilia)],
  });
}

export const buscas = {
  buscarMascarasSku: query({
    description: 'The SKU coding masks of a company and product family, by code',
    get: true,
    input: Type.Object({
      codigoEmpresa: Int64({ minimum: 0 }),
      codigoFamilia: Type.String({ minLength: 1, maxLength: 20, description: 'product family' }),
    }),
    output: Type.Object({ mascaras: Type.Array(RecMascaraSku) }),
    handler: async (ctx, input) => {
      const rows = await mascarasDe(
        ctx,
        and(eq(mascara.codigoEmpresa, input.codigoEmpresa), eq(mascara.codigoFamilia, input.codigoFamilia))!,
      );
      return { mascaras: rows.map(recMascara) };
    },
  }),

  buscarComponentesMascaraSku: query({
    description:
      'The components of a SKU mask of a company, filtered by code or description (contains, any case), one page ' +
      'in the order asked, and how many match in all',
    input: Type.Object({
      codigoEmpresa: Int64({ minimum: 0 }),
      codigoMascaraSku: Type.String({ minLength: 1, maxLength: 20 }),
      filtro: Type.Optional(Type.String({ maxLength: 50, description: 'part of the code or description' })),
      paginacao: RecPaginacao,
    }),
    output: Type.Object({
      componentes: Type.Array(RecMascaraSkuComponente),
      totalRegistros: Int64(),
    }),
    handler: async (ctx, input) => {
      const ordem = ordenacao(input.paginacao.orderBy);
      const mascaras = await mascarasDe(
        ctx,
        and(eq(mascara.codigoEmpresa, input.codigoEmpresa), eq(mascara.codigo, input.codigoMascaraSku))!,
      );
      if (mascaras.length === 0)
        throw E.mascaraEmpresaNotFound({
          codigo: input.codigoMascaraSku,
          codigoEmpresa: input.codigoEmpresa,
        });
      const porId = new Map(mascaras.map((m) => [String(m.id), m]));
      const filtro = input.filtro?.trim();
      const where = and(
        eq(componente.tenant, ctx.tenant.name),
        or(...mascaras.map((m) => eq(componente.mascaraId, String(m.id)))),
        filtro
          ? or(containsText(componente.codigo, filtro), containsText(componente.descricao, filtro))
          : undefined,
      );
      const { size, offset } = input.paginacao;
      const [rows, [total]] = [
        await ctx.tx
          .select()
          .from(componente)
          .where(where)
          .orderBy(...ordem)
          .limit(size)
          .offset(offset * size),
        await ctx.tx.select({ n: count() }).from(componente).where(where),
      ];
      return {
        componentes: rows.map((c) => recComponente(c, porId.get(c.mascaraId)!)),
        totalRegistros: Number(total?.n ?? 0),
      };
    },
  }),
};
