import { DateOnly, Double, Enum, Int64, Record, Type } from '../../../platform/core/schema.ts';
import { SITUACOES_PEDIDO_VENDA } from './situacoes.ts';

// The records and inputs of erp_isl/int_pedidovenda (spec 001 §2.4, §4.3), with the spec's names
// and spellings. Bounds the spec leaves open are the project's (docs/int_pedidovenda.md "Fields").

const opt = Type.Optional;

export const MAX_ITENS = 1000;
export const MAX_LOTES = 1000;

/** enumSituacaoPedidoVenda: one declaration, a named definition of the documents every field refers to. */
export const EnumSituacaoPedidoVenda = Record(
  'enumSituacaoPedidoVenda',
  Enum(SITUACOES_PEDIDO_VENDA, { description: 'situation of a sales order or of its product item' }),
);

/** A code of the ERP: a positive int64. */
export const Codigo = (description: string) => Int64({ minimum: 1, description });
/** A quantity or value: a non-negative double. */
export const Quantia = (description?: string) =>
  Double({ minimum: 0, ...(description ? { description } : {}) });
export const Texto = (max: number, description?: string) =>
  Type.String({ maxLength: max, ...(description ? { description } : {}) });

/** The key of an order (the unique index of the table). */
export const ChavePedido = {
  codigoEmpresa: Codigo('company code'),
  codigoFilial: Codigo('branch code'),
  numeroPedidoVenda: Codigo('sales order number'),
};

export const RecItensPro = Record(
  'recItensPro',
  Type.Object({
    sequenciaEmbalagem: Int64({ minimum: 0 }),
    sequenciaConteudo: Int64({ minimum: 0 }),
    quantidade: Quantia(),
    volume: Quantia(),
    pesoBruto: Quantia(),
    pesoLiquido: Quantia(),
    obsProduto: Texto(1000, 'product remarks'),
  }),
);

export const RecItensSer = Record(
  'recItensSer',
  Type.Object({
    sequenciaItem: Codigo('sequence of the service item'),
    codigoServico: Texto(30),
    servico: Texto(250),
    quantidade: Quantia(),
    valorUnitario: Quantia(),
    valorDesconto: Quantia(),
    valorLiquido: Quantia(),
    valorTotal: Quantia(),
  }),
);

export const RecAlteracaoItensLotes = Record(
  'recAlteracaoItensLotes',
  Type.Object({
    sequenciaPedidoVenda: Codigo('sequence of the product item the lot belongs to'),
    codigoProduto: Texto(14),
    codigoDerivacao: Texto(7),
    codigoDeposito: Texto(10),
    dataEmissao: DateOnly(),
    quantidade: Quantia(),
    codigoLote: opt(Texto(50)),
    valorDimensao1: opt(Double()),
    valorDimensao2: opt(Double()),
    valorDimensao3: opt(Double()),
    valorDimensao4: opt(Double()),
    valorDimensao5: opt(Double()),
    valorDimensao6: opt(Double()),
    dataFabricacao: opt(DateOnly()),
  }),
);

export const RecAlteracaoItensPro = Record(
  'recAlteracaoItensPro',
  Type.Object({
    sequenciaItem: Codigo('sequence of the product item (1..n in the order inserirPedidoVenda sent them)'),
    quantidadeAberta: Quantia(),
    quantidadeCancelada: Quantia(),
    situacaoPedidoVenda: EnumSituacaoPedidoVenda,
    recItensLotes: opt(
      Type.Array(RecAlteracaoItensLotes, {
        maxItems: MAX_LOTES,
        description: "the item's lots; when sent, they replace the lots Ponte holds (Ponte)",
      }),
    ),
  }),
);

export const InserirPedidoVenda = Type.Object({
  ...ChavePedido,
  sequenciaPedidoVenda: Int64({ minimum: 0, description: "the ERP's sequence of the order (kept as sent)" }),
  data_emissao: DateOnly({ description: 'issue date' }),
  codigo_cliente: Codigo('customer code'),
  valorLiquido: Quantia('net value'),
  valorTotal: Quantia('total value'),
  transacao_produto: opt(Texto(10)),
  transacao_servico: opt(Texto(10)),
  codigo_representante: opt(Codigo('sales representative code')),
  textoObservacao: opt(Texto(4000)),
  itensPro: opt(Type.Array(RecItensPro, { maxItems: MAX_ITENS })),
  itensSer: opt(Type.Array(RecItensSer, { maxItems: MAX_ITENS })),
  codigoCondicaoPagamento: opt(
    Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'payment condition (erp_agr/com_comum condicaoPagamento.codigo); a Ponte extension',
    }),
  ),
});

export const AlterarPedidoVenda = Type.Object({
  ...ChavePedido,
  situacaoPedidoVenda: opt(EnumSituacaoPedidoVenda),
  itensPro: opt(Type.Array(RecAlteracaoItensPro, { maxItems: MAX_ITENS })),
});

export const AlterarItemSitPedidoVenda = Type.Object({
  ...ChavePedido,
  sequenciaPedidoVenda: Codigo('sequence of the product item'),
  situacaoPedidoVenda: EnumSituacaoPedidoVenda,
});

export const AlterarSitPedidoVenda = Type.Object({
  ...ChavePedido,
  situacaoPedidoVenda: EnumSituacaoPedidoVenda,
});

export const Vazio = Type.Object({});
