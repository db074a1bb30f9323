import { boolean, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../platform/core/entity.ts';

// The people who write the tenant's functions (docs/functions.md "Developers and consultants"):
// its own developers, and consultants of partner firms. The functions themselves are platform
// tables (platform/functions/tables.ts): the bridge reads them.

export const developer = pgTable(
  'functions_developer',
  {
    ...entityColumns(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    login: text('login'),
    phone: text('phone'),
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('functions_developer_email').on(t.tenant, t.email),
    tenantIsolation(t.tenant),
  ],
);

export const consultant = pgTable(
  'functions_consultant',
  {
    ...entityColumns(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company'),
    phone: text('phone'),
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('functions_consultant_email').on(t.tenant, t.email),
    tenantIsolation(t.tenant),
  ],
);
