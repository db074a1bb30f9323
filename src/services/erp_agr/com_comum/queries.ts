import { and, asc, count, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { cepOfSearch } from '../../../platform/core/cep.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { query } from '../../../platform/core/registry.ts';
import { Int64, Type } from '../../../platform/core/schema.ts';
import {
  Cidade,
  DEFAULT_LIMITE,
  Empresa,
  Estado,
  Pais,
  QuantidadeLimiteRegistros,
  RecEndereco,
  RecFilialAux,
  RecPagina,
  Str,
} from './schemas.ts';
import { byCode, compact, contains, cut, pageOf, textoOf } from './search.ts';
import { empresa, filial } from './tables/empresas.ts';
import { cidade, estado, pais } from './tables/localidades.ts';
import { pessoa, pessoaEnderecoBusca } from './tables/pessoas.ts';

// Queries on companies, branches, places and addresses (spec 001 §4.8; behaviour where the spec
// is silent: docs/com_comum.md).

const Texto = (description: string) => Type.Optional(Str(150, description));
const upper = (s: string) => s.trim().toUpperCase();

export const lugares = {
  pesquisarEmpresa: query({
    description:
      'Companies by id, code or text (partial, case-insensitive on code, name or trade name), paged',
    input: Type.Object({
      id: Type.Optional(Int64()),
      codigo: Type.Optional(Str(4, 'exact company code')),
      texto: Texto('part of the code, name or trade name'),
      pagina: Type.Optional(RecPagina()),
    }),
    output: Type.Object({ empresas: Type.Array(Empresa), totalRegistros: Int64() }),
    handler: async (ctx, input) => {
      const texto = textoOf(input.texto);
      const where = ctx.store.scope(
        empresa,
        and(
          input.id !== undefined ? eq(empresa.id, input.id) : undefined,
          input.codigo ? eq(empresa.codigo, input.codigo.trim()) : undefined,
          texto
            ? or(
                contains(empresa.codigo, texto),
                contains(empresa.nome, texto),
                contains(empresa.nomeFantasia, texto),
              )
            : undefined,
        ),
      );
      const { limit, offset } = pageOf(input.pagina);
      const rows = await ctx.tx
        .select()
        .from(empresa)
        .where(where)
        .orderBy(...byCode(empresa.codigo), asc(empresa.id))
        .limit(limit)
        .offset(offset);
      const [total] = await ctx.tx.select({ n: count() }).from(empresa).where(where);
      return { empresas: rows.map(compact), totalRegistros: total?.n ?? 0 };
    },
  }),

  pesquisarFilial: query({
    description: 'Branches by id, company (id or code), branch code or text, paged',
    input: Type.Object({
      id: Type.Optional(Int64()),
      idEmpresa: Type.Optional(Int64()),
      codigoEmpresa: Type.Optional(Str(4)),
      codigoFilial: Type.Optional(Str(5)),
      texto: Texto('part of the branch code, name or trade name'),
      pagina: Type.Optional(RecPagina()),
    }),
    output: Type.Object({ filiais: Type.Array(RecFilialAux), totalRegistros: Int64() }),
    handler: async (ctx, input) => {
      const texto = textoOf(input.texto);
      const where = ctx.store.scope(
        filial,
        and(
          input.id !== undefined ? eq(filial.id, input.id) : undefined,
          input.idEmpresa !== undefined ? eq(empresa.id, input.idEmpresa) : undefined,
          input.codigoEmpresa ? eq(filial.codigoEmpresa, input.codigoEmpresa.trim()) : undefined,
          input.codigoFilial ? eq(filial.codigo, input.codigoFilial.trim()) : undefined,
          texto
            ? or(
                contains(filial.codigo, texto),
                contains(filial.nome, texto),
                contains(filial.nomeFantasia, texto),
              )
            : undefined,
        ),
      );
      // The company and the city are joined by their codes (imports may bring them in any order).
      const empresaJoin = and(eq(empresa.tenant, filial.tenant), eq(empresa.codigo, filial.codigoEmpresa));
      const cidadeJoin = and(eq(cidade.tenant, filial.tenant), eq(cidade.codigo, filial.codigoCidade));
      const { limit, offset } = pageOf(input.pagina);
      const rows = await ctx.tx
        .select({
          id: filial.id,
          idEmpresa: empresa.id,
          codigoEmpresa: filial.codigoEmpresa,
          codigo: filial.codigo,
          nome: filial.nome,
          nomeFantasia: filial.nomeFantasia,
          cnpj: filial.cnpj,
          inscricaoEstadual: filial.inscricaoEstadual,
          codigoCidade: filial.codigoCidade,
          nomeCidade: cidade.nome,
          siglaEstado: filial.siglaEstado,
          situacao: filial.situacao,
        })
        .from(filial)
        .leftJoin(empresa, empresaJoin)
        .leftJoin(cidade, cidadeJoin)
        .where(where)
        .orderBy(...byCode(filial.codigoEmpresa), ...byCode(filial.codigo), asc(filial.id))
        .limit(limit)
        .offset(offset);
      const [total] = await ctx.tx
        .select({ n: count() })
        .from(filial)
        .leftJoin(empresa, empresaJoin)
        .where(where);
      return { filiais: rows.map(compact), totalRegistros: total?.n ?? 0 };
    },
  }),

  pesquisarPais: query({
    description: 'Every country, by name',
    get: true,
    input: Type.Object({}),
    output: Type.Object({ paises: Type.Array(Pais) }),
    handler: async (ctx) => ({ paises: await paises(ctx) }),
  }),

  listarPaises: query({
    description: 'Countries whose name contains nome and whose code is codigo; all when both are empty',
    get: true,
    input: Type.Object({
      nome: Type.Optional(Str(60, 'part of the name, case-insensitive')),
      codigo: Type.Optional(Str(5, 'exact country code')),
    }),
    output: Type.Object({ paises: Type.Array(Pais) }),
    handler: async (ctx, input) => {
      const nome = textoOf(input.nome);
      const codigo = textoOf(input.codigo);
      return {
        paises: await paises(
          ctx,
          and(nome ? contains(pais.nome, nome) : undefined, codigo ? eq(pais.codigo, codigo) : undefined),
        ),
      };
    },
  }),

  pesquisarEstado: query({
    description: 'The states of a country, named by its code or its abbreviation (1058 or BR)',
    input: Type.Object({ pais: Str(5, 'country code or abbreviation', 1) }),
    output: Type.Object({ estados: Type.Array(Estado) }),
    handler: async (ctx, input) => {
      const wanted = input.pais.trim();
      // Country codes by abbreviation too; states may have been imported before their country.
      const bySigla = ctx.tx
        .select({ codigo: pais.codigo })
        .from(pais)
        .where(ctx.store.scope(pais, eq(pais.sigla, upper(wanted))));
      const rows = await ctx.tx
        .select({ pais: estado.pais, sigla: estado.sigla, codigo: estado.codigo, nome: estado.nome })
        .from(estado)
        .where(ctx.store.scope(estado, or(eq(estado.pais, wanted), inArray(estado.pais, bySigla))))
        .orderBy(asc(estado.nome), asc(estado.sigla));
      return { estados: rows.map(compact) };
    },
  }),

  pesquisarCidade: query({
    description: 'The cities of a state, named by its abbreviation (SP)',
    input: Type.Object({ estado: Str(2, 'state abbreviation', 1) }),
    output: Type.Object({ cidades: Type.Array(Cidade) }),
    handler: async (ctx, input) => {
      const rows = await ctx.tx
        .select({
          codigo: cidade.codigo,
          nome: cidade.nome,
          siglaEstado: cidade.siglaEstado,
          pais: cidade.pais,
        })
        .from(cidade)
        .where(ctx.store.scope(cidade, eq(cidade.siglaEstado, upper(input.estado))))
        .orderBy(asc(cidade.nome), asc(cidade.codigo));
      return { cidades: rows };
    },
  }),

  pesquisarEndereco: query({
    description:
      'Addresses by id, person, text (street, district or postal code) and company, up to quantidadeLimiteRegistros',
    input: Type.Object({
      id: Type.Optional(Int64({ description: 'address id' })),
      pessoa: Type.Optional(Int64({ description: 'person id' })),
      texto: Texto('part of the street, district or postal code'),
      idEmpresa: Type.Optional(Int64({ description: 'addresses usable by this company' })),
      quantidadeLimiteRegistros: Type.Optional(QuantidadeLimiteRegistros()),
    }),
    output: Type.Object({ enderecos: Type.Array(RecEndereco), truncado: Type.Boolean() }),
    handler: async (ctx, input) => {
      // The search view, so the trigram indexes serve texto (tables/pessoas.ts).
      const e = pessoaEnderecoBusca;
      const texto = textoOf(input.texto);
      // An address of no company (codigoEmpresa empty) serves every company.
      const ofEmpresa =
        input.idEmpresa === undefined
          ? undefined
          : sql`exists (select 1 from ${empresa} where ${empresa.tenant} = ${e.tenant}
              and ${empresa.id} = ${input.idEmpresa}
              and (${isNull(e.codigoEmpresa)} or ${e.codigoEmpresa} = ${empresa.codigo}))`;
      const where = and(
        eq(e.tenant, ctx.tenant.name),
        input.id !== undefined ? eq(e.id, input.id) : undefined,
        input.pessoa !== undefined ? eq(pessoa.id, input.pessoa) : undefined,
        texto
          ? or(
              contains(e.logradouro, texto),
              contains(e.bairro, texto),
              // CEPs are stored as digits: `13140-000` and `13.140` look for 13140000 and 13140.
              contains(e.cep, cepOfSearch(texto) ?? texto),
            )
          : undefined,
        ofEmpresa,
      );
      const limit = input.quantidadeLimiteRegistros;
      const rows = await ctx.tx
        .select({
          id: e.id,
          idPessoa: pessoa.id,
          codigoPessoa: e.codigoPessoa,
          sequencia: e.sequencia,
          tipoEndereco: e.tipoEndereco,
          logradouro: e.logradouro,
          numero: e.numero,
          complemento: e.complemento,
          bairro: e.bairro,
          cep: e.cep,
          codigoCidade: e.codigoCidade,
          nomeCidade: cidade.nome,
          siglaEstado: e.siglaEstado,
          pais: e.pais,
          codigoEmpresa: e.codigoEmpresa,
        })
        .from(e)
        .leftJoin(pessoa, and(eq(pessoa.tenant, e.tenant), eq(pessoa.codigo, e.codigoPessoa)))
        .leftJoin(cidade, and(eq(cidade.tenant, e.tenant), eq(cidade.codigo, e.codigoCidade)))
        .where(where)
        .orderBy(asc(e.codigoPessoa), asc(e.sequencia), asc(e.id))
        .limit((limit ?? DEFAULT_LIMITE) + 1);
      // entityColumns types an entity's id string | number; this one is int64.
      const { rows: enderecos, truncado } = cut(
        rows.map((r) => compact({ ...r, id: Number(r.id) })),
        limit,
      );
      return { enderecos: enderecos, truncado };
    },
  }),
};

function paises(ctx: Ctx, where?: SQL) {
  return ctx.tx
    .select({ codigo: pais.codigo, nome: pais.nome, sigla: pais.sigla })
    .from(pais)
    .where(ctx.store.scope(pais, where))
    .orderBy(asc(pais.nome), asc(pais.codigo))
    .then((rows) => rows.map(compact));
}
