import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo } from '../../../../test/corrida.ts';
import { openTestDb, type TestApp, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { caminhoesNoPatio, makeArea, makePlanta, makeVaga, outboxOf, patioCall, seed } from './fixtures.ts';
import { area, planta, vaga } from './tables/plantas.ts';

// The race of a full area (docs/patio.md "Queues"): 20 trucks reported at once into an area of 2
// spots, each report in a transaction of its own on PostgreSQL. 2 get spots, 18 wait in the order
// the area's lock decided (the order their CRIADO events were written); freeing the spots, two at
// a time and at once, hands them on in that order; no spot is ever given twice. PGlite runs one
// transaction at a time, so this runs only with DATABASE_URL (fila.test.ts covers both engines).

const CAMINHOES = 20;
const VAGAS = 2;

describe.skipIf(!process.env.DATABASE_URL)(
  `an area of ${VAGAS} spots, ${CAMINHOES} trucks reported at once`,
  () => {
    let t: TestApp;
    let patio: ReturnType<typeof patioCall>;
    let plantaId: string;

    beforeAll(async () => {
      t = await testApp({ db: await openTestDb({ poolSize: CAMINHOES + 4 }) });
      patio = patioCall(t, 'acme', await t.tenant('acme'));
      plantaId = (await seed(t, 'acme', planta, [makePlanta()]))[0]!.id;
    });

    const ocupacao = async (areaId: string) =>
      (await t.db.tenant('acme', (tx) => new Store(tx, 'acme').select(vaga, eq(vaga.areaId, areaId)))).map(
        (v) => v.veiculoId,
      );

    const fila = async (areaId: string): Promise<Array<{ veiculoId: string; posicao: number }>> => {
      const res = await patio('queries/buscarFilaArea', { areaId });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().content;
    };

    it('2 allocated, 18 waiting in the order decided under the lock, handed on in that order', async () => {
      for (let rodada = 0; rodada < 3; rodada++) {
        const [a] = await seed(t, 'acme', area, [makeArea(plantaId)]);
        const areaId = a!.id;
        await seed(
          t,
          'acme',
          vaga,
          Array.from({ length: VAGAS }, (_, i) => makeVaga(areaId, 1, i + 1)),
        );
        const vs = await caminhoesNoPatio(t, 'acme', plantaId, CAMINHOES);
        const respostas = await aoMesmoTempo(
          vs.map(
            (v) => () => patio('events/vehicleEnteredAreaInYard', { plantaId, areaId, veiculoId: v.id }),
          ),
        );
        for (const r of respostas) expect(r.statusCode, r.body).toBe(200);

        const donos = (await ocupacao(areaId)).filter((id): id is string => !!id);
        expect(new Set(donos).size).toBe(VAGAS);
        const esperando = await fila(areaId);
        expect(esperando.map((i) => i.posicao)).toEqual(
          Array.from({ length: CAMINHOES - VAGAS }, (_, i) => i + 1),
        );
        expect([...donos, ...esperando.map((i) => i.veiculoId)].sort()).toEqual(vs.map((v) => v.id).sort());

        // The queue's order is the order its CRIADO events were written, each under the area's
        // lock: every truck joined last, at the position it was told.
        const criados = (await outboxOf(t, 'acme'))
          .filter((e) => e.topic === 'yms/patio/wsFilaItem')
          .map(
            (e) =>
              e.payload as {
                operacao: string;
                fila: string;
                filaItem: { veiculoId: string; posicao: number };
              },
          )
          .filter((p) => p.fila === areaId && p.operacao === 'CRIADO');
        expect(criados.map((p) => p.filaItem.posicao)).toEqual(esperando.map((i) => i.posicao));
        expect(criados.map((p) => p.filaItem.veiculoId)).toEqual(esperando.map((i) => i.veiculoId));

        // The trucks in the spots leave the yard, two at once, until every truck had its spot:
        // each pair of spots goes to the next two in line; no spot is given twice.
        const servidos = [...donos];
        let emVaga = donos;
        const ordem = esperando.map((i) => i.veiculoId);
        while (servidos.length < CAMINHOES) {
          const saidas = await aoMesmoTempo(
            emVaga.map((veiculoId) => () => patio('events/vehicleExitedYard', { plantaId, veiculoId })),
          );
          for (const r of saidas) expect(r.statusCode, r.body).toBe(200);
          const agora = (await ocupacao(areaId)).filter((id): id is string => !!id);
          const proximos = ordem.slice(servidos.length - VAGAS, servidos.length - VAGAS + VAGAS);
          expect(agora.sort()).toEqual([...proximos].sort());
          for (const id of agora) expect(servidos).not.toContain(id);
          servidos.push(...agora);
          emVaga = agora;
          const resto = await fila(areaId);
          expect(resto.map((i) => i.veiculoId)).toEqual(ordem.slice(servidos.length - VAGAS));
          expect(resto.map((i) => i.posicao)).toEqual(resto.map((_, i) => i + 1));
        }
        expect(new Set(servidos).size).toBe(CAMINHOES);
      }
    });

    it('spots unblocked through the entity while trucks arrive: the queue keeps its order, no spot twice, no deadlock', async () => {
      for (let rodada = 0; rodada < 3; rodada++) {
        const [a] = await seed(t, 'acme', area, [makeArea(plantaId)]);
        const areaId = a!.id;
        const bloqueadas = await seed(
          t,
          'acme',
          vaga,
          Array.from({ length: VAGAS }, (_, i) =>
            makeVaga(areaId, 1, i + 1, { bloqueio: true, motivoBloqueio: 'obra' }),
          ),
        );
        const vs = await caminhoesNoPatio(t, 'acme', plantaId, CAMINHOES);
        // The unblocks land among the arrivals; each edit's job runs after it commits.
        const pedidos = vs.map(
          (v) => () => patio('events/vehicleEnteredAreaInYard', { plantaId, areaId, veiculoId: v.id }),
        );
        for (const [i, b] of bloqueadas.entries())
          pedidos.splice(5 + i * 7, 0, () =>
            patio(`entities/vaga/${b.id}`, { bloqueio: false }, { method: 'PATCH' }),
          );
        for (const r of await aoMesmoTempo(pedidos)) expect(r.statusCode, r.body).toBe(200);
        await t.platform.jobs.drain();

        const donos = (await ocupacao(areaId)).filter((id): id is string => !!id);
        expect(new Set(donos).size).toBe(VAGAS);
        const esperando = await fila(areaId);
        expect([...donos, ...esperando.map((i) => i.veiculoId)].sort()).toEqual(vs.map((v) => v.id).sort());
        expect(esperando.map((i) => i.posicao)).toEqual(esperando.map((_, i) => i + 1));
        // Whoever waits joined after everyone served from the queue: the queue is the tail of the
        // order in which trucks joined it.
        const ordem = (await outboxOf(t, 'acme'))
          .filter((e) => e.topic === 'yms/patio/wsFilaItem')
          .map((e) => e.payload as { operacao: string; fila: string; filaItem: { veiculoId: string } })
          .filter((p) => p.fila === areaId && p.operacao === 'CRIADO')
          .map((p) => p.filaItem.veiculoId);
        expect(esperando.map((i) => i.veiculoId)).toEqual(ordem.slice(ordem.length - esperando.length));
      }
    });

    /** An area of `n` spots and `trucks` trucks in the yard, none reported into it yet. */
    async function areaETrucks(n: number, trucks: number) {
      const [a] = await seed(t, 'acme', area, [makeArea(plantaId)]);
      await seed(
        t,
        'acme',
        vaga,
        Array.from({ length: n }, (_, i) => makeVaga(a!.id, 1, i + 1)),
      );
      const vs = await caminhoesNoPatio(t, 'acme', plantaId, trucks, new Date(Date.now() - 60_000));
      return { areaId: a!.id, vs };
    }
    const entra = (areaId: string, veiculoId: string) => () =>
      patio('events/vehicleEnteredAreaInYard', { plantaId, areaId, veiculoId });
    const sai = (veiculoId: string) => () => patio('events/vehicleExitedYard', { plantaId, veiculoId });
    const filaDe = async (areaId: string) => (await fila(areaId)).map((i) => i.veiculoId);

    it('a truck that leaves while a spot is handed to it keeps no spot: it goes to the next in line', async () => {
      for (let rodada = 0; rodada < 10; rodada++) {
        // Two spots held by v0 and v1; v2 then v3 waiting. v0 and v2 leave at once: v0's spot is
        // handed to v2 under the area's lock while v2's exit waits for it, and v2's exit must then
        // free it for v3.
        const { areaId, vs } = await areaETrucks(2, 4);
        const [v0, v1, v2, v3] = vs.map((v) => v.id) as [string, string, string, string];
        for (const v of [v0, v1, v2, v3]) expect((await entra(areaId, v)()).statusCode).toBe(200);
        expect(await filaDe(areaId)).toEqual([v2, v3]);
        const saidas = await aoMesmoTempo([sai(v0), sai(v2)]);
        for (const r of saidas) expect(r.statusCode, r.body).toBe(200);
        expect((await ocupacao(areaId)).sort()).toEqual([v1, v3].sort());
        expect(await filaDe(areaId)).toEqual([]);
      }
    });

    it('a truck reported into another area while a spot is handed to it holds one or the other, never both', async () => {
      for (let rodada = 0; rodada < 10; rodada++) {
        const { areaId, vs } = await areaETrucks(2, 5);
        const [v0, v1, v2, v3, w] = vs.map((v) => v.id) as [string, string, string, string, string];
        const { areaId: outra } = await areaETrucks(1, 0);
        expect((await entra(outra, w)()).statusCode).toBe(200);
        for (const v of [v0, v1, v2, v3]) expect((await entra(areaId, v)()).statusCode).toBe(200);
        const r = await aoMesmoTempo([sai(v0), entra(outra, v2)]);
        for (const x of r) expect(x.statusCode, x.body).toBe(200);
        // v2 left this area for the other one, where it waits behind w: this area's spots are v1's
        // and v3's, and nobody waits here.
        expect((await ocupacao(areaId)).sort()).toEqual([v1, v3].sort());
        expect(await filaDe(areaId)).toEqual([]);
        expect(await filaDe(outra)).toEqual([v2]);
      }
    });

    it('one truck reported many times at once keeps one spot or one place, every report 200', async () => {
      for (const cheia of [false, true]) {
        const { areaId, vs } = await areaETrucks(3, cheia ? 4 : 1);
        const truck = vs.at(-1)!.id;
        for (const v of vs.slice(0, -1)) expect((await entra(areaId, v.id)()).statusCode).toBe(200);
        const r = await aoMesmoTempo(Array.from({ length: 10 }, () => entra(areaId, truck)));
        for (const x of r) expect(x.statusCode, x.body).toBe(200);
        const donos = (await ocupacao(areaId)).filter((id) => id === truck);
        expect(donos.length + (await filaDe(areaId)).filter((id) => id === truck).length).toBe(1);
        expect(donos.length).toBe(cheia ? 0 : 1);
        // And its arrival is recorded once.
        const chegadas = (await patio('queries/buscarHistoricoControleChegada', { areaId }))
          .json()
          .content.filter((c: { veiculoId: string }) => c.veiculoId === truck);
        expect(chegadas).toHaveLength(1);
      }
    });
  },
);
