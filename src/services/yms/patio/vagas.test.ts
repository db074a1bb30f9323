import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { makeArea, makePlanta, makeVaga, makeVeiculo, patioCall, seed } from './fixtures.ts';
import { area, planta, vaga } from './tables/plantas.ts';
import { veiculo } from './tables/veiculos.ts';
import { alocarVaga, liberarVaga } from './vagas.ts';

// Spots: buscaVagaLivre, vagaChangeAll, filtrarVaga and the allocation functions, with tenant
// isolation and the allocation race (spec 000 §2.4, §4.1, §4.2; docs/patio.md "Spots").

let t: TestApp;
let acme: ReturnType<typeof patioCall>;
let globex: ReturnType<typeof patioCall>;
const ids: Record<string, string> = {};

const asTenant = <T>(tenant: string, work: (ctx: Parameters<typeof alocarVaga>[0]) => Promise<T>) =>
  t.db.tenant(tenant, (tx) => work({ tx, store: new Store(tx, tenant), now: () => new Date() }));

beforeAll(async () => {
  t = await testApp();
  acme = patioCall(t, 'acme', await t.tenant('acme'));
  globex = patioCall(t, 'globex', await t.tenant('globex'));
  const [p] = await seed(t, 'acme', planta, [makePlanta()]);
  const [patio, cheia, corrida] = await seed(t, 'acme', area, [
    makeArea(p!.id, { codigo: 'PATIO' }),
    makeArea(p!.id, { codigo: 'CHEIA' }),
    makeArea(p!.id, { codigo: 'CORRIDA' }),
  ]);
  ids.patio = patio!.id;
  ids.cheia = cheia!.id;
  ids.corrida = corrida!.id;
  const [v1, v2] = await seed(t, 'acme', veiculo, [makeVeiculo(), makeVeiculo()]);
  ids.v1 = v1!.id;
  ids.v2 = v2!.id;
  // Inserted out of order: the free spot is chosen by (rua, numero), not by insertion.
  await seed(t, 'acme', vaga, [
    makeVaga(ids.patio, 2, 1, { descricao: 'Doca norte' }),
    makeVaga(ids.patio, 1, 3, { descricao: 'Sombra' }),
    makeVaga(ids.patio, 1, 1, { ocupada: true, veiculoId: ids.v2, descricao: 'Sombra ocupada' }),
    makeVaga(ids.patio, 1, 2, { ativo: false }),
    makeVaga(ids.patio, 1, 0, { bloqueio: true, motivoBloqueio: 'buraco' }),
    makeVaga(ids.cheia, 1, 1, { ativo: false }),
  ]);
  await seed(
    t,
    'acme',
    vaga,
    Array.from({ length: 10 }, (_, i) => makeVaga(ids.corrida!, 1 + (i % 3), i)),
  );
  const [gp] = await seed(t, 'globex', planta, [makePlanta()]);
  const [ga] = await seed(t, 'globex', area, [makeArea(gp!.id, { codigo: 'PATIO' })]);
  ids.globexArea = ga!.id;
  await seed(t, 'globex', vaga, [makeVaga(ga!.id, 0, 0)]);
});

describe('buscaVagaLivre', () => {
  it('answers the first free spot by rua, numero, skipping occupied, inactive and blocked ones', async () => {
    const res = await acme('queries/buscaVagaLivre', { areaId: ids.patio });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().vaga).toMatchObject({
      areaId: ids.patio,
      rua: 1,
      numero: 3,
      ocupada: false,
      ativo: true,
    });
    expect(res.json().vaga.motivoBloqueio).toBeUndefined();
  });

  it('answers GET with the query string too', async () => {
    const res = await acme('queries/buscaVagaLivre', undefined, {
      method: 'GET',
      query: { areaId: ids.patio! },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().vaga.descricao).toBe('Sombra');
  });

  it('is 422 naming the area when no spot is free', async () => {
    const res = await acme('queries/buscaVagaLivre', { areaId: ids.cheia });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      reason: 'UNPROCESSABLE',
      message: expect.stringMatching(/Nenhuma vaga livre na área CHEIA/),
    });
  });

  it("is 404 for an unknown area and for another tenant's", async () => {
    for (const areaId of ['00000000-0000-4000-8000-000000000009', ids.globexArea]) {
      const res = await acme('queries/buscaVagaLivre', { areaId });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ reason: 'OBJECT_NOT_FOUND', message: `Área ${areaId} não encontrada` });
    }
  });
});

