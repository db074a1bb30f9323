import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityDeclaration } from '../src/platform/core/declarations.ts';
import { refusal } from '../src/platform/core/entity.ts';
import { allServices } from '../src/services/index.ts';
import { type TestApp, testApp } from './harness.ts';
import { type Fixture, fixture, freeId, generate, type Json, SAMPLES } from './tenant-samples.ts';

// Tenants never meet (issue 10; DESIGN.md "Persistence"): for every entity of every registered
// service, and every child collection, tenant B posts the very ids and keys tenant A holds, and
// bulk ranges of the ids A would take next. A and B each get their own records; what A gets is
// what a control tenant C gets doing the same alone (int64 ids included); and B's answers about an
// id only A holds are those about an id nobody holds.

const NOW = new Date('2026-03-01T12:00:00Z');
let t: TestApp;

beforeAll(async () => {
  t = await testApp({ now: () => NOW });
});

interface Subject {
  label: string;
  entity: EntityDeclaration;
  /** `domain/service/entities/<entity>` or `.../<parent>/{parentId}/<children>` (the parent from SAMPLES). */
  base: (parentId: string | undefined) => string;
  child: boolean;
}

function subjects(): Subject[] {
  const out: Subject[] = [];
  for (const s of allServices) {
    for (const entity of s.entities) {
      const root = `${s.domain}/${s.name}/entities/${entity.name}`;
      out.push({ label: `${s.domain}/${s.name}/${entity.name}`, entity, base: () => root, child: false });
      for (const [name, { entity: child }] of Object.entries(entity.children)) {
        out.push({
          label: `${s.domain}/${s.name}/${entity.name}/${name}`,
          entity: child,
          base: (parentId) => `${root}/${parentId}/${name}`,
          child: true,
        });
      }
    }
  }
  return out;
}

const AUDIT = ['createdBy', 'createdDate', 'lastModifiedBy', 'lastModifiedDate'];
/** A record without what differs between two tenants doing the same: audit fields, and UUIDs. */
const alike = (idType: string) => (r: Json) =>
  Object.fromEntries(
    Object.entries(r).filter(([k]) => !AUDIT.includes(k) && (k !== 'id' || idType !== 'uuid')),
  );
const sorted = (rows: Json[]) => rows.map((r) => JSON.stringify(r)).sort();

