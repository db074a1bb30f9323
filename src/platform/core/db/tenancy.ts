import { sql } from 'drizzle-orm';
import { type AnyPgColumn, pgPolicy, pgRole, text } from 'drizzle-orm/pg-core';

// Tenant isolation, declared once. Every tenant-owned table has a `tenant` column that defaults to
// the transaction's tenant setting, and a row-level security policy for the application role: the
// second wall behind the store layer (DESIGN.md "Persistence"). The role itself is created by the
// first, hand-written migration.

export const APP_ROLE = 'ponte_app';
export const TENANT_SETTING = 'ponte.tenant';

export const appRole = pgRole(APP_ROLE).existing();

export const tenantColumn = () => text('tenant').notNull().default(sql`current_setting('ponte.tenant')`);

export const tenantIsolation = (tenant: AnyPgColumn) =>
  pgPolicy('tenant_isolation', {
    as: 'permissive',
    for: 'all',
    to: appRole,
    using: sql`${tenant} = current_setting('ponte.tenant', true)`,
    withCheck: sql`${tenant} = current_setting('ponte.tenant', true)`,
  });
