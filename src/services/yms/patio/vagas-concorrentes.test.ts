import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  aoMesmoTempo,
  bancoDeCorrida,
  CONCORRENTES,
  depois,
  RODADAS,
  umVencedor,
} from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import {
  makeArea,
  makeCircuito,
  makePlanta,
  makeSequencia,
  makeVaga,
  makeVeiculo,
  patioCall,
  seed,
} from './fixtures.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { execucaoCircuito } from './tables/execucoes.ts';
import { area, planta, vaga } from './tables/plantas.ts';
import { presencaPatio } from './tables/presencas.ts';
import { veiculo } from './tables/veiculos.ts';

// Race tests of the spots (docs/patio.md "Spots", docs/platform.md "Contended decisions"): many
// trucks entering an area with one free spot, many starts for one initial spot, and edits and
// deletes of a spot racing its allocation, sent at once, several rounds each.

let t: TestApp;
let patio: ReturnType<typeof patioCall>;
let plantaId: string;

beforeAll(async () => {
  t = await testApp({ db: await bancoDeCorrida() });
  patio = patioCall(t, 'acme', await t.tenant('acme'));
  plantaId = (await seed(t, 'acme', planta, [makePlanta()]))[0]!.id;
});

/** An area of the plant with one free spot. */
async function areaComUmaVaga() {
  const [a] = await seed(t, 'acme', area, [makeArea(plantaId)]);
  const [v] = await seed(t, 'acme', vaga, [makeVaga(a!.id, 1, 1)]);
  return { areaId: a!.id, vagaId: v!.id };
}

/** An active circuit of the plant, of one step. */
async function circuitoDaPlanta(): Promise<string> {
  const { areaId } = await areaComUmaVaga();
  const [c] = await seed(t, 'acme', circuito, [makeCircuito(plantaId)]);
  await seed(t, 'acme', sequenciaCircuito, [makeSequencia(c!.id, 1, areaId)]);
  return c!.id;
}

/** Trucks already in the plant's yard (their stay open). */
async function caminhoesNoPatio(n: number) {
  const vs = await seed(
    t,
    'acme',
    veiculo,
    Array.from({ length: n }, () => makeVeiculo()),
  );
  await seed(
    t,
    'acme',
    presencaPatio,
    vs.map((v) => ({ plantaId, veiculoId: v.id, placa: v.placa, entradaEm: new Date() })),
  );
  return vs;
}

const entrarNaArea = (areaId: string, veiculoId: string) => () =>
  patio('events/vehicleEnteredAreaInYard', { plantaId, areaId, veiculoId });

const vagaAgora = async (id: string) =>
  (await t.db.tenant('acme', (tx) => new Store(tx, 'acme').select(vaga, eq(vaga.id, id))))[0];

describe(`one free spot (${RODADAS} rounds × ${CONCORRENTES} at once)`, () => {
  it('trucks entering its area: one takes it, the others wait in its queue (fila-concorrente.test.ts)', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const { areaId, vagaId } = await areaComUmaVaga();
      const vs = await caminhoesNoPatio(CONCORRENTES);
      const respostas = await aoMesmoTempo(vs.map((v) => entrarNaArea(areaId, v.id)));
      for (const res of respostas) expect(res.statusCode, res.body).toBe(200);
      const dono = (await vagaAgora(vagaId))!.veiculoId;
      const fila = (await patio('queries/buscarFilaArea', { areaId })).json().content;
      expect(fila).toHaveLength(CONCORRENTES - 1);
      expect([dono, ...fila.map((i: { veiculoId: string }) => i.veiculoId)].sort()).toEqual(
        vs.map((v) => v.id).sort(),
      );
    }
  });

  it('starts of executions with it as the initial spot: one starts, the others are 422', async () => {
    const c = await circuitoDaPlanta();
    for (let r = 0; r < RODADAS; r++) {
      const { vagaId } = await areaComUmaVaga();
      const vs = await seed(
        t,
        'acme',
        veiculo,
        Array.from({ length: CONCORRENTES }, () => makeVeiculo()),
      );
      const iniciar = (veiculoId: string) => () =>
        patio('actions/iniciarExecucaoCircuito', { circuitoId: c, veiculoId, vagaInicialId: vagaId });
      const i = umVencedor(await aoMesmoTempo(vs.map((v) => iniciar(v.id))), {
        status: 422,
        mensagem: /^A vaga \S+ não está livre \(ocupada, inativa ou bloqueada\) ou não existe$/,
      });
      expect(await vagaAgora(vagaId)).toMatchObject({ ocupada: true, veiculoId: vs[i]!.id });
      const execucoes = await t.db.tenant('acme', (tx) =>
        new Store(tx, 'acme').select(
          execucaoCircuito,
          inArray(
            execucaoCircuito.veiculoId,
            vs.map((v) => v.id),
          ),
        ),
      );
      expect(execucoes.map((e) => e.veiculoId)).toEqual([vs[i]!.id]);
    }
  });
});

