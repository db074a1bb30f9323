import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { upload } from '../../../../test/transfers.ts';
import { EMPRESA, FAMILIA, makeMascara, skuApi } from './fixtures.ts';

// The imports of masks and components (docs/sku_produto.md "Creating masks"): a JSON file through
// platform/imports' startImport, upserted by natural key, broken rows refused with their field;
// the imported masks then generate SKUs.

let t: TestApp;
let key: string;
let acme: ReturnType<typeof skuApi>;

beforeAll(async () => {
  t = await testApp();
  key = await t.tenant('acme');
  acme = skuApi(t, 'acme', key);
});

async function importar(kind: string, rows: unknown[]) {
  const arquivo = await upload(t, 'acme', key, `${kind}.json`, JSON.stringify(rows));
  const res = await t.call(
    'acme',
    'platform/imports/actions/startImport',
    { service: 'erp_est/sku_produto', kind, config: { arquivo } },
    { auth: key },
  );
  expect(res.statusCode, res.body).toBe(200);
  const { importJobId } = res.json();
  await t.platform.jobs.drain();
  const status = await t.call('acme', 'platform/imports/queries/getImport', { importJobId }, { auth: key });
  const errors = await t.call(
    'acme',
    'platform/imports/queries/listImportErrors',
    { importJobId },
    { auth: key },
  );
  return { status: status.json(), errors: errors.json() };
}

describe('imports', () => {
  it('imports masks and their components, refusing broken rows, and generates from them', async () => {
    const { codigo: _, ...base } = makeMascara();
    const masks = await importar('MascaraSku', [
      { ...base, codigo: 'IMP-COR', utilizaComponentes: 'Sim' },
      {
        ...base,
        codigo: 'IMP-NUM',
        tipoComposicao: 'Numerico',
        autoIncrementavel: 'Sim',
        quantidadePosicoes: 3,
      },
      { ...base, codigo: 'IMP-BAD', tipoComposicao: 'SequenciaFixa' },
    ]);
    expect(JSON.stringify(masks.errors)).toContain('sequenciaFixa');
    const comps = await importar('MascaraSkuComponente', [
      {
        codigoEmpresa: EMPRESA,
        codigoFamilia: FAMILIA,
        codigoMascara: 'IMP-COR',
        codigo: 'AZ',
        sequencia: 1,
        descricao: 'Azul',
        abreviatura: 'AZUL',
        situacao: 'Ativo',
      },
      {
        codigoEmpresa: EMPRESA,
        codigoFamilia: FAMILIA,
        codigoMascara: 'NOPE',
        codigo: 'VM',
        sequencia: 2,
        descricao: 'Vermelho',
        abreviatura: 'VERM',
        situacao: 'Ativo',
      },
    ]);
    expect(JSON.stringify(comps.errors)).toContain('codigoMascara');
    const list = await acme.op('queries/buscarMascarasSku', {
      codigoEmpresa: EMPRESA,
      codigoFamilia: FAMILIA,
    });
    expect(list.json().mascaras.map((m: { codigo: string }) => m.codigo)).toEqual(['IMP-COR', 'IMP-NUM']);
    expect(list.json().mascaras[1]).toMatchObject({ valorIncremento: 1, ultimaSequencia: 0 });
    const res = await acme.gerar([{ codigoMascara: 'IMP-COR', valor: 'AZ' }, { codigoMascara: 'IMP-NUM' }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sku: 'AZ001', descricao: `AZUL ${base.abreviatura}` });
  });
});
