import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { Database } from '../src/platform/core/db/database.ts';

// Migrates one template database per run; every test file starts from a copy of it (a fresh
// database per file, without paying for migrations each time). On PGlite the template is a dumped
// data folder; on PostgreSQL (DATABASE_URL) it is a template database.

declare module 'vitest' {
  export interface ProvidedContext {
    template: { engine: 'pglite'; file: string } | { engine: 'postgres'; url: string; database: string };
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Per-file copies are named after this run's template, so a teardown never touches another run's. */
export const copyPrefix = (template: string) => `${template.replace('ponte_tpl_', 'ponte_t_')}_`;

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dir = mkdtempSync(join(tmpdir(), 'ponte-test-'));
    const db = await Database.open({});
    await db.migrate();
    const dump = await db.pglite!.dumpDataDir('none');
    await db.close();
    const file = join(dir, 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('template', { engine: 'pglite', file });
    return () => rmSync(dir, { recursive: true, force: true });
  }
  const database = `ponte_tpl_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const db = await Database.open({ databaseUrl: withDatabase(url, database), poolSize: 1 });
  await db.migrate();
  await db.close();
  project.provide('template', { engine: 'postgres', url, database });
  return async () => {
    const { rows } = await admin.query<{ datname: string }>(
      // Only this run's copies: a bare `_` in LIKE matches any character (and other runs' templates).
      `select datname from pg_database where datname like $2 or datname = $1`,
      [database, `${copyPrefix(database).replace(/_/g, '\\_')}%`],
    );
    for (const row of rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
    await admin.end();
  };
}
