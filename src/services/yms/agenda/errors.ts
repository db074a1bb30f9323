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
  fusoInvalido: { reason: 'UNPROCESSABLE', message: 'fusoHorario {fuso} não é um fuso horário IANA' },
  // Pre-agendas and their approval (preagendas.ts, aprovacao.ts).
  preAgendaNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Pré-agenda {id} não encontrada' },
  preAgendaEstadoInvalido: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Pré-agenda {id} está em {status}: {operacao} só é possível a partir de {esperado}',
  },
  preAgendaFinalizada: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Pré-agenda {id} está em {status} (finalizada) e não pode mais ser alterada',
  },
  preAgendaNaoEditavel: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Pré-agenda {id} está em {status}: só pode ser editada em PENDENTE ou REPROVADA',
  },
  preAgendaStatusSomenteLeitura: {
    reason: 'UNPROCESSABLE',
    message:
      'status da pré-agenda {id} não muda por edição ({de} → {para}): use as ações aprovarPreAgenda, ' +
      'reprovarPreAgenda, cancelarPreAgenda, reenviarPreAgenda, converterPreAgenda',
  },
  preAgendaStatusInicial: {
    reason: 'UNPROCESSABLE',
    message: 'Uma pré-agenda nasce em PENDENTE (recebido: {status}); o estado muda pelas ações de estado',
  },
  preAgendaExclusaoNaoPermitida: {
    reason: 'UNPROCESSABLE',
    message: 'Pré-agenda {id} está em {status}: só uma pré-agenda em PENDENTE pode ser excluída (cancele-a)',
  },
  aprovadorNaoAutorizado: {
    reason: 'FORBIDDEN',
    message: '{aprovador} não é aprovador do nível {nivel} da pré-agenda {id} (aprovadores: {aprovadores})',
  },
  aprovadorRepetido: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      '{aprovador} já decidiu o nível {nivelAnterior} da pré-agenda {id}: cada nível pede outro aprovador',
  },
  configuracaoNivelInvalido: {
    reason: 'UNPROCESSABLE',
    message: 'aprovadores[{indice}].nivel {nivel} passa do número de níveis ({niveis})',
  },
  periodoInvalido: { reason: 'UNPROCESSABLE', message: '{inicio} ({de}) é posterior a {fim} ({ate})' },
  // Custom fields (custom.ts).
  customDesconhecido: {
    reason: 'UNPROCESSABLE',
    message: "Campo customizado 'custom.{chave}' não está definido para {entidade} (customTable)",
  },
  customInvalido: { reason: 'UNPROCESSABLE', message: "Campo customizado 'custom.{chave}' {erro}" },
  customObrigatorio: {
    reason: 'UNPROCESSABLE',
    message: "Campo customizado 'custom.{chave}' ({rotulo}) é obrigatório em {entidade}",
  },
  customOpcoesObrigatorias: {
    reason: 'UNPROCESSABLE',
    message: "Campo customizado {chave} do tipo LISTA precisa de 'opcoes' (ao menos uma)",
  },
  customOpcoesRepetidas: {
    reason: 'UNPROCESSABLE',
    message: "'opcoes' do campo {chave} tem valores repetidos",
  },
  customOpcoesSemLista: {
    reason: 'UNPROCESSABLE',
    message: "'opcoes' só vale para o tipo LISTA (campo {chave} é {tipo})",
  },
  customTamanhoSemTexto: {
    reason: 'UNPROCESSABLE',
    message: "'tamanhoMaximo' só vale para o tipo TEXTO (campo {chave} é {tipo})",
  },
});
