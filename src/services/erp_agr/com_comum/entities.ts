import { eq } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Cep, cepDigits } from '../../../platform/core/cep.ts';
import type { TenantTable } from '../../../platform/core/db/store.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { DateOnly, Double, Enum, Int64, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { OPERACOES_CONVERSAO, Positive, Str, TIPOS_ENDERECO, TIPOS_PRODUTO } from './schemas.ts';
import {
  condicaoPagamentoParcela as condicaoPagamentoParcelaTable,
  feriado as feriadoTable,
} from './tables/calendario.ts';
import { condicaoPagamento as condicaoPagamentoTable, moeda as moedaTable } from './tables/financeiro.ts';
import { pessoa, pessoaEndereco as pessoaEnderecoTable } from './tables/pessoas.ts';
import { safra as safraTable } from './tables/produtores.ts';
import {
  unidadeMedidaConversao as conversaoTable,
  sku as skuTable,
  unidadeMedida,
} from './tables/produtos.ts';

// The generic entities of erp_agr/com_comum (spec 001 §4.8, routes of spec 000 §2.3), int64 ids,
// each with its natural key (a duplicate is 409; imports upsert by it). Hooks check what the
// schema cannot: references to other records (422 when missing), and fill the defaults of
// not-null fields, since PUT replaces every field.

const opt = Type.Optional;
const Code = (max: number, description?: string) => Str(max, description, 1);

/** 422 when no row of `table` has `codigo` in the tenant. */
async function mustExist(
  ctx: Ctx,
  table: TenantTable & { codigo: AnyPgColumn },
  record: string,
  field: string,
  codigo: unknown,
): Promise<void> {
  const [row] = await ctx.store.select(table, eq(table.codigo, String(codigo)));
  if (!row) throw E.referenceNotFound({ record, codigo: String(codigo), field });
}

export const moeda = defineEntity({
  name: 'moeda',
  description: 'Currencies',
  table: moedaTable,
  idType: 'int64',
  naturalKey: ['codigo'],
  fields: Type.Object({
    codigo: Code(3, 'currency code (BRL, USD)'),
    nome: Code(40),
    simbolo: opt(Str(5, 'R$')),
    quantidadeDecimais: opt(Int64({ minimum: 0, maximum: 8 })),
  }),
});

export const safra = defineEntity({
  name: 'safra',
  description: 'Crop years (2024/2025) of a culture, with their period',
  table: safraTable,
  idType: 'int64',
  naturalKey: ['codigo'],
  fields: Type.Object({
    codigo: Code(10, 'crop year code (2024/2025)'),
    descricao: Code(60),
    cultura: opt(Str(40, 'crop (Soja, Milho)')),
    dataInicio: DateOnly(),
    dataFim: DateOnly({ description: 'not before dataInicio' }),
    encerrada: opt(Type.Boolean({ description: 'closed for new operations (default false)' })),
  }),
  hooks: {
    beforeSave: async (_ctx, next) => {
      next.encerrada ??= false;
      if (String(next.dataFim) < String(next.dataInicio)) {
        throw E.safraPeriod({ dataInicio: String(next.dataInicio), dataFim: String(next.dataFim) });
      }
    },
  },
});

export const sku = defineEntity({
  name: 'sku',
  description: 'Stock keeping units, each with its base unit of measure',
  table: skuTable,
  idType: 'int64',
  naturalKey: ['codigo'],
  fields: Type.Object({
    codigo: Code(30),
    descricao: Code(100),
    codigoProduto: opt(Str(14, 'product the SKU belongs to')),
    codigoUnidadeMedida: Code(3, 'base unit of measure (unidadeMedida.codigo)'),
    codigoBarras: opt(Str(14, 'GTIN/EAN')),
    ncm: opt(Type.String({ pattern: '^\\d{8}$', description: 'NCM, 8 digits' })),
    pesoLiquido: opt(Double({ minimum: 0, description: 'kg' })),
    pesoBruto: opt(Double({ minimum: 0, description: 'kg' })),
    ativo: opt(Type.Boolean({ description: 'default true' })),
    tipoProduto: opt(Enum(TIPOS_PRODUTO, { description: 'enumTipoSKUCOT; default NaoClassificado' })),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.ativo ??= true;
      next.tipoProduto ??= 'NaoClassificado';
      if (next.codigoUnidadeMedida !== previous?.codigoUnidadeMedida) {
        await mustExist(ctx, unidadeMedida, 'unidadeMedida', 'codigoUnidadeMedida', next.codigoUnidadeMedida);
      }
    },
  },
});

