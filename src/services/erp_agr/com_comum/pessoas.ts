import { and, asc, count, eq, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { query } from '../../../platform/core/registry.ts';
import { Int64, type Static, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import {
  DEFAULT_LIMITE,
  EnumSituacao,
  EnumSituacaoPessoa,
  ProdutorVinculo,
  QuantidadeLimiteRegistros,
  RecFornecedor,
  RecPagina,
  RecPessoa,
  RecProdutor,
  Str,
} from './schemas.ts';
import { compact, contains, cut, idOf, pageOf, textoOf, todayIn } from './search.ts';
import { pessoa, pessoaBusca } from './tables/pessoas.ts';
import { cooperadoInfo, produtor, produtorVinculo } from './tables/produtores.ts';

// Searches of people by role (customer, supplier, representative) and of producers and their
// links (spec 001 §4.8; docs/com_comum.md). With 100,000 people in a tenant, `texto`, `nome` and
// `nomeFantasia` are served by trigram indexes and lists by the role's partial (tenant, nome) index.

const PessoaSearch = Type.Object({
  id: Type.Optional(Int64()),
  nome: Type.Optional(Str(150, 'part of the name, case-insensitive')),
  texto: Type.Optional(Str(150, 'the id, or part of the code, name or trade name')),
  nomeFantasia: Type.Optional(Str(60, 'part of the trade name, case-insensitive')),
  situacao: Type.Optional(EnumSituacaoPessoa({ default: 'Ativo' })),
  quantidadeLimiteRegistros: Type.Optional(QuantidadeLimiteRegistros()),
});
type PessoaSearch = Static<typeof PessoaSearch>;

/** People searches read the search view, so the trigram indexes serve them (tables/pessoas.ts). */
const p = pessoaBusca;

/** texto: the id exactly, or part of the code, name or trade name. */
function textoPessoa(texto: string): SQL {
  const id = idOf(texto);
  return or(
    contains(p.codigo, texto),
    contains(p.nome, texto),
    contains(p.nomeFantasia, texto),
    id !== undefined ? eq(p.id, id) : undefined,
  )!;
}

type Papel = 'cliente' | 'fornecedor' | 'representante';

async function pesquisarPessoas(ctx: Ctx, papel: Papel, input: PessoaSearch) {
  const texto = textoOf(input.texto);
  const nome = textoOf(input.nome);
  const nomeFantasia = textoOf(input.nomeFantasia);
  // The tenant, as the store would add it (the view applies the policy's predicate too).
  const where = and(
    eq(p.tenant, ctx.tenant.name),
    // A bare boolean column, so the planner can use the role's partial index.
    sql`${p[papel]}`,
    eq(p.situacao, input.situacao ?? 'Ativo'),
    input.id !== undefined ? eq(p.id, input.id) : undefined,
    nome ? contains(p.nome, nome) : undefined,
    nomeFantasia ? contains(p.nomeFantasia, nomeFantasia) : undefined,
    texto ? textoPessoa(texto) : undefined,
  )!;
  const limit = input.quantidadeLimiteRegistros ?? DEFAULT_LIMITE;
  const rows = await ctx.tx
    .select()
    .from(p)
    .where(where)
    .orderBy(asc(p.nome), asc(p.id))
    .limit(limit + 1);
  return cut(rows.map(compact), limit);
}

export const pessoas = {
  pesquisarFornecedor: query({
    description: 'Suppliers by id, text, name or trade name, of a situation (default Ativo), up to a limit',
    input: PessoaSearch,
    output: Type.Object({ fornecedores: Type.Array(RecPessoa), truncado: Type.Boolean() }),
    handler: async (ctx, input) => {
      const { rows, truncado } = await pesquisarPessoas(ctx, 'fornecedor', input);
      return { fornecedores: rows, truncado };
    },
  }),

  pesquisarFornecedorB2: query({
    description: 'Active suppliers by id or name (partial, case-insensitive), paged, with the total',
    input: Type.Object({
      page: RecPagina(),
      id: Type.Optional(Int64()),
      nome: Type.Optional(Str(150, 'part of the name, case-insensitive')),
    }),
    output: Type.Object({ contents: Type.Array(RecFornecedor), totalElements: Int64() }),
    handler: async (ctx, input) => {
      const nome = textoOf(input.nome);
      const where = and(
        eq(p.tenant, ctx.tenant.name),
        sql`${p.fornecedor}`,
        eq(p.situacao, 'Ativo'),
        input.id !== undefined ? eq(p.id, input.id) : undefined,
        nome ? contains(p.nome, nome) : undefined,
      );
      const { limit, offset } = pageOf(input.page);
      const rows = await ctx.tx
        .select({
          id: p.id,
          codigo: p.codigo,
          nome: p.nome,
          nomeFantasia: p.nomeFantasia,
          tipoPessoa: p.tipoPessoa,
          cpfCnpj: p.cpfCnpj,
          situacao: p.situacao,
          email: p.email,
          telefone: p.telefone,
        })
        .from(p)
        .where(where)
        .orderBy(asc(p.nome), asc(p.id))
        .limit(limit)
        .offset(offset);
      const [total] = await ctx.tx.select({ n: count() }).from(p).where(where);
      return { contents: rows.map(compact), totalElements: total?.n ?? 0 };
    },
  }),

  pesquisarCliente: query({
    description: 'Customers by id, text, name or trade name, of a situation (default Ativo), up to a limit',
    input: PessoaSearch,
    output: Type.Object({ clientes: Type.Array(RecPessoa), truncado: Type.Boolean() }),
    handler: async (ctx, input) => {
      const { rows, truncado } = await pesquisarPessoas(ctx, 'cliente', input);
      return { clientes: rows, truncado };
    },
  }),

  pesquisarRepresentante: query({
    description:
      'Sales representatives by id, text, name or trade name, of a situation (default Ativo), up to a limit',
    input: PessoaSearch,
    output: Type.Object({ representantes: Type.Array(RecPessoa), truncado: Type.Boolean() }),
    handler: async (ctx, input) => {
      const { rows, truncado } = await pesquisarPessoas(ctx, 'representante', input);
      return { representantes: rows, truncado };
    },
  }),

  pesquisarProdutor: query({
    description:
      'Producers by id, code or text (code, name or trade name of the person), of a situation (default Ativo)',
    input: Type.Object({
      id: Type.Optional(Int64()),
      codigo: Type.Optional(Str(20, 'exact producer code')),
      texto: Type.Optional(Str(150, 'part of the producer code, or of the name or trade name of its person')),
      situacao: Type.Optional(EnumSituacao()),
      quantidadeLimiteRegistros: Type.Optional(QuantidadeLimiteRegistros()),
    }),
    output: Type.Object({ produtores: Type.Array(RecProdutor), truncado: Type.Boolean() }),
    handler: async (ctx, input) => {
      const texto = textoOf(input.texto);
      const where = ctx.store.scope(
        produtor,
        and(
          eq(produtor.situacao, input.situacao ?? 'Ativo'),
          input.id !== undefined ? eq(produtor.id, input.id) : undefined,
          input.codigo ? eq(produtor.codigo, input.codigo.trim()) : undefined,
          texto
            ? or(
                contains(produtor.codigo, texto),
                contains(pessoa.nome, texto),
                contains(pessoa.nomeFantasia, texto),
              )
            : undefined,
        ),
      );
      const limit = input.quantidadeLimiteRegistros ?? DEFAULT_LIMITE;
      const hoje = todayIn(ctx.tenant.timeZone, ctx.now());
      const rows = await ctx.tx
        .select({
          id: produtor.id,
          codigo: produtor.codigo,
          codigoPessoa: produtor.codigoPessoa,
          inscricaoProdutor: produtor.inscricaoProdutor,
          cooperado: sql<boolean>`exists (select 1 from ${cooperadoInfo} where ${cooperadoInfo.tenant} = ${produtor.tenant}
            and ${cooperadoInfo.codigoProdutor} = ${produtor.codigo}
            and (${cooperadoInfo.dataDesligamento} is null or ${cooperadoInfo.dataDesligamento} > ${hoje}))`,
          situacao: produtor.situacao,
          idPessoa: pessoa.id,
          nome: pessoa.nome,
          cpfCnpj: pessoa.cpfCnpj,
        })
        .from(produtor)
        .leftJoin(pessoa, and(eq(pessoa.tenant, produtor.tenant), eq(pessoa.codigo, produtor.codigoPessoa)))
        .where(where)
        .orderBy(sql`${pessoa.nome} nulls last`, asc(produtor.codigo))
        .limit(limit + 1);
      const { rows: produtores, truncado } = cut(rows.map(compact), limit);
      return { produtores: produtores, truncado };
    },
  }),

  pesquisarVinculo: query({
    description: 'The links of a producer, both those it made and those made to it',
    input: Type.Object({ produtorId: Int64() }),
    output: Type.Object({ vinculos: Type.Array(ProdutorVinculo) }),
    handler: async (ctx, input) => {
      const [own] = await ctx.store.select(produtor, eq(produtor.id, input.produtorId));
      if (!own) throw E.produtorNotFound({ id: input.produtorId });
      const vinculos = await vinculosOf(
        ctx,
        or(
          eq(produtorVinculo.codigoProdutor, own.codigo),
          eq(produtorVinculo.codigoProdutorVinculado, own.codigo),
        )!,
      );
      return { vinculos };
    },
  }),
};

const origem = alias(produtor, 'origem');
const destino = alias(produtor, 'destino');

/** Links with the ids of both producers; a link whose producers are not both registered is left out. */
export async function vinculosOf(ctx: Ctx, where: SQL) {
  const v = produtorVinculo;
  const rows = await ctx.tx
    .select({
      id: v.id,
      produtorId: origem.id,
      produtorVinculadoId: destino.id,
      codigoProdutor: v.codigoProdutor,
      codigoProdutorVinculado: v.codigoProdutorVinculado,
      nomeVinculo: v.nomeVinculo,
    })
    .from(v)
    .innerJoin(origem, and(eq(origem.tenant, v.tenant), eq(origem.codigo, v.codigoProdutor)))
    .innerJoin(destino, and(eq(destino.tenant, v.tenant), eq(destino.codigo, v.codigoProdutorVinculado)))
    .where(ctx.store.scope(v, where))
    .orderBy(asc(v.codigoProdutor), asc(v.codigoProdutorVinculado));
  return rows.map(compact);
}
