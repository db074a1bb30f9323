import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { type Call, functionsCall } from './fixtures.ts';

// Developers and consultants (docs/functions.md "Developers and consultants"): written through the
// `developer` and `consultant` entities, read by listDevelopers, retrieveDeveloper, listConsultants
// and retrieveConsultant (PUBLIC), each tenant its own.

let t: TestApp;
let acme: Call;
let globex: Call;
let acmePublic: Call;
const ids: Record<string, string> = {};

const DEVS = [
  ['Ana Souza', 'ana@acme.com', 'asouza'],
  ['Bruno Lima', 'bruno@acme.com', 'blima'],
  ['Carla Dias', 'carla@dev.io', 'cdias'],
  ['Daniel Rocha', 'daniel@acme.com', undefined],
  ['Eva Nunes', 'eva@dev.io', 'enunes'],
] as const;

beforeAll(async () => {
  t = await testApp();
  acme = functionsCall(t, 'acme', await t.tenant('acme'));
  globex = functionsCall(t, 'globex', await t.tenant('globex'));
  acmePublic = functionsCall(t, 'acme', (await t.key('acme', 'public')).apiKey);
  for (const [name, email, login] of DEVS) {
    const res = await acme('entities/developer', { name, email, ...(login ? { login } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    ids[email] = res.json().id;
  }
  for (const [name, email, company] of [
    ['Fábio Reis', 'fabio@consult.com', 'Consultoria Sul'],
    ['Gina Prado', 'gina@parceiro.com', 'Parceiro Norte'],
  ]) {
    const res = await acme('entities/consultant', { name, email, company });
    expect(res.statusCode, res.body).toBe(200);
    ids[email!] = res.json().id;
  }
  await globex('entities/developer', { name: 'Ana Outra', email: 'ana@acme.com' });
});

const list = (call: Call, body: Record<string, unknown>) => call('queries/listDevelopers', body);
const names = (res: { json(): { contents: Array<{ name: string }> } }) =>
  res.json().contents.map((c) => c.name);

describe('listDevelopers', () => {
  it('lists all with an empty filter, by name, with totals', async () => {
    const res = await list(acmePublic, { filter: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ totalElements: 5, totalPages: 1 });
    expect(names(res)).toEqual(DEVS.map((d) => d[0]));
    expect(res.json().contents[0]).toMatchObject({ email: 'ana@acme.com', login: 'asouza', active: true });
  });

  it('filters by part of the name, e-mail or login, case-insensitively; % and _ are literal', async () => {
    expect(names(await list(acme, { filter: 'SOUZA' }))).toEqual(['Ana Souza']);
    expect(names(await list(acme, { filter: 'dev.io' }))).toEqual(['Carla Dias', 'Eva Nunes']);
    expect(names(await list(acme, { filter: 'blim' }))).toEqual(['Bruno Lima']);
    expect((await list(acme, { filter: '%' })).json()).toMatchObject({
      totalElements: 0,
      totalPages: 0,
      contents: [],
    });
  });

  it('pages: offset is the page index, size the page size', async () => {
    const p1 = await list(acme, { filter: '', offset: 1, size: 2 });
    expect(p1.json()).toMatchObject({ totalElements: 5, totalPages: 3 });
    expect(names(p1)).toEqual(['Carla Dias', 'Daniel Rocha']);
    expect(names(await list(acme, { filter: '', offset: 2, size: 2 }))).toEqual(['Eva Nunes']);
    const byGet = await acme('queries/listDevelopers', undefined, {
      method: 'GET',
      query: { filter: 'a', offset: '0', size: '1' },
    });
    expect(byGet.json().contents).toHaveLength(1);
  });

  it('refuses bad input naming the field', async () => {
    for (const [body, field] of [
      [{}, 'filter'],
      [{ filter: '', offset: -1 }, 'offset'],
      [{ filter: '', size: 0 }, 'size'],
      [{ filter: '', size: 1001 }, 'size'],
      [{ filter: 'x'.repeat(201) }, 'filter'],
    ] as const) {
      const res = await list(acme, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`'${field}'`));
    }
  });

  it('sees only its tenant', async () => {
    const res = await list(globex, { filter: '' });
    expect(res.json()).toMatchObject({ totalElements: 1 });
    expect(names(res)).toEqual(['Ana Outra']);
  });
});

describe('retrieveDeveloper / retrieveConsultant', () => {
  it('answers the record (public keys too)', async () => {
    const res = await acmePublic('queries/retrieveDeveloper', { id: ids['carla@dev.io'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: ids['carla@dev.io'],
      name: 'Carla Dias',
      login: 'cdias',
      active: true,
    });
    const c = await acmePublic('queries/retrieveConsultant', undefined, {
      method: 'GET',
      query: { id: ids['gina@parceiro.com']! },
    });
    expect(c.json()).toMatchObject({ name: 'Gina Prado', company: 'Parceiro Norte' });
  });

  it('is 404 for another tenant’s id or an unknown one, 400 for a malformed one', async () => {
    expect((await globex('queries/retrieveDeveloper', { id: ids['ana@acme.com'] })).statusCode).toBe(404);
    expect((await globex('queries/retrieveConsultant', { id: ids['gina@parceiro.com'] })).statusCode).toBe(
      404,
    );
    const unknown = await acme('queries/retrieveDeveloper', { id: '00000000-0000-4000-8000-000000000009' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/00000000-0000-4000-8000-000000000009/);
    expect((await acme('queries/retrieveConsultant', { id: 'x' })).json().message).toMatch(/'id'/);
  });
});

describe('listConsultants', () => {
  it('filters by name, e-mail or company and pages (POST only)', async () => {
    const all = await acmePublic('queries/listConsultants', { filter: '' });
    expect(all.json()).toMatchObject({ totalElements: 2, totalPages: 1 });
    expect(names(await acme('queries/listConsultants', { filter: 'norte' }))).toEqual(['Gina Prado']);
    expect((await acme('queries/listConsultants', undefined, { method: 'GET' })).statusCode).toBe(405);
    expect((await globex('queries/listConsultants', { filter: '' })).json().totalElements).toBe(0);
  });
});

describe('writing developers and consultants', () => {
  it('updates, deactivates and removes; a duplicate e-mail is 409; bad input changes nothing', async () => {
    const id = ids['daniel@acme.com']!;
    const patch = await acme(
      `entities/developer/${id}`,
      { active: false, phone: '+55 11 5555-0000' },
      { method: 'PATCH' },
    );
    expect(patch.statusCode, patch.body).toBe(200);
    expect((await acme('queries/retrieveDeveloper', { id })).json()).toMatchObject({
      active: false,
      phone: '+55 11 5555-0000',
    });
    expect((await acme('entities/developer', { name: 'Dup', email: 'ana@acme.com' })).statusCode).toBe(409);
    const before = await tableCounts(t.db);
    const bad = await acme('entities/developer', { name: 'Sem email', email: 'nao-e-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/'email'/);
    expect(await tableCounts(t.db)).toEqual(before);
    expect((await globex(`entities/developer/${id}`, undefined, { method: 'DELETE' })).statusCode).toBe(404);
    expect((await acmePublic(`entities/developer/${id}`, undefined, { method: 'DELETE' })).statusCode).toBe(
      403,
    );
    expect((await acme(`entities/developer/${id}`, undefined, { method: 'DELETE' })).statusCode).toBe(200);
    expect((await acme('queries/retrieveDeveloper', { id })).statusCode).toBe(404);
  });
});
