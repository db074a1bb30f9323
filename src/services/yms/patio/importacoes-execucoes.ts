import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../../platform/core/db/database.ts';
import { exportTargetOf } from '../../../platform/core/export-target.ts';
import { type ImportTarget, type Refusal, refuse } from '../../../platform/core/import-target.ts';
import { DateTime, Enum, Type } from '../../../platform/core/schema.ts';
import { normalizePlaca } from './entities.ts';
import { SITUACOES } from './execucao.ts';
import {
  Codigo,
  codigoDe,
  dasPlantas,
  distinct,
  key,
  plantaDe,
  type Row,
  semRegistro,
  str,
} from './importacoes-codigos.ts';
import { circuito } from './tables/circuitos.ts';
import {
  execucaoCircuito,
  type execucaoCircuitoImagem,
  type historicoExecucaoCircuito,
} from './tables/execucoes.ts';
import { motorista, veiculo } from './tables/veiculos.ts';

// The yard's history, both ways (spec 000 §4.3; docs/patio.md "Imports and exports"): executions
// (ExecucaoCircuito) and branches (RamoExecucao), keyed by their ids, which the history files join
// by. Only finished history is imported (FINALIZADO or CANCELADO, never a running execution): the
// checks every history file makes are here too.

// --- the yard's history: imports of finished history ------------------------------------------

export const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const FINAIS = new Set(['FINALIZADO', 'CANCELADO']);
export const quando = (value: unknown) => (typeof value === 'string' ? new Date(value) : value);

/** The tenant's executions with these ids: situação and whether each is a branch. */
export async function execucoes(
  tx: Tx,
  tenant: string,
  ids: string[],
): Promise<Map<string, { situacao: string; ramo: boolean; circuitoId: string }>> {
  if (ids.length === 0) return new Map();
  const found = await tx
    .select({
      id: execucaoCircuito.id,
      situacao: execucaoCircuito.situacao,
      execucaoPaiId: execucaoCircuito.execucaoPaiId,
      circuitoId: execucaoCircuito.circuitoId,
    })
    .from(execucaoCircuito)
    .where(and(eq(execucaoCircuito.tenant, tenant), inArray(execucaoCircuito.id, ids)));
  return new Map(
    found.map((e) => [
      e.id,
      { situacao: e.situacao, ramo: e.execucaoPaiId !== null, circuitoId: e.circuitoId },
    ]),
  );
}

/** The execution a history row belongs to must be of the tenant and finished or cancelled. */
export function execucaoEncerrada(
  found: Map<string, { situacao: string }>,
  id: unknown,
  field = 'execucaoCircuitoId',
): Refusal | null {
  const e = found.get(String(id));
  if (!e) return refuse(field, `execução ${String(id)} não existe (importe ExecucaoCircuito antes)`);
  if (!FINAIS.has(e.situacao))
    return refuse(field, `execução ${String(id)} está em andamento: só o fluxo do pátio a altera`);
  return null;
}

/** Rows whose id is a record of the tenant's running executions: the yard's flow owns them. */
export async function idsEmAndamento(
  tx: Tx,
  tenant: string,
  table: typeof historicoExecucaoCircuito | typeof execucaoCircuitoImagem,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = await tx
    .select({ id: table.id })
    .from(table)
    .innerJoin(execucaoCircuito, eq(execucaoCircuito.id, table.execucaoCircuitoId))
    .where(
      and(eq(table.tenant, tenant), inArray(table.id, ids), eq(execucaoCircuito.situacao, 'EXECUTANDO')),
    );
  return new Set(found.map((r) => r.id));
}

const execucaoRow = (ramo: boolean) =>
  Type.Object({
    id: Uuid('the execution, kept: the history files join by it'),
    ...(ramo ? { execucaoPaiId: Uuid('the execution this branch ran from (imported first)') } : {}),
    plantaCodigo: Codigo('plant of the circuit'),
    circuitoCodigo: Codigo('circuit, in the plant'),
    agendaId: Type.Optional(Uuid("yms/agenda's agenda")),
    placa: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'plate of the vehicle' })),
    motoristaDocumento: Type.Optional(
      Type.String({ minLength: 1, maxLength: 20, description: 'CPF of the driver' }),
    ),
    situacao: Enum(SITUACOES, { description: 'FINALIZADO or CANCELADO: a running execution is refused' }),
    iniciadaEm: DateTime(),
    finalizadaEm: DateTime({ description: 'when it finished or was cancelled; not before iniciadaEm' }),
    motivoCancelamento: Type.Optional(Type.String({ maxLength: 255 })),
  });

