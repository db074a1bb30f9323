import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { TSchema } from 'typebox';
import type { Tx } from '../../../platform/core/db/database.ts';
import type { ExportField, ExportTarget } from '../../../platform/core/export-target.ts';
import { exportTargetOf } from '../../../platform/core/export-target.ts';
import { type ImportTarget, type Refusal, refuse } from '../../../platform/core/import-target.ts';
import { Int64, Type } from '../../../platform/core/schema.ts';
import { compile, fieldErrors } from '../../../platform/core/validation.ts';
import { codigoDaPlanta, plantasPorCodigo } from '../patio/contract.ts';
import { configuracaoAprovacaoAgendaEntity, MAX_NIVEIS } from './aprovacao.ts';
import { customTableEntity } from './custom.ts';
import { E } from './errors.ts';
import { customTable } from './tables/custom.ts';
import {
  configuracaoAprovacaoAgenda,
  historicoAprovacaoAgenda,
  historicoAprovacaoAgendaItem,
  preAgendaLog,
} from './tables/preagendas.ts';
import { tipoAgendamento } from './tables/tipos.ts';

// The imports and exports of yms/agenda (spec 000 §4.6; docs/agenda.md "Imports and exports").
// The configuration (ConfiguracaoAprovacaoAgenda, CustomTable) goes both ways with the same fields,
// to move it between environments: a file names the plant and the appointment type by their codes
// (`plantaCodigo`, `tipoAgendamentoCodigo`), never by id, and `resolve` turns them into the
// importing tenant's ids, one query per batch. The history (HistoricoAprovacaoAgenda and its items,
// PreAgendaLog) is written only by the pre-agenda flow: it is exported, with ids, not imported.
//
// The plant's code lives in yms/patio's `planta`: the export's subquery and the import's lookup are
// the SQL yms/patio publishes in its contract (an import target sees only its transaction, not a Ctx
// to call patio through; both services share the database of the modular monolith).

type Row = Record<string, unknown>;

const str = (value: SQL): ExportField => ({ sql: value, type: 'string' });
const distinct = (rows: Row[], field: string) =>
  [...new Set(rows.map((r) => r[field]).filter((v) => typeof v === 'string'))] as string[];

/** The schema of a property of an entity's fields. */
const fieldOf = (entity: { fields: { properties: Record<string, unknown> } }, name: string) =>
  entity.fields.properties[name] as TSchema;

/**
 * A list field of a row: the JSON array itself (JSON, JSONL), or in a CSV cell either the JSON text
 * an export writes (`["A","B"]`) or the items separated by `|` (`A|B`).
 */
const Lista = (items: TSchema, description: string) =>
  Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 20_000 }), items], {
      description: `${description}; in a CSV cell, the JSON array or the items separated by |`,
    }),
  );

/** The array of a list field, validated against `schema`, or the row's refusal. */
function lista(
  value: unknown,
  field: string,
  schema: TSchema,
  item: (text: string) => unknown,
): unknown[] | Refusal | undefined {
  if (value === undefined || value === null) return undefined;
  let parsed = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        return refuse(field, `field '${field}' is not a valid JSON array`);
      }
    } else parsed = text.split('|').map((part) => item(part.trim()));
  }
  const validate = compile(schema, 'body');
  if (!validate(parsed)) {
    const [first] = fieldErrors(validate.errors ?? []);
    const at = first && first.field !== 'body' ? first.field : '';
    const where = at ? `${field}${at.startsWith('[') ? '' : '.'}${at}` : field;
    return refuse(where, `field '${where}' ${first?.rule ?? 'is invalid'}`);
  }
  return parsed as unknown[];
}

const isRefusal = (v: unknown): v is Refusal => typeof v === 'object' && v !== null && 'refused' in v;

// --- ConfiguracaoAprovacaoAgenda --------------------------------------------------------------

const AprovadoresSchema = fieldOf(configuracaoAprovacaoAgendaEntity, 'aprovadores');
type Aprovador = { nivel: number; usuario: string };

/** `2:ana` → {nivel: 2, usuario: 'ana'} (the CSV form); anything else fails the schema. */
const aprovador = (text: string): unknown => {
  const at = text.indexOf(':');
  const nivel = Number(text.slice(0, at).trim());
  return at > 0 && Number.isInteger(nivel)
    ? { nivel, usuario: text.slice(at + 1).trim() }
    : { nivel: text, usuario: '' };
};

