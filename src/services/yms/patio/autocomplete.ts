import { and, asc, eq, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { query } from '../../../platform/core/registry.ts';
import { Record, Type } from '../../../platform/core/schema.ts';
import { containsText } from './common.ts';
import { TIPOS_AREA } from './entities.ts';
import { E } from './errors.ts';
import { area, planta } from './tables/plantas.ts';

// Autocomplete of plants and areas for the console's pickers (spec 000 §4.1; records:
// docs/patio.md "Autocomplete"). searchValue finds the one record a picker already holds (by id or
// code); searchText narrows by part of the code or name; both absent: the first records.

export const AUTOCOMPLETE_LIMIT = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const AutocompleteFilter = Record(
  'autocompleteFilter',
  Type.Object({
    value: Type.String({ description: 'the id of the record' }),
    label: Type.String({ description: 'what a picker shows: "<codigo> - <name>"' }),
    codigo: Type.String(),
  }),
);
export const AutocompleteFilterParameter = Record(
  'autocompleteFilterParameter',
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 50, description: 'plantaId, tipo or ativo' }),
    value: Type.String({ maxLength: 100 }),
  }),
);

const SearchText = Type.Optional(
  Type.String({ maxLength: 100, description: 'part of the code or name, case-insensitive' }),
);
const SearchValue = Type.Optional(
  Type.String({ maxLength: 100, description: 'exact id or code of one record' }),
);

/** searchValue: the record with that id or code; searchText: code or name containing it. */
function matching(
  columns: { id: AnyPgColumn; codigo: AnyPgColumn; nome: AnyPgColumn },
  searchText: string | undefined,
  searchValue: string | undefined,
): SQL | undefined {
  const value = searchValue?.trim();
  const text = searchText?.trim();
  return and(
    value
      ? UUID.test(value)
        ? or(eq(columns.id, value.toLowerCase()), eq(columns.codigo, value))
        : eq(columns.codigo, value)
      : undefined,
    text ? or(containsText(columns.codigo, text), containsText(columns.nome, text)) : undefined,
  );
}

const toFilter = (r: { id: string; codigo: string; nome: string }) => ({
  value: r.id,
  label: `${r.codigo} - ${r.nome}`,
  codigo: r.codigo,
});

/** Parameters of autocompleteFilterArea → conditions; an unknown name or a bad value is 400. */
function areaParameters(parameters: Array<{ name: string; value: string }>): SQL[] {
  const out: SQL[] = [];
  for (const { name, value } of parameters) {
    if (name === 'plantaId') {
      if (!UUID.test(value)) throw E.parametroInvalido({ name, rule: 'a uuid', value });
      out.push(eq(area.plantaId, value.toLowerCase()));
    } else if (name === 'tipo') {
      if (!(TIPOS_AREA as readonly string[]).includes(value))
        throw E.parametroInvalido({ name, rule: `one of ${TIPOS_AREA.join(', ')}`, value });
      out.push(eq(area.tipo, value));
    } else if (name === 'ativo') {
      if (value !== 'true' && value !== 'false')
        throw E.parametroInvalido({ name, rule: 'true or false', value });
      out.push(eq(area.ativo, value === 'true'));
    } else {
      throw E.parametroDesconhecido({ name, allowed: 'plantaId, tipo, ativo' });
    }
  }
  return out;
}

async function plantas(ctx: Ctx, where: SQL | undefined) {
  const rows = await ctx.tx
    .select({ id: planta.id, codigo: planta.codigo, nome: planta.nome })
    .from(planta)
    .where(ctx.store.scope(planta, where))
    .orderBy(asc(planta.codigo), asc(planta.id))
    .limit(AUTOCOMPLETE_LIMIT);
  return rows.map(toFilter);
}

export const autocomplete = {
  autocompleteFilterPlant: query({
    description: `Plants for a picker: by exact id or code (searchValue) and part of code or name (searchText); at most ${AUTOCOMPLETE_LIMIT}, by code`,
    get: true,
    input: Type.Object({ searchText: SearchText, searchValue: SearchValue }),
    output: Type.Object({ records: Type.Array(AutocompleteFilter) }),
    handler: async (ctx, input) => ({
      records: await plantas(
        ctx,
        matching(
          { id: planta.id, codigo: planta.codigo, nome: planta.nome },
          input.searchText,
          input.searchValue,
        ),
      ),
    }),
  }),

  autocompleteFilterArea: query({
    description: `Areas for a picker, narrowed by parameters (plantaId, tipo, ativo), searchValue and searchText; at most ${AUTOCOMPLETE_LIMIT}, by code`,
    input: Type.Object({
      parameters: Type.Optional(Type.Array(AutocompleteFilterParameter, { maxItems: 10 })),
      searchText: SearchText,
      searchValue: SearchValue,
    }),
    output: Type.Object({ records: Type.Array(AutocompleteFilter) }),
    handler: async (ctx, input) => {
      const where = and(
        ...areaParameters(input.parameters ?? []),
        matching(
          { id: area.id, codigo: area.codigo, nome: area.descricao },
          input.searchText,
          input.searchValue,
        ),
      );
      const rows = await ctx.tx
        .select({ id: area.id, codigo: area.codigo, nome: area.descricao })
        .from(area)
        .where(ctx.store.scope(area, where))
        .orderBy(asc(area.codigo), asc(area.id))
        .limit(AUTOCOMPLETE_LIMIT);
      return { records: rows.map(toFilter) };
    },
  }),
};
