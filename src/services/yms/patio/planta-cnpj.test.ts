import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { makePlanta, patioCall, seed } from './fixtures.ts';
import { planta } from './tables/plantas.ts';

// A plant's CNPJ is unique in its tenant (docs/patio.md "The yard model"): yms/agenda names a plant
// by it (horarioOperacao, through listarTurnosPlanta), and an outside probe found two plants of one
// CNPJ, of which the lookup picked one at random (422 for the other's appointment types). The unique
// index patio_planta_cnpj decides it: a repeat is 409 naming cnpj, on create and on update, and
// changes nothing; plants without a CNPJ never collide; another tenant's plant may have the same.
// Its check digits are verified (422) as yms/agenda verifies its partners'.

let t: TestApp;
let acme: ReturnType<typeof patioCall>;
let globex: ReturnType<typeof patioCall>;

beforeAll(async () => {
  t = await testApp();
  acme = patioCall(t, 'acme', await t.tenant('acme'));
  globex = patioCall(t, 'globex', await t.tenant('globex'));
});

const CNPJ = '11222333000181';
const OUTRO_CNPJ = '11444777000161';

const ok = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
/** The genericError body (spec 000 §2.2) of a repeated CNPJ. */
const repetido = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(409);
  expect(res.json()).toEqual({
    message: 'A planta with the same key (cnpj) already exists',
    reason: 'UNPROCESSABLE',
  });
};
const plantas = async (who = acme) =>
  ok(await who('entities/planta', undefined, { method: 'GET', query: { size: '1000' } })) as Array<{
    id: string;
    cnpj?: string;
  }>;
const turnosPorCnpj = (cnpj: string, who = acme) =>
  who('queries/listarTurnosPlanta', { plantaId: cnpj, dataInicio: '2027-01-01', dataFim: '2027-01-02' });

describe('planta.cnpj, unique in the tenant', () => {
  let sorriso: string;

  it('stores the CNPJ as digits; a repeat in any punctuation is 409 and creates nothing', async () => {
    sorriso = ok(
      await acme('entities/planta', { codigo: 'SOR', nome: 'Sorriso', cnpj: '11.222.333/0001-81' }),
    ).id;
    const antes = await plantas();
    expect(antes.find((p) => p.id === sorriso)?.cnpj).toBe(CNPJ);
    repetido(await acme('entities/planta', { codigo: 'LRV', nome: 'Lucas', cnpj: CNPJ }));
    repetido(await acme('entities/planta', { codigo: 'LRV', nome: 'Lucas', cnpj: '11222333/0001-81' }));
    expect(await plantas()).toEqual(antes);
    // The CNPJ names one plant: yms/agenda's lookup finds it.
    expect(ok(await turnosPorCnpj('11.222.333/0001-81')).plantaId).toBe(sorriso);
  });

  it('takes an alphanumeric CNPJ (new numbers since July 2026): stored upper case without punctuation, it names its plant', async () => {
    const alfa = ok(
      await acme('entities/planta', { codigo: 'ALFA', nome: 'Alfa', cnpj: '12.abc.345/01de-35' }),
    );
    expect(alfa.cnpj).toBe('12ABC34501DE35');
    repetido(await acme('entities/planta', { codigo: 'BETA', nome: 'Beta', cnpj: '12ABC34501DE35' }));
    expect(ok(await turnosPorCnpj('12.ABC.345/01DE-35')).plantaId).toBe(alfa.id);
    const bad = await acme('entities/planta', { codigo: 'BETA', nome: 'Beta', cnpj: '12ABC34501DE36' });
    expect(bad.statusCode, bad.body).toBe(422);
    const del = await acme(`entities/planta/${alfa.id}`, undefined, { method: 'DELETE' });
    expect(del.statusCode, del.body).toBeLessThan(300);
  });

  it('plants without a CNPJ never collide', async () => {
    ok(await acme('entities/planta', { codigo: 'SEM1', nome: 'Sem CNPJ 1' }));
    ok(await acme('entities/planta', { codigo: 'SEM2', nome: 'Sem CNPJ 2' }));
  });

  it("an update to another plant's CNPJ is 409 and changes nothing; to a free one, 200", async () => {
    const lucas = ok(await acme('entities/planta', { codigo: 'LRV', nome: 'Lucas', cnpj: OUTRO_CNPJ }));
    repetido(await acme(`entities/planta/${lucas.id}`, { cnpj: '11.222.333/0001-81' }, { method: 'PATCH' }));
    repetido(
      await acme(
        `entities/planta/${lucas.id}`,
        { codigo: 'LRV', nome: 'Outro', cnpj: CNPJ },
        { method: 'PUT' },
      ),
    );
    expect(ok(await acme(`entities/planta/${lucas.id}`, undefined, { method: 'GET' }))).toMatchObject({
      nome: 'Lucas',
      cnpj: OUTRO_CNPJ,
    });
    // Sorriso lets its CNPJ go (PUT without it): Lucas may take it.
    ok(await acme(`entities/planta/${sorriso}`, { codigo: 'SOR', nome: 'Sorriso' }, { method: 'PUT' }));
    expect(ok(await acme(`entities/planta/${lucas.id}`, { cnpj: CNPJ }, { method: 'PATCH' })).cnpj).toBe(
      CNPJ,
    );
    expect(ok(await turnosPorCnpj(CNPJ)).plantaId).toBe(lucas.id);
    // Keeping its own CNPJ is no repeat.
    ok(
      await acme(
        `entities/planta/${lucas.id}`,
        { nome: 'Lucas do Rio Verde', cnpj: CNPJ },
        { method: 'PATCH' },
      ),
    );
  });

  it("another tenant's plant may have the same CNPJ; each tenant's lookup finds its own", async () => {
    const deles = ok(await globex('entities/planta', { codigo: 'SOR', nome: 'Sorriso', cnpj: CNPJ }));
    expect(ok(await turnosPorCnpj(CNPJ, globex)).plantaId).toBe(deles.id);
    expect(ok(await turnosPorCnpj(CNPJ)).plantaId).not.toBe(deles.id);
    repetido(await globex('entities/planta', { codigo: 'SOR2', nome: 'Outra', cnpj: CNPJ }));
  });
});