const configuracaoRow = Type.Object({
  plantaCodigo: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'code of the plant (yms/patio); empty: every plant',
    }),
  ),
  tipoAgendamentoCodigo: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 50,
      description: 'code of the appointment type; empty: every type',
    }),
  ),
  exigeAprovacao: Type.Optional(Type.Boolean({ description: 'default true' })),
  niveis: Type.Optional(
    Int64({ minimum: 1, maximum: MAX_NIVEIS, description: 'approval levels; default 1' }),
  ),
  aprovadores: Lista(
    AprovadoresSchema,
    'who may decide each level: [{nivel, usuario}]; in CSV also 1:ana|2:bia',
  ),
  descricao: Type.Optional(Type.String({ maxLength: 255 })),
});

async function idsPorCodigo(
  tx: Tx,
  tenant: string,
  table: typeof tipoAgendamento,
  codigos: string[],
): Promise<Map<string, string>> {
  if (codigos.length === 0) return new Map();
  const found = await tx
    .select({ id: table.id, codigo: table.codigo })
    .from(table)
    .where(and(eq(table.tenant, tenant), inArray(table.codigo, codigos)));
  return new Map(found.map((r) => [r.codigo, r.id]));
}

const configuracaoImport: ImportTarget = {
  table: configuracaoAprovacaoAgenda,
  row: configuracaoRow,
  naturalKey: ['plantaId', 'tipoAgendamentoId'],
  // Every column is written, so an update leaves nothing of the old record behind.
  prepare: (row) => ({
    ...row,
    exigeAprovacao: row.exigeAprovacao ?? true,
    niveis: row.niveis ?? 1,
    descricao: row.descricao ?? null,
  }),
  resolve: async (tx, rows, tenant) => {
    const plantas = await plantasPorCodigo(tx, tenant, distinct(rows, 'plantaCodigo'));
    const tipos = await idsPorCodigo(tx, tenant, tipoAgendamento, distinct(rows, 'tipoAgendamentoCodigo'));
    return rows.map((row): Row | Refusal => {
      let plantaId: string | null = null;
      if (row.plantaCodigo !== undefined) {
        plantaId = plantas.get(String(row.plantaCodigo)) ?? null;
        if (!plantaId) return refuse('plantaCodigo', `planta ${String(row.plantaCodigo)} não existe`);
      }
      let tipoAgendamentoId: string | null = null;
      if (row.tipoAgendamentoCodigo !== undefined) {
        tipoAgendamentoId = tipos.get(String(row.tipoAgendamentoCodigo)) ?? null;
        if (!tipoAgendamentoId)
          return refuse(
            'tipoAgendamentoCodigo',
            `tipo de agendamento ${String(row.tipoAgendamentoCodigo)} não existe`,
          );
      }
      const lidos = lista(row.aprovadores, 'aprovadores', AprovadoresSchema, aprovador);
      if (isRefusal(lidos)) return lidos;
      const niveis = Number(row.niveis);
      const aprovadores = ((lidos ?? []) as Aprovador[]).map((a) => ({
        nivel: a.nivel,
        usuario: a.usuario.trim(),
      }));
      // The entity's rule (aprovacao.ts): no approver above the levels.
      const acima = aprovadores.findIndex((a) => a.nivel > niveis);
      if (acima >= 0)
        return refuse(
          `aprovadores[${acima}].nivel`,
          E.configuracaoNivelInvalido({ indice: acima, nivel: aprovadores[acima]!.nivel, niveis }).message,
        );
      return { ...row, plantaId, tipoAgendamentoId, aprovadores };
    });
  },
};

const c = configuracaoAprovacaoAgenda;
const plantaCodigo = codigoDaPlanta(c.plantaId);
const tipoCodigo = sql`(select ${tipoAgendamento.codigo} from ${tipoAgendamento} where ${tipoAgendamento.id} = ${c.tipoAgendamentoId})`;

const configuracaoExport: ExportTarget = exportTargetOf(c, Object.keys(configuracaoRow.properties), {
  extra: {
    plantaCodigo: str(plantaCodigo),
    tipoAgendamentoCodigo: str(tipoCodigo),
  },
  // A configuration whose plant or type no longer exists is left out: imported without its code,
  // it would apply to every plant or type.
  where: sql`(${c.plantaId} is null or ${plantaCodigo} is not null) and (${c.tipoAgendamentoId} is null or ${tipoCodigo} is not null)`,
  // Configurations are few per tenant (one per plant and type): paged by id.
});