export const unidadeMedidaConversao = defineEntity({
  name: 'unidadeMedidaConversao',
  description: 'Conversion between two units of measure: destino = origem × fator (or ÷ fator)',
  table: conversaoTable,
  idType: 'int64',
  naturalKey: ['codigoUnidadeMedidaOrigem', 'codigoUnidadeMedidaDestino'],
  fields: Type.Object({
    codigoUnidadeMedidaOrigem: Code(3, 'unidadeMedida.codigo'),
    codigoUnidadeMedidaDestino: Code(3, 'unidadeMedida.codigo, different from the origin'),
    operacao: opt(Enum(OPERACOES_CONVERSAO, { description: 'default Multiplicar' })),
    fatorConversao: Positive('conversion factor'),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.operacao ??= 'Multiplicar';
      const { codigoUnidadeMedidaOrigem: origem, codigoUnidadeMedidaDestino: destino } = next;
      if (origem === destino) throw E.sameUnits({ codigo: String(origem) });
      for (const [field, codigo] of [
        ['codigoUnidadeMedidaOrigem', origem],
        ['codigoUnidadeMedidaDestino', destino],
      ] as const) {
        if (codigo !== previous?.[field]) await mustExist(ctx, unidadeMedida, 'unidadeMedida', field, codigo);
      }
    },
  },
});

export const condicaoPagamento = defineEntity({
  name: 'condicaoPagamento',
  description: 'Payment terms: number of installments, days to the first and between installments',
  table: condicaoPagamentoTable,
  idType: 'int64',
  naturalKey: ['codigo'],
  fields: Type.Object({
    codigo: Code(6),
    descricao: Code(60),
    quantidadeParcelas: opt(Int64({ minimum: 1, maximum: 999, description: 'default 1' })),
    diasPrimeiraParcela: opt(Int64({ minimum: 0, maximum: 9999, description: 'default 0 (cash)' })),
    intervaloDias: opt(Int64({ minimum: 0, maximum: 9999, description: 'default 0' })),
    ativo: opt(Type.Boolean({ description: 'default true' })),
  }),
  hooks: {
    beforeSave: async (_ctx, next) => {
      next.quantidadeParcelas ??= 1;
      next.diasPrimeiraParcela ??= 0;
      next.intervaloDias ??= 0;
      next.ativo ??= true;
    },
  },
});

// The plan of a condition (docs/com_comum.md "Installments"): lines by natural codes, like every
// reference of com_comum, so a file of plans imports in any order after its conditions.
export const condicaoPagamentoParcela = defineEntity({
  name: 'condicaoPagamentoParcela',
  description:
    'A line of the installment plan of a payment condition: installment sequencia falls due dias after the base date, for percentual of the value; the lines of a condition add up to 100%',
  table: condicaoPagamentoParcelaTable,
  idType: 'int64',
  naturalKey: ['codigoCondicaoPagamento', 'sequencia'],
  fields: Type.Object({
    codigoCondicaoPagamento: Code(6, 'the payment condition (condicaoPagamento.codigo)'),
    sequencia: Int64({ minimum: 1, maximum: 999, description: 'installment number (sequenciaParcela)' }),
    dias: Int64({ minimum: 0, maximum: 9999, description: 'days from the base date to the due date' }),
    percentual: Double({
      minimum: 0.000001,
      maximum: 100,
      description: 'share of the value, in percent; the lines of a condition add up to 100',
    }),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      if (next.codigoCondicaoPagamento !== previous?.codigoCondicaoPagamento) {
        await mustExist(
          ctx,
          condicaoPagamentoTable,
          'condicaoPagamento',
          'codigoCondicaoPagamento',
          next.codigoCondicaoPagamento,
        );
      }
    },
  },
});

export const feriado = defineEntity({
  name: 'feriado',
  description:
    'The tenant holiday calendar: no installment falls due (vencimentoUtil) on a holiday, a Saturday or a Sunday',
  table: feriadoTable,
  idType: 'int64',
  naturalKey: ['data'],
  fields: Type.Object({
    data: DateOnly({ description: 'the holiday (YYYY-MM-DD), once per tenant' }),
    descricao: Code(60),
  }),
});

export const pessoaEndereco = defineEntity({
  name: 'pessoaEndereco',
  description: 'Addresses of a person, numbered by sequencia',
  table: pessoaEnderecoTable,
  idType: 'int64',
  naturalKey: ['codigoPessoa', 'sequencia'],
  fields: Type.Object({
    codigoPessoa: Code(20, 'the person (pessoa.codigo)'),
    sequencia: Int64({ minimum: 1, maximum: 9999 }),
    tipoEndereco: opt(Enum(TIPOS_ENDERECO, { description: 'default Principal' })),
    logradouro: Code(100),
    numero: opt(Str(10)),
    complemento: opt(Str(60)),
    bairro: opt(Str(60)),
    cep: opt(Cep()),
    codigoCidade: opt(Str(10, 'cidade.codigo (IBGE)')),
    siglaEstado: opt(Str(2)),
    pais: opt(Str(5, 'pais.codigo')),
    codigoEmpresa: opt(Str(4, 'only this company uses the address; empty: every company')),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.tipoEndereco ??= 'Principal';
      if (typeof next.siglaEstado === 'string') next.siglaEstado = next.siglaEstado.toUpperCase();
      if (typeof next.cep === 'string') next.cep = cepDigits(next.cep);
      if (next.codigoPessoa !== previous?.codigoPessoa) {
        await mustExist(ctx, pessoa, 'pessoa', 'codigoPessoa', next.codigoPessoa);
      }
    },
  },
});

export const comumEntities = [
  unidadeMedidaConversao,
  condicaoPagamento,
  sku,
  pessoaEndereco,
  moeda,
  safra,
  condicaoPagamentoParcela,
  feriado,
];
