import type { TObject } from 'typebox';
import { cepDigits } from '../../../platform/core/cep.ts';
import { semPontuacao } from '../../../platform/core/cpf-cnpj.ts';
import { importTargetOf } from '../../../platform/core/entity.ts';
import type { ImportTarget } from '../../../platform/core/import-target.ts';
import { Type } from '../../../platform/core/schema.ts';
import {
  condicaoPagamento as condicaoPagamentoEntity,
  condicaoPagamentoParcela as condicaoPagamentoParcelaEntity,
  unidadeMedidaConversao as conversaoEntity,
  feriado as feriadoEntity,
  moeda as moedaEntity,
  pessoaEndereco as pessoaEnderecoEntity,
  safra as safraEntity,
  sku as skuEntity,
} from './entities.ts';
import {
  CpfCnpj,
  cidadeFields,
  cooperadoInfoFields,
  cotacaoMoedaFields,
  empresaFields,
  estadoFields,
  filialFields,
  formaPagamentoFields,
  paisFields,
  pessoaFields,
  produtorFields,
  produtorPropriedadeFields,
  produtorVinculoFields,
  skuUnidadeMedidaFields,
  unidadeMedidaFields,
} from './schemas.ts';
import { empresa, filial } from './tables/empresas.ts';
import { cotacaoMoeda, formaPagamento } from './tables/financeiro.ts';
import { cidade, estado, pais } from './tables/localidades.ts';
import { pessoa } from './tables/pessoas.ts';
import { cooperadoInfo, produtor, produtorPropriedade, produtorVinculo } from './tables/produtores.ts';
import { skuUnidadeMedida, unidadeMedida } from './tables/produtos.ts';

// What each import<X> of erp_agr/com_comum writes (spec 001 §4.8): the table the queries read,
// the schema of one row of the file (the record's fields, by their JSON names), and the natural
// key a row is upserted by. References are natural codes, so files may arrive in any order.
// `prepare` only normalises: documents without punctuation (letters upper case), CEPs to digits, state and country abbreviations to upper
// case (the searches compare abbreviations in upper case), as the entities' hooks do.

type Row = Record<string, unknown>;

const documento = (value: unknown) => (typeof value === 'string' ? semPontuacao(value) : value);
const cep = (value: unknown) => (typeof value === 'string' ? cepDigits(value) : value);
const upper = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);

/** A pure prepare that maps the named fields, when present. */
function normalise(fields: Record<string, (value: unknown) => unknown>, fixed: Row = {}) {
  return (row: Row): Row => {
    const out: Row = { ...row, ...fixed };
    for (const [field, fn] of Object.entries(fields))
      if (out[field] !== undefined) out[field] = fn(out[field]);
    return out;
  };
}

const target = (
  table: ImportTarget['table'],
  row: TObject,
  naturalKey: string[],
  prepare?: ImportTarget['prepare'],
): ImportTarget => ({ table, row, naturalKey, ...(prepare ? { prepare } : {}) });

/** PessoaFisica and PessoaJuridica: the row has no tipoPessoa; the kind sets it, and the document's shape. */
function pessoaDe(tipoPessoa: 'F' | 'J'): ImportTarget {
  const { tipoPessoa: _, ...fields } = pessoaFields;
  return target(
    pessoa,
    Type.Object({ ...fields, cpfCnpj: Type.Optional(CpfCnpj(tipoPessoa === 'F' ? 'cpf' : 'cnpj')) }),
    ['codigo'],
    normalise({ cpfCnpj: documento }, { tipoPessoa }),
  );
}

export const comumImports: Record<string, ImportTarget> = {
  Pessoa: target(pessoa, Type.Object(pessoaFields), ['codigo'], normalise({ cpfCnpj: documento })),
  PessoaFisica: pessoaDe('F'),
  PessoaJuridica: pessoaDe('J'),
  Pais: target(pais, Type.Object(paisFields), ['codigo'], normalise({ sigla: upper })),
  Estado: target(estado, Type.Object(estadoFields), ['pais', 'sigla'], normalise({ sigla: upper })),
  Cidade: target(cidade, Type.Object(cidadeFields), ['codigo'], normalise({ siglaEstado: upper })),
  Empresa: target(empresa, Type.Object(empresaFields), ['codigo'], normalise({ cnpj: documento })),
  Filial: target(
    filial,
    Type.Object(filialFields),
    ['codigoEmpresa', 'codigo'],
    normalise({ cnpj: documento, siglaEstado: upper }),
  ),
  UnidadeMedida: target(unidadeMedida, Type.Object(unidadeMedidaFields), ['codigo']),
  UnidadeMedidaConversao: importTargetOf(conversaoEntity),
  CondicaoPagamento: importTargetOf(condicaoPagamentoEntity),
  Sku: importTargetOf(skuEntity),
  PessoaEndereco: {
    ...importTargetOf(pessoaEnderecoEntity),
    prepare: normalise({ siglaEstado: upper, cep }),
  },
  Moeda: importTargetOf(moedaEntity),
  Safra: importTargetOf(safraEntity),
  FormaPagamento: target(formaPagamento, Type.Object(formaPagamentoFields), ['codigo']),
  SkuUnidadeMedida: target(skuUnidadeMedida, Type.Object(skuUnidadeMedidaFields), [
    'codigoSku',
    'codigoUnidadeMedida',
  ]),
  CotacaoMoeda: target(cotacaoMoeda, Type.Object(cotacaoMoedaFields), ['codigoMoeda', 'data']),
  Produtor: target(produtor, Type.Object(produtorFields), ['codigo']),
  CooperadoInfo: target(cooperadoInfo, Type.Object(cooperadoInfoFields), ['codigoProdutor']),
  ProdutorPropriedade: target(
    produtorPropriedade,
    Type.Object(produtorPropriedadeFields),
    ['codigoProdutor', 'codigo'],
    normalise({ siglaEstado: upper }),
  ),
  ProdutorVinculo: target(produtorVinculo, Type.Object(produtorVinculoFields), [
    'codigoProdutor',
    'codigoProdutorVinculado',
  ]),
  // Past the spec's list (spec 001 §4.8 "not shown"): the installment plans and the holidays.
  CondicaoPagamentoParcela: importTargetOf(condicaoPagamentoParcelaEntity),
  Feriado: importTargetOf(feriadoEntity),
};