describe('alocarVaga and liberarVaga', () => {
  it('occupies the first free spot with the vehicle and frees it again', async () => {
    const alocada = await asTenant('acme', (ctx) => alocarVaga(ctx, ids.patio!, ids.v1!));
    expect(alocada).toMatchObject({ rua: 1, numero: 3, ocupada: true, veiculoId: ids.v1 });
    expect(alocada.ocupadaEm).toBeInstanceOf(Date);
    const next = await acme('queries/buscaVagaLivre', { areaId: ids.patio });
    expect(next.json().vaga).toMatchObject({ rua: 2, numero: 1 });

    // A vehicle holds one spot at most: 409, nothing changes.
    await expect(asTenant('acme', (ctx) => alocarVaga(ctx, ids.patio!, ids.v1!))).rejects.toMatchObject({
      status: 409,
    });

    const liberada = await asTenant('acme', (ctx) => liberarVaga(ctx, ids.v1!));
    expect(liberada).toMatchObject({ id: alocada.id, ocupada: false, veiculoId: null, ocupadaEm: null });
    expect(await asTenant('acme', (ctx) => liberarVaga(ctx, ids.v1!))).toBeUndefined();
  });

  it('fails with 422 and changes nothing when the area is full', async () => {
    const before = await tableCounts(t.db);
    await expect(asTenant('acme', (ctx) => alocarVaga(ctx, ids.cheia!, ids.v1!))).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/CHEIA/),
    });
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("does not see another tenant's area", async () => {
    await expect(asTenant('acme', (ctx) => alocarVaga(ctx, ids.globexArea!, ids.v1!))).rejects.toMatchObject({
      status: 404,
    });
  });

  it('50 concurrent allocations into 10 free spots: exactly 10 succeed, no spot twice', async () => {
    const carros = await seed(
      t,
      'acme',
      veiculo,
      Array.from({ length: 50 }, () => makeVeiculo()),
    );
    const results = await Promise.allSettled(
      carros.map((c) =>
        asTenant('acme', async (ctx) => {
          const spot = await alocarVaga(ctx, ids.corrida!, c.id);
          // Hold the lock a moment, so the others must skip it rather than find it committed.
          await sleep(5);
          return spot;
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').map((r) => r.value);
    const failed = results.filter((r) => r.status === 'rejected').map((r) => r.reason as Error);
    expect(ok).toHaveLength(10);
    expect(new Set(ok.map((s) => s.id)).size).toBe(10);
    expect(new Set(ok.map((s) => s.veiculoId)).size).toBe(10);
    expect(failed).toHaveLength(40);
    for (const err of failed) expect(err.message).toMatch(/Nenhuma vaga livre na área CORRIDA/);
    const res = await acme('actions/filtrarVaga', { page: 0, size: 20, areaId: ids.corrida, ocupada: true });
    expect(res.json().totalElements).toBe(10);
  });
});

describe('vagaChangeAll', () => {
  it("lists every spot of the tenant and none of another's", async () => {
    const res = await acme('actions/vagaChangeAll');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().vaga).toHaveLength(16);
    const own = await globex('actions/vagaChangeAll');
    expect(own.json().vaga).toEqual([expect.objectContaining({ areaId: ids.globexArea, rua: 0, numero: 0 })]);
  });
});

describe('filtrarVaga', () => {
  const filtrar = async (body: Record<string, unknown>) => {
    const res = await acme('actions/filtrarVaga', { page: 0, size: 100, areaId: ids.patio, ...body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { vagas: Array<Record<string, unknown>>; totalElements: number; totalPages: number };
  };
  const pos = (r: { vagas: Array<Record<string, unknown>> }) => r.vagas.map((v) => `${v.rua}.${v.numero}`);

  it('orders by rua, numero by default and pages with totals', async () => {
    expect(pos(await filtrar({}))).toEqual(['1.0', '1.1', '1.2', '1.3', '2.1']);
    const page = await filtrar({ page: 1, size: 2 });
    expect(pos(page)).toEqual(['1.2', '1.3']);
    expect(page).toMatchObject({ totalElements: 5, totalPages: 3 });
    expect(pos(await filtrar({ page: 3, size: 2 }))).toEqual([]);
  });

  it('filters by partial description (case-insensitive, wildcards literal), position and flags', async () => {
    expect(pos(await filtrar({ descricao: 'SOMBRA' }))).toEqual(['1.1', '1.3']);
    expect(pos(await filtrar({ descricao: '%' }))).toEqual([]);
    expect(pos(await filtrar({ rua: 1, numero: 2 }))).toEqual(['1.2']);
    expect(pos(await filtrar({ ocupada: true }))).toEqual(['1.1']);
    expect(pos(await filtrar({ ativo: false }))).toEqual(['1.2']);
    expect(pos(await filtrar({ bloqueio: true }))).toEqual(['1.0']);
    expect(pos(await filtrar({ ocupada: false, ativo: true, bloqueio: false }))).toEqual(['1.3', '2.1']);
  });

  it('sorts by a whitelisted field, -1 descending, ties by rua, numero', async () => {
    expect(pos(await filtrar({ sortOrder: -1 }))).toEqual(['2.1', '1.3', '1.2', '1.1', '1.0']);
    expect(pos(await filtrar({ sortField: 'numero', sortOrder: -1 }))).toEqual([
      '1.3',
      '1.2',
      '1.1',
      '2.1',
      '1.0',
    ]);
    expect(pos(await filtrar({ sortField: 'ativo', sortOrder: 1 }))).toEqual([
      '1.2',
      '1.0',
      '1.1',
      '1.3',
      '2.1',
    ]);
    const bad = await acme('actions/filtrarVaga', { page: 0, size: 10, sortField: 'tenant' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/sortField/);
  });

  it("never shows another tenant's spots", async () => {
    const res = await globex('actions/filtrarVaga', { page: 0, size: 100, areaId: ids.patio });
    expect(res.json()).toEqual({ vagas: [], totalElements: 0, totalPages: 0 });
  });
});
