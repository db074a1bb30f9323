import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, RODADAS, umVencedor } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { makeVeiculo, patioCall, seed } from './fixtures.ts';
import { composicaoVeiculo, veiculo } from './tables/veiculos.ts';

// A tractor coupled into a composition while its category changes to a semi-trailer, at the same
// moment (docs/patio.md "Compositions"), each request in a transaction of its own on PostgreSQL.
// The composition reads its parts FOR SHARE and the vehicle's edit holds its row FOR UPDATE, so one
// waits for the other and sees what it wrote: one of the two is refused (422), never both taken (a
// semi-trailer at the head of a composition). PGlite runs one transaction at a time: this runs with
// DATABASE_URL.

describe.skipIf(!process.env.DATABASE_URL)('a composition and its head’s category at once', () => {
  let t: TestApp;
  let patio: ReturnType<typeof patioCall>;

  beforeAll(async () => {
    t = await testApp({ db: await bancoDeCorrida() });
    patio = patioCall(t, 'acme', await t.tenant('acme'));
  });

  it('one of the two is refused: the tractor is not a semi-trailer at the head of a composition', async () => {
    for (let rodada = 0; rodada < RODADAS * 4; rodada++) {
      const [cavalo] = await seed(t, 'acme', veiculo, [makeVeiculo({ tipoVeiculo: 'CAVALO_MECANICO' })]);
      const respostas = await aoMesmoTempo([
        () => patio('entities/composicaoVeiculo', { cavaloId: cavalo!.id }),
        () => patio(`entities/veiculo/${cavalo!.id}`, { tipoVeiculo: 'SEMIRREBOQUE' }, { method: 'PATCH' }),
      ]);
      const vencedor = umVencedor(respostas, { status: 422, mensagem: /^(cavaloId|tipoVeiculo): o veículo/ });
      const [agora, composicoes] = await t.db.tenant('acme', async (tx) => {
        const store = new Store(tx, 'acme');
        return [
          (await store.select(veiculo, eq(veiculo.id, cavalo!.id)))[0]!,
          await store.select(composicaoVeiculo, eq(composicaoVeiculo.cavaloId, cavalo!.id)),
        ] as const;
      });
      expect({ tipo: agora.tipoVeiculo, composicoes: composicoes.length }).toEqual(
        vencedor === 0
          ? { tipo: 'CAVALO_MECANICO', composicoes: 1 }
          : { tipo: 'SEMIRREBOQUE', composicoes: 0 },
      );
    }
  });
});
