import { defineErrors } from '../../../platform/core/errors.ts';

// Every error yms/patio raises, once (STYLE.md "An error catalogue"). Messages are Portuguese,
// as the yard's users read them, and name the record they are about.
export const E = defineErrors({
  plantaNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Planta {id} não encontrada' },
  areaNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Área {id} não encontrada' },
  veiculoNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Veículo {id} não encontrado' },
  motoristaNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Motorista {id} não encontrado' },
  composicaoNotFound: {
    reason: 'OBJECT_NOT_FOUND',
    message: 'Composição de veículo {id} não encontrada',
  },
  semVagaLivre: {
    reason: 'UNPROCESSABLE',
    message: 'Nenhuma vaga livre na área {codigo} ({id}): todas ocupadas, inativas ou bloqueadas',
  },
  veiculoJaEmVaga: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Veículo {placa} já ocupa a vaga rua {rua}, número {numero} (área {areaId})',
  },
  veiculoJaEmOutraVaga: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Veículo {placa} acaba de ocupar outra vaga, por outra chamada ao mesmo tempo: ele ocupa uma só',
  },
  referenceNotFound: { reason: 'UNPROCESSABLE', message: '{record} {id} não existe ({field})' },
  vagaOcupada: {
    reason: 'UNPROCESSABLE',
    message: 'A vaga rua {rua}, número {numero} está ocupada pelo veículo {veiculoId}: libere-a antes',
  },
  motivoObrigatorio: {
    reason: 'UNPROCESSABLE',
    message: 'Informe motivoBloqueio ao bloquear {record}',
  },
  horarioInvalido: {
    reason: 'UNPROCESSABLE',
    message: 'horaInicio e horaFim são iguais ({hora}): um turno precisa de duração',
  },
  anoInvalido: {
    reason: 'UNPROCESSABLE',
    message: 'ano {ano} inválido: use de {min} (ano corrente na planta) a {max}',
  },
  periodoTurnosInvalido: {
    reason: 'UNPROCESSABLE',
    message: 'Período de turnos inválido ({inicio} a {fim}): dataFim de dataInicio até {max} dias depois',
  },
  fusoInvalido: { reason: 'UNPROCESSABLE', message: 'fusoHorario {fuso} não é um fuso horário IANA' },
  cnpjInvalido: {
    reason: 'UNPROCESSABLE',
    message: 'cnpj {cnpj} não é um CNPJ válido (dígitos verificadores)',
  },
  cpfInvalido: {
    reason: 'UNPROCESSABLE',
    message: 'documento {documento} não é um CPF válido (dígitos verificadores)',
  },
  composicaoCavaloReboque: {
    reason: 'UNPROCESSABLE',
    message: 'O veículo {id} aparece mais de uma vez na composição',
  },
  cavaloRebocado: {
    reason: 'UNPROCESSABLE',
    message: 'cavaloId: o veículo {placa} é {tipo}, não traciona; reboques e semirreboques vão em reboqueIds',
  },
  reboqueTracionado: {
    reason: 'UNPROCESSABLE',
    message: 'reboqueIds[{i}]: o veículo {placa} é {tipo}, não é reboque nem semirreboque',
  },
  categoriaEmComposicao: {
    reason: 'UNPROCESSABLE',
    message:
      'tipoVeiculo: o veículo {placa} é {posicao} da composição {id}, lugar que um {tipo} não ocupa; altere ou exclua a composição antes',
  },
  circuitoNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Circuito {id} não encontrado' },
  circuitoInativo: { reason: 'UNPROCESSABLE', message: 'O circuito {codigo} ({id}) está inativo' },
  circuitoSemSequencias: {
    reason: 'UNPROCESSABLE',
    message: 'O circuito {codigo} ({id}) não tem sequências: cadastre-as antes de executá-lo',
  },
  circuitoPlantaComSequencias: {
    reason: 'UNPROCESSABLE',
    message:
      'O circuito {codigo} tem sequências em áreas da planta {plantaId}: remova-as antes de mudar de planta',
  },
  areaDeOutraPlanta: {
    reason: 'UNPROCESSABLE',
    message: 'A área {areaId} ({field}) não pertence à planta {plantaId}',
  },
  subCircuitoInvalido: {
    reason: 'UNPROCESSABLE',
    message: 'subCircuitoId {id}: um ramo precisa ser outro circuito da mesma planta',
  },
  sequenciaDeOutroCircuito: {
    reason: 'UNPROCESSABLE',
    message: 'A sequência {id} ({field}) não pertence ao circuito {circuitoId}',
  },
  sequenciaNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Sequência de circuito {id} não encontrada' },
  execucaoNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Execução de circuito {id} não encontrada' },
  nenhumaExecucaoNaSequencia: {
    reason: 'OBJECT_NOT_FOUND',
    message: 'Nenhuma execução em andamento na sequência {id}',
  },
  veiculoEmExecucao: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'O veículo {placa} já está na execução de circuito {execucaoId}, em andamento',
  },
  motoristaEmExecucao: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'O motorista {nome} já está na execução de circuito {execucaoId}, em andamento',
  },
  veiculoEmAgenda: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'O veículo {placa} já está na agenda {codigo} em EXECUTANDO, sem execução no pátio',
  },
  motoristaEmAgenda: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'O motorista {nome} já está na agenda {codigo} em EXECUTANDO, sem execução no pátio',
  },
  execucaoNaoEmAndamento: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'A execução de circuito {id} está {situacao}, não em andamento',
  },
  semEtapaAnterior: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'A execução de circuito {id} está na primeira sequência: não há para onde retornar',
  },
  vagaIndisponivel: {
    reason: 'UNPROCESSABLE',
    message: 'A vaga {id} não está livre (ocupada, inativa ou bloqueada) ou não existe',
  },
  variaveisInvalidas: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'variaveis': {rule}",
  },
  controladorSemId: {
    reason: 'BAD_REQUEST',
    message: 'Informe execucaoCircuitoId ou agendaId',
  },
  veiculoNaoIdentificado: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'veiculoId': informe veiculoId ou placa",
  },
  placaNaoCadastrada: {
    reason: 'OBJECT_NOT_FOUND',
    message: 'Nenhum veículo cadastrado com a placa {placa}',
  },
  placaDivergente: {
    reason: 'UNPROCESSABLE',
    message: 'A placa {placa} não é a do veículo {veiculoId} ({placaVeiculo})',
  },
  areaObrigatoria: { reason: 'BAD_REQUEST', message: "Invalid field 'areaId': required by {evento}" },
  veiculoJaNoPatio: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'O veículo {placa} já está no pátio da planta {plantaId} desde {desde}: registre a saída antes',
  },
  eventoNoFuturo: {
    reason: 'UNPROCESSABLE',
    message:
      "Invalid field 'dataHora': {dataHora} is more than {minutos} minutes after now ({agora}): check the device's clock",
  },
  eventoForaDeOrdem: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message:
      'O evento do veículo {placa} é de {dataHora}, antes de {ultimo} ({onde}): os eventos de um veículo são registrados na ordem em que aconteceram',
  },
  veiculoForaDoPatio: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'O veículo {placa} não está no pátio da planta {plantaId}',
  },
  agendaDivergente: {
    reason: 'UNPROCESSABLE',
    message: 'A execução de circuito {id} é da agenda {agendaExecucao}, não de {agendaId}',
  },
  motoristaAntigoDivergente: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'O motorista da execução {id} é {atual}, não {antigo}: a execução mudou, releia-a',
  },
  parametroDesconhecido: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'parameters': unknown parameter {name} (use {allowed})",
  },
  parametroInvalido: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'parameters': parameter {name} must be {rule} (got {value})",
  },
  rotinaNotFound: {
    reason: 'OBJECT_NOT_FOUND',
    message: '{tipo} {nome} não encontrada: veja listCondicoes / listComandos',
  },
  rotinaInativa: { reason: 'UNPROCESSABLE', message: '{tipo} {nome} está inativa' },
  rotinaNomeReservado: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: '{nome} é o nome de uma {tipo} do sistema: escolha outro nome',
  },
  rotinaEmUso: {
    reason: 'UNPROCESSABLE',
    message: '{tipo} {nome} é usada pela sequência {sequencia} do circuito {circuitoId}: altere-a antes',
  },
  rotinaParteInvalida: { reason: 'UNPROCESSABLE', message: '{field}: {rule}' },
  rotinaParametro: {
    reason: 'UNPROCESSABLE',
    message: "{rotina}: parâmetro '{parametro}' {rule}",
  },
  rotinaNomeDesconhecido: {
    reason: 'UNPROCESSABLE',
    message: "{field}: '{nome}' não é uma {tipo} conhecida (listCondicoes / listComandos)",
  },
  servicoDeRotina: {
    reason: 'UNPROCESSABLE',
    message: "servico '{servico}': este serviço executa as rotinas de yms/patio",
  },
  escopoIncompleto: {
    reason: 'UNPROCESSABLE',
    message: '{rotina} precisa de {falta} no escopo (escopo.{campo}, ou uma execução que o tenha)',
  },
  escopoDivergente: {
    reason: 'UNPROCESSABLE',
    message: 'escopo.{campo} {valor} difere do da execução {execucaoId} ({daExecucao})',
  },
  condicaoNaoSatisfeita: {
    reason: 'UNPROCESSABLE',
    message: 'A sequência {sequencia} exige a condição {condicao}, que não se cumpre: {mensagem}',
  },
  ramoEmAndamento: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'A execução {id} tem o ramo {ramoId} em andamento: mova o ramo, ou cancele-o',
  },
  semSubCircuito: {
    reason: 'UNPROCESSABLE',
    message: 'A sequência {sequencia} não tem subCircuitoId: informe o sub-circuito do ramo',
  },
});
