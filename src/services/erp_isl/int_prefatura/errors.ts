import { defineErrors } from '../../../platform/core/errors.ts';

// Every error erp_isl/int_prefatura raises, once (STYLE.md "An error catalogue").
const K = '{codigoEmpresa}/{codigoFilial}/{analiseEmbarque}/{numeroPreFatura}';
export const E = defineErrors({
  itemExiste: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: `Item {sequenciaPreFatura} of pre-invoice ${K} already exists`,
  },
  preFaturaNaoEncontrada: { reason: 'OBJECT_NOT_FOUND', message: `Pre-invoice ${K} not found` },
  itemNaoEncontrado: {
    reason: 'OBJECT_NOT_FOUND',
    message: `Pre-invoice ${K} has no item {sequencia} ({field})`,
  },
  cancelada: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: `Pre-invoice ${K} is Cancelada: a cancelled pre-invoice is not reopened nor changed`,
  },
  itemCancelado: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: `Item {sequencia} of pre-invoice ${K} is Cancelada and is not reopened ({field})`,
  },
  pedidoIncompleto: {
    reason: 'BAD_REQUEST',
    message: "Invalid field '{field}': numeroPedidoVenda and sequenciaPedidoVenda go together",
  },
  sequenciaRepetida: {
    reason: 'BAD_REQUEST',
    message: "Invalid field '{field}': item {sequencia} is sent twice",
  },
  somenteLeitura: {
    reason: 'BAD_REQUEST',
    status: 405,
    message:
      '{entidade} is read-only: it is written by inserirPreFatura, alterarPreFatura, alterarItemSitPreFatura and alterarSitPreFatura',
  },
});
