import { describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, CONCORRENTES, RODADAS } from '../../../../test/corrida.ts';
import { testApp } from '../../../../test/harness.ts';
import { oficinaCall, ok200, saved } from './fixtures.ts';

// The contended decisions of tms/oficina (docs/oficina.md "Contended decisions"), each request in
// a transaction of its own on PostgreSQL: new vehicles take codes under the fleet's lock (never
// one code twice, never one plate twice), and a cost centre removed while vehicles are saved into
// it (both lock its row) never leaves a vehicle in a centre that no longer exists. PGlite runs the
// requests one after another, so the same assertions hold there too.

describe('vehicles saved at once', () => {
  it('new plates get distinct codes; one plate sent by all becomes one vehicle', async () => {
    const t = await testApp({ db: await bancoDeCorrida() });
    const acme = oficinaCall(t, 'acme', await t.tenant('acme'));
    const vistos = new Set<number>();
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const respostas = await aoMesmoTempo(
        Array.from(
          { length: CONCORRENTES },
          (_, i) => () =>
            acme('actions/salvaListaVeiculos', {
              listaVeiculos: [
                { nrPlaca: `R${rodada}C${i}A` },
                { nrPlaca: `R${rodada}C${i}B` },
                { nrPlaca: `R${rodada}X` },
              ],
            }),
        ),
      );
      const codigosX = new Set<number>();
      for (const res of respostas) {
        const body = ok200(res);
        expect(body.ok, body.dsErro).toBe(true);
        const [a, b, x] = body.listaVeiculos;
        for (const v of [a, b]) {
          expect(vistos.has(v.cdVeiculo), `code ${v.cdVeiculo} given twice`).toBe(false);
          vistos.add(v.cdVeiculo);
        }
        codigosX.add(x.cdVeiculo);
      }
      expect(codigosX.size, 'one plate, one vehicle').toBe(1);
      vistos.add([...codigosX][0]!);
    }
    const todos = ok200(await acme('queries/buscaPendencias', {}));
    expect(todos.ok).toBe(true);
    expect(vistos.size).toBe(RODADAS * (2 * CONCORRENTES + 1));
  });

  it('a cost centre removed while vehicles are saved into it: either the removal or the saves fail, never both succeed', async () => {
    const t = await testApp({ db: await bancoDeCorrida() });
    const acme = oficinaCall(t, 'acme', await t.tenant('acme'));
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const cd = 100 + rodada;
      await saved(acme('actions/salvaCentroCusto', { cdCentroCusto: cd }));
      const pedidos = [
        () => acme('actions/removeCentroCusto', { cdCentroCusto: cd }),
        ...Array.from(
          { length: CONCORRENTES - 1 },
          (_, i) => () =>
            acme('actions/salvaListaVeiculos', {
              listaVeiculos: [{ nrPlaca: `C${rodada}V${i}`, cdCentroCusto: cd }],
            }),
        ),
      ];
      const [remocao, ...saves] = (await aoMesmoTempo(pedidos)).map(ok200);
      const salvos = saves.filter((s) => s.ok).length;
      const centro = ok200(await acme('queries/buscaCentroCusto', { cdCentroCusto: cd })).listaCentroCusto;
      if (remocao.ok) {
        expect(centro).toEqual([]);
        expect(salvos, 'a vehicle saved into a removed centre').toBe(0);
      } else {
        expect(remocao.dsErro).toMatch(/em uso/);
        expect(centro[0].total).toBe(salvos);
      }
    }
  });
});
