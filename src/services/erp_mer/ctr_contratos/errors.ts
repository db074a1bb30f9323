import { defineErrors } from '../../../platform/core/errors.ts';

// Every error erp_mer/ctr_contratos raises, once (STYLE.md "An error catalogue").
export const E = defineErrors({
  contratoNotFound: {
    reason: 'OBJECT_NOT_FOUND',
    message:
      'contratosVenda[{index}]: sales contract (contratoVenda) {contratoVenda} of empresa {empresa}, filial {filial} not found',
  },
  itemRepetido: {
    reason: 'BAD_REQUEST',
    message: 'itens[{index}].sequenciaItem: item {sequenciaItem} appears more than once in the contract',
  },
});
