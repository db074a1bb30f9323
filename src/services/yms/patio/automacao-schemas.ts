import { DateTime, Enum, Int64, Record as SpecRecord, Type } from '../../../platform/core/schema.ts';
import { OPERADORES, TIPOS_ROTINA } from './rotinas-tipos.ts';

// The records of conditions and commands (spec 000 §6 names them without fields; docs/patio.md
// "Conditions and commands"): the descriptors of a run, its scope, the details listed, the log and
// the console's queue item.

export const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const Parametros = Type.Record(
  Type.String({ minLength: 1, maxLength: 50 }),
  Type.String({ maxLength: 2000 }),
  {
    maxProperties: 20,
    description: 'parameter name → value (listCondicoes / listComandos say which)',
  },
);

const descritor = (tipo: 'condição' | 'comando') =>
  Type.Object({
    nome: Type.String({
      minLength: 1,
      maxLength: 100,
      description: `the ${tipo}'s name (built-in or the tenant's)`,
    }),
    parametros: Type.Optional(Parametros),
  });
export const CondicaoDescritor = SpecRecord('condicaoDescritor', descritor('condição'));
export const ComandoDescritor = SpecRecord('comandoDescritor', descritor('comando'));

export const EscopoRotina = SpecRecord(
  'escopoRotina',
  Type.Object({
    execucaoCircuitoId: Type.Optional(Uuid('the execution; wins over agendaId and veiculoId')),
    agendaId: Type.Optional(Uuid('the agenda: its running execution, when no execution is named')),
    veiculoId: Type.Optional(Uuid("the vehicle (else the execution's); finds its running execution")),
    motoristaId: Type.Optional(Uuid("the driver (else the execution's)")),
    plantaId: Type.Optional(Uuid("the plant (else the execution's circuit's, or the area's)")),
    areaId: Type.Optional(Uuid("the area (else the step's)")),
    sequenciaCircuitoId: Type.Optional(Uuid("the step (else the execution's current one)")),
    ws_users: Type.Optional(
      Type.String({
        maxLength: 2000,
        description: 'comma-separated users the run’s wsLogRotina is pushed to',
      }),
    ),
  }),
);

const ParametroDetalhe = Type.Object({
  nome: Type.String(),
  tipo: Type.String({ description: 'texto, uuid, url or opcao' }),
  obrigatorio: Type.Boolean(),
  descricao: Type.String(),
  valores: Type.Optional(Type.Array(Type.String(), { description: 'the values of an opcao' })),
});
export const ParteSchema = Type.Object({
  nome: Type.String({ minLength: 1, maxLength: 100, description: 'a built-in of the same kind' }),
  parametros: Type.Optional(Parametros),
});
const detalhes = (name: string) =>
  SpecRecord(
    name,
    Type.Object({
      nome: Type.String(),
      descricao: Type.String(),
      origem: Enum(['SISTEMA', 'TENANT'] as const, { description: 'built-in, or the tenant’s own' }),
      parametros: Type.Array(ParametroDetalhe),
      operador: Type.Optional(Enum(OPERADORES)),
      partes: Type.Optional(Type.Array(ParteSchema)),
      ativo: Type.Boolean(),
    }),
  );
export const CondicaoDetalhes = detalhes('condicaoDetalhes');
export const ComandoDetalhes = detalhes('comandoDetalhes');

export const LogRotina = SpecRecord(
  'logRotina',
  Type.Object({
    id: Type.Optional(Type.String()),
    tipo: Enum(TIPOS_ROTINA),
    nome: Type.String({ minLength: 1, maxLength: 100 }),
    servico: Type.Optional(Type.String({ maxLength: 100 })),
    alvo: Type.Optional(Type.String({ maxLength: 200 })),
    origem: Type.Optional(Type.String({ maxLength: 20, description: 'EXPLICITO or ETAPA' })),
    escopo: Type.Optional(Type.Object({}, { additionalProperties: true })),
    variaveis: Type.Optional(Type.Record(Type.String(), Type.String())),
    parametros: Type.Optional(Type.Record(Type.String(), Type.String())),
    resultado: Type.Optional(Type.Boolean({ description: "a condition's outcome" })),
    sucesso: Type.Boolean({ description: 'false: it could not be evaluated or the command was refused' }),
    mensagem: Type.String({ maxLength: 4000 }),
    detalhes: Type.Optional(
      Type.Array(
        Type.Object({
          nome: Type.String(),
          resultado: Type.Optional(Type.Boolean()),
          sucesso: Type.Boolean(),
          mensagem: Type.String(),
        }),
      ),
    ),
    execucaoCircuitoId: Type.Optional(Type.String()),
    sequenciaCircuitoId: Type.Optional(Type.String()),
    inicio: Type.Optional(DateTime()),
    fim: Type.Optional(DateTime()),
    duracaoMs: Type.Optional(Int64()),
  }),
);

export const FilaItem = SpecRecord(
  'filaItem',
  Type.Object({
    id: Type.String({ minLength: 1, maxLength: 100, description: 'the item in the queue' }),
    posicao: Type.Optional(Int64({ minimum: 0, description: 'its place in the queue, from 1' })),
    placa: Type.Optional(Type.String({ maxLength: 10 })),
    veiculoId: Type.Optional(Uuid('the vehicle')),
    motoristaId: Type.Optional(Uuid('the driver')),
    agendaId: Type.Optional(Uuid('the agenda')),
    execucaoCircuitoId: Type.Optional(Uuid('the execution')),
    sequenciaCircuitoId: Type.Optional(Uuid('the step it waits for')),
    descricao: Type.Optional(Type.String({ maxLength: 255 })),
    desde: Type.Optional(DateTime({ description: 'since when it is in the queue' })),
  }),
);
