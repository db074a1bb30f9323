import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { importFile, upload } from '../../../../test/transfers.ts';
import { patioCall } from './fixtures.ts';

// The places of a composition (docs/patio.md "Compositions"): what the vehicle category says pulls
// (CAVALO_MECANICO, CAMINHAO, UTILITARIO) is the head and never a trailer; what it says is pulled
// (REBOQUE, SEMIRREBOQUE) is a trailer and never the head; OUTRO takes either. An outside probe
// found a semi-trailer accepted as the tractor. A wrong place is 422 naming the field, and changes
// nothing; so is a vehicle's category change that its place in a composition does not take, through
// the entity and through the Veiculo import.

let t: TestApp;
let key: string;
let acme: ReturnType<typeof patioCall>;
const v: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp();
  key = await t.tenant('acme');
  acme = patioCall(t, 'acme', key);
  const veiculos: Array<[string, string]> = [
    ['CAV1A11', 'CAVALO_MECANICO'],
    ['CAV2A22', 'CAVALO_MECANICO'],
    ['CAM1A11', 'CAMINHAO'],
    ['UTL1A11', 'UTILITARIO'],
    ['SRB1A11', 'SEMIRREBOQUE'],
    ['SRB2A22', 'SEMIRREBOQUE'],
    ['REB1A11', 'REBOQUE'],
    ['OUT1A11', 'OUTRO'],
    ['OUT2A22', 'OUTRO'],
  ];
  for (const [placa, tipoVeiculo] of veiculos)
    v[placa] = ok(await acme('entities/veiculo', { placa, tipoVeiculo })).id;
});

const ok = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const recusa = (res: LightMyRequestResponse, message: string) => {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json()).toEqual({ message, reason: 'UNPROCESSABLE' });
};
const composicoes = async () =>
  ok(await acme('entities/composicaoVeiculo', undefined, { method: 'GET', query: { size: '1000' } }));
const compor = (cavalo: string, ...reboques: string[]) =>
  acme('entities/composicaoVeiculo', { cavaloId: v[cavalo], reboqueIds: reboques.map((p) => v[p]) });

