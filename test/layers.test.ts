import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './processes.ts';

// The layer rules of docs/platform.md "Layers" are only worth their name if they bite: a small tree
// breaks each rule once, beside imports the rules allow, and the checker must name exactly the
// broken ones. `npm run layers` runs the same configuration on src/.

const run = promisify(execFile);

/** path → the relative imports it makes. */
const TREE: Record<string, string[]> = {
  // allowed
  'src/platform/core/model.ts': ['./db/store.ts'],
  'src/platform/core/db/store.ts': [],
  'src/platform/jobs/queue.ts': ['../core/model.ts'],
  'src/platform/app.ts': ['./jobs/queue.ts', './http/routes.ts'],
  'src/services/yard/gate/service.ts': ['../../../platform/core/model.ts', '../dock/contract.ts'],
  'src/services/yard/dock/contract.ts': ['./schemas.ts', '../../../platform/core/model.ts'],
  'src/services/yard/dock/schemas.ts': [],
  'src/services/yard/dock/tables.ts': [],
  'src/services/yard/dock/fixtures.ts': ['../gate/tables.ts'],
  'src/services/yard/gate/tables.ts': [],
  'src/services/yard/gate/service.test.ts': ['../dock/tables.ts', '../../../platform/app.ts'],
  // broken, one rule each (a cycle is named once, by its first edge)
  'src/platform/core/a.ts': ['./b.ts'],
  'src/platform/core/b.ts': ['./a.ts'],
  'src/platform/core/reaches-up.ts': ['../jobs/queue.ts'],
  'src/platform/http/routes.ts': ['../jobs/queue.ts'],
  'src/platform/jobs/knows-a-service.ts': ['../../services/yard/gate/service.ts'],
  'src/services/yard/gate/builds-the-app.ts': ['../../../platform/app.ts'],
  'src/services/yard/gate/reads-tables.ts': ['../dock/tables.ts'],
  'src/services/yard/gate/contract.ts': ['./tables.ts'],
  'src/services/yard/gate/loads-test-data.ts': ['../dock/fixtures.ts'],
  'src/services/yard/gate/typo.ts': ['./missing.ts'],
};

const BROKEN = [
  ['no-cycle', 'src/platform/core/a.ts', 'src/platform/core/b.ts'],
  ['core-imports-nothing-above-it', 'src/platform/core/reaches-up.ts', 'src/platform/jobs/queue.ts'],
  ['runtime-imports-only-core', 'src/platform/http/routes.ts', 'src/platform/jobs/queue.ts'],
  [
    'platform-imports-no-service',
    'src/platform/jobs/knows-a-service.ts',
    'src/services/yard/gate/service.ts',
  ],
  [
    'only-the-composition-knows-every-part',
    'src/services/yard/gate/builds-the-app.ts',
    'src/platform/app.ts',
  ],
  [
    'service-imports-only-contracts-of-others',
    'src/services/yard/gate/reads-tables.ts',
    'src/services/yard/dock/tables.ts',
  ],
  [
    'service-imports-only-contracts-of-others',
    'src/services/yard/gate/loads-test-data.ts',
    'src/services/yard/dock/fixtures.ts',
  ],
  [
    'contract-imports-no-tables-or-handlers',
    'src/services/yard/gate/contract.ts',
    'src/services/yard/gate/tables.ts',
  ],
  [
    'code-imports-no-test-code',
    'src/services/yard/gate/loads-test-data.ts',
    'src/services/yard/dock/fixtures.ts',
  ],
  ['no-unresolvable', 'src/services/yard/gate/typo.ts', './missing.ts'],
].map((v) => v.join(' '));

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

async function cruise(dir: string): Promise<string[]> {
  const bin = join(ROOT, 'node_modules/.bin/depcruise');
  const args = ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  // The checker exits non-zero when it finds violations; its report is on stdout either way.
  const { stdout } = await run(bin, args, { cwd: dir, maxBuffer: 16 << 20 }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations.map((v) => `${v.rule.name} ${v.from} ${v.to}`).sort();
}

describe('the layer rules (npm run layers)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-layers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('name every rule a change breaks, and nothing the layers allow', async () => {
    for (const file of ['.dependency-cruiser.cjs', 'tsconfig.json'])
      copyFileSync(join(ROOT, file), join(dir, file));
    for (const [path, imports] of Object.entries(TREE)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      const lines = imports.map((spec, i) => `import * as m${i} from '${spec}';\nvoid m${i};`);
      writeFileSync(join(dir, path), `${lines.join('\n')}\nexport const here = 1;\n`);
    }
    expect(await cruise(dir)).toEqual([...BROKEN].sort());
  });
});
