import { beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../src/platform/core/declarations.ts';
import { refusal } from '../src/platform/core/entity.ts';
import { allServices } from '../src/services/index.ts';
import { type TestApp, tableCounts, testApp } from './harness.ts';
import { FORMATS, type Schema, sample } from './samples.ts';

// Bad-input tests generated from the declarations of every registered operation: each required
// field missing, each type wrong, each bound crossed. A service added later gets them for free.

function wrongType(schema: Schema): unknown {
  switch (schema.type) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not-a-number';
    case 'boolean':
      return 'yes';
    case 'array':
      return 'not-an-array';
    default:
      return 'not-an-object';
  }
}

interface Mutation {
  label: string;
  field: string;
  apply: (body: Record<string, unknown>) => void;
  message: RegExp;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every mutation of every field reachable through objects (array items are covered by their bounds). */
function mutations(schema: Schema, path: string[] = []): Mutation[] {
  const out: Mutation[] = [];
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    const at = [...path, key];
    const field = at.join('.');
    const parent = (body: Record<string, unknown>) =>
      path.reduce<Record<string, unknown>>((o, k) => {
        o[k] ??= {};
        return o[k] as Record<string, unknown>;
      }, body);
    const set = (value: unknown) => (body: Record<string, unknown>) => {
      parent(body)[key] = value;
    };
    const f = esc(field);
    // A field with an edit mask states its bounds too (masks.ts maskBounds); the mask's message,
    // which gives its whole rule, is the one a value outside them gets.
    const mask = (prop as { 'x-mask'?: string })['x-mask'];
    const bound = (message: string) =>
      new RegExp(mask ? `field '${f}' must follow the mask ${esc(mask)}` : message);
    if (schema.required?.includes(key)) {
      out.push({
        label: `${field} missing`,
        field,
        apply: (b) => {
          delete parent(b)[key];
        },
        message: new RegExp(`field '${f}' is required`),
      });
    }
    out.push({
      label: `${field} wrong type`,
      field,
      apply: set(wrongType(prop)),
      message: new RegExp(`field '${f}' must be of type`),
    });
    if (prop.maxLength !== undefined) {
      out.push({
        label: `${field} over maxLength ${prop.maxLength}`,
        field,
        apply: set('x'.repeat(prop.maxLength + 1)),
        message: bound(`field '${f}' must have at most ${prop.maxLength} characters`),
      });
    }
    if (prop.minLength !== undefined && prop.minLength > 0) {
      out.push({
        label: `${field} under minLength ${prop.minLength}`,
        field,
        apply: set('x'.repeat(prop.minLength - 1)),
        message: new RegExp(`field '${f}' must have at least ${prop.minLength} character`),
      });
    }
    if (prop.maximum !== undefined) {
      out.push({
        label: `${field} over maximum`,
        field,
        apply: set(prop.maximum + 1),
        message: bound(`field '${f}' must be <= ${prop.maximum}`),
      });
    }
    if (prop.minimum !== undefined) {
      out.push({
        label: `${field} under minimum`,
        field,
        apply: set(prop.minimum - 1),
        message: bound(`field '${f}' must be >= ${prop.minimum}`),
      });
    }
    if (prop.type === 'integer') {
      out.push({
        label: `${field} not an integer`,
        field,
        apply: set(1.5),
        message: new RegExp(`field '${f}' must be of type integer`),
      });
    }
    if (prop.minItems !== undefined && prop.minItems > 0) {
      out.push({
        label: `${field} under minItems`,
        field,
        apply: set([]),
        message: new RegExp(`field '${f}' must have at least ${prop.minItems} item`),
      });
    }
    if (prop.enum) {
      out.push({
        label: `${field} outside enum`,
        field,
        apply: set('__NOT_A_VALUE__'),
        message: new RegExp(`field '${f}' must be one of`),
      });
    }
    if (prop.format && FORMATS[prop.format] && prop.type === 'string') {
      out.push({
        label: `${field} bad ${prop.format}`,
        field,
        apply: set('not a value'),
        message: new RegExp(`field '${f}' must be a valid ${esc(prop.format)}`),
      });
    }
    if (prop.type === 'object') out.push(...mutations(prop, at));
  }
  return out;
}

const cases = allServices.flatMap((service) =>
  Object.entries(service.operations as Record<string, Operation>).flatMap(([name, op]) =>
    mutations(op.input as Schema).map((m) => ({
      address: `${service.domain}/${service.name}/${op.kind}/${name}`,
      input: op.input as Schema,
      mutation: m,
    })),
  ),
);

// The entities that serve a POST (EntityOptions.refuses: the others answer 405 before any check).
const entityCases = allServices.flatMap((service) =>
  service.entities.flatMap((entity) =>
    (refusal(entity, 'create') ? [] : mutations(entity.input as Schema)).map((m) => ({
      address: `${service.domain}/${service.name}/entities/${entity.name}`,
      input: entity.input as Schema,
      mutation: m,
    })),
  ),
);

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await testApp({ config: { operatorTenant: 'ops' } });
  key = await t.tenant('ops');
});

describe('generated bad-input tests', () => {
  it('covers every operation that declares an input field', () => {
    const withFields = allServices.flatMap((s) =>
      Object.entries(s.operations as Record<string, Operation>)
        .filter(([, op]) => Object.keys((op.input as Schema).properties ?? {}).length > 0)
        .map(([name]) => `${s.id}/${name}`),
    );
    const covered = new Set(
      cases.map((c) =>
        c.address
          .split('/')
          .filter((_, i) => i !== 2)
          .join('/'),
      ),
    );
    expect(withFields.filter((id) => !covered.has(id))).toEqual([]);
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(cases)('$address: $mutation.label → 400 naming the field', async ({ address, input, mutation }) => {
    const body = structuredClone(sample(input)) as Record<string, unknown>;
    mutation.apply(body);
    const res = await t.call('ops', address, body, { auth: key });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().reason).toBe('BAD_REQUEST');
    expect(res.json().message).toMatch(mutation.message);
  });

  it.each(entityCases)(
    '$address (POST): $mutation.label → 400 naming the field',
    async ({ address, input, mutation }) => {
      const body = structuredClone(sample(input)) as Record<string, unknown>;
      mutation.apply(body);
      const res = await t.call('ops', address, body, { auth: key });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(mutation.message);
    },
  );

  it('changed nothing in the database across all of them', async () => {
    const before = await tableCounts(t.db);
    for (const { address, input, mutation } of [...cases, ...entityCases]) {
      const body = structuredClone(sample(input)) as Record<string, unknown>;
      mutation.apply(body);
      await t.call('ops', address, body, { auth: key });
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });
});
