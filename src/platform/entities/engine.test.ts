import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestApp, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import { defineEntity, entityColumns } from '../core/entity.ts';
import { errors } from '../core/errors.ts';
import { defineService } from '../core/registry.ts';
import { Int64, Type } from '../core/schema.ts';

// The generic entity routes of spec 000 §2.3 through a test entity with a child collection.

const carretas = pgTable('test_carretas', {
  ...entityColumns(),
  carretaVeiculoId: uuid('carreta_veiculo_id').notNull(),
  placa: text('placa').notNull(),
  eixos: integer('eixos'),
});
const veiculos = pgTable(
  'test_veiculos',
  {
    ...entityColumns(),
    placa: text('placa').notNull(),
    modelo: text('modelo'),
    ano: integer('ano'),
    ativo: boolean('ativo'),
    cor: text('cor'),
  },
  (t) => [uniqueIndex('test_veiculos_placa').on(t.tenant, t.placa)],
);

const carreta = defineEntity({
  name: 'carreta',
  table: carretas,
  fields: Type.Object({
    carretaVeiculoId: Type.Optional(Type.String({ format: 'uuid', description: 'set from the parent path' })),
    placa: Type.String({ minLength: 7, maxLength: 8 }),
    eixos: Type.Optional(Int64({ minimum: 1, maximum: 9 })),
  }),
});
const veiculo = defineEntity({
  name: 'veiculo',
  table: veiculos,
  naturalKey: ['placa'],
  fields: Type.Object({
    placa: Type.String({ minLength: 7, maxLength: 8 }),
    modelo: Type.Optional(Type.String({ maxLength: 60 })),
    ano: Type.Optional(Int64({ minimum: 1950, maximum: 2100 })),
    ativo: Type.Optional(Type.Boolean()),
    cor: Type.Optional(Type.String({ maxLength: 20, default: 'branco' })),
  }),
  children: { carretas: { entity: carreta, parentField: 'carretaVeiculoId' } },
  hooks: {
    beforeDelete: async (_ctx, row) => {
      if (row.ativo) throw errors.unprocessable(`veiculo ${row.placa} is active; deactivate it first`);
    },
  },
});
const frota = defineService({
  domain: 'test',
  name: 'frota',
  version: '1.0.0',
  title: 'Fleet',
  operations: {},
  entities: [veiculo, carreta],
});

let t: TestApp;
let key: string;
let other: string;
const E = 'test/frota/entities';

beforeAll(async () => {
  // A connection per concurrent edit of the lost-update race below (PostgreSQL).
  t = await testApp({ services: [...allServices, frota], db: await openTestDb({ poolSize: 8 }) });
  for (const table of ['test_veiculos', 'test_carretas']) {
    const extra =
      table === 'test_veiculos'
        ? `placa text not null, modelo text, ano integer, ativo boolean, cor text`
        : `carreta_veiculo_id uuid not null, placa text not null, eixos integer,
           foreign key (tenant, carreta_veiculo_id) references test_veiculos (tenant, id) on delete cascade`;
    const statements = [
      // Keyed as every tenant table is (platform/core/db/keys.ts): (tenant, id), references within the tenant.
      `create table ${table} (
          id uuid not null default gen_random_uuid(),
          tenant text not null default current_setting('ponte.tenant'),
          created_by text not null, created_date timestamptz not null default now(),
          last_modified_by text not null, last_modified_date timestamptz not null default now(),
          primary key (tenant, id), ${extra})`,
      `alter table ${table} enable row level security`,
      `create policy tenant_isolation on ${table} to ponte_app
          using (tenant = current_setting('ponte.tenant', true)) with check (tenant = current_setting('ponte.tenant', true))`,
      `grant select, insert, update, delete on ${table} to ponte_app`,
    ];
    for (const statement of statements) await t.db.system((tx) => tx.execute(sql.raw(statement)));
  }
  await t.db.system((tx) =>
    tx.execute(sql`create unique index test_veiculos_placa on test_veiculos (tenant, placa)`),
  );
  key = await t.tenant('acme');
  other = await t.tenant('globex');
});

