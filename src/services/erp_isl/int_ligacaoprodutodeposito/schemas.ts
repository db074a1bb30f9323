import { maskBounds } from '../../../platform/core/masks.ts';
import { Double, Enum, Record, Type } from '../../../platform/core/schema.ts';
import { SITUACOES_LIGACAO } from './situacoes.ts';

// The link's fields (spec 001 §4.4), each with the mask the spec gives as its format hint, enforced
// by the schema keyword `x-mask` (platform/core/masks.ts): a value outside it is a 400 naming the
// field and the mask. docs/int_ligacaoprodutodeposito.md "Masks".

const opt = Type.Optional;
// Each also states the limits JSON Schema can say (maskBounds), so the documents carry them.
const texto = (mask: string, description: string, min = 0) =>
  Type.String({
    'x-mask': mask,
    ...maskBounds(mask),
    description: `${description} (mask ${mask})`,
    ...(min ? { minLength: min } : {}),
  });
const inteiro = (mask: string, description: string) =>
  Type.Integer({
    format: 'int64',
    'x-mask': mask,
    ...maskBounds(mask),
    description: `${description} (mask ${mask})`,
  });
const numero = (mask: string, description: string) =>
  Double({
    description: `${description} (mask ${mask})`,
    ...({ 'x-mask': mask, ...maskBounds(mask) } as object),
  });

export const ChaveLigacao = {
  codigoEmpresa: inteiro('ZZZ9', 'company code'),
  codigoProduto: texto('U[14]', 'product code', 1),
  codigoDerivacao: texto('U[7]', 'derivation code'),
  codigoDeposito: texto('U[10]', 'warehouse code', 1),
};

/** enumSituacaoLigacaoProdutoDeposito: a named definition of the documents the fields refer to. */
export const EnumSituacaoLigacao = Record(
  'enumSituacaoLigacaoProdutoDeposito',
  Enum(SITUACOES_LIGACAO, { description: 'status of the product in the warehouse' }),
);

export const CamposLigacao = {
  estoqueNegativo: opt(Type.Boolean({ description: 'accepts negative stock' })),
  estoqueReposicao: opt(numero('ZZZ.ZZZ.ZZ9,9[5]', 'replenishment point')),
  quantidadeMinDias: opt(inteiro('ZZZ9', 'minimum days for replenishment analysis')),
  quantidadeMaxDias: opt(inteiro('ZZZ9', 'maximum days')),
  dataValidade: opt(
    Type.String({
      'x-mask': 'DD/MM/YYYY',
      description: 'validity date (mask DD/MM/YYYY; YYYY-MM-DD accepted; answered YYYY-MM-DD)',
    }),
  ),
  prazoRessuprimento: opt(inteiro('ZZZ9', 'average resupply days')),
  capacidadeEstoque: opt(numero('ZZZ.ZZZ.ZZ9,9[5]', 'maximum storage')),
  calculoNecessidades: opt(Type.Boolean({ description: 'warehouse counts in needs calculation' })),
  ligacaoEspecial: opt(Type.Boolean({ description: 'special link (branch replenishment analysis)' })),
  situacao: EnumSituacaoLigacao,
  codigoEnderecamento: opt(texto('U[20]', 'addressing code')),
  codigoMotivo: opt(inteiro('ZZZ.ZZ9', 'reason code')),
  observacaoMotivo: opt(texto('#(40,2)#', 'reason remarks: at most 2 lines of 40 characters')),
};

export const Ligacao = Type.Object({ ...ChaveLigacao, ...CamposLigacao });
export const ExcluirLigacao = Type.Object(ChaveLigacao);
export const Vazio = Type.Object({});
