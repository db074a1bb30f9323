import { defineErrors } from '../../../platform/core/errors.ts';

// Every error erp_isl/int_ligacaoprodutodeposito raises, once (STYLE.md "An error catalogue").
export const E = defineErrors({
  ligacaoExiste: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      'Link of product {codigoProduto}/{codigoDerivacao} to warehouse {codigoDeposito} of company {codigoEmpresa} already exists',
  },
  ligacaoNaoEncontrada: {
    reason: 'OBJECT_NOT_FOUND',
    message:
      'Link of product {codigoProduto}/{codigoDerivacao} to warehouse {codigoDeposito} of company {codigoEmpresa} not found',
  },
  dias: {
    reason: 'UNPROCESSABLE',
    message: "Invalid field 'quantidadeMinDias': {min} is more than quantidadeMaxDias {max}",
  },
  somenteLeitura: {
    reason: 'BAD_REQUEST',
    status: 405,
    message: '{entidade} is read-only: it is written by inserirLigacao, alterarLigacao and excluirLigacao',
  },
});
