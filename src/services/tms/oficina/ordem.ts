import { asc, desc, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Enum, Record, type Static, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';

// recPageRequest's orderBy (spec 001 §2.9: an array of recFieldsOrderBy, field and order ASC or
// DESC; docs/oficina.md "Paging"): each field names a field of the record listed, mapped here to
// the column or expression that yields it, never to SQL text from the request. A field the record
// does not have is a 400 naming it. The list's own order follows as the tie-breaker, so a page is
// stable whatever is asked.

export const FieldsOrderBy = Record(
  'recFieldsOrderBy',
  Type.Object({
    field: Type.String({ minLength: 1, maxLength: 60, description: 'a field of the record listed' }),
    order: Record('enumTypeOrder', Enum(['ASC', 'DESC'] as const, { description: 'ASC or DESC' })),
  }),
);

export const OrderBy = Type.Optional(
  Type.Array(FieldsOrderBy, {
    maxItems: 10,
    description: 'recPageRequest orderBy: fields of the listed record, first first; ties in the list order',
  }),
);

/** The ORDER BY of a list: the fields asked (known ones only), then the list's own order. */
export function ordem(
  orderBy: Array<Static<typeof FieldsOrderBy>> | undefined,
  campos: { [field: string]: AnyPgColumn | SQL },
  registro: string,
  propria: SQL[],
): SQL[] {
  // A query string cannot carry records: its orderBy reaches here unchecked (bridge.ts queryStringOf).
  if (orderBy !== undefined && !Array.isArray(orderBy)) throw E.ordemNaoLista();
  const pedidas = (orderBy ?? []).map(({ field, order }) => {
    const campo = Object.hasOwn(campos, field) ? campos[field] : undefined;
    if (campo === undefined)
      throw E.campoDeOrdem({ field, registro, campos: Object.keys(campos).sort().join(', ') });
    return order === 'DESC' ? desc(campo) : asc(campo);
  });
  return [...pedidas, ...propria];
}