describe(`edits and deletes of a spot racing its allocation (${RODADAS} rounds × ${CONCORRENTES} at once)`, () => {
  it('an edit never writes back a spot as free that a truck took meanwhile', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const metade = CONCORRENTES / 2;
      const vagas = await Promise.all(Array.from({ length: metade }, () => areaComUmaVaga()));
      const vs = await caminhoesNoPatio(metade);
      const respostas = await aoMesmoTempo(
        vagas.flatMap(({ areaId, vagaId }, k) => [
          entrarNaArea(areaId, vs[k]!.id),
          // Spread over the event's time: 0, 4, 8… ms later, changing with the round.
          depois(4 * ((r + k) % 6), () =>
            patio(`entities/vaga/${vagaId}`, { descricao: `vaga editada ${k}` }, { method: 'PATCH' }),
          ),
        ]),
      );
      for (const [k, { vagaId }] of vagas.entries()) {
        const [entrada, edicao] = [respostas[2 * k]!, respostas[2 * k + 1]!];
        expect(edicao.statusCode, edicao.body).toBe(200);
        // The edit takes the area's lock before the spot's, as arrivals do: the truck never finds
        // the spot held by the edit (it would queue while the spot is free), and the edit never
        // writes the spot back as free.
        expect(entrada.statusCode, entrada.body).toBe(200);
        expect(await vagaAgora(vagaId)).toMatchObject({ ocupada: true, veiculoId: vs[k]!.id });
      }
    }
  });

  it('a delete and a start that takes the spot: exactly one of them happens', async () => {
    const c = await circuitoDaPlanta();
    for (let r = 0; r < RODADAS; r++) {
      const metade = CONCORRENTES / 2;
      const vagas = await Promise.all(Array.from({ length: metade }, () => areaComUmaVaga()));
      const vs = await seed(
        t,
        'acme',
        veiculo,
        Array.from({ length: metade }, () => makeVeiculo()),
      );
      const respostas = await aoMesmoTempo(
        vagas.flatMap(({ vagaId }, k) => [
          () =>
            patio('actions/iniciarExecucaoCircuito', {
              circuitoId: c,
              veiculoId: vs[k]!.id,
              vagaInicialId: vagaId,
            }),
          depois(4 * ((r + k) % 6), () => patio(`entities/vaga/${vagaId}`, undefined, { method: 'DELETE' })),
        ]),
      );
      for (const [k, { vagaId }] of vagas.entries()) {
        const [inicio, exclusao] = [respostas[2 * k]!, respostas[2 * k + 1]!];
        const resumo = `${inicio.statusCode} ${inicio.body}\n${exclusao.statusCode} ${exclusao.body}`;
        const agora = await vagaAgora(vagaId);
        if (exclusao.statusCode === 200) {
          expect(inicio.statusCode, resumo).toBe(422);
          expect(agora, resumo).toBeUndefined();
        } else {
          expect(inicio.statusCode, resumo).toBe(200);
          expect(exclusao.statusCode, resumo).toBe(422);
          expect(exclusao.json().message, resumo).toMatch(/está ocupada pelo veículo/);
          expect(agora, resumo).toMatchObject({ ocupada: true, veiculoId: vs[k]!.id });
        }
      }
    }
  });
});

describe(`one spot per truck (${RODADAS} rounds × ${CONCORRENTES} at once)`, () => {
  it('a truck entering an area while its execution starts on another spot: one spot, no 500', async () => {
    const c = await circuitoDaPlanta();
    for (let r = 0; r < RODADAS; r++) {
      const metade = CONCORRENTES / 2;
      const vs = await caminhoesNoPatio(metade);
      const pares = await Promise.all(vs.map(async () => [await areaComUmaVaga(), await areaComUmaVaga()]));
      const respostas = await aoMesmoTempo(
        vs.flatMap((v, k) => [
          entrarNaArea(pares[k]![0]!.areaId, v.id),
          () =>
            patio('actions/iniciarExecucaoCircuito', {
              circuitoId: c,
              veiculoId: v.id,
              vagaInicialId: pares[k]![1]!.vagaId,
            }),
        ]),
      );
      for (const [k, v] of vs.entries()) {
        const [entrada, inicio] = [respostas[2 * k]!, respostas[2 * k + 1]!];
        const resumo = `${entrada.statusCode} ${entrada.body}\n${inicio.statusCode} ${inicio.body}`;
        // The event moves the truck out of a spot it holds elsewhere; the start refuses a truck that holds one.
        expect([200, 409], resumo).toContain(entrada.statusCode);
        expect([200, 409], resumo).toContain(inicio.statusCode);
        for (const res of [entrada, inicio])
          if (res.statusCode === 409)
            expect(res.json().message, resumo).toMatch(/já ocupa a vaga|acaba de ocupar outra vaga/);
        const dele = await t.db.tenant('acme', (tx) =>
          new Store(tx, 'acme').select(vaga, eq(vaga.veiculoId, v.id)),
        );
        expect(dele.length, resumo).toBe(entrada.statusCode === 200 || inicio.statusCode === 200 ? 1 : 0);
      }
    }
  });
});
