import { defineErrors } from '../../../platform/core/errors.ts';

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
    message: 'Agenda {codigo} não pode {acao}: o veículo {placa} já está em {onde}',
  },
  motoristaEmExecucao: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Agenda {codigo} não pode {acao}: o motorista {nome} já está em {onde}',
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
  composicaoBloqueada: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Agenda {codigo} não pode ser iniciada: a composição {composicao} está bloqueada ({motivo})',
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
  pesquisaAmpla: {
    reason: 'UNPROCESSABLE',
    message: 'pesquisa "{texto}" corresponde a mais de {max} {registros}: refine o texto',
  },
  // Partners, external users, keys acting for a partner (parceiros.ts, representacao.ts)
  parceiroNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Parceiro {ref} não encontrado' },
  parceiroInexistente: {
    reason: 'UNPROCESSABLE',
    message: 'parceiroId {id} não é um parceiro (externalTenant) deste tenant',
  },
  parceiroInativo: { reason: 'UNPROCESSABLE', message: 'Parceiro {nome} ({codigo}) está inativo' },
  documentoInvalido: {
    reason: 'UNPROCESSABLE',
    message: 'codigo {codigo} não é um CNPJ ou CPF válido (dígitos verificadores)',
  },
  usuarioNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Usuário externo {email} não encontrado' },
  tenantNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Tenant {nome} não encontrado' },
  representacaoInvalida: {
    reason: 'FORBIDDEN',
    message: 'A chave age pelo usuário externo {id}, que não existe, está inativo ou não tem parceiro ativo',
  },
  parceiroNaoRepresentado: {
    reason: 'FORBIDDEN',
    message: 'O usuário externo {email} não age pelo parceiro {id}',
  },
  parceiroObrigatorio: {
    reason: 'UNPROCESSABLE',
    message: 'O usuário externo {email} age por vários parceiros: informe parceiroId',
  },
  veiculoNaoVinculado: {
    reason: 'UNPROCESSABLE',
    message: 'O veículo {veiculoId} não está vinculado ao parceiro {nome} (linkVehiclesToPartner)',
  },
  agrupamentoNaoPermitido: {
    reason: 'UNPROCESSABLE',
    message: 'O parceiro {nome} não permite criar agendamentos agrupados (codigoAgrupador)',
  },
  edicaoMotoristaNaoPermitida: {
    reason: 'UNPROCESSABLE',
    message: 'O parceiro {nome} não permite alterar o motorista da agenda {codigo}',
  },
  preAgendaObrigatoria: {
    reason: 'UNPROCESSABLE',
    message:
      'O parceiro {nome} agenda por pré-agenda (preAgendaHabilitada): solicite uma pré-agenda (entities/preAgenda) em vez de criar a agenda',
  },
  preAgendaNaoHabilitada: {
    reason: 'UNPROCESSABLE',
    message:
      'O parceiro {nome} não solicita pré-agendas (preAgendaHabilitada falso): crie a agenda diretamente (entities/agenda)',
  },
  parceiroEmUso: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Parceiro {nome} tem {agendas} agenda(s) e {usuarios} usuário(s): desative-o em vez de excluir',
  },
  // Attachments (anexos.ts)
  anexoNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Anexo {nome} não encontrado' },
  anexoPeloUpload: {
    reason: 'BAD_REQUEST',
    status: 405,
    message: 'Um anexo nasce por obterUrlUploadAnexo (o lugar onde o arquivo é enviado), não por POST',
  },
  anexoSomenteLeitura: {
    reason: 'UNPROCESSABLE',
    message: 'Campo {campo} do anexo {id} não muda por edição: envie uma nova versão por obterUrlUploadAnexo',
  },
  tipoNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Tipo de agendamento {id} não encontrado' },
  tipoInexistente: {
    reason: 'UNPROCESSABLE',
    message: 'tipoAgendamentoId {id}: tipo de agendamento não existe',
  },
  tipoSemReferencia: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'tipoAgendamento': informe id ou codigo do tipo de agendamento",
  },
  tipoEmUso: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Tipo de agendamento {codigo} é usado por {n} agenda(s): desative-o em vez de excluir',
  },
  plantaInexistente: { reason: 'UNPROCESSABLE', message: 'plantaId {id}: planta não existe (yms/patio)' },
  // References to the yard's records and to this service's own (referencias.ts).
  circuitoInexistente: { reason: 'UNPROCESSABLE', message: '{campo} {id}: circuito não existe (yms/patio)' },
  circuitoOutraPlanta: {
    reason: 'UNPROCESSABLE',
    message: '{campo} {id}: o circuito {codigo} é da planta {plantaCircuito}, não da planta {planta}',
  },
  sequenciaInexistente: {
    reason: 'UNPROCESSABLE',
    message: '{campo} {id}: sequência de circuito não existe (yms/patio)',
  },
  sequenciaOutroCircuito: {
    reason: 'UNPROCESSABLE',
    message: '{campo} {id}: a sequência é do circuito {circuitoSequencia}, não do circuito {circuito}',
  },
  vagaInexistente: { reason: 'UNPROCESSABLE', message: '{campo} {id}: vaga não existe (yms/patio)' },
  vagaOutraPlanta: {
    reason: 'UNPROCESSABLE',
    message: '{campo} {id}: a vaga é da planta {plantaVaga}, não da planta {planta} do circuito',
  },
  clienteInexistente: {
    reason: 'UNPROCESSABLE',
    message: 'clienteId {id} não é um parceiro (externalTenant) deste tenant',
  },
  motivoObrigatorio: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'motivo': informe o motivo do bloqueio",
  },
  tipoInativo: {
    reason: 'UNPROCESSABLE',
    message: 'Tipo de agendamento {codigo} está inativo: não recebe pedidos de agendamento',
  },
  tipoOutraPlanta: {
    reason: 'UNPROCESSABLE',
    message: 'Tipo de agendamento {codigo} é da planta {plantaTipo}, não da planta {planta}',
  },
  execucaoLonga: {
    reason: 'UNPROCESSABLE',
    message:
      'associacaoAgendamento: a execução levaria {minutos} minutos ({slots} horários de {duracao} min); o máximo é 1440',
  },
  horarioIndisponivel: {
    reason: 'UNPROCESSABLE',
    message: 'Horário {inicio} indisponível para o tipo de agendamento {codigo} ({motivo}): {detalhe}',
  },
  horarioLotado: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      'Horário {inicio} lotado para o tipo de agendamento {codigo}: {agendados} de {capacidade} lugares ocupados',
  },
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
  periodoPreAgendaInvalido: {
    reason: 'UNPROCESSABLE',
    message: '{inicio} ({de}) é posterior a {fim} ({ate})',
  },
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
