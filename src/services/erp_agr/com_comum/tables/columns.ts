import { text } from 'drizzle-orm/pg-core';
import type * as S from '../schemas.ts';

// erp_agr/com_comum's tables (docs/com_comum.md), one file per group of records. Property names
// are the JSON field names: the queries, the entity engine and the imports all read them. Every
// table has an int64 surrogate id numbered per tenant (primary key (tenant, id),
// platform/db/keys.ts) and a unique index on (tenant, natural key); references between these tables
// are natural codes (filial.codigoEmpresa, cidade.siglaEstado), so each import is a plain upsert
// with no lookups.

type Of<V extends readonly string[]> = V[number];
/** A text column holding one value of an enumeration of schemas.ts. */
export const oneOf = <V extends readonly string[]>(name: string) => text(name).$type<Of<V>>().notNull();
export const situacao = () => oneOf<typeof S.SITUACOES>('situacao').default('Ativo');