/** One tenant's client for one subject. */
function client(subject: Subject, f: Fixture, auth: string) {
  const parentId = SAMPLES[subject.label]?.parentId;
  const base = subject.base(parentId);
  const send = (method: InjectOptions['method'], path: string, body?: unknown) =>
    t.call(f.tenant, path, body, { auth, method });
  const sample = SAMPLES[subject.label] ?? {};
  const body = (i: number, id?: unknown) => ({
    ...generate(subject.label, subject.entity.input, i, sample.fields?.(i) ?? {}),
    ...(id === undefined ? {} : { id }),
  });
  return {
    send,
    base,
    body,
    get: (id: unknown) => send('GET', `${base}/${id}`),
    /** POST of one body (an array of one for a child collection); the raw answer. */
    post: (b: Json) => send('POST', base, subject.child ? [b] : b),
    /** Creates the i-th sample (with `id` if given); answers the record as the entity shows it. */
    async create(i: number, id?: unknown): Promise<Json> {
      if (sample.createdBy) {
        const made = await sample.createdBy.create(f, i);
        const res = await send('GET', `${base}/${made.id}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json();
      }
      const res = await this.post(body(i, id));
      expect(res.statusCode, `${f.tenant} creating ${subject.label}: ${res.body}`).toBe(200);
      return subject.child ? res.json()[0] : res.json();
    },
    async list(): Promise<Json[]> {
      const res = await send('GET', `${base}?size=1000`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
  };
}

/** The two 404s (or other refusals) B gets must read the same once the id is blotted out. */
const sameAnswer = (a: { statusCode: number; body: string }, aId: unknown, b: typeof a, bId: unknown) => {
  expect(a.statusCode).toBe(b.statusCode);
  expect(a.body.replaceAll(String(aId), '?')).toBe(b.body.replaceAll(String(bId), '?'));
};

let tenants = 0;

describe('tenants never meet', () => {
  it('covers every entity and child collection of every registered service', () => {
    const labels = subjects().map((s) => s.label);
    expect(labels.length).toBeGreaterThanOrEqual(27);
    // A sample for an entity that no longer exists is a sample nobody runs.
    for (const label of Object.keys(SAMPLES)) expect(labels, label).toContain(label);
  });

  for (const subject of subjects()) {
    it(subject.label, async () => {
      const n = ++tenants;
      const [A, B, C] = await Promise.all(
        ['a', 'b', 'c'].map(async (x) => {
          const name = `n${n}-${x}`;
          const auth = await t.tenant(name);
          return { f: fixture(t, name, auth), auth };
        }),
      );
      const sample = SAMPLES[subject.label] ?? {};
      for (const x of [A!, B!, C!]) await sample.deps?.(x.f);
      const [a, b, c] = [A!, B!, C!].map((x) => client(subject, x.f, x.auth)) as [
        ReturnType<typeof client>,
        ReturnType<typeof client>,
        ReturnType<typeof client>,
      ];
      const int = subject.entity.idType === 'int64';
      const same = (x: Json, y: Json) => int && expect(x.id, 'the id C gets alone').toBe(y.id);

      const a1 = await a.create(0);
      same(a1, await c.create(0));

      // B posts A's id and A's natural key: its own record (or, where no client id is taken, the
      // same refusal as with an id nobody holds).
      const free = freeId(subject.entity.idType);
      const taken = await b.post(b.body(0, a1.id));
      const untaken = await b.post(b.body(5, free));
      expect(taken.statusCode, taken.body).toBe(untaken.statusCode);
      if (!sample.createdBy) {
        expect(taken.statusCode, taken.body).toBe(200);
        const mine = subject.child ? taken.json()[0] : taken.json();
        expect(mine.id).toBe(a1.id);
        expect(alike('uuid')(mine)).toEqual(alike('uuid')(a1));
      } else {
        expect(sample.createdBy.reason).toBeTruthy();
        sameAnswer(taken, a1.id, untaken, free);
      }

      const a2 = await a.create(1);
      same(a2, await c.create(1));

      // What only A holds is, to B, what nobody holds; B's DELETE leaves it where it is.
      const nobody = freeId(subject.entity.idType);
      for (const method of ['GET', 'DELETE'] as const) {
        const theirs = await b.send(method, `${b.base}/${a2.id}`);
        // An entity that serves no DELETE (EntityOptions.refuses) answers 405 whatever the id.
        const refused = method === 'DELETE' && refusal(subject.entity, 'change');
        expect(theirs.statusCode, `${method} of A's id`).toBe(refused ? 405 : 404);
        sameAnswer(theirs, a2.id, await b.send(method, `${b.base}/${nobody}`), nobody);
      }

      // A bulk of B over the ids A would take next.
      if (!sample.createdBy) {
        const ids = int ? [1, 2, 3].map((k) => Number(a2.id) + k) : [a2.id, randomUUID(), randomUUID()];
        const bodies = ids.map((id, k) => b.body(2 + k, id));
        const bulk = await b.send('POST', subject.child ? b.base : `${b.base}/bulk`, bodies);
        expect(bulk.statusCode, bulk.body).toBe(200);
        expect(bulk.json().map((r: Json) => r.id)).toEqual(ids);
      }

      const a3 = await a.create(2);
      same(a3, await c.create(2));

      // A sees what it would alone: its records as created, and C's list.
      for (const r of [a1, a2]) expect((await a.get(r.id)).json()).toEqual(r);
      const ours = await a.list();
      expect(ours.map((r) => r.id)).toEqual(expect.arrayContaining([a1.id, a2.id, a3.id]));
      const like = alike(subject.entity.idType);
      expect(sorted(ours.map(like))).toEqual(sorted((await c.list()).map(like)));

      // Its own keys still hold within the tenant.
      if (!sample.createdBy) {
        const dup = await a.post(a.body(3, a1.id));
        expect(dup.statusCode, 'a taken id').toBe(409);
        expect(dup.json().message).toMatch(/with the same id already exists$/);
        if (subject.entity.naturalKey.length)
          expect((await a.post(a.body(0))).statusCode, 'a taken natural key').toBe(409);
      }
    });
  }
});

describe('references across tenants', () => {
  it('refuses a reference to a row only another tenant holds, as it refuses a missing one', async () => {
    const keys = { a: await t.tenant('ref-a'), b: await t.tenant('ref-b') };
    const plant = await fixture(t, 'ref-a', keys.a).post('yms/patio/entities/planta', {
      codigo: 'P',
      nome: 'P',
    });
    const area = (plantaId: string) =>
      t.call(
        'ref-b',
        'yms/patio/entities/area',
        { plantaId, codigo: 'A', descricao: 'A', tipo: 'DOCA' },
        {
          auth: keys.b,
        },
      );
    const missing = randomUUID();
    const theirs = await area(String(plant.id));
    expect(theirs.statusCode).toBe(422);
    sameAnswer(theirs, plant.id, await area(missing), missing);

    // Behind the hooks, the database: (tenant, planta_id) → (tenant, id) finds no row of ref-b,
    // even for the platform role, which row-level security does not bind.
    const insert = sql`insert into patio_area (tenant, created_by, last_modified_by, planta_id, codigo, descricao, tipo)
                       values ('ref-b', 'test', 'test', ${plant.id}, 'X', 'X', 'DOCA')`;
    await expect(t.db.tenant('ref-b', (tx) => tx.execute(insert))).rejects.toMatchObject({
      cause: { code: '23503' },
    });
    await expect(t.db.system((tx) => tx.execute(insert))).rejects.toMatchObject({ cause: { code: '23503' } });
  });
});
