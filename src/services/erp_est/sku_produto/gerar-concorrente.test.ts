import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo } from '../../../../test/corrida.ts';
import { openTestDb, type TestApp, testApp } from '../../../../test/harness.ts';
import { skuApi } from './fixtures.ts';

// The race of one auto-increment mask (docs/sku_produto.md "Generating a SKU"): 50 gerarSku at once,
// each in a transaction of its own on PostgreSQL, get 50 distinct numbers, 1 to 50, and the counter
// ends at 50. PGlite runs one transaction at a time, so this runs only with DATABASE_URL
// (gerar.test.ts covers the numbering on both engines).

const GERACOES = 50;

describe.skipIf(!process.env.DATABASE_URL)(`${GERACOES} gerarSku at once on one auto-increment mask`, () => {
  let t: TestApp;
  let acme: ReturnType<typeof skuApi>;

  beforeAll(async () => {
    t = await testApp({ db: await openTestDb({ poolSize: GERACOES + 4 }) });
    acme = skuApi(t, 'acme', await t.tenant('acme'));
  });

  it('hands out 50 distinct codes in sequence, and the counter ends at 50', async () => {
    const m = await acme.mascara({
      tipoComposicao: 'Numerico',
      autoIncrementavel: 'Sim',
      quantidadePosicoes: 6,
    });
    const respostas = await aoMesmoTempo(
      Array.from({ length: GERACOES }, () => () => acme.gerar([{ codigoMascara: String(m.codigo) }])),
    );
    for (const r of respostas) expect(r.statusCode, r.body).toBe(200);
    const codes = respostas.map((r) => r.json().sku as string).sort();
    expect(new Set(codes).size).toBe(GERACOES);
    expect(codes).toEqual(Array.from({ length: GERACOES }, (_, i) => String(i + 1).padStart(6, '0')));
    expect((await acme.entity('GET', `mascaraSku/${m.id}`)).json().ultimaSequencia).toBe(GERACOES);
  });
});
