import { DateOnly, Double, Enum, Int64, Record, Type } from '../../../platform/core/schema.ts';
import { SITUACOES_PRE_FATURA } from './situacoes.ts';

// The records and inputs of erp_isl/int_prefatura (spec 001 §2.6, §4.5), with the spec's names.
// Bounds the spec leaves open, and the order-item link, are the project's (docs/int_prefatura.md).

const opt = Type.Optional;
const Codigo = (description: string) => Int64({ minimum: 1, description });
const Quantia = (description?: string) => Double({ minimum: 0, ...(description ? { description } : {}) });
const Texto = (max: number, min = 0) => Type.String({ maxLength: max, ...(min ? { minLength: min } : {}) });

export const MAX_ITENS = 1000;

/** enumSituacaoPreFatura: one declaration, a named definition of the documents every field refers to. */
export const EnumSituacaoPreFatura = Record(
  'enumSituacaoPreFatura',
  Enum(SITUACOES_PRE_FATURA, { description: 'situation of a pre-invoice or of its item' }),
);

export const ChavePreFatura = {
  codigoEmpresa: Codigo('company code'),
  codigoFilial: Codigo('branch code'),
  analiseEmbarque: Double({ minimum: 0, description: 'shipment analysis' }),
  numeroPreFatura: Codigo('pre-invoice number'),
};

export const RecAlteracaoItensPreFaturaLotes = Record(
  'recAlteracaoItensPreFaturaLotes',
  Type.Object({
    sequenciaPedidoVenda: Codigo('sequence of the order item the lot serves'),
    codigoProduto: Texto(14),
    codigoDerivacao: Texto(7),
    codigoDeposito: Texto(10),
    dataEmissao: DateOnly(),
    quantidade: Quantia(),
    codigoLote: Texto(50),
    dataFabricacao: DateOnly(),
  }),
);

export const RecAlteracaoItemPreFaturaPro = Record(
  'recAlteracaoItemPreFaturaPro',
  Type.Object({
    sequenciaItem: Codigo('the pre-invoice item (its sequenciaPreFatura)'),
    quantidadeAtendida: Quantia('quantity attended by the warehouse'),
    recItensLotes: Type.Array(RecAlteracaoItensPreFaturaLotes, { minItems: 1, maxItems: MAX_ITENS }),
  }),
);

export const InserirPreFatura = Type.Object({
  ...ChavePreFatura,
  sequenciaPreFatura: Codigo('sequence of the pre-invoice item'),
  codigoDepositoItem: Texto(10, 1),
  qtdItemPreFatura: Quantia('quantity of the item'),
  cancelaSaldoPedido: Type.Boolean({ description: 'cancels what is left open of the order item' }),
  textoObservacao: opt(Texto(4000)),
  numeroPedidoVenda: opt(
    Codigo('the sales order the item serves (with sequenciaPedidoVenda; a Ponte extension)'),
  ),
  sequenciaPedidoVenda: opt(Codigo('the product item of that order (its sequenciaItem; a Ponte extension)')),
});

export const AlterarPreFatura = Type.Object({
  ...ChavePreFatura,
  situacaoPreFatura: opt(EnumSituacaoPreFatura),
  itensPro: opt(Type.Array(RecAlteracaoItemPreFaturaPro, { maxItems: MAX_ITENS })),
});

export const AlterarItemSitPreFatura = Type.Object({
  ...ChavePreFatura,
  sequenciaPreFatura: Codigo('sequence of the pre-invoice item'),
  situacaoPreFatura: EnumSituacaoPreFatura,
});

export const AlterarSitPreFatura = Type.Object({
  ...ChavePreFatura,
  situacaoPreFatura: EnumSituacaoPreFatura,
});

export const Vazio = Type.Object({});
