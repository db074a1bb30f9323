// Factories for the tests of erp_isl/int_pedidovenda (STYLE.md "factories instead of copied fixtures").

export const PEDIDOS = 'erp_isl/int_pedidovenda';

export const itemPro = (over: Record<string, unknown> = {}) => ({
  sequenciaEmbalagem: 1,
  sequenciaConteudo: 1,
  quantidade: 10,
  volume: 1,
  pesoBruto: 12.5,
  pesoLiquido: 12,
  obsProduto: '',
  ...over,
});

export const itemSer = (sequenciaItem: number, over: Record<string, unknown> = {}) => ({
  sequenciaItem,
  codigoServico: 'FRT',
  servico: 'Frete',
  quantidade: 1,
  valorUnitario: 50,
  valorDesconto: 0,
  valorLiquido: 50,
  valorTotal: 50,
  ...over,
});

/** An inserirPedidoVenda body: order `numero` of company 1, branch 1, two product items and a service. */
export const makePedido = (numero: number, over: Record<string, unknown> = {}) => ({
  codigoEmpresa: 1,
  codigoFilial: 1,
  numeroPedidoVenda: numero,
  sequenciaPedidoVenda: 1,
  data_emissao: '2026-11-20',
  codigo_cliente: 501,
  valorLiquido: 1000,
  valorTotal: 1050,
  itensPro: [itemPro(), itemPro({ quantidade: 4 })],
  itensSer: [itemSer(1)],
  ...over,
});

export const chave = (numero: number) => ({ codigoEmpresa: 1, codigoFilial: 1, numeroPedidoVenda: numero });
