import { DateTime, Double, Enum, Int64, type TSchema, Type } from '../../../platform/core/schema.ts';
import { STATUS_PRE_AGENDA } from './preagenda-estados.ts';
import { STATUS_AGENDAMENTO } from './states.ts';

// The fields of the agenda record, once (docs/agenda.md "The record"): the entity, the create and
// update actions of yms/agenda and the agenda operations of yms/patio all read them from here.

const opt = Type.Optional;
const Str = (max: number, description?: string) =>
  Type.String({ maxLength: max, ...(description ? { description } : {}) });
const Id = (description: string) => Type.String({ format: 'uuid', description });
/** A field only the state actions change: shown, and ignored when sent. */
const ReadOnly = <T extends TSchema>(schema: T, what: string) =>
  opt({ ...schema, description: `read-only: ${what}; a value sent is ignored` } as T);

export const StatusAgendamento = Enum(STATUS_AGENDAMENTO, {
  description:
    'statusAgendamento: AGENDADO, AGUARDANDO_INTEGRACAO, EXECUTANDO, CONCLUIDO, ERRO_INTEGRACAO, CANCELADO',
});

export const Custom = Type.Object(
  {},
  { additionalProperties: true, description: 'custom fields of the tenant, a JSON object' },
);

/**
 * associacaoAgendamento (design): what the appointment loads or unloads. The type's rate
 * (minutosPorUnidade) turns quantidade into the execution time, rounded up to whole slots.
 */
export const AssociacaoAgendamento = Type.Object(
  {
    quantidade: Double({ minimum: 0, maximum: 1_000_000_000, description: 'units to load or unload' }),
    unidade: opt(Str(20, 'unit of quantidade (t, kg, pallets…)')),
    produto: opt(Str(255, 'what is loaded or unloaded')),
  },
  { title: 'associacaoAgendamento', additionalProperties: false },
);

/** The fields a client sets (create) and edits (update); plant, type and expected date are required. */
export const editable = {
  chaveIntegracao: opt(Str(100, 'integration key of the ERP; unique in the tenant')),
  codigoAgrupador: opt(Str(100, 'group code: agendas booked together')),
  descricao: opt(Str(255)),
  dataEsperada: DateTime({ description: 'expected arrival' }),
  plantaId: Id('the plant (yms/patio planta.id)'),
  tipoAgendamentoId: Id('the appointment type (tipoAgendamento.id)'),
  veiculoId: opt(Id('the vehicle (yms/patio veiculo.id)')),
  composicaoVeiculoId: opt(Id('the vehicle composition (yms/patio composicaoVeiculo.id)')),
  motoristaId: opt(Id('the driver (yms/patio motorista.id)')),
  parceiroId: opt(Id('the external partner (externalTenant.id)')),
  observacao: opt(Str(2000)),
  custom: opt(Custom),
  unscheduled: opt(
    Type.Boolean({ description: 'created by arrival control without prior appointment; default false' }),
  ),
  associacaoAgendamento: opt(AssociacaoAgendamento),
};

/** The fields only the state actions change. */
export const readOnly = {
  codigo: ReadOnly(Int64(), 'sequential code of the tenant, given on creation'),
  status: opt({
    ...StatusAgendamento,
    description:
      'statusAgendamento; created AGENDADO, changed only by the state actions (a change sent is 422)',
  }),
  circuitoId: ReadOnly(Type.String({ format: 'uuid' }), 'circuit recorded by aguardarIntegracao'),
  sequenciaInicialId: ReadOnly(Type.String({ format: 'uuid' }), 'initial sequence (aguardarIntegracao)'),
  vagaInicialId: ReadOnly(Type.String({ format: 'uuid' }), 'initial spot (aguardarIntegracao)'),
  servicoIntegracao: ReadOnly(Type.String(), 'service that last reported through informarIntegracao'),
  motivoDeFalha: ReadOnly(Type.String(), 'failure reported through informarIntegracao'),
  inicioExecucao: ReadOnly(
    Type.String(),
    'start of the circuit execution after integration: SOLICITADO (queued), INICIADO, FALHOU (reason in motivoDeFalha)',
  ),
  execucaoCircuitoId: ReadOnly(Type.String({ format: 'uuid' }), 'the circuit execution, once started'),
  fimPrevisto: ReadOnly(
    DateTime(),
    'end of the booked execution: dataEsperada plus the slots it takes (set by the checked booking)',
  ),
};

/** An agenda to update: its id and the fields to change (absent fields keep their value). */
export const AgendaAlteracao = Type.Object(
  { id: Id('the agenda'), ...Type.Partial(Type.Object(editable)).properties, ...readOnly },
  // Not `agenda`: that name is the record's (one name per shape in the documents).
  { title: 'agendaAlteracao' },
);

// ── Pre-agendas (docs/agenda.md "Pre-agendas") ──

export const StatusPreAgenda = Enum(STATUS_PRE_AGENDA, {
  description: 'statusPreAgenda: PENDENTE, EM_APROVACAO, APROVADA, REPROVADA, CANCELADA, CONVERTIDA',
});

/** The fields the requester sets and edits (in PENDENTE or REPROVADA). */
export const preAgendaEditable = {
  plantaId: Id('the plant (yms/patio planta.id)'),
  tipoAgendamentoId: Id('the appointment type (tipoAgendamento.id)'),
  externalTenantId: opt(Id('the partner who asks (externalTenant.id); becomes the agenda parceiroId')),
  clienteId: opt(Id('the customer the load belongs to')),
  descricao: opt(Str(255)),
  dataEsperada: DateTime({ description: 'the expected arrival asked for' }),
  veiculoId: opt(Id('the vehicle (yms/patio veiculo.id)')),
  composicaoVeiculoId: opt(Id('the vehicle composition (yms/patio composicaoVeiculo.id)')),
  motoristaId: opt(Id('the driver (yms/patio motorista.id)')),
  observacao: opt(Str(2000)),
  custom: opt(Custom),
};

/** The fields only the state actions change. */
export const preAgendaReadOnly = {
  status: opt({
    ...StatusPreAgenda,
    description:
      'statusPreAgenda; created PENDENTE (APROVADA when no approval is required), changed only by the state actions',
  }),
  motivo: ReadOnly(Type.String(), 'reason of the last rejection or cancellation'),
  codAgenda: ReadOnly(Int64(), 'code of the agenda it became (converterPreAgenda)'),
  agendaId: ReadOnly(Type.String({ format: 'uuid' }), 'the agenda it became'),
};
