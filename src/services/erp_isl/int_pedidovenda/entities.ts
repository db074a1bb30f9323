import { defineEntity } from '../../../platform/core/entity.ts';
import { DateOnly, Double, Int64, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { EnumSituacaoPedidoVenda, Texto } from './schemas.ts';
import { historicoPedidoVenda, itemProduto, itemServico, pedidoVenda } from './tables.ts';

// The orders as users read them (docs/int_pedidovenda.md "Reading"): read-only entities with the
// platform's list, get, filter and orderby. Only the actions write them: a POST, PUT, PATCH or
// DELETE through the entity routes is 405, naming the actions.

const opt = Type.Optional;

const ACOES = 'inserirPedidoVenda, alterarPedidoVenda, alterarItemSitPedidoVenda, alterarSitPedidoVenda';
/** Not written through the entity routes (405 naming the actions; left out of the documents). */
const somenteLeitura = (entidade: string) => ({
  writes: E.somenteLeitura({ entidade, servico: 'int_pedidovenda', acoes: ACOES }).message,
});

export const pedidoVendaEntity = defineEntity({
  name: 'pedidoVenda',
  description:
    'Sales orders as inserirPedidoVenda stored them and the other actions changed them (read-only)',
  table: pedidoVenda,
  naturalKey: ['codigoEmpresa', 'codigoFilial', 'numeroPedidoVenda'],
  fields: Type.Object({
    codigoEmpresa: Int64(),
    codigoFilial: Int64(),
    numeroPedidoVenda: Int64(),
    sequenciaPedidoVenda: Int64(),
    data_emissao: DateOnly(),
    codigo_cliente: Int64(),
    valorLiquido: Double(),
    valorTotal: Double(),
    transacao_produto: opt(Texto(10)),
    transacao_servico: opt(Texto(10)),
    codigo_representante: opt(Int64()),
    textoObservacao: opt(Texto(4000)),
    codigoCondicaoPagamento: opt(Texto(20)),
    situacaoPedidoVenda: EnumSituacaoPedidoVenda,
  }),
  refuses: somenteLeitura('pedidoVenda'),
});

export const itemProdutoEntity = defineEntity({
  name: 'itemProdutoPedidoVenda',
  description:
    'Product items of the sales orders (filter by pedidoVendaId), with the open, cancelled and attended quantities (read-only)',
  table: itemProduto,
  naturalKey: ['pedidoVendaId', 'sequenciaItem'],
  fields: Type.Object({
    pedidoVendaId: Type.String({ format: 'uuid', description: 'the order (pedidoVenda.id)' }),
    sequenciaItem: Int64(),
    sequenciaEmbalagem: Int64(),
    sequenciaConteudo: Int64(),
    quantidade: Double(),
    volume: Double(),
    pesoBruto: Double(),
    pesoLiquido: Double(),
    obsProduto: Texto(1000),
    quantidadeAberta: Double(),
    quantidadeCancelada: Double(),
    quantidadeAtendida: Double({ description: 'attended by pre-invoices (erp_isl/int_prefatura)' }),
    situacaoPedidoVenda: EnumSituacaoPedidoVenda,
  }),
  refuses: somenteLeitura('itemProdutoPedidoVenda'),
});

export const itemServicoEntity = defineEntity({
  name: 'itemServicoPedidoVenda',
  description: 'Service items of the sales orders (filter by pedidoVendaId) (read-only)',
  table: itemServico,
  naturalKey: ['pedidoVendaId', 'sequenciaItem'],
  fields: Type.Object({
    pedidoVendaId: Type.String({ format: 'uuid', description: 'the order (pedidoVenda.id)' }),
    sequenciaItem: Int64(),
    codigoServico: Texto(30),
    servico: Texto(250),
    quantidade: Double(),
    valorUnitario: Double(),
    valorDesconto: Double(),
    valorLiquido: Double(),
    valorTotal: Double(),
  }),
  refuses: somenteLeitura('itemServicoPedidoVenda'),
});

export const historicoEntity = defineEntity({
  name: 'historicoPedidoVenda',
  description:
    'History of the sales orders (filter by pedidoVendaId): one record per change of an order or of one of its items, createdBy and createdDate saying who and when (read-only)',
  table: historicoPedidoVenda,
  fields: Type.Object({
    pedidoVendaId: Type.String({ format: 'uuid', description: 'the order (pedidoVenda.id)' }),
    sequenciaItem: opt(Int64({ description: 'the product item changed, when the change is an item’s' })),
    operacao: Texto(60, 'the action that made the change'),
    situacaoAnterior: opt(EnumSituacaoPedidoVenda),
    situacaoNova: opt(EnumSituacaoPedidoVenda),
    alteracoes: Type.Record(Type.String(), Type.Object({ de: Type.Unknown(), para: Type.Unknown() }), {
      description: 'each changed field: its value before (de) and after (para)',
    }),
  }),
  refuses: somenteLeitura('historicoPedidoVenda'),
});

export const pedidoVendaEntities = [pedidoVendaEntity, itemProdutoEntity, itemServicoEntity, historicoEntity];
