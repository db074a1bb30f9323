import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TObject } from 'typebox';
import type { Tx } from '../../../platform/db/database.ts';
import { Store } from '../../../platform/db/store.ts';
import type { ExportField, ExportTarget } from '../../../platform/exports/target.ts';
import { exportTargetOf } from '../../../platform/exports/target.ts';
import { type ImportTarget, type Refusal, refuse } from '../../../platform/imports/target.ts';
import { DateTime, Enum, Type } from '../../../platform/schema.ts';
import { enderecoFields, normalizaEndereco, tipoVeiculoFields } from './cadastros.ts';
import { circuito as circuitoEntity, sequenciaCircuito as sequenciaEntity } from './circuitos.ts';
import {
  area as areaEntity,
  normalizePlaca,
  planta as plantaEntity,
  vaga as vagaEntity,
  veiculo as veiculoEntity,
} from './entities.ts';
import { ACOES_HISTORICO, SITUACOES } from './execucao.ts';
import { endereco, tipoVeiculo } from './tables/cadastros.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import {
  execucaoCircuito,
  execucaoCircuitoImagem,
  execucaoCircuitoVariavel,
  historicoExecucaoCircuito,
} from './tables/execucoes.ts';
import { area, planta, vaga } from './tables/plantas.ts';
import { motorista, veiculo } from './tables/veiculos.ts';

// The imports and exports of yms/patio (spec 000 §4.3; docs/patio.md "Imports and exports").
// Registers (Planta, Area, Vaga, Circuito, SequenciaCircuito, Veiculo, Endereco, TipoVeiculo) go
// both ways with the same fields: a file names a referenced record by its natural code
// (`plantaCodigo`, `areaCodigo`, `circuitoCodigo`), never by id, so an export of one tenant imports
// into another as the same records. `resolve` turns the codes into ids, one query per batch.
// The yard's history (ExecucaoCircuito, ExecucaoCircuitoDetalhe, HistoricoExecucaoCircuito,
// RamoExecucao) goes both ways too, keyed by its ids (the four files join by them), for migrating
// finished history: only FINALIZADO or CANCELADO executions are imported, never a running one.

type Row = Record<string, unknown>;

const Codigo = (what: string) =>
  Type.String({ minLength: 1, maxLength: 20, description: `code of the ${what}` });

/** The entity's fields without `drop` (ids replaced by codes, read-only state). */
function fieldsOf(entity: { fields: TObject }, drop: string[]): Record<string, never> {
  const props = { ...(entity.fields.properties as Record<string, never>) };
  for (const name of drop) delete props[name];
  return props;
}

const str = (value: SQL): ExportField => ({ sql: value, type: 'string' });
const int = (value: SQL): ExportField => ({ sql: value, type: 'integer' });
/** The code of a referenced record, by its id column: a scalar subquery per row, on the primary key. */
const codigoDe = (table: typeof planta | typeof area | typeof circuito, id: AnyPgColumn) =>
  str(sql`(select ${table.codigo} from ${table} where ${table.id} = ${id})`);
/** The code of the plant of an area or circuit, by that record's id column. */
const plantaDe = (table: typeof area | typeof circuito, id: AnyPgColumn) =>
  str(
    sql`(select ${planta.codigo} from ${table} join ${planta} on ${planta.id} = ${table.plantaId} where ${table.id} = ${id})`,
  );

// --- lookups of one batch --------------------------------------------------------------------

const key = (...parts: unknown[]) => JSON.stringify(parts);
const distinct = (rows: Row[], field: string) =>
  [...new Set(rows.map((r) => r[field]).filter((v) => typeof v === 'string'))] as string[];

async function plantas(tx: Tx, tenant: string, rows: Row[]): Promise<Map<string, string>> {
  const codigos = distinct(rows, 'plantaCodigo');
  if (codigos.length === 0) return new Map();
  const found = await tx
    .select({ id: planta.id, codigo: planta.codigo })
    .from(planta)
    .where(and(eq(planta.tenant, tenant), inArray(planta.codigo, codigos)));
  return new Map(found.map((p) => [p.codigo, p.id]));
}

/** The rows' plantaCodigo as plantaId, in the importing tenant (an unknown plant is the row's error). */
async function daPlanta(tx: Tx, rows: Row[], tenant: string) {
  const ids = await plantas(tx, tenant, rows);
  return rows.map((row) => {
    const plantaId = ids.get(String(row.plantaCodigo));
    return plantaId ? { ...row, plantaId } : semPlanta(row.plantaCodigo);
  });
}

