import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, depois, RODADAS } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import {
  caminhoesNoPatio,
  makeArea,
  makePlanta,
  makeVaga,
  makeVeiculo,
  outboxOf,
  patioCall,
  seed,
  seedPatio,
} from './fixtures.ts';
import { area, planta, vaga } from './tables/plantas.ts';
import { controleArea, presencaPatio } from './tables/presencas.ts';
import { composicaoVeiculo, veiculo } from './tables/veiculos.ts';

// One truck's reports at once, and block changes of one composition's parts at once (docs/patio.md
// "Yard events", "Blocking"), each request in a transaction of its own on PostgreSQL: the reports of
// one vehicle take turns (the lock `yms/patio/presenca` of the vehicle), so the outcome is one that
// some order of them gives; the composition is recomputed from what the other committed. An outside
// probe found, before: a truck gone from the yard that kept its spot or its place in a queue, five
// exits of one stay all answered 200 (five events), 500s from deadlocks, and a composition left
// unblocked with a blocked part. PGlite runs one transaction at a time: this runs with DATABASE_URL.

describe.skipIf(!process.env.DATABASE_URL)('races on PostgreSQL', () => {
  // One race database for the whole file: each race seeds records of its own.
  let t: TestApp;
  let patio: ReturnType<typeof patioCall>;
  let plantaId: string;

  beforeAll(async () => {
    t = await testApp({ db: await bancoDeCorrida() });
    patio = patioCall(t, 'acme', await t.tenant('acme'));
    plantaId = (await seed(t, 'acme', planta, [makePlanta()]))[0]!.id;
  });

  describe('one truck reported several times at once', () => {
    const doca = async (vagas: number) => {
      const [a] = await seed(t, 'acme', area, [makeArea(plantaId)]);
      await seed(
        t,
        'acme',
        vaga,
        Array.from({ length: vagas }, (_, i) => makeVaga(a!.id, 1, i + 1)),
      );
      return a!.id;
    };
    const naDoca = (veiculoId: string) =>
      t.db.tenant('acme', async (tx) => {
        const store = new Store(tx, 'acme');
        return {
          vagas: (await store.select(vaga, eq(vaga.veiculoId, veiculoId))).length,
          chegadasAbertas: (
            await store.select(
              controleArea,
              and(eq(controleArea.veiculoId, veiculoId), isNull(controleArea.saidaEm)),
            )
          ).length,
          estadias: (
            await store.select(
              presencaPatio,
              and(eq(presencaPatio.veiculoId, veiculoId), isNull(presencaPatio.saidaEm)),
            )
          ).length,
        };
      });
    const naFila = async (areaId: string, veiculoId: string) => {
      const res = await patio('queries/buscarFilaArea', { areaId });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().content as Array<{ veiculoId: string }>).some((i) => i.veiculoId === veiculoId);
    };

    it('an exit racing reports into an area: the truck leaves with nothing held, each report 200 or 409', async () => {
      for (let rodada = 0; rodada < RODADAS * 2; rodada++) {
        // A dock with a free spot, and one already full (the truck would queue there).
        const [livre, cheia] = [await doca(2), await doca(1)];
        const [outro] = await caminhoesNoPatio(t, 'acme', plantaId, 1);
        expect(
          (await patio('events/vehicleEnteredAreaInYard', { plantaId, areaId: cheia, veiculoId: outro!.id }))
            .statusCode,
        ).toBe(200);
        const [v] = await caminhoesNoPatio(t, 'acme', plantaId, 1);
        const veiculoId = v!.id;
        const respostas = await aoMesmoTempo([
          () => patio('events/vehicleExitedYard', { plantaId, veiculoId }),
          ...[livre, cheia, livre].map((areaId, i) =>
            depois(i * 3, () => patio('events/vehicleEnteredAreaInYard', { plantaId, areaId, veiculoId })),
          ),
        ]);
        expect(respostas[0]!.statusCode, respostas[0]!.body).toBe(200);
        for (const r of respostas.slice(1)) expect([200, 409], r.body).toContain(r.statusCode);
        expect(await naDoca(veiculoId)).toEqual({ vagas: 0, chegadasAbertas: 0, estadias: 0 });
        expect(await naFila(cheia, veiculoId)).toBe(false);
      }
    });

    it('five exits of one stay: one 200, four 409, one event', async () => {
      for (let rodada = 0; rodada < RODADAS; rodada++) {
        const [v] = await caminhoesNoPatio(t, 'acme', plantaId, 1);
        const respostas = await aoMesmoTempo(
          Array.from(
            { length: 5 },
            () => () => patio('events/vehicleExitedYard', { plantaId, veiculoId: v!.id }),
          ),
        );
        expect(respostas.map((r) => r.statusCode).sort(), respostas.map((r) => r.body).join('\n')).toEqual([
          200, 409, 409, 409, 409,
        ]);
        const saidas = (await outboxOf(t, 'acme')).filter(
          (e) =>
            e.topic === 'yms/patio/vehicleExitedYard' &&
            (e.payload as { veiculoId?: string }).veiculoId === v!.id,
        );
        expect(saidas).toHaveLength(1);
      }
    });

    it('reported into five areas at once, twice each: every report 200, one spot and one open arrival at the end', async () => {
      for (let rodada = 0; rodada < RODADAS; rodada++) {
        const docas = [await doca(1), await doca(1), await doca(1), await doca(1), await doca(1)];
        const [v] = await caminhoesNoPatio(t, 'acme', plantaId, 1);
        const respostas = await aoMesmoTempo(
          [...docas, ...docas].map(
            (areaId) => () =>
              patio('events/vehicleEnteredAreaInYard', { plantaId, areaId, veiculoId: v!.id }),
          ),
        );
        for (const r of respostas) expect(r.statusCode, r.body).toBe(200);
        expect(await naDoca(v!.id)).toEqual({ vagas: 1, chegadasAbertas: 1, estadias: 1 });
      }
    });
  });

  describe('a delete racing an operation that names the record', () => {
    it('a circuit deleted while an execution of it starts: the start answers as after the delete (404), never 500', async () => {
      const vistos = new Set<number>();
      for (let rodada = 0; rodada < RODADAS * 2; rodada++) {
        const { circuitoId } = await seedPatio(t, 'acme', plantaId);
        const [v] = await seed(t, 'acme', veiculo, [makeVeiculo()]);
        const [inicio, remocao] = await aoMesmoTempo([
          () => patio('actions/iniciarExecucaoCircuito', { circuitoId, veiculoId: v!.id }),
          depois(rodada % 4, () => patio(`entities/circuito/${circuitoId}`, undefined, { method: 'DELETE' })),
        ]);
        // Either order: the start first (the delete refused: still named), or the delete first.
        if (inicio!.statusCode === 200) expect(remocao!.statusCode, remocao!.body).toBe(422);
        else {
          expect(inicio!.statusCode, inicio!.body).toBe(404);
          expect(remocao!.statusCode, remocao!.body).toBe(200);
        }
        vistos.add(inicio!.statusCode);
      }
      expect([...vistos].every((s) => s === 200 || s === 404)).toBe(true);
    });
  });

  describe('block changes of one composition’s parts at once', () => {
    const bloqueada = async (id: string) => {
      const res = await patio(`entities/composicaoVeiculo/${id}`, undefined, { method: 'GET' });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().bloqueado as boolean;
    };

    it('one part unblocked while another is blocked: the composition ends blocked, as in either order', async () => {
      for (let rodada = 0; rodada < RODADAS * 3; rodada++) {
        const [cavalo, r1, r2] = await seed(t, 'acme', veiculo, [
          makeVeiculo({ bloqueado: true, motivoBloqueio: 'documentos' }),
          makeVeiculo({ tipoVeiculo: 'REBOQUE' }),
          makeVeiculo({ tipoVeiculo: 'REBOQUE' }),
        ]);
        const [c] = await seed(t, 'acme', composicaoVeiculo, [
          { cavaloId: cavalo!.id, reboqueIds: [r1!.id, r2!.id], bloqueado: true },
        ]);
        const respostas = await aoMesmoTempo([
          () => patio('actions/desbloquearVeiculo', { veiculoId: cavalo!.id }),
          () => patio('actions/bloquearVeiculo', { veiculoId: r1!.id, motivo: 'lacre' }),
        ]);
        for (const r of respostas) expect(r.statusCode, r.body).toBe(200);
        expect(await bloqueada(c!.id)).toBe(true);
      }
    });
  });
});