export function execucaoImport(ramo: boolean): ImportTarget {
  return {
    table: execucaoCircuito,
    row: execucaoRow(ramo),
    naturalKey: ['id'],
    prepare: (row) => ({
      ...row,
      placa: typeof row.placa === 'string' ? normalizePlaca(row.placa) : undefined,
      motoristaDocumento:
        typeof row.motoristaDocumento === 'string' ? row.motoristaDocumento.replace(/\D/g, '') : undefined,
      iniciadaEm: quando(row.iniciadaEm),
      finalizadaEm: quando(row.finalizadaEm),
    }),
    // Vehicles by plate and drivers by CPF, in the importing tenant; what the yard's flow owns
    // (a running execution, its spot, its current step, a composition) is never written.
    resolve: async (tx, rows, tenant) => {
      const circuitos = await dasPlantas(tx, tenant, circuito, rows);
      const placas = distinct(rows, 'placa');
      const docs = distinct(rows, 'motoristaDocumento');
      const veiculos = new Map(
        placas.length
          ? (
              await tx
                .select({ id: veiculo.id, placa: veiculo.placa })
                .from(veiculo)
                .where(and(eq(veiculo.tenant, tenant), inArray(veiculo.placa, placas)))
            ).map((v) => [v.placa, v.id])
          : [],
      );
      const motoristas = new Map(
        docs.length
          ? (
              await tx
                .select({ id: motorista.id, documento: motorista.documento })
                .from(motorista)
                .where(and(eq(motorista.tenant, tenant), inArray(motorista.documento, docs)))
            ).map((m) => [m.documento, m.id])
          : [],
      );
      const existentes = await execucoes(tx, tenant, [
        ...distinct(rows, 'id'),
        ...distinct(rows, 'execucaoPaiId'),
      ]);
      return rows.map((row): Row | Refusal => {
        if (!FINAIS.has(String(row.situacao)))
          return refuse(
            'situacao',
            'situacao EXECUTANDO não é importada: execuções em andamento só nascem do fluxo do pátio',
          );
        if ((row.finalizadaEm as Date) < (row.iniciadaEm as Date))
          return refuse('finalizadaEm', 'finalizadaEm anterior a iniciadaEm');
        const circuitoId = circuitos.get(key(row.plantaCodigo, row.circuitoCodigo));
        if (!circuitoId)
          return semRegistro('circuitoCodigo', 'circuito', row.plantaCodigo, row.circuitoCodigo);
        const veiculoId = row.placa === undefined ? null : veiculos.get(String(row.placa));
        if (veiculoId === undefined) return refuse('placa', `veículo ${String(row.placa)} não existe`);
        const motoristaId =
          row.motoristaDocumento === undefined ? null : motoristas.get(String(row.motoristaDocumento));
        if (motoristaId === undefined)
          return refuse('motoristaDocumento', `motorista ${String(row.motoristaDocumento)} não existe`);
        const atual = existentes.get(String(row.id));
        if (atual && !FINAIS.has(atual.situacao))
          return refuse('id', `execução ${String(row.id)} está em andamento: só o fluxo do pátio a altera`);
        if (atual && atual.ramo !== ramo)
          return refuse('id', `execução ${String(row.id)} ${atual.ramo ? 'é um ramo' : 'não é um ramo'}`);
        if (ramo) {
          if (row.execucaoPaiId === row.id)
            return refuse('execucaoPaiId', 'uma execução não é ramo de si mesma');
          const semPai = execucaoEncerrada(existentes, row.execucaoPaiId, 'execucaoPaiId');
          if (semPai) return semPai;
        }
        return {
          id: row.id,
          circuitoId,
          veiculoId,
          motoristaId,
          composicaoVeiculoId: null,
          agendaId: row.agendaId ?? null,
          sequenciaAtualId: null,
          sequenciaAtualDesde: null,
          situacao: row.situacao,
          execucaoPaiId: ramo ? row.execucaoPaiId : null,
          iniciadaEm: row.iniciadaEm,
          finalizadaEm: row.finalizadaEm,
          motivoCancelamento: row.motivoCancelamento ?? null,
        };
      });
    },
  };
}

// --- the yard's history: exports ------------------------------------------------------------------

export const execucaoFields = (extra: string[]) =>
  exportTargetOf(
    execucaoCircuito,
    [
      'id',
      ...extra,
      'plantaCodigo',
      'circuitoId',
      'circuitoCodigo',
      'agendaId',
      'veiculoId',
      'placa',
      'composicaoVeiculoId',
      'motoristaId',
      'motoristaDocumento',
      'sequenciaAtualId',
      'sequenciaAtualDesde',
      'situacao',
      'iniciadaEm',
      'finalizadaEm',
      'motivoCancelamento',
      'createdBy',
      'lastModifiedDate',
    ],
    {
      extra: {
        plantaCodigo: plantaDe(circuito, execucaoCircuito.circuitoId),
        circuitoCodigo: codigoDe(circuito, execucaoCircuito.circuitoId),
        placa: str(
          sql`(select ${veiculo.placa} from ${veiculo} where ${veiculo.id} = ${execucaoCircuito.veiculoId})`,
        ),
        motoristaDocumento: str(
          sql`(select ${motorista.documento} from ${motorista} where ${motorista.id} = ${execucaoCircuito.motoristaId})`,
        ),
      },
      where: extra.length
        ? sql`${execucaoCircuito.execucaoPaiId} is not null`
        : sql`${execucaoCircuito.execucaoPaiId} is null`,
    },
  );