// --- CustomTable ------------------------------------------------------------------------------

const OpcoesSchema = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 200 });

const customRow = Type.Object({
  ...(customTableEntity.fields.properties as Record<string, TSchema>),
  opcoes: Lista(OpcoesSchema, 'the values of a LISTA (required for it, refused for the other types)'),
});

const customImport: ImportTarget = {
  table: customTable,
  row: customRow,
  naturalKey: ['entidade', 'chave'],
  prepare: (row) => ({
    ...row,
    obrigatorio: row.obrigatorio ?? false,
    tamanhoMaximo: row.tamanhoMaximo ?? null,
  }),
  // The entity's rules (custom.ts): a LISTA has options, without repeats; the others have none;
  // tamanhoMaximo is of a TEXTO.
  resolve: async (_tx, rows) =>
    rows.map((row): Row | Refusal => {
      const chave = String(row.chave);
      const tipo = String(row.tipo);
      const opcoes = lista(row.opcoes, 'opcoes', OpcoesSchema, (s) => s);
      if (isRefusal(opcoes)) return opcoes;
      if (tipo === 'LISTA') {
        if (!opcoes?.length) return refuse('opcoes', E.customOpcoesObrigatorias({ chave }).message);
        if (new Set(opcoes).size !== opcoes.length)
          return refuse('opcoes', E.customOpcoesRepetidas({ chave }).message);
      } else if (opcoes?.length) return refuse('opcoes', E.customOpcoesSemLista({ chave, tipo }).message);
      if (row.tamanhoMaximo !== null && tipo !== 'TEXTO')
        return refuse('tamanhoMaximo', E.customTamanhoSemTexto({ chave, tipo }).message);
      return { ...row, opcoes: tipo === 'LISTA' ? opcoes : null };
    }),
};

const customExport = exportTargetOf(customTable, Object.keys(customRow.properties), {
  key: ['entidade', 'chave'],
});

// --- the history: exports only ----------------------------------------------------------------

const h = historicoAprovacaoAgenda;
const i = historicoAprovacaoAgendaItem;

// In the order they happened (the sequence column; its (tenant, seq) index makes a batch one range).
const historicoExport = exportTargetOf(
  h,
  [
    'id',
    'seq',
    'preAgendaId',
    'configuracaoId',
    'niveis',
    'aprovadores',
    'nivelAtual',
    'status',
    'inicio',
    'fim',
  ],
  { key: ['seq'] },
);

const itemExport = exportTargetOf(
  i,
  [
    'id',
    'seq',
    'historicoAprovacaoId',
    'preAgendaId',
    'nivel',
    'aprovador',
    'decisao',
    'comentario',
    'quem',
    'quando',
  ],
  {
    extra: {
      preAgendaId: {
        sql: sql`(select ${h.preAgendaId} from ${h} where ${h.id} = ${i.historicoAprovacaoId})`,
        type: 'uuid',
      },
    },
    key: ['seq'],
  },
);

const logExport = exportTargetOf(
  preAgendaLog,
  ['id', 'seq', 'preAgendaId', 'acao', 'de', 'para', 'alteracoes', 'motivo', 'quem', 'quando'],
  { key: ['seq'] },
);

// --- what the service declares ---------------------------------------------------------------

/** The five kinds of spec 000 §4.6, in its order: each has import<X>Event and export<X>Event. */
export const TRANSFER_KINDS = [
  'ConfiguracaoAprovacaoAgenda',
  'HistoricoAprovacaoAgenda',
  'HistoricoAprovacaoAgendaItem',
  'PreAgendaLog',
  'CustomTable',
];

export const agendaImports: Record<string, ImportTarget> = {
  ConfiguracaoAprovacaoAgenda: configuracaoImport,
  CustomTable: customImport,
};

export const agendaExports: Record<string, ExportTarget> = {
  ConfiguracaoAprovacaoAgenda: configuracaoExport,
  HistoricoAprovacaoAgenda: historicoExport,
  HistoricoAprovacaoAgendaItem: itemExport,
  PreAgendaLog: logExport,
  CustomTable: customExport,
};
