import type { ExportTarget } from '../../../platform/core/export-target.ts';
import { exportTargetOf } from '../../../platform/core/export-target.ts';
import type { ImportTarget } from '../../../platform/core/import-target.ts';
import { cadastros } from './importacoes-cadastros.ts';
import { detalhe, detalheImport } from './importacoes-detalhes.ts';
import { execucaoFields, execucaoImport } from './importacoes-execucoes.ts';
import { historico, historicoImport } from './importacoes-historico.ts';

// The imports and exports of yms/patio (spec 000 §4.3; docs/patio.md "Imports and exports").
// Registers (Planta, Area, Vaga, Circuito, SequenciaCircuito, Veiculo, Endereco, TipoVeiculo) go
// both ways with the same fields: a file names a referenced record by its natural code
// (`plantaCodigo`, `areaCodigo`, `circuitoCodigo`), never by id, so an export of one tenant imports
// into another as the same records. `resolve` turns the codes into ids, one query per batch.
// The yard's history (ExecucaoCircuito, ExecucaoCircuitoDetalhe, HistoricoExecucaoCircuito,
// RamoExecucao) goes both ways too, keyed by its ids (the four files join by them), for migrating
// finished history: only FINALIZADO or CANCELADO executions are imported, never a running one.
// Each kind's import and export: importacoes-cadastros.ts (the registers), importacoes-execucoes.ts,
// importacoes-historico.ts and importacoes-detalhes.ts (the history); the codes: importacoes-codigos.ts.

/** The 12 kinds of spec 000 §4.3, in its order: each has import<X>Event and export<X>Event. */
export const TRANSFER_KINDS = [
  'Area',
  'Vaga',
  'Circuito',
  'SequenciaCircuito',
  'ExecucaoCircuito',
  'ExecucaoCircuitoDetalhe',
  'HistoricoExecucaoCircuito',
  'RamoExecucao',
  'Planta',
  'Endereco',
  'TipoVeiculo',
  'Veiculo',
];

export const patioImports: Record<string, ImportTarget> = {
  ...Object.fromEntries(
    Object.entries(cadastros).map(([kind, c]) => [
      kind,
      {
        table: c.table,
        row: c.row,
        naturalKey: c.naturalKey,
        ...(c.prepare ? { prepare: c.prepare } : {}),
        ...(c.resolve ? { resolve: c.resolve } : {}),
      },
    ]),
  ),
  // Import ExecucaoCircuito first: branches, steps and details need their execution.
  ExecucaoCircuito: execucaoImport(false),
  RamoExecucao: execucaoImport(true),
  HistoricoExecucaoCircuito: historicoImport,
  ExecucaoCircuitoDetalhe: detalheImport,
};

export const patioExports: Record<string, ExportTarget> = {
  ...Object.fromEntries(
    Object.entries(cadastros).map(([kind, c]) => [
      kind,
      exportTargetOf(c.table, Object.keys(c.row.properties), { extra: c.refs ?? {}, key: c.naturalKey }),
    ]),
  ),
  ExecucaoCircuito: execucaoFields([]),
  RamoExecucao: execucaoFields(['execucaoPaiId']),
  HistoricoExecucaoCircuito: historico,
  ExecucaoCircuitoDetalhe: detalhe,
};
