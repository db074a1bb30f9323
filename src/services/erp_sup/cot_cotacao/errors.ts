import { defineErrors } from '../../../platform/core/errors.ts';

// Every error erp_sup/cot_cotacao raises, once (STYLE.md "An error catalogue").
export const E = defineErrors({
  necessidadeRepetida: {
    reason: 'BAD_REQUEST',
    message: "Invalid field '{field}': purchase need {id} is already item {primeiro}",
  },
  skuDesconhecido: {
    reason: 'UNPROCESSABLE',
    message: "{field}: SKU {codigo} is not in the tenant's SKU catalogue",
  },
  anexoNaoEnviado: {
    reason: 'UNPROCESSABLE',
    message: '{field}: attachment {id} was never uploaded (obterUrlUploadAnexo, then PUT the file)',
  },
  necessidadeEmCotacao: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: '{field}: purchase need {id} is already in the open quotation {idCotacao}',
  },
  necessidadeEmCotacaoCorrida: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'cotacao: one of the purchase needs was put in another open quotation at the same time',
  },
  necessidadeNotFound: {
    reason: 'OBJECT_NOT_FOUND',
    message: 'Purchase need {id} has no quotation ({field})',
  },
  empresaNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Company {codigo} not found (codigoEmpresa)' },
  skuNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'SKU {codigo} not found (codigoSKU)' },
  somenteLeitura: {
    reason: 'BAD_REQUEST',
    status: 405,
    message: 'Quotations are read-only here: criarCotacao creates them, cancelarCotacao cancels them',
  },
});
