import { defineErrors } from '../../../platform/errors.ts';

// Every error yms/agenda raises, once (STYLE.md "An error catalogue"). Messages are Portuguese, as
// the plant's and the carriers' users read them, and name the agenda they are about.
export const E = defineErrors({
  agendaNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Agenda {id} não encontrada' },
  estadoInvalido: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Agenda {codigo} está em {status}: {operacao} só é possível a partir de {esperado}',
  },
  agendaFinalizada: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Agenda {codigo} está em {status} (finalizada) e não pode mais ser alterada',
  },
  statusSomenteLeitura: {
    reason: 'UNPROCESSABLE',
    message:
      'status da agenda {codigo} não muda por edição ({de} → {para}): use as ações de estado ' +
      '(aguardarIntegracao, informarIntegracao, iniciarAgendamento, finalizarAgendamento, cancelamento)',
  },
  statusInicial: {
    reason: 'UNPROCESSABLE',
    message: 'Uma agenda nasce em AGENDADO (recebido: {status}); o estado muda pelas ações de estado',
  },
  chaveIntegracaoDuplicada: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Já existe uma agenda com chaveIntegracao {chave}',
  },
  exclusaoNaoPermitida: {
    reason: 'UNPROCESSABLE',
    message: 'Agenda {codigo} está em {status}: só uma agenda em AGENDADO pode ser excluída',
  },
  jaEmExecucao: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      'Agenda {codigo} já está em EXECUTANDO (início da execução: {inicio}): iniciarAgendamento só refaz um início que FALHOU',
  },
  veiculoEmExecucao: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Agenda {codigo} não pode ser iniciada: o veículo {placa} já está em {onde}',
  },
  motoristaEmExecucao: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Agenda {codigo} não pode ser iniciada: o motorista {nome} já está em {onde}',
  },
  veiculoBloqueado: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Agenda {codigo} não pode ser iniciada: o veículo {placa} está bloqueado ({motivo})',
  },
  motoristaBloqueado: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Agenda {codigo} não pode ser iniciada: o motorista {nome} está bloqueado ({motivo})',
  },
  circuitoSemVeiculo: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      'Agenda {codigo} tem o circuito {circuitoId} mas não tem veículo: a execução não pode ser iniciada',
  },
  patioRecusou: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      'Agenda {codigo} não pode ser iniciada: o pátio recusou iniciar a execução do circuito ({motivo})',
  },
  execucaoEmAndamento: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      'Agenda {codigo}: a execução de circuito {execucaoId} ainda está em andamento no pátio; {operacao} só depois ' +
      'que o pátio a finalizar ou cancelar',
  },
  periodoInvalido: {
    reason: 'UNPROCESSABLE',
    message: '{fim} ({campoFim}) é anterior a {inicio} ({campoInicio})',
  },
  fusoInvalido: { reason: 'UNPROCESSABLE', message: 'fusoHorario {fuso} não é um fuso horário IANA' },
});