/** Areas or circuits of the batch's plants, by (plant code, own code). */
async function dasPlantas(
  tx: Tx,
  tenant: string,
  table: typeof area | typeof circuito,
  rows: Row[],
): Promise<Map<string, string>> {
  const codigos = distinct(rows, 'plantaCodigo');
  if (codigos.length === 0) return new Map();
  const found = await tx
    .select({ id: table.id, codigo: table.codigo, plantaCodigo: planta.codigo })
    .from(table)
    .innerJoin(planta, eq(planta.id, table.plantaId))
    .where(and(eq(table.tenant, tenant), inArray(planta.codigo, codigos)));
  return new Map(found.map((r) => [key(r.plantaCodigo, r.codigo), r.id]));
}

const semPlanta = (codigo: unknown) => refuse('plantaCodigo', `planta ${String(codigo)} não existe`);
const semRegistro = (field: string, record: string, plantaCodigo: unknown, codigo: unknown) =>
  refuse(field, `${record} ${String(codigo)} não existe na planta ${String(plantaCodigo)}`);

// --- registers: both ways ---------------------------------------------------------------------

interface Cadastro {
  table: ImportTarget['table'];
  row: TObject;
  naturalKey: string[];
  /** Export fields that are not columns of the table (referenced codes). */
  refs?: Record<string, ExportField>;
  prepare?: ImportTarget['prepare'];
  resolve?: ImportTarget['resolve'];
}

const cadastros: Record<string, Cadastro> = {
  Planta: {
    table: planta,
    row: plantaEntity.fields,
    naturalKey: ['codigo'],
    prepare: (row) => ({
      ...row,
      cnpj: typeof row.cnpj === 'string' ? row.cnpj.replace(/\D/g, '') : row.cnpj,
      fusoHorario: row.fusoHorario ?? 'America/Sao_Paulo',
      ativo: row.ativo ?? true,
    }),
    resolve: async (_tx, rows) =>
      rows.map((row) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: String(row.fusoHorario) });
          return row;
        } catch {
          return refuse('fusoHorario', `fusoHorario ${String(row.fusoHorario)} não é um fuso horário IANA`);
        }
      }),
  },
  Area: {
    table: area,
    row: Type.Object({ plantaCodigo: Codigo('plant'), ...fieldsOf(areaEntity, ['plantaId']) }),
    naturalKey: ['plantaId', 'codigo'],
    refs: { plantaCodigo: codigoDe(planta, area.plantaId) },
    prepare: (row) => ({ ...row, ativo: row.ativo ?? true }),
    resolve: daPlanta,
  },
  Vaga: {
    table: vaga,
    row: Type.Object({
      plantaCodigo: Codigo('plant'),
      areaCodigo: Codigo('area, in the plant'),
      ...fieldsOf(vagaEntity, ['areaId', 'ocupada', 'veiculoId', 'ocupadaEm']),
    }),
    naturalKey: ['areaId', 'rua', 'numero'],
    refs: { plantaCodigo: plantaDe(area, vaga.areaId), areaCodigo: codigoDe(area, vaga.areaId) },
    prepare: (row) => ({ ...row, ativo: row.ativo ?? true, bloqueio: row.bloqueio ?? false }),
    resolve: async (tx, rows, tenant) => {
      const ids = await dasPlantas(tx, tenant, area, rows);
      return rows.map((row): Row | Refusal => {
        const areaId = ids.get(key(row.plantaCodigo, row.areaCodigo));
        if (!areaId) return semRegistro('areaCodigo', 'área', row.plantaCodigo, row.areaCodigo);
        // docs/patio.md "The yard model": a blocked spot carries its reason; an unblocked one none.
        if (row.bloqueio && !row.motivoBloqueio)
          return refuse('motivoBloqueio', 'Informe motivoBloqueio ao bloquear a vaga');
        return { ...row, areaId, motivoBloqueio: row.bloqueio ? row.motivoBloqueio : null };
      });
    },
  },
  Circuito: {
    table: circuito,
    row: Type.Object({ plantaCodigo: Codigo('plant'), ...fieldsOf(circuitoEntity, ['plantaId']) }),
    naturalKey: ['plantaId', 'codigo'],
    refs: { plantaCodigo: codigoDe(planta, circuito.plantaId) },
    prepare: (row) => ({ ...row, ativo: row.ativo ?? true }),
    resolve: daPlanta,
  },
  SequenciaCircuito: {
    table: sequenciaCircuito,
    row: Type.Object({
      plantaCodigo: Codigo('plant of the circuit'),
      circuitoCodigo: Codigo('circuit, in the plant'),
      ...fieldsOf(sequenciaEntity, ['circuitoId', 'areaId', 'subCircuitoId']),
      areaCodigo: Codigo('area of the step, in the plant'),
      subCircuitoCodigo: Type.Optional(Codigo('circuit of the same plant the step branches into')),
    }),
    naturalKey: ['circuitoId', 'ordem'],
    refs: {
      plantaCodigo: plantaDe(circuito, sequenciaCircuito.circuitoId),
      circuitoCodigo: codigoDe(circuito, sequenciaCircuito.circuitoId),
      areaCodigo: codigoDe(area, sequenciaCircuito.areaId),
      subCircuitoCodigo: codigoDe(circuito, sequenciaCircuito.subCircuitoId),
    },
    // The area and the sub-circuit are of the circuit's plant (docs/patio.md "Circuits"): they are
    // looked up in that plant only, so a file cannot break the rule.
    resolve: async (tx, rows, tenant) => {
      const circuitos = await dasPlantas(tx, tenant, circuito, rows);
      const areas = await dasPlantas(tx, tenant, area, rows);
      return rows.map((row): Row | Refusal => {
        const circuitoId = circuitos.get(key(row.plantaCodigo, row.circuitoCodigo));
        if (!circuitoId)
          return semRegistro('circuitoCodigo', 'circuito', row.plantaCodigo, row.circuitoCodigo);
        const areaId = areas.get(key(row.plantaCodigo, row.areaCodigo));
        if (!areaId) return semRegistro('areaCodigo', 'área', row.plantaCodigo, row.areaCodigo);
        let subCircuitoId: string | null = null;
        if (row.subCircuitoCodigo !== undefined) {
          subCircuitoId = circuitos.get(key(row.plantaCodigo, row.subCircuitoCodigo)) ?? null;
          if (!subCircuitoId)
            return semRegistro('subCircuitoCodigo', 'circuito', row.plantaCodigo, row.subCircuitoCodigo);
        }
        return { ...row, circuitoId, areaId, subCircuitoId };
      });
    },
  },
  Veiculo: {
    table: veiculo,
    row: Type.Object(fieldsOf(veiculoEntity, ['bloqueado', 'motivoBloqueio'])),
    naturalKey: ['placa'],
    prepare: (row) => ({ ...row, placa: normalizePlaca(String(row.placa)) }),
  },
  Endereco: {
    table: endereco,
    row: Type.Object({ plantaCodigo: Codigo('plant (one address per plant)'), ...enderecoFields }),
    naturalKey: ['plantaId'],
    refs: { plantaCodigo: codigoDe(planta, endereco.plantaId) },
    prepare: (row) => normalizaEndereco({ ...row }),
    resolve: daPlanta,
  },
  TipoVeiculo: {
    table: tipoVeiculo,
    row: Type.Object(tipoVeiculoFields),
    naturalKey: ['codigo'],
    prepare: (row) => ({ ...row, ativo: row.ativo ?? true }),
  },
};

