import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { Enum, Int64, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { customTable } from './tables/custom.ts';

// Custom fields (spec 000 §4.6: the agenda entity is customizable; CustomTable has import and export
// events): the tenant defines, per customizable record, the keys its `custom` object may carry, with
// a label, a type, whether it is required and the options of a list. Every write of an agenda or a
// pre-agenda that sets `custom` is checked against them (docs/agenda.md "Custom fields").

export const ENTIDADES_CUSTOMIZAVEIS = ['agenda', 'preAgenda'] as const;
export type EntidadeCustomizavel = (typeof ENTIDADES_CUSTOMIZAVEIS)[number];
export const TIPOS_CAMPO = ['TEXTO', 'NUMERO', 'BOOLEANO', 'DATA', 'LISTA'] as const;
type TipoCampo = (typeof TIPOS_CAMPO)[number];

export const MAX_TEXTO = 2000;

export const customTableEntity = defineEntity({
  name: 'customTable',
  description: 'Custom-field definitions of the customizable records (agenda, preAgenda)',
  table: customTable,
  naturalKey: ['entidade', 'chave'],
  fields: Type.Object({
    entidade: Enum(ENTIDADES_CUSTOMIZAVEIS, { description: 'the record whose custom object it describes' }),
    chave: Type.String({
      minLength: 1,
      maxLength: 63,
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description: 'the key in the custom object; unique per entidade',
    }),
    rotulo: Type.String({ minLength: 1, maxLength: 255, description: 'label shown to users' }),
    tipo: Enum(TIPOS_CAMPO, {
      description: 'TEXTO (string), NUMERO (number), BOOLEANO, DATA (YYYY-MM-DD), LISTA (one of opcoes)',
    }),
    obrigatorio: Type.Optional(Type.Boolean({ description: 'default false' })),
    opcoes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
        maxItems: 200,
        description: 'the values of a LISTA (required for it, refused for the other types)',
      }),
    ),
    tamanhoMaximo: Type.Optional(
      Int64({ minimum: 1, maximum: MAX_TEXTO, description: `longest TEXTO value; default ${MAX_TEXTO}` }),
    ),
  }),
  hooks: {
    beforeSave: async (_ctx, next) => {
      next.obrigatorio ??= false;
      const opcoes = next.opcoes as string[] | null | undefined;
      if (next.tipo === 'LISTA') {
        if (!opcoes?.length) throw E.customOpcoesObrigatorias({ chave: String(next.chave) });
        if (new Set(opcoes).size !== opcoes.length)
          throw E.customOpcoesRepetidas({ chave: String(next.chave) });
      } else if (opcoes?.length) {
        throw E.customOpcoesSemLista({ chave: String(next.chave), tipo: String(next.tipo) });
      }
      if (next.tamanhoMaximo != null && next.tipo !== 'TEXTO')
        throw E.customTamanhoSemTexto({ chave: String(next.chave), tipo: String(next.tipo) });
    },
  },
});

type Definicao = typeof customTable.$inferSelect;

const DATA = /^(\d{4})-(\d{2})-(\d{2})$/;
const dataValida = (v: string) => {
  const m = DATA.exec(v);
  if (!m) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

/** Why `value` does not fit `def`, or undefined when it does. */
function problema(def: Definicao, value: unknown): string | undefined {
  switch (def.tipo as TipoCampo) {
    case 'TEXTO': {
      if (typeof value !== 'string') return 'deve ser texto (string)';
      const max = def.tamanhoMaximo ?? MAX_TEXTO;
      return value.length > max ? `deve ter no máximo ${max} caracteres` : undefined;
    }
    case 'NUMERO':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'deve ser um número';
    case 'BOOLEANO':
      return typeof value === 'boolean' ? undefined : 'deve ser true ou false';
    case 'DATA':
      return typeof value === 'string' && dataValida(value) ? undefined : 'deve ser uma data YYYY-MM-DD';
    case 'LISTA':
      return typeof value === 'string' && (def.opcoes ?? []).includes(value)
        ? undefined
        : `deve ser uma das opções: ${(def.opcoes ?? []).join(', ')}`;
  }
}

const mesmo = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/**
 * Checks the `custom` object of an agenda or a pre-agenda against the tenant's definitions for that
 * record: an unknown key, a value of the wrong type or a required field left empty is 422 naming the
 * field. A tenant without definitions for the record keeps a free-form object. On an update whose
 * `custom` did not change (`anterior`), nothing is checked: definitions added later do not block
 * edits of other fields.
 */
export async function validarCustom(
  ctx: Ctx,
  entidade: EntidadeCustomizavel,
  custom: unknown,
  anterior?: unknown,
): Promise<void> {
  if (anterior !== undefined && mesmo(custom, anterior)) return;
  const defs = await ctx.store.select(customTable, eq(customTable.entidade, entidade));
  if (!defs.length) return;
  const valores = (custom ?? {}) as Record<string, unknown>;
  const porChave = new Map(defs.map((d) => [d.chave, d]));
  for (const [chave, value] of Object.entries(valores)) {
    const def = porChave.get(chave);
    if (!def) throw E.customDesconhecido({ chave, entidade });
    if (value === null) continue;
    const erro = problema(def, value);
    if (erro) throw E.customInvalido({ chave, entidade, erro });
  }
  for (const def of defs) {
    const value = valores[def.chave];
    if (def.obrigatorio && (value === undefined || value === null || value === ''))
      throw E.customObrigatorio({ chave: def.chave, entidade, rotulo: def.rotulo });
  }
}

/** The keys of `custom` that the tenant defines for `entidade` (all of them when it defines none). */
export async function filtrarCustom(
  ctx: Ctx,
  entidade: EntidadeCustomizavel,
  custom: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const defs = await ctx.store.select(customTable, eq(customTable.entidade, entidade));
  if (!defs.length) return { ...custom };
  const chaves = new Set(defs.map((d) => d.chave));
  return Object.fromEntries(Object.entries(custom).filter(([k]) => chaves.has(k)));
}
