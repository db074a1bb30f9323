import { defineErrors } from '../../../platform/core/errors.ts';

// Every error erp_mer/ped_pedidos raises, once (STYLE.md "An error catalogue").
export const E = defineErrors({
  pedidoNotFound: {
    reason: 'OBJECT_NOT_FOUND',
    message:
      'pedidoVenda[{index}]: sales order (pedidoVenda) {pedidoVenda} of empresa {empresa}, filial {filial} not found',
  },
});
