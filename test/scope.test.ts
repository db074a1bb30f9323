import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Operation, ServiceDeclaration } from '../src/platform/core/declarations.ts';
import { refusal } from '../src/platform/core/entity.ts';
import { allServices } from '../src/services/index.ts';
import { type TestApp, tableCounts, testApp } from './harness.ts';
import { type Schema, sample } from './samples.ts';

// DESIGN.md "Visibility", generated from the declarations of every service: a key of scope
// `public` reaches the PUBLIC operations only; on every other it gets a 403 genericError and the
// database is unchanged; a `full` key reaches every operation. "Reaches" means the handler ran:
// the services are served with every handler wrapped to record its call, so an operation that
// answers an error of its own to a sample input (a login with a made-up key) still counts as
// reached, and one the bridge refused does not. One request per operation and key, one app.

const reached = new Set<string>();
const idOf = (service: ServiceDeclaration, name: string) => `${service.id}/${name}`;

const services: ServiceDeclaration[] = allServices.map((service) => ({
  ...service,
  operations: Object.fromEntries(
    Object.entries(service.operations as Record<string, Operation>).map(([name, op]) => [
      name,
      {
        ...op,
        handler: (ctx, input) => {
          reached.add(idOf(service, name));
          return op.handler(ctx, input);
        },
      } satisfies Operation,
    ]),
  ),
}));

const operations = services.flatMap((service) =>
  Object.entries(service.operations as Record<string, Operation>).map(([name, op]) => ({
    id: idOf(service, name),
    address: `${service.domain}/${service.name}/${op.kind}/${name}`,
    op,
  })),
);
const publicOps = operations.filter((o) => o.op.visibility === 'PUBLIC');
const privateOps = operations.filter((o) => o.op.visibility !== 'PUBLIC');
const entities = services.flatMap((service) =>
  service.entities.map((entity) => ({
    id: `${service.id}/entities/${entity.name}`,
    address: `${service.domain}/${service.name}/entities/${entity.name}`,
    entity,
  })),
);

let t: TestApp;
let fullKey: string;
let publicKey: string;

beforeAll(async () => {
  t = await testApp({ services, config: { operatorTenant: 'ops' } });
  fullKey = await t.tenant('ops');
  publicKey = (await t.key('ops', 'public')).apiKey;
});

/**
 * samples.ts's minimal value, made valid where a field has a rule it does not know: a `pattern`
 * (the hh:mm of shifts) or an `x-mask` of upper-case text (spec 001 §4.4), so every request below
 * passes validation and its handler runs whenever the bridge lets it through.
 */
function valid(schema: Schema & { pattern?: string; 'x-mask'?: string }): unknown {
  if (schema.type === 'object' && schema.default === undefined) {
    const out: Record<string, unknown> = {};
    for (const key of schema.required ?? []) out[key] = valid(schema.properties?.[key] ?? {});
    return out;
  }
  if (schema.type === 'array' && schema.default === undefined)
    return Array.from({ length: schema.minItems ?? 0 }, () => valid(schema.items ?? {}));
  const { pattern } = schema;
  if (schema.type === 'string' && pattern) {
    const fit = ['08:00', 'X', '1'].find((v) => new RegExp(pattern).test(v));
    if (fit) return fit;
  }
  if (schema.type === 'string' && schema['x-mask']?.startsWith('U[')) return 'X';
  return sample(schema);
}

/** One valid request to the operation, POST (every one has it). */
function send(address: string, op: Operation, auth: string): Promise<LightMyRequestResponse> {
  return t.call('ops', address, valid(op.input as Schema), { auth });
}

function isForbidden(res: LightMyRequestResponse): string | undefined {
  if (res.statusCode !== 403) return `answered ${res.statusCode}: ${res.body.slice(0, 200)}`;
  const body = res.json() as Record<string, unknown>;
  if (Object.keys(body).sort().join() !== 'message,reason') return `not a genericError: ${res.body}`;
  if (body.reason !== 'FORBIDDEN') return `reason ${String(body.reason)}`;
  return undefined;
}

describe('scope of keys, for every operation of every service', () => {
  it('declares operations of both visibilities', () => {
    expect(operations.every((o) => o.op.methods.includes('POST'))).toBe(true);
    expect(publicOps.length).toBeGreaterThan(10);
    expect(privateOps.length).toBeGreaterThan(10);
  });

  it('a public key gets a 403 genericError on every PRIVATE operation and entity, and changes nothing', async () => {
    const before = await tableCounts(t.db);
    const failures: string[] = [];
    for (const { id, address, op } of privateOps) {
      const problem = isForbidden(await send(address, op, publicKey));
      if (problem) failures.push(`${id}: ${problem}`);
      if (reached.has(id)) failures.push(`${id}: its handler ran`);
    }
    for (const { id, address, entity } of entities) {
      const list = await t.call('ops', address, undefined, { auth: publicKey, method: 'GET' });
      // An entity that serves no POST (EntityOptions.refuses) answers 405 to every key.
      const create = refusal(entity, 'create')
        ? undefined
        : await t.call('ops', address, valid(entity.input as Schema), { auth: publicKey });
      for (const [verb, res] of [
        ['GET', list],
        ['POST', create],
      ] as const) {
        if (!res) continue;
        const problem = isForbidden(res);
        if (problem) failures.push(`${verb} ${id}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('a public key reaches every PUBLIC operation', async () => {
    const missed: string[] = [];
    for (const { id, address, op } of publicOps) {
      const res = await send(address, op, publicKey);
      if (!reached.has(id)) missed.push(`${id}: answered ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(missed).toEqual([]);
  });

  it('a full key reaches every operation and entity', async () => {
    reached.clear();
    const missed: string[] = [];
    for (const { id, address, op } of operations) {
      const res = await send(address, op, fullKey);
      if (!reached.has(id)) missed.push(`${id}: answered ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    for (const { id, address } of entities) {
      const res = await t.call('ops', address, undefined, { auth: fullKey, method: 'GET' });
      if (res.statusCode !== 200)
        missed.push(`GET ${id}: answered ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(missed).toEqual([]);
  });
});
