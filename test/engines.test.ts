import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from './processes.ts';

// `engines.node` of package.json is a promise: `npm ci` on the oldest Node it allows installs every
// locked package without an EBADENGINE warning. A dependency that moves to a newer Node is pinned
// (package.json `overrides`) to a version that still runs on ours, or the promise is changed.

const json = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));

describe('engines', () => {
  const oldest = semver.minVersion(json('package.json').engines.node)!;

  it('allows the Node this runs on, and no Node older than 20', () => {
    expect(semver.satisfies(process.version, json('package.json').engines.node)).toBe(true);
    expect(semver.major(oldest)).toBe(20);
  });

  it('every locked package supports the oldest Node that package.json allows', () => {
    const packages: Record<string, { version?: string; engines?: { node?: string } }> =
      json('package-lock.json').packages;
    const refusing = Object.entries(packages)
      .filter(([, p]) => p.engines?.node && !semver.satisfies(oldest, p.engines.node))
      .map(([path, p]) => `${path}@${p.version} wants node ${p.engines!.node}`);
    expect(refusing).toEqual([]);
  });
});
