import { AuditSchema } from '../../../platform/core/entity.ts';
import { DateTime, Double, Enum, Int64, Record, type TSchema, Type } from '../../../platform/core/schema.ts';

// What yms/agenda publishes to the other services (docs/agenda.md "What yms/agenda and yms/patio
// share"): the only file of this service another one may import. The agenda record itself is
// reached through this service's operations (`ctx.call('yms/agenda/...')`).

// The states of an agenda (spec 000 §3; docs/agenda.md "statusAgendamento"); states.ts has the rest.
export const STATUS_AGENDAMENTO = [
  'AGENDADO',
  'AGUARDANDO_INTEGRACAO',
  'EXECUTANDO',
  'CONCLUIDO',
  'ERRO_INTEGRACAO',
  'CANCELADO',
] as const;

// The search of agendas (busca.ts), which yms/patio's filtrarAgenda maps onto pesquisarAgendas.

export const SORT_FIELDS = [
  'dataEsperada',
  'codigo',
  'descricao',
  'status',
  'plantaId',
  'tipoAgendamentoId',
  'chaveIntegracao',
  'createdDate',
  'lastModifiedDate',
] as const;
/** How many ids of vehicles or drivers a text search may carry (yms/patio resolves them). */
export const MAX_IDS_PESQUISA = 1000;

// The fields of the agenda record, once (docs/agenda.md "The record"): the entity, the create and
// update actions of yms/agenda and the agenda operations of yms/patio all read them from here.

const opt = Type.Optional;
const Str = (max: number, description?: string) =>
  Type.String({ maxLength: max, ...(description ? { description } : {}) });
const Id = (description: string) => Type.String({ format: 'uuid', description });
/** A field only the state actions change: shown, and ignored when sent. */
const ReadOnly = <T extends TSchema>(schema: T, what: string) =>
  opt({ ...schema, description: `read-only: ${what}; a value sent is ignored` } as T);

/**
 * statusAgendamento (spec 000 §2.5): one declaration, a named definition of both services' documents
 * that every field holding an agenda's state refers to.
 */
export const StatusAgendamento = Record(
  'statusAgendamento',
  Enum(STATUS_AGENDAMENTO, {
    description:
      'state of an agenda: AGENDADO, AGUARDANDO_INTEGRACAO, EXECUTANDO, CONCLUIDO, ERRO_INTEGRACAO, CANCELADO',
  }),
);

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

/**
 * `tipoAgendamentoId` of a record that names its type (the agenda and pre-agenda entities): the
 * type's id or its code, as docs/agenda.md "Appointment types" promises; stored and answered as the
 * id (idDoTipo, in the entity's beforeSave).
 */
export const TipoAgendamentoRef = Type.String({
  minLength: 1,
  maxLength: 50,
  description:
    'the appointment type: its id (tipoAgendamento.id) or its codigo; stored and answered as the id',
});

/** The fields of the entity agenda (entities.ts): the id a client may choose, editable and read-only. */
export const AgendaCampos = Type.Object({
  // Declared as a field so the create hook sees a client-chosen id: the history row must name it.
  id: Type.Optional(Type.String({ format: 'uuid', description: 'assigned by the server when absent' })),
  ...editable,
  // The type's id or its code (docs/agenda.md "Appointment types"), resolved to the id before saving.
  tipoAgendamentoId: TipoAgendamentoRef,
  ...readOnly,
});

/** An agenda as the API shows it: its id, its fields and the audit fields (the entity's output). */
export const Agenda = Type.Object({ ...AgendaCampos.properties, ...AuditSchema }, { title: 'agenda' });

/**
 * Read-only, for SQL that must join the two services in the database (yms/patio's day numbers,
 * docs/patio.md "The day's numbers"): the names of the agenda's and its type's tables. Nothing but
 * yms/agenda writes them; a reader joins on (tenant, id), filters by tenant, and reads only the
 * columns documented in docs/agenda.md "The record" (contract.test.ts checks the names).
 */
export const TABELAS_AGENDA = { agenda: 'agenda', tipoAgendamento: 'agenda_tipo_agendamento' } as const;

/**
 * The yard's records (yms/patio) an agenda or a pre-agenda names, with no foreign key across the
 * services: the platform checks each one written exists in the tenant, and refuses to delete one
 * still named (EntityOptions.references; docs/agenda.md "References").
 */
export const DO_PATIO = {
  plantaId: 'yms/patio/planta',
  veiculoId: 'yms/patio/veiculo',
  composicaoVeiculoId: 'yms/patio/composicaoVeiculo',
  motoristaId: 'yms/patio/motorista',
} as const;
