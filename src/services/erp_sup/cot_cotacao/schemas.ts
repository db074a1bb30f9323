import { Double, Enum, Int64, Record, Type } from '../../../platform/core/schema.ts';
import { TIPOS_PRODUTO } from '../../erp_agr/com_comum/contract.ts';

// The records of erp_sup/cot_cotacao (spec 001 §2.2, limits §8), each field declared once.

const opt = Type.Optional;
const Str = (max?: number, description?: string) =>
  Type.String({ minLength: 1, ...(max ? { maxLength: max } : {}), ...(description ? { description } : {}) });

export const SITUACOES_COTACAO = ['Aberta', 'Cancelada'] as const;
export const MAX_ITENS = 1000;

export const EnumTipoSKUCOT = () =>
  Record('enumTipoSKUCOT', Enum(TIPOS_PRODUTO, { description: 'kind of product' }));

export const RecDetalhesUsuario = Record(
  'recDetalhesUsuario',
  Type.Object({
    email: opt(Type.String({ format: 'email', maxLength: 254, description: 'e-mail of the buyer' })),
  }),
);

export const RecCotacaoItemEndereco = Record(
  'recCotacaoItemEndereco',
  Type.Object({
    codigoEmpresa: Str(20),
    codigoFilial: Str(20),
    endereco: Str(200),
    cep: Str(10),
    sequencia: opt(Int64({ minimum: 0 })),
    codigoCidade: opt(Type.String({ maxLength: 10 })),
    codigoEstado: opt(Type.String({ maxLength: 2 })),
    bairro: opt(Type.String({ maxLength: 100 })),
  }),
);

export const RecCotacaoItemAnexo = Record(
  'recCotacaoItemAnexo',
  Type.Object({
    id: Type.String({
      minLength: 1,
      maxLength: 36,
      description: 'the attachment, as obterUrlUploadAnexo answered it',
    }),
    nomeArquivo: Str(100),
    versaoArquivo: Str(50),
  }),
);

/** The fields of recCotacaoItem (spec 001 §2.2). */
export const itemFields = {
  idNecessidadeCompra: Str(36, 'the purchase need quoted'),
  numeroNecessidadeCompra: Int64(),
  quantidade: Double({ minimum: 0 }),
  codigoEmpresa: Str(20),
  codigoFilial: Str(20),
  codigoUnidadeMedida: Str(3),
  codigoSKU: opt(Str(30, "a SKU of the tenant's catalogue")),
  complemento: opt(Type.String({ maxLength: 1000 })),
  observacao: opt(Type.String({ maxLength: 4000 })),
  enderecoEntrega: opt(RecCotacaoItemEndereco),
  enderecoFaturamento: opt(RecCotacaoItemEndereco),
  anexos: opt(Type.Array(RecCotacaoItemAnexo, { maxItems: 100 })),
  detalhesUsuario: opt(RecDetalhesUsuario),
};

export const RecCotacaoItem = Record('recCotacaoItem', Type.Object(itemFields));

export const RecSku = Record(
  'recSku',
  Type.Object({
    codigoEmrpesa: Type.String({ description: 'the company (the field is spelled so in the spec)' }),
    codigo: Type.String(),
    descricao: Type.String(),
    tipoProduto: EnumTipoSKUCOT(),
    id: opt(Int64({ description: 'unique identifier of the SKU' })),
    descricaoComplementar: opt(Type.String()),
  }),
);
