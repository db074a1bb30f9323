import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { copyPrefix } from '../../../test/global-setup.ts';
import { MIGRATIONS_FOLDER } from '../core/db/database.ts';

// The upgrade that gave import_errors its key (drizzle/0035_tenant_keys_everywhere.sql), run on a
// database holding errors written before it: each row's errors are numbered from 0, in the order
// they were stored, and the key holds them all, for every tenant alike.

const BEFORE = '0035_tenant_keys_everywhere';

/** The migrations folder as it was before `tag`: its files and a journal cut there. */
function historyBefore(tag: string): string {
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
async function emptyDatabase() {
  const template = inject('template');
  if (template.engine === 'pglite') {
    const client = await PGlite.create({ extensions: { pg_trgm } });
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

const history = historyBefore(BEFORE);
afterAll(() => rmSync(history, { recursive: true, force: true }));

it('numbers the stored errors of each row from 0, in their order, and keys them by the tenant', async () => {
  const db = await emptyDatabase();
  try {
    await db.migrate(history);
    const job = '00000000-0000-4000-8000-000000000001';
    const other = '00000000-0000-4000-8000-000000000002';
    await db.query(`insert into import_errors (tenant, import_id, row, field, message) values
      ('acme', '${job}', 3, 'nome', 'a'), ('acme', '${job}', 3, 'nascimento', 'b'),
      ('acme', '${job}', 2, 'codigo', 'c'), ('acme', '${job}', 3, null, 'd'),
      ('acme', '${other}', 3, 'nome', 'e'), ('globex', '${job}', 3, 'nome', 'f')`);
    await db.migrate(MIGRATIONS_FOLDER);
    const rows = await db.query<{
      tenant: string;
      import_id: string;
      row: number;
      seq: number;
      message: string;
    }>('select tenant, import_id, row, seq, message from import_errors order by tenant, import_id, row, seq');
    expect(
      rows.map((r) => [r.tenant, r.import_id === job ? 'job' : 'other', r.row, r.seq, r.message]),
    ).toEqual([
      ['acme', 'job', 2, 0, 'c'],
      ['acme', 'job', 3, 0, 'a'],
      ['acme', 'job', 3, 1, 'b'],
      ['acme', 'job', 3, 2, 'd'],
      ['acme', 'other', 3, 0, 'e'],
      ['globex', 'job', 3, 0, 'f'],
    ]);
    const [key] = await db.query<{ columns: string }>(
      `select pg_get_constraintdef(oid) as columns from pg_constraint
        where conrelid = 'import_errors'::regclass and contype = 'p'`,
    );
    expect(key?.columns).toBe('PRIMARY KEY (tenant, import_id, "row", seq)');
  } finally {
    await db.close();
  }
}, 120_000);
