import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TObject } from 'typebox';
import type { Tx } from '../../../platform/db/database.ts';
import type { ExportField, ExportTarget } from '../../../platform/exports/target.ts';
import { exportTargetOf } from '../../../platform/exports/target.ts';
import { type ImportTarget, type Refusal, refuse } from '../../../platform/imports/target.ts';
import { Type } from '../../../platform/schema.ts';
import { enderecoFields, normalizaEndereco, tipoVeiculoFields } from './cadastros.ts';
import { circuito as circuitoEntity, sequenciaCircuito as sequenciaEntity } from './circuitos.ts';
import {
  area as areaEntity,
  normalizePlaca,
  planta as plantaEntity,
  vaga as vagaEntity,
  veiculo as veiculoEntity,
} from './entities.ts';
import {
  area,
  circuito,
  endereco,
  execucaoCircuito,
  execucaoCircuitoImagem,
  execucaoCircuitoVariavel,
  historicoExecucaoCircuito,
  motorista,
  planta,
  sequenciaCircuito,
  tipoVeiculo,
  vaga,
  veiculo,
} from './tables.ts';

// The imports and exports of yms/patio (spec 000 §4.3; docs/patio.md "Imports and exports").
// Registers (Planta, Area, Vaga, Circuito, SequenciaCircuito, Veiculo, Endereco, TipoVeiculo) go
// both ways with the same fields: a file names a referenced record by its natural code
// (`plantaCodigo`, `areaCodigo`, `circuitoCodigo`), never by id, so an export of one tenant imports
// into another as the same records. `resolve` turns the codes into ids, one query per batch.
// The yard's history (ExecucaoCircuito, ExecucaoCircuitoDetalhe, HistoricoExecucaoCircuito,
// RamoExecucao) is exported for analysis, with ids and codes; it is not imported.

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
    resolve: async (tx, rows, tenant) => {
      const ids = await plantas(tx, tenant, rows);
      return rows.map((row) => {
        const plantaId = ids.get(String(row.plantaCodigo));
        return plantaId ? { ...row, plantaId } : semPlanta(row.plantaCodigo);
      });
    },
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
    resolve: async (tx, rows, tenant) => {
      const ids = await plantas(tx, tenant, rows);
      return rows.map((row) => {
        const plantaId = ids.get(String(row.plantaCodigo));
        return plantaId ? { ...row, plantaId } : semPlanta(row.plantaCodigo);
      });
    },
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
    resolve: async (tx, rows, tenant) => {
      const ids = await plantas(tx, tenant, rows);
      return rows.map((row) => {
        const plantaId = ids.get(String(row.plantaCodigo));
        return plantaId ? { ...row, plantaId } : semPlanta(row.plantaCodigo);
      });
    },
  },
  TipoVeiculo: {
    table: tipoVeiculo,
    row: Type.Object(tipoVeiculoFields),
    naturalKey: ['codigo'],
    prepare: (row) => ({ ...row, ativo: row.ativo ?? true }),
  },
};

// --- the yard's history: exports only -----------------------------------------------------------

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

export const patioImports: Record<string, ImportTarget> = Object.fromEntries(
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
);

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
