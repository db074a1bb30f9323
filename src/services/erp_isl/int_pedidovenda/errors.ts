import { defineErrors } from '../../../platform/core/errors.ts';

// Every error erp_isl/int_pedidovenda raises, once (STYLE.md "An error catalogue").
export const E = defineErrors({
  pedidoExiste: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      'Sales order {codigoEmpresa}/{codigoFilial}/{numeroPedidoVenda} already exists (codigoEmpresa/codigoFilial/numeroPedidoVenda)',
  },
  pedidoNaoEncontrado: {
    reason: 'OBJECT_NOT_FOUND',
    message: 'Sales order {codigoEmpresa}/{codigoFilial}/{numeroPedidoVenda} not found',
  },
  itemNaoEncontrado: {
    reason: 'OBJECT_NOT_FOUND',
    message:
      'Sales order {codigoEmpresa}/{codigoFilial}/{numeroPedidoVenda} has no product item {sequencia} ({field})',
  },
  pedidoCancelado: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      'Sales order {codigoEmpresa}/{codigoFilial}/{numeroPedidoVenda} is Cancelado: a cancelled order is not reopened nor its items changed',
  },
  itemCancelado: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      'Product item {sequencia} of sales order {numeroPedidoVenda} is Cancelado and is not reopened ({field})',
  },
  quantidades: {
    reason: 'UNPROCESSABLE',
    message:
      "Invalid field '{field}': quantidadeAberta ({aberta}) + quantidadeCancelada ({cancelada}) exceed the item's quantidade ({quantidade})",
  },
  sequenciaRepetida: {
    reason: 'BAD_REQUEST',
    message: "Invalid field '{field}': sequence {sequencia} is sent twice",
  },
  loteDeOutroItem: {
    reason: 'BAD_REQUEST',
    message: "Invalid field '{field}': the lot names item {lote}, but it is sent with item {item}",
  },
  atendimentoExcede: {
    reason: 'UNPROCESSABLE',
    message:
      "Invalid field '{field}': {quantidade} exceeds the open quantity {aberta} of item {sequencia} of sales order {numeroPedidoVenda}",
  },
  somenteLeitura: {
    reason: 'BAD_REQUEST',
    status: 405,
    message: '{entidade} is read-only: it is written by the actions of erp_isl/{servico} ({acoes})',
  },
});
