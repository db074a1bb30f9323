import type { PgColumn, PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';

/** The query layer over either engine (database.ts): drizzle's PostgreSQL database. */
export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;
/** A transaction of it: what a handler's `ctx.tx` is. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A table of tenant data: it has the `tenant` column (tenancy.ts). */
export type TenantTable = PgTable & { tenant: PgColumn };
