import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allServices } from './index.ts';

// getDependencies (spec 001 §2.1) answers each service's declared `dependencies`: the services it
// calls. Derived here from the code, so that a call added later cannot be left out of the answer:
// another service's contract.ts imported by any of its files, and the platform's imports or exports
// service when it declares import or export kinds (those run its rows).

const SERVICES = resolve(import.meta.dirname);

/** The source files of a service's folder, tests aside. */
function sources(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('test-support'))
    .map((f) => join(folder, f));
}

/** The services whose contract.ts the files of `folder` import (`domain/name`). */
function contractsImported(folder: string): Set<string> {
  const found = new Set<string>();
  for (const file of sources(folder)) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '([^']+\/contract\.ts)'/g)) {
      const target = relative(SERVICES, resolve(file, '..', spec as string));
      const [domain, name] = target.split('/');
      found.add(`${domain}/${name}`);
    }
  }
  return found;
}

describe('getDependencies names every service a service calls', () => {
  it.each(allServices.map((s) => [`${s.domain}/${s.name}`, s] as const))('%s', (id, service) => {
    const called = contractsImported(join(SERVICES, service.domain, service.name));
    called.delete(id);
    if (Object.keys(service.imports ?? {}).length > 0) called.add('platform/imports');
    if (Object.keys(service.exports ?? {}).length > 0) called.add('platform/exports');
    expect([...(service.dependencies ?? [])].sort()).toEqual(expect.arrayContaining([...called].sort()));
  });
});
