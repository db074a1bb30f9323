import { DateTime, Enum, Int64, Record, type TSchema, Type } from '../../../platform/core/schema.ts';
import { Custom } from './contract.ts';
import { STATUS_PRE_AGENDA } from './preagenda-estados.ts';

// The fields of the pre-agenda record (docs/agenda.md "Pre-agendas"); those of the agenda record,
// which yms/patio reads too, are in contract.ts.

const opt = Type.Optional;
const Str = (max: number, description?: string) =>
  Type.String({ maxLength: max, ...(description ? { description } : {}) });
const Id = (description: string) => Type.String({ format: 'uuid', description });
/** A field only the state actions change: shown, and ignored when sent. */
const ReadOnly = <T extends TSchema>(schema: T, what: string) =>
  opt({ ...schema, description: `read-only: ${what}; a value sent is ignored` } as T);

// ── Pre-agendas (docs/agenda.md "Pre-agendas") ──

/** statusPreAgenda (spec 000 §2.5): one declaration, a named definition every field refers to. */
export const StatusPreAgenda = Record(
  'statusPreAgenda',
  Enum(STATUS_PRE_AGENDA, {
    description: 'state of a pre-agenda: PENDENTE, EM_APROVACAO, APROVADA, REPROVADA, CANCELADA, CONVERTIDA',
  }),
);

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