// --- the yard's history: imports of finished history ------------------------------------------

const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const FINAIS = new Set(['FINALIZADO', 'CANCELADO']);
const quando = (value: unknown) => (typeof value === 'string' ? new Date(value) : value);

/** The tenant's executions with these ids: situação and whether each is a branch. */
async function execucoes(
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
function execucaoEncerrada(
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
async function idsEmAndamento(
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

function execucaoImport(ramo: boolean): ImportTarget {
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

const historicoImport: ImportTarget = {
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

/** Variables upsert on (execution, alvoId, chave), images on their id; both of finished executions. */
const detalheImport: ImportTarget = {
  table: execucaoCircuitoVariavel,
  row: Type.Object({
    id: Uuid('the variable or image, kept when new'),
    execucaoCircuitoId: Uuid('a finished or cancelled execution of the tenant'),
    tipo: Enum(['VARIAVEL', 'IMAGEM'] as const),
    alvoId: Type.String({ minLength: 1, maxLength: 100, description: 'the step or area it was taken at' }),
    chave: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    valor: Type.Optional(Type.String({ maxLength: 4000 })),
    tipoCaptura: Type.Optional(Type.String({ maxLength: 50 })),
    rotina: Type.Optional(Type.String({ maxLength: 200 })),
    cameraIp: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    imagemUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    em: DateTime({ description: 'when the value was set or the image taken' }),
  }),
  naturalKey: ['id'],
  prepare: (row) => ({ ...row, em: quando(row.em) }),
  resolve: async (tx, rows, tenant) => {
    const found = await execucoes(tx, tenant, distinct(rows, 'execucaoCircuitoId'));
    const imagens = rows.filter((r) => r.tipo === 'IMAGEM');
    const emAndamento = await idsEmAndamento(tx, tenant, execucaoCircuitoImagem, distinct(imagens, 'id'));
    return rows.map((row): Row | Refusal => {
      const recusa = execucaoEncerrada(found, row.execucaoCircuitoId);
      if (recusa) return recusa;
      if (row.tipo === 'VARIAVEL') {
        if (row.chave === undefined) return refuse('chave', 'Informe chave de uma VARIAVEL');
        if (row.valor === undefined) return refuse('valor', 'Informe valor de uma VARIAVEL');
        return row;
      }
      if (row.cameraIp === undefined) return refuse('cameraIp', 'Informe cameraIp de uma IMAGEM');
      if (row.imagemUrl === undefined) return refuse('imagemUrl', 'Informe imagemUrl de uma IMAGEM');
      if (emAndamento.has(String(row.id)))
        return refuse('id', `imagem ${String(row.id)} é de uma execução em andamento`);
      return row;
    });
  },
  write: async (tx, tenant, rows, { update }) => {
    const last = <T>(list: T[], k: (r: T) => string) => [...new Map(list.map((r) => [k(r), r])).values()];
    const store = new Store(tx, tenant);
    const v = execucaoCircuitoVariavel;
    const variaveis = last(
      rows.filter((r) => r.tipo === 'VARIAVEL'),
      (r) => key(r.execucaoCircuitoId, r.alvoId, r.chave),
    ).map((r) => ({
      id: String(r.id),
      execucaoCircuitoId: String(r.execucaoCircuitoId),
      alvoId: String(r.alvoId),
      chave: String(r.chave),
      valor: String(r.valor),
      tipoCaptura: (r.tipoCaptura as string | undefined) ?? null,
      rotina: (r.rotina as string | undefined) ?? null,
      alteradaEm: r.em as Date,
    }));
    if (variaveis.length) {
      const insert = store.insert(v, variaveis);
      const target = [v.tenant, v.execucaoCircuitoId, v.alvoId, v.chave];
      await (update
        ? insert.onConflictDoUpdate({
            target,
            set: {
              valor: sql`excluded."valor"`,
              tipoCaptura: sql`excluded."tipo_captura"`,
              rotina: sql`excluded."rotina"`,
              alteradaEm: sql`excluded."alterada_em"`,
            },
          })
        : insert.onConflictDoNothing({ target }));
    }
    const i = execucaoCircuitoImagem;
    const imagens = last(
      rows.filter((r) => r.tipo === 'IMAGEM'),
      (r) => String(r.id),
    ).map((r) => ({
      id: String(r.id),
      execucaoCircuitoId: String(r.execucaoCircuitoId),
      alvoId: String(r.alvoId),
      cameraIp: String(r.cameraIp),
      imagemUrl: String(r.imagemUrl),
      capturadaEm: r.em as Date,
    }));
    if (imagens.length) {
      const insert = store.insert(i, imagens);
      const target = [i.tenant, i.id];
      await (update
        ? insert.onConflictDoUpdate({
            target,
            set: {
              execucaoCircuitoId: sql`excluded."execucao_circuito_id"`,
              alvoId: sql`excluded."alvo_id"`,
              cameraIp: sql`excluded."camera_ip"`,
              imagemUrl: sql`excluded."imagem_url"`,
              capturadaEm: sql`excluded."capturada_em"`,
            },
          })
        : insert.onConflictDoNothing({ target }));
    }
  },
};

// --- the yard's history: exports ------------------------------------------------------------------

const execucaoFields = (extra: string[]) =>
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

const historico: ExportTarget = {
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

/** Variables and camera images of executions, one file: `tipo` says which a row is. */
const detalhe: ExportTarget = (() => {
  const v = execucaoCircuitoVariavel;
  const i = execucaoCircuitoImagem;
  const d = (column: string) => sql.raw(`d."${column}"`);
  return {
    from: sql`(
      select ${v.id} as id, ${v.tenant} as tenant, ${v.execucaoCircuitoId} as "execucaoCircuitoId",
        'VARIAVEL' as tipo, ${v.alvoId} as "alvoId", ${v.chave} as chave, ${v.valor} as valor,
        ${v.tipoCaptura} as "tipoCaptura", ${v.rotina} as rotina, null::text as "cameraIp",
        null::text as "imagemUrl", ${v.alteradaEm} as em
      from ${v}
      union all
      select ${i.id}, ${i.tenant}, ${i.execucaoCircuitoId}, 'IMAGEM', ${i.alvoId}, null, null, null, null,
        ${i.cameraIp}, ${i.imagemUrl}, ${i.capturadaEm}
      from ${i}) d`,
    tenant: d('tenant'),
    key: [d('id')],
    fields: {
      id: { sql: d('id'), type: 'uuid' },
      execucaoCircuitoId: { sql: d('execucaoCircuitoId'), type: 'uuid' },
      tipo: str(d('tipo')),
      alvoId: str(d('alvoId')),
      chave: str(d('chave')),
      valor: str(d('valor')),
      tipoCaptura: str(d('tipoCaptura')),
      rotina: str(d('rotina')),
      cameraIp: str(d('cameraIp')),
      imagemUrl: str(d('imagemUrl')),
      em: { sql: d('em'), type: 'datetime' },
    },
  };
})();

// --- what the service declares ---------------------------------------------------------------

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