describe('planta.cnpj, check digits (platform/core/cpf-cnpj.ts, as yms/agenda checks its partners)', () => {
  const invalido = (res: LightMyRequestResponse, cnpj: string) => {
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({
      message: `cnpj ${cnpj} não é um CNPJ válido (dígitos verificadores)`,
      reason: 'UNPROCESSABLE',
    });
  };

  it('a wrong check digit or one repeated digit is 422 on create and update, and changes nothing', async () => {
    const antes = await plantas();
    invalido(
      await acme('entities/planta', { codigo: 'DV1', nome: 'X', cnpj: '11.222.333/0001-82' }),
      '11222333000182',
    );
    invalido(
      await acme('entities/planta', { codigo: 'DV2', nome: 'X', cnpj: '11111111111111' }),
      '11111111111111',
    );
    expect(await plantas()).toEqual(antes);
    const p = ok(await acme('entities/planta', { codigo: 'DV3', nome: 'Certo', cnpj: '12.345.678/0001-95' }));
    invalido(
      await acme(`entities/planta/${p.id}`, { cnpj: '12345678000190' }, { method: 'PATCH' }),
      '12345678000190',
    );
    invalido(
      await acme(
        `entities/planta/${p.id}`,
        { codigo: 'DV3', nome: 'Y', cnpj: '12345678000190' },
        { method: 'PUT' },
      ),
      '12345678000190',
    );
    expect(ok(await acme(`entities/planta/${p.id}`, undefined, { method: 'GET' }))).toMatchObject({
      nome: 'Certo',
      cnpj: '12345678000195',
    });
    // A malformed one (not 14 digits) is the schema's 400, as before.
    expect(
      (await acme('entities/planta', { codigo: 'DV4', nome: 'X', cnpj: '1122233300018' })).statusCode,
    ).toBe(400);
  });

  it('a plant stored before the check keeps its CNPJ through edits of other fields, not a new wrong one', async () => {
    const [legado] = await seed(t, 'acme', planta, [makePlanta({ cnpj: '12345678000190' })]);
    const editada = ok(
      await acme(`entities/planta/${legado!.id}`, { nome: 'Renomeada' }, { method: 'PATCH' }),
    );
    expect(editada).toMatchObject({ nome: 'Renomeada', cnpj: '12345678000190' });
    invalido(
      await acme(`entities/planta/${legado!.id}`, { cnpj: '12.345.678/0001-91' }, { method: 'PATCH' }),
      '12345678000191',
    );
  });
});
