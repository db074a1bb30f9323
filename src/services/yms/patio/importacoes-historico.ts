import { and, eq, inArray, sql } from 'drizzle-orm';
import { type ExportTarget, exportTargetOf } from '../../../platform/core/export-target.ts';
import { type ImportTarget, type Refusal, refuse } from '../../../platform/core/import-target.ts';
import { DateTime, Enum, Type } from '../../../platform/core/schema.ts';
import { ACOES_HISTORICO } from './execucao.ts';
import { distinct, int, key, type Row, str } from './importacoes-codigos.ts';
import { execucaoEncerrada, execucoes, idsEmAndamento, quando, Uuid } from './importacoes-execucoes.ts';
import { sequenciaCircuito } from './tables/circuitos.ts';
import { historicoExecucaoCircuito } from './tables/execucoes.ts';

// The steps of finished executions, both ways (HistoricoExecucaoCircuito; spec 000 §4.3, docs/patio.md
// "Imports and exports"): a step names its sequence by its order in the execution's circuit.

export const historicoImport: ImportTarget = {
  table: historicoExecucaoCircuito,
  row: Type.Object({
    id: Uuid('the step visit, kept'),
    execucaoCircuitoId: Uuid('a finished or cancelled execution of the tenant'),
    sequenciaOrdem: Type.Optional(
      Type.Integer({ minimum: 0, description: "the step, by its order in the execution's circuit" }),
    ),
    acao: Enum(ACOES_HISTORICO),
    origem: Type.String({ minLength: 1, maxLength: 200, description: 'MANUAL:<who>, COMANDO:<name>…' }),
    entradaEm: DateTime(),
    saidaEm: Type.Optional(DateTime()),
  }),
  naturalKey: ['id'],
  prepare: (row) => ({ ...row, entradaEm: quando(row.entradaEm), saidaEm: quando(row.saidaEm) ?? null }),
  resolve: async (tx, rows, tenant) => {
    const found = await execucoes(tx, tenant, distinct(rows, 'execucaoCircuitoId'));
    const circuitoIds = [...new Set([...found.values()].map((e) => e.circuitoId))];
    const passos = new Map(
      circuitoIds.length
        ? (
            await tx
              .select({
                id: sequenciaCircuito.id,
                circuitoId: sequenciaCircuito.circuitoId,
                ordem: sequenciaCircuito.ordem,
              })
              .from(sequenciaCircuito)
              .where(
                and(eq(sequenciaCircuito.tenant, tenant), inArray(sequenciaCircuito.circuitoId, circuitoIds)),
              )
          ).map((s) => [key(s.circuitoId, s.ordem), s.id])
        : [],
    );
    const emAndamento = await idsEmAndamento(tx, tenant, historicoExecucaoCircuito, distinct(rows, 'id'));
    return rows.map((row): Row | Refusal => {
      const recusa = execucaoEncerrada(found, row.execucaoCircuitoId);
      if (recusa) return recusa;
      if (emAndamento.has(String(row.id)))
        return refuse('id', `passo ${String(row.id)} é de uma execução em andamento`);
      if (row.saidaEm && (row.saidaEm as Date) < (row.entradaEm as Date))
        return refuse('saidaEm', 'saidaEm anterior a entradaEm');
      let sequenciaCircuitoId: string | null = null;
      if (row.sequenciaOrdem !== undefined) {
        const circuitoId = found.get(String(row.execucaoCircuitoId))!.circuitoId;
        sequenciaCircuitoId = passos.get(key(circuitoId, row.sequenciaOrdem)) ?? null;
        if (!sequenciaCircuitoId)
          return refuse(
            'sequenciaOrdem',
            `o circuito da execução não tem a sequência ${String(row.sequenciaOrdem)}`,
          );
      }
      const { sequenciaOrdem: _ordem, ...rest } = row;
      return { ...rest, sequenciaCircuitoId };
    });
  },
};

export const historico: ExportTarget = {
  ...exportTargetOf(
    historicoExecucaoCircuito,
    [
      'id',
      'n',
      'execucaoCircuitoId',
      'sequenciaCircuitoId',
      'sequenciaOrdem',
      'sequenciaNome',
      'acao',
      'origem',
      'entradaEm',
      'saidaEm',
    ],
    {
      extra: {
        sequenciaOrdem: int(
          sql`(select ${sequenciaCircuito.ordem} from ${sequenciaCircuito} where ${sequenciaCircuito.id} = ${historicoExecucaoCircuito.sequenciaCircuitoId})`,
        ),
        sequenciaNome: str(
          sql`(select ${sequenciaCircuito.nome} from ${sequenciaCircuito} where ${sequenciaCircuito.id} = ${historicoExecucaoCircuito.sequenciaCircuitoId})`,
        ),
      },
      // Insertion order: the steps of an execution in the order they were taken.
      key: ['n'],
    },
  ),
};
