// Fails when the tables declared in src/ and the committed migrations in drizzle/ disagree
// (DESIGN.md "Persistence"): drizzle-kit generates against a copy of the history, and any new
// migration file means a schema change was not committed as a migration.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const copy = mkdtempSync(join(tmpdir(), 'ponte-migrations-'));
try {
  cpSync('drizzle', copy, { recursive: true });
  const before = readdirSync(copy).filter((f) => f.endsWith('.sql'));
  const output = execFileSync(
    'npx',
    [
      'drizzle-kit',
      'generate',
      '--dialect=postgresql',
      '--schema=./src/platform/**/tables.ts',
      '--schema=./src/services/**/tables.ts',
      '--schema=./src/services/**/tables/*.ts',
      `--out=${copy}`,
      '--name=uncommitted',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const added = readdirSync(copy).filter((f) => f.endsWith('.sql') && !before.includes(f));
  if (added.length > 0) {
    console.error(output);
    console.error(
      'The schema in src/**/tables.ts has changes with no committed migration: run `npm run db:generate`.',
    );
    process.exit(1);
  }
  console.log('migrations match the schema');
} finally {
  rmSync(copy, { recursive: true, force: true });
}
