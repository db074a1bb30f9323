import { defineErrors } from '../../../platform/errors.ts';

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
  fusoInvalido: { reason: 'UNPROCESSABLE', message: 'fusoHorario {fuso} não é um fuso horário IANA' },
  composicaoCavaloReboque: {
    reason: 'UNPROCESSABLE',
    message: 'O veículo {id} aparece mais de uma vez na composição',
  },
  parametroDesconhecido: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'parameters': unknown parameter {name} (use {allowed})",
  },
  parametroInvalido: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'parameters': parameter {name} must be {rule} (got {value})",
  },
});
