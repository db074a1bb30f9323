import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, CONCORRENTES, RODADAS, umVencedor } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { comDigitosCnpj } from '../../../platform/core/cpf-cnpj.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { makePlanta, patioCall, seed } from './fixtures.ts';
import { planta } from './tables/plantas.ts';

// Plants given one CNPJ at the same moment (docs/patio.md "The yard model"), each request in a
// transaction of its own on PostgreSQL: the unique index patio_planta_cnpj lets one through and
// answers the others 409 (never 500, never two plants of one CNPJ). A check in the hook (read, then
// write) would let them all pass: none sees the others' uncommitted rows. PGlite runs one
// transaction at a time: this runs with DATABASE_URL.

describe.skipIf(!process.env.DATABASE_URL)('one CNPJ for several plants at once', () => {
  let t: TestApp;
  let patio: ReturnType<typeof patioCall>;

  beforeAll(async () => {
    t = await testApp({ db: await bancoDeCorrida() });
    patio = patioCall(t, 'acme', await t.tenant('acme'));
  });

  const REPETIDO = { status: 409, mensagem: /^A planta with the same key \(cnpj\) already exists$/ };
  const comCnpj = (cnpj: string) =>
    t.db.tenant('acme', (tx) => new Store(tx, 'acme').select(planta, eq(planta.cnpj, cnpj)));

  it('creates: one plant takes the CNPJ, the others are 409', async () => {
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const cnpj = comDigitosCnpj(`${String(20_000_000 + rodada)}0001`);
      const respostas = await aoMesmoTempo(
        Array.from(
          { length: CONCORRENTES },
          (_, i) => () => patio('entities/planta', { codigo: `C${rodada}-${i}`, nome: 'Planta', cnpj }),
        ),
      );
      const vencedor = umVencedor(respostas, REPETIDO);
      expect((await comCnpj(cnpj)).map((p) => p.id)).toEqual([respostas[vencedor]!.json().id]);
    }
  });

  it('updates: plants without a CNPJ given the same one at once, one takes it', async () => {
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const cnpj = comDigitosCnpj(`${String(30_000_000 + rodada)}0001`);
      const semCnpj = await seed(
        t,
        'acme',
        planta,
        Array.from({ length: CONCORRENTES }, () => makePlanta()),
      );
      const respostas = await aoMesmoTempo(
        semCnpj.map((p) => () => patio(`entities/planta/${p.id}`, { cnpj }, { method: 'PATCH' })),
      );
      const vencedor = umVencedor(respostas, REPETIDO);
      expect((await comCnpj(cnpj)).map((p) => p.id)).toEqual([semCnpj[vencedor]!.id]);
    }
  });
});
