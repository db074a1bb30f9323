import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { PATIO, patioCall, seed } from './fixtures.ts';
import { motorista } from './tables/veiculos.ts';

// The generic entities of yms/patio through their routes (spec 000 §2.3) and the rules of their
// hooks: references within the tenant (422), natural keys (409), read-only state fields, an
// occupied spot that cannot be deleted; and autocomplete of plants and areas.

let t: TestApp;
let keys: Record<string, string>;
let acme: ReturnType<typeof patioCall>;
let globex: ReturnType<typeof patioCall>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp();
  keys = { acme: await t.tenant('acme'), globex: await t.tenant('globex') };
  acme = patioCall(t, 'acme', keys.acme!);
  globex = patioCall(t, 'globex', keys.globex!);
});

const del = (path: string, tenant = 'acme') =>
  t.app.inject({
    method: 'DELETE',
    url: `/t/${tenant}/bridge/1.0/rest/${PATIO}/entities/${path}`,
    headers: { authorization: keys[tenant]! },
  });
const create = async (entity: string, body: Record<string, unknown>, status = 200) => {
  const res = await acme(`entities/${entity}`, body);
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
};

describe('planta, area, vaga', () => {
  it('creates a plant with its defaults, normalizing the CNPJ', async () => {
    const p = await create('planta', { codigo: 'SOR', nome: 'Sorriso', cnpj: '12.345.678/0001-95' });
    expect(p).toMatchObject({ fusoHorario: 'America/Sao_Paulo', ativo: true, cnpj: '12345678000195' });
    ids.planta = p.id;
    await create('planta', { codigo: 'SOR', nome: 'Outra' }, 409);
    const bad = await create('planta', { codigo: 'X', nome: 'X', fusoHorario: 'Mars/Olympus' }, 422);
    expect(bad.message).toMatch(/Mars\/Olympus/);
  });

  it("an area needs a plant of the tenant (422 for another tenant's)", async () => {
    const a = await create('area', {
      plantaId: ids.planta,
      codigo: 'EST',
      descricao: 'Estacionamento',
      tipo: 'ESTACIONAMENTO',
    });
    ids.area = a.id;
    const foreign = await globex('entities/area', {
      plantaId: ids.planta,
      codigo: 'EST',
      descricao: 'x',
      tipo: 'DOCA',
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().message).toMatch(/planta .* não existe \(plantaId\)/);
  });

  it('a spot: area must exist, blocking needs a reason, occupancy is read-only', async () => {
    const v = await create('vaga', { areaId: ids.area, rua: 1, numero: 1, ocupada: true });
    expect(v).toMatchObject({ ocupada: false, ativo: true, bloqueio: false });
    ids.vaga = v.id;
    await create('vaga', { areaId: ids.area, rua: 1, numero: 1 }, 409);
    await create('vaga', { areaId: '00000000-0000-4000-8000-000000000001', rua: 1, numero: 2 }, 422);
    const semMotivo = await acme(`entities/vaga/${ids.vaga}`, { bloqueio: true }, { method: 'PATCH' });
    expect(semMotivo.statusCode).toBe(422);
    const bloqueada = await acme(
      `entities/vaga/${ids.vaga}`,
      { bloqueio: true, motivoBloqueio: 'obra' },
      { method: 'PATCH' },
    );
    expect(bloqueada.json()).toMatchObject({ bloqueio: true, motivoBloqueio: 'obra' });
    const livre = await acme(`entities/vaga/${ids.vaga}`, { bloqueio: false }, { method: 'PATCH' });
    expect(livre.json().motivoBloqueio).toBeUndefined();
  });

  it('an occupied spot cannot be deleted (422); a free one can; the area in use cannot', async () => {
    const veiculo = await create('veiculo', { placa: 'abc-1d23', tipoVeiculo: 'CAMINHAO' });
    const { Store } = await import('../../../platform/core/db/store.ts');
    const { alocarVaga } = await import('./vagas.ts');
    await t.db.tenant('acme', (tx) =>
      alocarVaga({ tx, store: new Store(tx, 'acme'), now: () => new Date() }, ids.area!, veiculo.id),
    );
    let res = await del(`vaga/${ids.vaga}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/ocupada pelo veículo/);
    // PUT keeps the occupancy the allocation set.
    res = await acme(
      `entities/vaga/${ids.vaga}`,
      { areaId: ids.area, rua: 1, numero: 1, descricao: 'A1' },
      { method: 'PUT' },
    );
    expect(res.json()).toMatchObject({ ocupada: true, veiculoId: veiculo.id, descricao: 'A1' });
    res = await del(`area/${ids.area}`);
    expect(res.statusCode).toBe(422);
    // Said as it is: others refer to it (not "refers to a record that does not exist").
    expect(res.json().message).toMatch(
      /^This area is still referred to by other records \(.+\): change or remove them first$/,
    );
    const livre = await create('vaga', { areaId: ids.area, rua: 9, numero: 9 });
    expect((await del(`vaga/${livre.id}`)).statusCode).toBe(200);
    expect((await del(`vaga/${ids.vaga}`, 'globex')).statusCode).toBe(404);
  });
});

describe('veiculo, motorista, composicaoVeiculo, turno', () => {
  it('a plate is stored upper case without dash and is unique; the block state is read-only', async () => {
    const v = await create('veiculo', { placa: 'xyz-9876', tipoVeiculo: 'CAVALO_MECANICO', bloqueado: true });
    expect(v).toMatchObject({ placa: 'XYZ9876', bloqueado: false });
    ids.cavalo = v.id;
    await create('veiculo', { placa: 'XYZ9876', tipoVeiculo: 'CAMINHAO' }, 409);
    await create('veiculo', { placa: 'XY-98', tipoVeiculo: 'CAMINHAO' }, 400);
    const r = await create('veiculo', { placa: 'RBQ1A11', tipoVeiculo: 'SEMIRREBOQUE' });
    ids.reboque = r.id;
  });

  it('a driver by CPF, stored as digits, unique', async () => {
    const m = await create('motorista', { documento: '123.456.789-09', nome: 'Ana' });
    expect(m).toMatchObject({ documento: '12345678909', bloqueado: false });
    await create('motorista', { documento: '12345678909', nome: 'Outra' }, 409);
    ids.motorista = m.id;
  });

  it("a driver's CPF has its check digits verified (422, nothing changed); one stored before is kept", async () => {
    const invalido = async (res: Promise<LightMyRequestResponse>, documento: string) => {
      const r = await res;
      expect(r.statusCode, r.body).toBe(422);
      expect(r.json()).toEqual({
        message: `documento ${documento} não é um CPF válido (dígitos verificadores)`,
        reason: 'UNPROCESSABLE',
      });
    };
    const antes = (await acme('entities/motorista', undefined, { method: 'GET' })).json();
    await invalido(acme('entities/motorista', { documento: '123.456.789-01', nome: 'Bia' }), '12345678901');
    await invalido(acme('entities/motorista', { documento: '111.111.111-11', nome: 'Bia' }), '11111111111');
    await invalido(
      acme(`entities/motorista/${ids.motorista}`, { documento: '52998224724' }, { method: 'PATCH' }),
      '52998224724',
    );
    expect((await acme('entities/motorista', undefined, { method: 'GET' })).json()).toEqual(antes);
    expect((await create('motorista', { documento: '529.982.247-25', nome: 'Bia' })).documento).toBe(
      '52998224725',
    );
    // A driver stored before the check (a wrong CPF) is edited without touching it; a new wrong one is 422.
    const [legado] = await seed(t, 'acme', motorista, [{ documento: '12345678901', nome: 'Legado' }]);
    const editado = await acme(
      `entities/motorista/${legado!.id}`,
      { telefone: '65999990000' },
      { method: 'PATCH' },
    );
    expect(editado.json()).toMatchObject({ documento: '12345678901', telefone: '65999990000' });
    await invalido(
      acme(`entities/motorista/${legado!.id}`, { documento: '12345678902' }, { method: 'PATCH' }),
      '12345678902',
    );
  });

  it('a composition is blocked when a part is; its parts must exist and be distinct', async () => {
    await acme('actions/bloquearVeiculo', { veiculoId: ids.reboque, motivo: 'pneu' });
    const c = await create('composicaoVeiculo', { cavaloId: ids.cavalo, reboqueIds: [ids.reboque] });
    expect(c).toMatchObject({ bloqueado: true, reboqueIds: [ids.reboque] });
    await create('composicaoVeiculo', { cavaloId: ids.cavalo, reboqueIds: [ids.cavalo] }, 422);
    await create(
      'composicaoVeiculo',
      { cavaloId: ids.cavalo, reboqueIds: ['00000000-0000-4000-8000-000000000001'] },
      422,
    );
  });

  it('a shift needs distinct hours and a plant of the tenant', async () => {
    await create('turno', {
      plantaId: ids.planta,
      data: '2026-03-02',
      horaInicio: '06:00',
      horaFim: '14:00',
    });
    await create(
      'turno',
      { plantaId: ids.planta, data: '2026-03-02', horaInicio: '06:00', horaFim: '14:00' },
      409,
    );
    await create(
      'turno',
      { plantaId: ids.planta, data: '2026-03-02', horaInicio: '06:00', horaFim: '06:00' },
      422,
    );
    await create(
      'turno',
      { plantaId: ids.planta, data: '2026-03-02', horaInicio: '6:00', horaFim: '14:00' },
      400,
    );
  });
});

describe('autocompleteFilterPlant / autocompleteFilterArea', () => {
  beforeAll(async () => {
    const p = await create('planta', { codigo: 'LRV', nome: 'Lucas do Rio Verde' });
    ids.lrv = p.id;
    await create('area', { plantaId: p.id, codigo: 'BAL', descricao: 'Balança de entrada', tipo: 'BALANCA' });
    await create('area', { plantaId: p.id, codigo: 'DOC', descricao: 'Doca 1', tipo: 'DOCA', ativo: false });
    await globex('entities/planta', { codigo: 'GLB', nome: 'Globex Rio' });
  });

  it('plants by part of the name or code, by exact id or code, over POST and GET', async () => {
    let res = await acme('queries/autocompleteFilterPlant', { searchText: 'rio' });
    expect(res.json()).toEqual({
      records: [{ value: ids.lrv, label: 'LRV - Lucas do Rio Verde', codigo: 'LRV' }],
    });
    res = await acme('queries/autocompleteFilterPlant', undefined, {
      method: 'GET',
      query: { searchValue: ids.planta! },
    });
    expect(res.json().records.map((r: { codigo: string }) => r.codigo)).toEqual(['SOR']);
    res = await acme('queries/autocompleteFilterPlant', { searchValue: 'LRV' });
    expect(res.json().records).toHaveLength(1);
    res = await acme('queries/autocompleteFilterPlant', {});
    expect(res.json().records.map((r: { codigo: string }) => r.codigo)).toEqual(['LRV', 'SOR']);
  });

  it('areas narrowed by parameters; an unknown parameter is 400 naming it', async () => {
    const area = (body: Record<string, unknown>) => acme('queries/autocompleteFilterArea', body);
    let res = await area({ parameters: [{ name: 'plantaId', value: ids.lrv }] });
    expect(res.json().records.map((r: { codigo: string }) => r.codigo)).toEqual(['BAL', 'DOC']);
    res = await area({
      parameters: [
        { name: 'plantaId', value: ids.lrv },
        { name: 'ativo', value: 'true' },
      ],
      searchText: 'balan',
    });
    expect(res.json().records).toEqual([
      expect.objectContaining({ codigo: 'BAL', label: 'BAL - Balança de entrada' }),
    ]);
    // Case and accents aside: 'BALANCA' finds Balança.
    res = await area({ parameters: [{ name: 'plantaId', value: ids.lrv }], searchText: 'BALANCA' });
    expect(res.json().records.map((r: { codigo: string }) => r.codigo)).toEqual(['BAL']);
    res = await area({ parameters: [{ name: 'cor', value: 'azul' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/unknown parameter cor/);
    res = await area({ parameters: [{ name: 'tipo', value: 'PISCINA' }] });
    expect(res.statusCode).toBe(400);
    const foreign = await globex('queries/autocompleteFilterArea', {
      parameters: [{ name: 'plantaId', value: ids.lrv }],
    });
    expect(foreign.json()).toEqual({ records: [] });
  });
});