describe('the places of a composition', () => {
  it('takes a tractor or truck with trailers behind, a tractor alone, and OUTRO in either place', async () => {
    ok(await compor('CAV1A11', 'SRB1A11', 'SRB2A22'));
    ok(await compor('CAM1A11', 'REB1A11'));
    ok(await compor('UTL1A11', 'REB1A11'));
    ok(await compor('CAV2A22'));
    ok(await compor('OUT1A11', 'OUT2A22'));
    ok(await compor('CAV2A22', 'OUT1A11'));
  });

  it('a trailer as the head, or a vehicle that pulls as a trailer, is 422 naming the place, and nothing changes', async () => {
    const antes = await composicoes();
    recusa(
      await compor('SRB1A11', 'REB1A11'),
      'cavaloId: o veículo SRB1A11 é SEMIRREBOQUE, não traciona; reboques e semirreboques vão em reboqueIds',
    );
    recusa(
      await compor('REB1A11'),
      'cavaloId: o veículo REB1A11 é REBOQUE, não traciona; reboques e semirreboques vão em reboqueIds',
    );
    recusa(
      await compor('CAV1A11', 'SRB1A11', 'CAV2A22'),
      'reboqueIds[1]: o veículo CAV2A22 é CAVALO_MECANICO, não é reboque nem semirreboque',
    );
    recusa(
      await compor('CAM1A11', 'UTL1A11'),
      'reboqueIds[0]: o veículo UTL1A11 é UTILITARIO, não é reboque nem semirreboque',
    );
    // An edit is held to the same places (PATCH and PUT).
    const c = ok(await compor('CAV1A11', 'SRB1A11'));
    const depois = await composicoes();
    const editar = (body: Record<string, unknown>, method: 'PATCH' | 'PUT') =>
      acme(`entities/composicaoVeiculo/${c.id}`, body, { method });
    recusa(
      await editar({ cavaloId: v.SRB2A22 }, 'PATCH'),
      'cavaloId: o veículo SRB2A22 é SEMIRREBOQUE, não traciona; reboques e semirreboques vão em reboqueIds',
    );
    recusa(
      await editar({ cavaloId: v.CAV1A11, reboqueIds: [v.CAM1A11] }, 'PUT'),
      'reboqueIds[0]: o veículo CAM1A11 é CAMINHAO, não é reboque nem semirreboque',
    );
    expect(await composicoes()).toEqual(depois);
    expect(depois).toHaveLength(antes.length + 1);
    expect(ok(await editar({ reboqueIds: [v.SRB2A22, v.REB1A11] }, 'PATCH')).reboqueIds).toEqual([
      v.SRB2A22,
      v.REB1A11,
    ]);
  });

  it("a vehicle's category change its place in a composition does not take is 422, and the vehicle is kept", async () => {
    const [cavalo, reboque] = await Promise.all(
      [
        ['CAV3A33', 'CAVALO_MECANICO'],
        ['SRB3A33', 'SEMIRREBOQUE'],
      ].map(async ([placa, tipoVeiculo]) => ok(await acme('entities/veiculo', { placa, tipoVeiculo }))),
    );
    const c = ok(await acme('entities/composicaoVeiculo', { cavaloId: cavalo.id, reboqueIds: [reboque.id] }));
    recusa(
      await acme(`entities/veiculo/${cavalo.id}`, { tipoVeiculo: 'SEMIRREBOQUE' }, { method: 'PATCH' }),
      `tipoVeiculo: o veículo CAV3A33 é cavalo da composição ${c.id}, lugar que um SEMIRREBOQUE não ocupa; altere ou exclua a composição antes`,
    );
    recusa(
      await acme(
        `entities/veiculo/${reboque.id}`,
        { placa: 'SRB3A33', tipoVeiculo: 'CAMINHAO' },
        { method: 'PUT' },
      ),
      `tipoVeiculo: o veículo SRB3A33 é reboque da composição ${c.id}, lugar que um CAMINHAO não ocupa; altere ou exclua a composição antes`,
    );
    expect(ok(await acme(`entities/veiculo/${cavalo.id}`, undefined, { method: 'GET' })).tipoVeiculo).toBe(
      'CAVALO_MECANICO',
    );
    // A category its place takes, or no change of category, is fine.
    expect(
      ok(await acme(`entities/veiculo/${reboque.id}`, { tipoVeiculo: 'REBOQUE' }, { method: 'PATCH' }))
        .tipoVeiculo,
    ).toBe('REBOQUE');
    ok(await acme(`entities/veiculo/${cavalo.id}`, { descricao: 'Scania R450' }, { method: 'PATCH' }));
    // Without the composition, the vehicle may become anything.
    expect(
      (await acme(`entities/composicaoVeiculo/${c.id}`, undefined, { method: 'DELETE' })).statusCode,
    ).toBe(200);
    ok(await acme(`entities/veiculo/${cavalo.id}`, { tipoVeiculo: 'SEMIRREBOQUE' }, { method: 'PATCH' }));
  });

  it('the Veiculo import holds a category change to the same rule (a row error); keeping existing vehicles, none', async () => {
    const importar = async (content: string, config: Record<string, unknown> = {}) => {
      const arquivo = await upload(t, 'acme', key, 'veiculos.csv', content);
      return importFile(t, 'acme', key, 'yms/patio/actions/importVeiculo', { arquivo, ...config });
    };
    const [cavalo, reboque] = await Promise.all(
      [
        ['CAV4A44', 'CAVALO_MECANICO'],
        ['SRB4A44', 'SEMIRREBOQUE'],
      ].map(async ([placa, tipoVeiculo]) => ok(await acme('entities/veiculo', { placa, tipoVeiculo }))),
    );
    const c = ok(await acme('entities/composicaoVeiculo', { cavaloId: cavalo.id, reboqueIds: [reboque.id] }));
    const arquivo = 'placa,tipoVeiculo\nCAV4A44,SEMIRREBOQUE\nNOV4A44,REBOQUE\nSRB4A44,REBOQUE\n';
    const mantidos = await importar(arquivo, { atualizarExistentes: false });
    expect(mantidos.status).toMatchObject({ state: 'done', succeeded: 3, failed: 0 });
    const feito = await importar(arquivo);
    expect(feito.status).toMatchObject({ state: 'done', succeeded: 2, failed: 1 });
    expect(feito.errors).toEqual([
      {
        row: 1,
        field: 'tipoVeiculo',
        message: `tipoVeiculo: o veículo CAV4A44 é cavalo da composição ${c.id}, lugar que um SEMIRREBOQUE não ocupa; altere ou exclua a composição antes`,
      },
    ]);
    const tipo = async (id: string) =>
      ok(await acme(`entities/veiculo/${id}`, undefined, { method: 'GET' })).tipoVeiculo as string;
    expect(await tipo(cavalo.id)).toBe('CAVALO_MECANICO');
    expect(await tipo(reboque.id)).toBe('REBOQUE');
  });
});