const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, auth = key) =>
  t.app.inject({
    method,
    url: `/t/${auth === key ? 'acme' : 'globex'}/bridge/1.0/rest/${E}/${path}`,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

describe('entity routes', () => {
  let id: string;

  it('creates with server-filled id and audit fields, ignoring audit fields in the body', async () => {
    const res = await req('POST', 'veiculo', {
      placa: 'ABC1D23',
      modelo: 'FH 540',
      ano: 2022,
      createdBy: 'mallory',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ placa: 'ABC1D23', modelo: 'FH 540', ano: 2022 });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.createdBy).toMatch(/^key:/);
    expect(body.createdBy).not.toBe('mallory');
    expect(new Date(body.createdDate).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(body).not.toHaveProperty('tenant');
    id = body.id;
  });

  it('reads, replaces and patches', async () => {
    expect((await req('GET', `veiculo/${id}`)).json().modelo).toBe('FH 540');
    const put = await req('PUT', `veiculo/${id}`, { placa: 'ABC1D23', ano: 2023 });
    expect(put.statusCode).toBe(200);
    expect(put.json()).not.toHaveProperty('modelo');
    expect(put.json().ano).toBe(2023);
    const patch = await req('PATCH', `veiculo/${id}`, { modelo: 'R 450' });
    expect(patch.json()).toMatchObject({ placa: 'ABC1D23', ano: 2023, modelo: 'R 450' });
    expect(patch.json().cor).toBe('branco');
    await req('PATCH', `veiculo/${id}`, { cor: 'azul' });
    // A field's default fills a create or a replace, never a patch that left the field out.
    expect((await req('PATCH', `veiculo/${id}`, { ano: 2024 })).json()).toMatchObject({
      cor: 'azul',
      ano: 2024,
    });
    const byBody = await req('PATCH', 'veiculo', { id, ativo: true });
    expect(byBody.json()).toMatchObject({ modelo: 'R 450', ativo: true });
  });

  it('answers 409 on a duplicate natural key and 400 naming the field on bad input', async () => {
    const dup = await req('POST', 'veiculo', { placa: 'ABC1D23' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toMatch(/same key \(placa\)/);
    const bad = await req('POST', 'veiculo', { placa: 'X', ano: 1800 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(
      /field 'placa' must have at least 7 characters; field 'ano' must be >= 1950/,
    );
  });

  it('keeps to the state rules of hooks', async () => {
    const res = await req('DELETE', `veiculo/${id}`);
    expect(res.statusCode).toBe(422);
    expect((await req('GET', `veiculo/${id}`)).statusCode).toBe(200);
  });

  it('makes another tenant’s id and a missing id indistinguishable 404s', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'] as const) {
      const foreign = await req(
        method,
        `veiculo/${id}`,
        method === 'PUT' || method === 'PATCH' ? { placa: 'ZZZ9Z99' } : undefined,
        other,
      );
      const missing = await req(
        method,
        'veiculo/00000000-0000-4000-8000-000000000000',
        method === 'PUT' || method === 'PATCH' ? { placa: 'ZZZ9Z99' } : undefined,
        other,
      );
      expect(foreign.statusCode, method).toBe(404);
      expect(missing.statusCode).toBe(404);
      expect(foreign.json().reason).toBe('OBJECT_NOT_FOUND');
      expect(foreign.json().message.replace(id, '?')).toBe(
        missing.json().message.replace('00000000-0000-4000-8000-000000000000', '?'),
      );
    }
    expect((await req('GET', 'veiculo/not-a-uuid')).statusCode).toBe(404);
  });

  it('bulk creates all or nothing, naming the failing index', async () => {
    const ok = await req('POST', 'veiculo/bulk', [
      { placa: 'BUL0001', ano: 2001 },
      { placa: 'BUL0002', ano: 2002 },
      { placa: 'BUL0003', ano: 2003 },
    ]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toHaveLength(3);
    const bad = await req('POST', 'veiculo/bulk', [{ placa: 'BUL0004' }, { placa: 'BUL0001' }]);
    expect(bad.statusCode).toBe(409);
    expect(bad.json().message).toMatch(/^Element \[1\]/);
    const invalid = await req('POST', 'veiculo/bulk', [{ placa: 'BUL0005' }, { placa: 'x' }]);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toMatch(/field '\[1\]\.placa'/);
    const list = await req(
      'GET',
      `veiculo?filter=${encodeURIComponent("placa eq 'BUL0004' or placa eq 'BUL0005'")}`,
    );
    expect(list.json()).toEqual([]);
    // An empty batch (a sync with nothing new) is a 200 that creates nothing: the spec sets no minimum.
    const vazio = await req('POST', 'veiculo/bulk', []);
    expect([vazio.statusCode, vazio.json()]).toEqual([200, []]);
  });

  it('lists pages with size, offset as the page index, the total in a header, filter and orderby', async () => {
    const page = await req('GET', `veiculo?size=2&offset=1&orderby=${encodeURIComponent('ano desc')}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-total-count']).toBe('4');
    expect(page.json().map((v: { ano: number }) => v.ano)).toEqual([2002, 2001]);
    const filtered = await req(
      'GET',
      `veiculo?filter=${encodeURIComponent("ano ge 2002 and containing(placa, 'bul')")}`,
    );
    expect(
      filtered
        .json()
        .map((v: { placa: string }) => v.placa)
        .sort(),
    ).toEqual(['BUL0002', 'BUL0003']);
    const wrong = await req('GET', `veiculo?filter=${encodeURIComponent('pintura eq 1')}`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/^Invalid filter argument: .*'pintura'.*position 0/);
    expect((await req('GET', 'veiculo?size=0')).statusCode).toBe(400);
    const foreign = await req('GET', 'veiculo', undefined, other);
    expect(foreign.json()).toEqual([]);
    expect(foreign.headers['x-total-count']).toBe('0');
  });

  it('serves child collections under their parent', async () => {
    const added = await req('POST', `veiculo/${id}/carretas`, [
      { placa: 'CAR0001', eixos: 3 },
      { placa: 'CAR0002' },
    ]);
    expect(added.statusCode).toBe(200);
    const [first, second] = added.json();
    expect(first.carretaVeiculoId).toBe(id);
    const list = await req('GET', `veiculo/${id}/carretas`);
    expect(list.json()).toHaveLength(2);
    // Empty lists add or change nothing (200); the parent must still exist.
    for (const method of ['POST', 'PATCH'] as const) {
      const vazio = await req(method, `veiculo/${id}/carretas`, []);
      expect([vazio.statusCode, vazio.json()]).toEqual([200, []]);
      const semPai = await req(method, 'veiculo/00000000-0000-4000-8000-000000000000/carretas', []);
      expect(semPai.statusCode).toBe(404);
    }
    expect((await req('GET', `veiculo/${id}/carretas`)).json()).toHaveLength(2);
    // A patch cannot move a child to another parent: the link comes from the path.
    const moved = await req('PATCH', `veiculo/${id}/carretas`, [
      { id: second.id, eixos: 2, carretaVeiculoId: '00000000-0000-4000-8000-000000000000' },
    ]);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()[0]).toMatchObject({ eixos: 2, carretaVeiculoId: id });
    const replaced = await req('PUT', `veiculo/${id}/carretas/${first.id}`, { placa: 'CAR0009' });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).not.toHaveProperty('eixos');
    expect((await req('GET', `veiculo/${id}/carretas/${first.id}`)).json().placa).toBe('CAR0009');
    expect((await req('DELETE', `veiculo/${id}/carretas/${first.id}`)).statusCode).toBe(200);
    expect((await req('GET', `veiculo/${id}/carretas/${first.id}`)).statusCode).toBe(404);
    // A child reached through another parent is not found.
    const otherParent = (
      await req('GET', `veiculo?filter=${encodeURIComponent("placa eq 'BUL0001'")}`)
    ).json()[0].id;
    expect((await req('GET', `veiculo/${otherParent}/carretas/${second.id}`)).statusCode).toBe(404);
    expect((await req('GET', `veiculo/${id}/carretas`, undefined, other)).statusCode).toBe(404);
  });

  it('refuses a reference to another tenant’s row as one to a missing row: 422, the same answer', async () => {
    // carreta has no hook checking its parent: the composite foreign key is what refuses it.
    const theirs = (await req('POST', 'veiculo', { placa: 'OUT1A23' }, other)).json().id;
    const missing = '00000000-0000-4000-8000-000000000001';
    const foreign = await req('POST', 'carreta', { carretaVeiculoId: theirs, placa: 'CAR0100' });
    const absent = await req('POST', 'carreta', { carretaVeiculoId: missing, placa: 'CAR0100' });
    expect(foreign.statusCode, foreign.body).toBe(422);
    expect(foreign.json()).toEqual(absent.json());
  });

  it('deletes with 200 and no body', async () => {
    await req('PATCH', `veiculo/${id}`, { ativo: false });
    const res = await req('DELETE', `veiculo/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect((await req('GET', `veiculo/${id}`)).statusCode).toBe(404);
  });

  it('answers 405 for other methods', async () => {
    expect((await req('DELETE', 'veiculo')).statusCode).toBe(405);
    expect((await req('POST', `veiculo/${id}`, {})).statusCode).toBe(405);
  });

  it('describes the entity routes in the service document', async () => {
    const doc = (
      await t.app.inject({ method: 'GET', url: '/t/acme/docs/services/test/frota/swagger.json' })
    ).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/frota/entities/veiculo',
        '/frota/entities/veiculo/{id}',
        '/frota/entities/veiculo/bulk',
        '/frota/entities/veiculo/{parentId}/carretas/{id}',
      ]),
    );
    expect(doc.paths['/frota/entities/veiculo'].get['x-senior-visibility']).toBe('PRIVATE');
    // Stable operationIds `<entity>_<verb>`, the child collection's `<entity>_<children>_<verb>`.
    expect(doc.paths['/frota/entities/veiculo'].get.operationId).toBe('veiculo_list');
    expect(doc.paths['/frota/entities/veiculo/{id}'].patch.operationId).toBe('veiculo_patch');
    expect(doc.paths['/frota/entities/veiculo'].patch.operationId).toBe('veiculo_patchByBody');
    expect(doc.paths['/frota/entities/veiculo/{parentId}/carretas/{id}'].delete.operationId).toBe(
      'veiculo_carretas_delete',
    );
    expect(doc.paths['/frota/entities/veiculo'].get.responses['200'].headers['x-total-count'].type).toBe(
      'integer',
    );
    expect(Object.keys(doc.definitions).sort()).toEqual(
      expect.arrayContaining(['veiculo', 'veiculoInput', 'veiculoPatch', 'veiculoPatchWithId', 'carreta']),
    );
  });
});

describe('concurrent edits', () => {
  // PATCH writes back the row it read with the fields sent: unless the read locks the row, two
  // edits at once of different fields each write back the other's field as it was (a lost update).
  it('keeps every field of edits sent at once', async () => {
    for (let round = 0; round < 5; round++) {
      const placa = `LCK${round}A00`;
      const { id } = (await req('POST', 'veiculo', { placa, modelo: 'm0', ano: 2000, ativo: false })).json();
      const edits = [{ modelo: `m${round}` }, { ano: 2010 + round }, { ativo: true }, { cor: `cor${round}` }];
      const answers = await Promise.all(edits.map((edit) => req('PATCH', `veiculo/${id}`, edit)));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect((await req('GET', `veiculo/${id}`)).json()).toMatchObject({
        placa,
        modelo: `m${round}`,
        ano: 2010 + round,
        ativo: true,
        cor: `cor${round}`,
      });
    }
  });
});
