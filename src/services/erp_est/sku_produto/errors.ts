import { defineErrors } from '../../../platform/core/errors.ts';

// Every error erp_est/sku_produto raises, once (STYLE.md "An error catalogue").
export const E = defineErrors({
  mascaraNotFound: {
    reason: 'OBJECT_NOT_FOUND',
    message: 'SKU mask {codigo} not found for company {codigoEmpresa} and family {codigoFamilia} ({field})',
  },
  mascaraEmpresaNotFound: {
    reason: 'OBJECT_NOT_FOUND',
    message: 'SKU mask {codigo} not found for company {codigoEmpresa} (codigoMascaraSku)',
  },
  mascaraInativa: { reason: 'UNPROCESSABLE', message: 'SKU mask {codigo} is inactive ({field})' },
  mascaraRepetida: {
    reason: 'BAD_REQUEST',
    message: "Invalid field '{field}': mask {codigo} is already item {primeiro}",
  },
  itensObrigatorios: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'itens': at least one item (a mask of the family) is required",
  },
  valorObrigatorio: {
    reason: 'BAD_REQUEST',
    message: "Invalid field '{field}': required by mask {codigo} ({motivo})",
  },
  valorNaoNumerico: {
    reason: 'BAD_REQUEST',
    message: "Invalid field '{field}': mask {codigo} is Numerico, the value must be digits",
  },
  valorNaoCabe: {
    reason: 'UNPROCESSABLE',
    message: '{field}: {valor} has {tamanho} characters, mask {codigo} has {posicoes} positions',
  },
  componenteNotFound: {
    reason: 'UNPROCESSABLE',
    message: '{field}: component {componente} is not a component of mask {codigo}',
  },
  componenteInativo: {
    reason: 'UNPROCESSABLE',
    message: '{field}: component {componente} of mask {codigo} is inactive',
  },
  sequenciaEsgotada: {
    reason: 'UNPROCESSABLE',
    message: '{field}: mask {codigo} has no number left (ultimaSequencia {ultima} + {passo} passes {maximo})',
  },
  skuExiste: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'SKU {sku} already exists in the catalogue',
  },
  mascaraInvalida: { reason: 'UNPROCESSABLE', message: '{field}: {motivo}' },
  mascaraSemComponentes: {
    reason: 'UNPROCESSABLE',
    message: 'mascaraId: mask {codigo} does not use components (utilizaComponentes Nao)',
  },
  ordenacaoInvalida: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'paginacao.orderBy': {orderBy} (a field of {campos}, then asc or desc)",
  },
});
