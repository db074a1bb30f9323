import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// Platform tables. Row-level security is enabled with no policy, so the application role that
// handlers run as cannot read credentials at all; only the platform's system transactions can.

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant: text('tenant').notNull(),
    accessKey: text('access_key').notNull(),
    /** SHA-256 of the secret: secrets are 256 random bits, so a slow password hash adds nothing. */
    secretHash: text('secret_hash').notNull(),
    scope: text('scope').notNull(),
    /**
     * Whom a `public` key acts for, `<kind>:<id>` (e.g. `externalUser:<uuid>`); services read it in
     * ctx.caller.subject and restrict what the key sees (docs/authentication.md).
     */
    subject: text('subject'),
    description: text('description'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_access_key_key').on(t.accessKey), index('api_keys_tenant_idx').on(t.tenant)],
).enableRLS();

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant: text('tenant').notNull(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    /** The subject of the key the session was opened with. */
    subject: text('subject'),
    accessHash: text('access_hash').notNull(),
    refreshHash: text('refresh_hash').notNull(),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sessions_access_hash_key').on(t.accessHash),
    uniqueIndex('sessions_refresh_hash_key').on(t.refreshHash),
    index('sessions_key_idx').on(t.keyId),
  ],
).enableRLS();
