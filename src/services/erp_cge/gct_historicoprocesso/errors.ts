import { defineErrors } from '../../../platform/core/errors.ts';

// Every error erp_cge/gct_historicoprocesso raises, once (STYLE.md "An error catalogue").
export const E = defineErrors({
  periodo: {
    reason: 'BAD_REQUEST',
    message: "Invalid field '{field}': {dataFinal} is before {dataInicial}",
  },
  execucaoNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Process run (execucao) {id} not found' },
  execucaoEncerrada: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Process run {id} is already {situacao}: a run ends once',
  },
  fimAntesInicio: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'fimProcessamento': {fim} is before the run's inicioProcessamento {inicio}",
  },
  execucaoRepetida: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      'Process {processo} of empresa {empresa}, filial {filial} already has a run with chaveExecucao {chave}',
  },
});
