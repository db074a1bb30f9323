import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { seed } from '../../erp_agr/com_comum/fixtures.ts';
import { empresa } from '../../erp_agr/com_comum/tables/empresas.ts';
import { sku } from '../../erp_agr/com_comum/tables/produtos.ts';
import { cotApi } from './fixtures.ts';

// obterSku (spec 001 §4.1, §2.2): the SKU of the tenant's catalogue as recSku, with the field
// spelled codigoEmrpesa; 404 for an unknown SKU or company, or another tenant's.

let t: TestApp;
let acme: ReturnType<typeof cotApi>;
let pub: ReturnType<typeof cotApi>;
let globex: ReturnType<typeof cotApi>;
let id: number;

beforeAll(async () => {
  t = await testApp();
  acme = cotApi(t, 'acme', await t.tenant('acme'));
  globex = cotApi(t, 'globex', await t.tenant('globex'));
  pub = cotApi(t, 'acme', (await t.key('acme', 'public')).apiKey);
  const audit = { createdBy: 'test', lastModifiedBy: 'test' };
  for (const tenant of ['acme', 'globex'])
    await seed(t, tenant, empresa, [{ codigo: '1', nome: 'Empresa 1' }]);
  [{ id }] = (await seed(t, 'acme', sku, [
    {
      ...audit,
      codigo: 'PAR-10',
      descricao: 'Parafuso 10 mm',
      codigoUnidadeMedida: 'UN',
      tipoProduto: 'MateriaPrima',
    },
  ])) as unknown as [{ id: number }];
});

describe('obterSku', () => {
  it('answers recSku by POST and GET, to a public key', async () => {
    const res = await pub.op('queries/obterSku', { codigoEmpresa: '1', codigoSKU: 'PAR-10' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      sku: {
        codigoEmrpesa: '1',
        codigo: 'PAR-10',
        descricao: 'Parafuso 10 mm',
        tipoProduto: 'MateriaPrima',
        id,
      },
    });
    const get = await pub.op('queries/obterSku', undefined, {
      method: 'GET',
      query: { codigoEmpresa: '1', codigoSKU: 'PAR-10' },
    });
    expect(get.json()).toEqual(res.json());
  });

  it('404 for an unknown SKU, an unknown company, another tenant’s SKU; 400 for missing or too long', async () => {
    expect((await acme.op('queries/obterSku', { codigoEmpresa: '1', codigoSKU: 'NOPE' })).statusCode).toBe(
      404,
    );
    const semEmpresa = await acme.op('queries/obterSku', { codigoEmpresa: '9', codigoSKU: 'PAR-10' });
    expect(semEmpresa.statusCode).toBe(404);
    expect(semEmpresa.json().message).toContain('codigoEmpresa');
    expect(
      (await globex.op('queries/obterSku', { codigoEmpresa: '1', codigoSKU: 'PAR-10' })).statusCode,
    ).toBe(404);
    const missing = await acme.op('queries/obterSku', { codigoEmpresa: '1' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('codigoSKU');
    expect(
      (await acme.op('queries/obterSku', { codigoEmpresa: '1', codigoSKU: 'x'.repeat(31) })).statusCode,
    ).toBe(400);
    expect(
      (await acme.op('queries/obterSku', { codigoEmpresa: '1', codigoSKU: 'x'.repeat(30) })).statusCode,
    ).toBe(404);
  });
});
