import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../src/platform/core/db/database.ts';
import { copyPrefix } from './global-setup.ts';

// Upgrade tests of hand-edited migrations: a database migrated up to a migration, given the rows of
// that time, then migrated to the end, on the run's engine.

export { MIGRATIONS_FOLDER };

/** The migrations folder as it was before `tag`: its files and a journal cut there. */
export function historyBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-history-'));
  cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalFile = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/** An empty database of the run's engine: `migrate(folder)`, `query(text)`, `close()`. */
export async function emptyDatabase() {
  const template = inject('template');
  if (template.engine === 'pglite') {
    const client = await PGlite.create({ extensions: { pg_trgm, unaccent } });
    return {
      migrate: (folder: string) => migratePglite(drizzlePglite(client), { migrationsFolder: folder }),
      query: async <T>(text: string) => (await client.query<T>(text)).rows,
      close: () => client.close(),
    };
  }
  const name = `${copyPrefix(template.database)}${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: template.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(template.url);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    migrate: (folder: string) => migratePg(drizzlePg(client), { migrationsFolder: folder }),
    query: async <T>(text: string) => (await client.query(text)).rows as T[],
    close: async () => {
      await client.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** The history before `tag` for this file, removed when the file ends. */
export function historyForFile(tag: string): string {
  const dir = historyBefore(tag);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export type TestDatabase = Awaited<ReturnType<typeof emptyDatabase>>;

/**
 * An upgrade test of the migration `tag`: a database migrated up to just before it (the history as
 * it was) is given to `test`, which writes the rows of that time, migrates to the end and checks
 * them; the database is closed whatever happens.
 */
export function itUpgrades(tag: string, name: string, test: (db: TestDatabase) => Promise<void>) {
  const history = historyForFile(tag);
  it(name, async () => {
    const db = await emptyDatabase();
    try {
      await db.migrate(history);
      await test(db);
    } finally {
      await db.close();
    }
  }, 120_000);
}

/** The UUID numbered `n` (0 to 9): ids that read as such in upgrade tests' rows. */
export const uuidNumbered = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
