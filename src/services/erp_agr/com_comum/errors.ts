import { defineErrors } from '../../../platform/core/errors.ts';

// Every error erp_agr/com_comum raises, once (STYLE.md "An error catalogue").
export const E = defineErrors({
  skuNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'SKU {id} not found' },
  produtorNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Producer (produtor) {id} not found' },
  vinculoSelf: {
    reason: 'UNPROCESSABLE',
    message: 'A producer cannot be linked to itself (produtorId and produtorVinculadoId are both {id})',
  },
  vinculoExists: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Producer {produtorId} is already linked to producer {produtorVinculadoId}',
  },
  vinculoNotFound: {
    reason: 'OBJECT_NOT_FOUND',
    message: 'Producer {produtorId} has no link to producer {produtorVinculadoId}',
  },
  vinculoTransacaoExists: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Transaction {transacaoId} is already linked to process {processo}',
  },
  vinculoTransacaoNotFound: {
    reason: 'OBJECT_NOT_FOUND',
    message: 'Transaction {transacaoId} is not linked to process {processo}',
  },
  referenceNotFound: { reason: 'UNPROCESSABLE', message: '{record} {codigo} does not exist ({field})' },
  sameUnits: {
    reason: 'UNPROCESSABLE',
    message: 'A conversion needs two different units (both are {codigo})',
  },
  safraPeriod: {
    reason: 'UNPROCESSABLE',
    message: 'dataFim ({dataFim}) is before dataInicio ({dataInicio})',
  },
  muitasParcelas: {
    reason: 'UNPROCESSABLE',
    message: 'The request would compute {total} installments, more than {max}: ask for fewer at a time',
  },
  planoIncompleto: {
    reason: 'UNPROCESSABLE',
    message:
      'The installment plan of payment condition {codigo} adds up to {soma}%, not 100% (condicaoPagamentoParcela.percentual)',
  },
});
