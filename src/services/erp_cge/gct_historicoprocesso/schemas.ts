import { DateOnly, DateTime, Enum, Int64, Record, Type } from '../../../platform/core/schema.ts';

// The records of erp_cge/gct_historicoprocesso (spec 001 §2.8, §4.6) and of the operations the
// project adds for an ERP to report its runs (docs/gct_historicoprocesso.md).

export const SITUACOES = ['Iniciado', 'Finalizado', 'Interrompido'] as const;
export type Situacao = (typeof SITUACOES)[number];

export const SituacaoProcesso = Record(
  'situacaoProcesso',
  Enum(SITUACOES, { description: 'Iniciado, Finalizado or Interrompido' }),
);

const Empresa = Int64({ minimum: 0, description: 'company (codigoEmpresa)' });
const Filial = Int64({ minimum: 0, description: 'branch (codigoFilial)' });
const Processo = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'the process: an ERP’s own name, or a Ponte job (erp_agr/com_comum/importPessoa, platform/exports/exportArea, <service>/<job>)',
});

export const RecParametros = Record(
  'recParametros',
  Type.Object({
    empresa: Empresa,
    filial: Filial,
    processo: Processo,
    dataInicial: DateOnly({ description: 'first day of the processing period asked for' }),
    dataFinal: DateOnly({
      description: 'last day of the processing period asked for (not before dataInicial)',
    }),
    situacao: Type.Optional(
      Type.Array(SituacaoProcesso, {
        maxItems: 3,
        description: 'only runs in these situations; empty or absent: every situation',
      }),
    ),
  }),
);

export const RecPeriodoExecucaoProcesso = Record(
  'recPeriodoExecucaoProcesso',
  Type.Object({
    dataInicio: DateOnly({ description: 'first day of the run’s processing period' }),
    dataFinal: DateOnly({ description: 'last day of the run’s processing period' }),
    inicioProcessamento: DateTime({ description: 'when the run was requested' }),
    fimProcessamento: Type.Optional(DateTime({ description: 'when it finished or was interrupted' })),
    id: Type.Optional(
      Type.String({ description: 'the run (finalizarProcesso, interromperProcesso take it)' }),
    ),
    situacao: Type.Optional(SituacaoProcesso),
  }),
);

export const ObterHistoricoInput = Type.Object({ parametros: RecParametros });
export const ObterHistoricoOutput = Type.Object({ execucao: Type.Array(RecPeriodoExecucaoProcesso) });

const RunId = Type.String({ format: 'uuid', description: 'the run, as iniciarProcesso answered it' });

export const IniciarProcessoInput = Type.Object({
  empresa: Empresa,
  filial: Filial,
  processo: Processo,
  dataInicio: DateOnly({ description: 'first day of the period the run processes' }),
  dataFinal: DateOnly({ description: 'last day of the period the run processes (not before dataInicio)' }),
  inicioProcessamento: Type.Optional(DateTime({ description: 'when the run was requested (default: now)' })),
  chaveExecucao: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'the ERP’s id of the run: a start sent again with it is 409, not a second run',
    }),
  ),
});
export const IniciarProcessoOutput = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const FinalizarProcessoInput = Type.Object({
  id: RunId,
  fimProcessamento: Type.Optional(DateTime({ description: 'when the run finished (default: now)' })),
});

export const InterromperProcessoInput = Type.Object({
  id: RunId,
  fimProcessamento: Type.Optional(DateTime({ description: 'when the run stopped (default: now)' })),
  motivo: Type.Optional(Type.String({ maxLength: 500, description: 'why it stopped' })),
});
