// Fails when the tables declared in src/ and the committed migrations in drizzle/ disagree
// (DESIGN.md "Persistence"): drizzle-kit generates against a copy of the history, and any new
// migration file means a schema change was not committed as a migration.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const copy = mkdtempSync(join(tmpdir(), 'ponte-migrations-'));
try {
  cpSync('drizzle', copy, { recursive: true });
  const before = readdirSync(copy).filter((f) => f.endsWith('.sql'));
  // drizzle-kit keeps only the last of several --schema options, so the globs of drizzle.config.ts
  // go as one; it reads an absolute --out as relative to the working folder (and, failing to read
  // that folder, exits 0 having compared nothing), so the copy is named relative to it.
  const output = execFileSync(
    'npx',
    [
      'drizzle-kit',
      'generate',
      '--dialect=postgresql',
      '--schema=./src/{platform/**/tables.ts,services/**/tables.ts,services/**/tables/*.ts}',
      `--out=${relative(process.cwd(), copy)}`,
      '--name=uncommitted',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const added = readdirSync(copy).filter((f) => f.endsWith('.sql') && !before.includes(f));
  if (added.length === 0 && !output.includes('No schema changes')) {
    console.error(output);
    console.error('drizzle-kit compared nothing: the check of the migrations did not run.');
    process.exit(1);
  }
  if (added.length > 0) {
    console.error(output);
    console.error(
      'The schema in src/**/tables.ts and tables/*.ts has changes with no committed migration: run `npm run db:generate`.',
    );
    process.exit(1);
  }
  console.log('migrations match the schema');
} finally {
  rmSync(copy, { recursive: true, force: true });
}
