// enumSituacaoPedidoVenda (spec 001 §2.4), in the spec's order: the situations of an order and of
// its product items. The rules between them: docs/int_pedidovenda.md "Situations".
export const SITUACOES_PEDIDO_VENDA = [
  'AbertoTotal',
  'AbertoParcial',
  'Suspenso',
  'Cancelado',
  'AguardandoIntegracaoWms',
  'EmTransmissao',
  'PreparacaoAnaliseOuNf',
  'NaoFechado',
] as const;
export type SituacaoPedidoVenda = (typeof SITUACOES_PEDIDO_VENDA)[number];
