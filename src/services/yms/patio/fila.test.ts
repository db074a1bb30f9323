import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import {
  asTenant,
  caminhoesNoPatio,
  makeArea,
  makeCircuito,
  makePlanta,
  makeSequencia,
  makeVaga,
  outboxOf,
  patioCall,
  seed,
} from './fixtures.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { area, planta, vaga } from './tables/plantas.ts';

// The queues of the yard (docs/patio.md "Queues"): a full area never refuses a report, the vehicle
// waits first come first served, a freed spot goes to the first one waiting (with its step
// automation), leaving the area or the yard leaves the queue, every change is a wsFilaItem, and
// buscarFilaArea reads the queue. The race of many arrivals at once: fila-concorrente.test.ts.

let t: TestApp;
let acme: ReturnType<typeof patioCall>;
let globex: ReturnType<typeof patioCall>;
let plantaId: string;
let outraAreaTenant: string;

interface Push {
  operacao: string;
  fila: string;
  filaItem: { id: string; posicao: number; placa: string; veiculoId: string; desde: string };
  ws_users?: string;
}

beforeAll(async () => {
  // One connection on PostgreSQL: every transaction reuses its `ctx.tx`, so what one transaction
  // keeps (the hand-ons it asked for) must not reach the next (core/context.ts transactionLocal).
  t = await testApp({ db: await openTestDb({ poolSize: 1 }) });
  acme = patioCall(t, 'acme', await t.tenant('acme'));
  globex = patioCall(t, 'globex', await t.tenant('globex'));
  plantaId = (await seed(t, 'acme', planta, [makePlanta()]))[0]!.id;
  const [pg] = await seed(t, 'globex', planta, [makePlanta()]);
  outraAreaTenant = (await seed(t, 'globex', area, [makeArea(pg!.id)]))[0]!.id;
});

/** An area of the plant with `n` spots. */
async function areaCom(n: number, o: Parameters<typeof makeArea>[1] = {}) {
  const [a] = await seed(t, 'acme', area, [makeArea(plantaId, { tipo: 'DOCA', ...o })]);
  const vagas = await seed(
    t,
    'acme',
    vaga,
    Array.from({ length: n }, (_, i) => makeVaga(a!.id, 1, i + 1)),
  );
  return { areaId: a!.id, vagas: vagas.map((v) => v.id) };
}

/** Trucks in the plant's yard, in since before the device times some reports carry (events are in
 * order: docs/patio.md). */
const caminhoes = (n: number) => caminhoesNoPatio(t, 'acme', plantaId, n, new Date('2026-03-01T00:00:00Z'));

const entrar = (areaId: string, veiculoId: string, extra: Record<string, unknown> = {}) =>
  acme('events/vehicleEnteredAreaInYard', { plantaId, areaId, veiculoId, ...extra });
const sair = (veiculoId: string) => acme('events/vehicleExitedYard', { plantaId, veiculoId });
const fila = async (areaId: string) => {
  const res = await acme('queries/buscarFilaArea', { areaId });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().fila).toBe(areaId);
  return res.json().content as Push['filaItem'][];
};
const pushes = async (areaId: string) =>
  (await outboxOf(t, 'acme'))
    .filter((e) => e.topic === 'yms/patio/wsFilaItem')
    .map((e) => e.payload as Push)
    .filter((p) => p.fila === areaId);
const donoDa = async (vagaId: string) =>
  (await asTenant(t, 'acme', (ctx) => ctx.store.select(vaga, eq(vaga.id, vagaId))))[0]!.veiculoId;

describe('a full area', () => {
  it('records the arrival, answers 200 and queues the vehicle, first come first served', async () => {
    const { areaId, vagas } = await areaCom(1);
    const [a, b, c] = await caminhoes(3);
    for (const [i, v] of [a!, b!, c!].entries()) {
      const res = await entrar(areaId, v.id, { dataHora: `2026-03-02T10:0${i}:00-03:00`, origem: 'cam-1' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe('');
    }
    expect(await donoDa(vagas[0]!)).toBe(a!.id);
    const itens = await fila(areaId);
    expect(itens).toEqual([
      {
        id: expect.any(String),
        posicao: 1,
        placa: b!.placa,
        veiculoId: b!.id,
        desde: '2026-03-02T13:01:00.000Z',
      },
      { id: expect.any(String), posicao: 2, placa: c!.placa, veiculoId: c!.id, desde: expect.any(String) },
    ]);
    // Every arrival is recorded, the waiting ones too (arrival control).
    const chegadas = (await acme('queries/buscarHistoricoControleChegada', { areaId })).json().content;
    expect(chegadas.map((r: { veiculoId: string }) => r.veiculoId)).toEqual([a!.id, b!.id, c!.id]);
    // Queue events go to every console watching the yard (no ws_users on the area).
    expect(await pushes(areaId)).toEqual([
      { operacao: 'CRIADO', fila: areaId, filaItem: itens[0] },
      { operacao: 'CRIADO', fila: areaId, filaItem: itens[1] },
    ]);
    // Reported again where it waits: it keeps its place, the queue does not change.
    expect((await entrar(areaId, b!.id)).statusCode).toBe(200);
    expect(await fila(areaId)).toEqual(itens);
    expect(await pushes(areaId)).toHaveLength(2);
  });

  it('a waiting vehicle reported elsewhere or leaving the yard leaves the queue; those behind move up', async () => {
    const { areaId } = await areaCom(1);
    const { areaId: outra } = await areaCom(0);
    const [a, b, c, d] = await caminhoes(4);
    for (const v of [a!, b!, c!, d!]) expect((await entrar(areaId, v.id)).statusCode).toBe(200);
    const antes = await fila(areaId);
    expect(antes.map((i) => i.veiculoId)).toEqual([b!.id, c!.id, d!.id]);

    expect((await entrar(outra, b!.id)).statusCode).toBe(200);
    expect((await fila(areaId)).map((i) => [i.veiculoId, i.posicao])).toEqual([
      [c!.id, 1],
      [d!.id, 2],
    ]);
    expect((await pushes(areaId)).slice(-3)).toEqual([
      { operacao: 'REMOVIDO', fila: areaId, filaItem: antes[0] },
      { operacao: 'ALTERADO', fila: areaId, filaItem: { ...antes[1]!, posicao: 1 } },
      { operacao: 'ALTERADO', fila: areaId, filaItem: { ...antes[2]!, posicao: 2 } },
    ]);

    expect((await sair(d!.id)).statusCode).toBe(200);
    expect((await fila(areaId)).map((i) => i.veiculoId)).toEqual([c!.id]);
    expect((await pushes(areaId)).at(-1)).toEqual({
      operacao: 'REMOVIDO',
      fila: areaId,
      filaItem: { ...antes[2]!, posicao: 2 },
    });
  });

  it('a freed spot goes to the first one waiting, in the same transaction, then to the next', async () => {
    const { areaId, vagas } = await areaCom(1);
    const [a, b, c] = await caminhoes(3);
    for (const v of [a!, b!, c!]) await entrar(areaId, v.id);
    expect((await sair(a!.id)).statusCode).toBe(200);
    expect(await donoDa(vagas[0]!)).toBe(b!.id);
    expect((await fila(areaId)).map((i) => [i.veiculoId, i.posicao])).toEqual([[c!.id, 1]]);
    // The holder moving to another area frees the spot too.
    const { areaId: patio } = await areaCom(2);
    expect((await entrar(patio, b!.id)).statusCode).toBe(200);
    expect(await donoDa(vagas[0]!)).toBe(c!.id);
    expect(await fila(areaId)).toEqual([]);
    const ops = (await pushes(areaId)).map(
      (p) => `${p.operacao} ${p.filaItem.veiculoId === b!.id ? 'b' : 'c'}`,
    );
    expect(ops).toEqual(['CRIADO b', 'CRIADO c', 'REMOVIDO b', 'ALTERADO c', 'REMOVIDO c']);
  });

  it('the area’s ws_users get its queue events', async () => {
    const { areaId } = await areaCom(1);
    const patch = await acme(`entities/area/${areaId}`, { ws_users: 'ana,bruno' }, { method: 'PATCH' });
    expect(patch.statusCode, patch.body).toBe(200);
    const [a, b] = await caminhoes(2);
    await entrar(areaId, a!.id);
    await entrar(areaId, b!.id);
    expect(await pushes(areaId)).toMatchObject([{ operacao: 'CRIADO', ws_users: 'ana,bruno' }]);
  });

  it('the vehicle that gets the spot runs its step automation as if it had just arrived', async () => {
    const { areaId: portaria } = await areaCom(0, { tipo: 'PORTARIA' });
    const { areaId: doca, vagas } = await areaCom(1);
    const [c] = await seed(t, 'acme', circuito, [makeCircuito(plantaId)]);
    await seed(t, 'acme', sequenciaCircuito, [
      makeSequencia(c!.id, 1, portaria),
      makeSequencia(c!.id, 2, doca),
    ]);
    const [a, b] = await caminhoes(2);
    const inicio = await acme('actions/iniciarExecucaoCircuito', { circuitoId: c!.id, veiculoId: b!.id });
    expect(inicio.statusCode, inicio.body).toBe(200);
    const exec = inicio.json().execucaoCircuito;
    const etapa = async () =>
      (await acme('queries/buscaExecucaoCircuitoPorVeiculo', { veiculoId: b!.id })).json().execucoes[0];

    await entrar(doca, a!.id);
    await entrar(doca, b!.id);
    // Waiting for the dock is not being at the dock: the execution stays at the gate step.
    expect((await etapa()).sequenciaAtualId).toBe(exec.sequenciaAtualId);
    const [item] = await fila(doca);
    expect(item).toMatchObject({ veiculoId: b!.id, execucaoCircuitoId: exec.id });

    expect((await sair(a!.id)).statusCode).toBe(200);
    expect(await donoDa(vagas[0]!)).toBe(b!.id);
    const depois = await etapa();
    expect(depois.sequenciaAtualId).not.toBe(exec.sequenciaAtualId);
    expect(depois.historico.at(-1)).toMatchObject({ acao: 'AVANCOU', origem: `FILA:${doca}` });
  });

  it('cancelling the execution of the truck in the spot hands the spot on', async () => {
    const { areaId: doca, vagas } = await areaCom(1);
    const [c] = await seed(t, 'acme', circuito, [makeCircuito(plantaId)]);
    await seed(t, 'acme', sequenciaCircuito, [makeSequencia(c!.id, 1, doca)]);
    const [a, b] = await caminhoes(2);
    const inicio = await acme('actions/iniciarExecucaoCircuito', { circuitoId: c!.id, veiculoId: a!.id });
    await entrar(doca, a!.id);
    await entrar(doca, b!.id);
    const res = await acme('actions/cancelarExecucaoCircuito', {
      execucaoCircuitoId: inicio.json().execucaoCircuito.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await donoDa(vagas[0]!)).toBe(b!.id);
    expect(await fila(doca)).toEqual([]);
  });

  it('a spot an edit frees (unblocked, activated, created) goes to the first one waiting at once', async () => {
    const { areaId, vagas } = await areaCom(1);
    const bloqueio = { bloqueio: true, motivoBloqueio: 'obra' };
    expect((await acme(`entities/vaga/${vagas[0]}`, bloqueio, { method: 'PATCH' })).statusCode).toBe(200);
    expect(await t.platform.jobs.drain()).toBe(0);
    const [a, b, c, d] = await caminhoes(4);
    await entrar(areaId, a!.id);
    await entrar(areaId, b!.id);
    await entrar(areaId, c!.id);
    expect((await fila(areaId)).map((i) => i.veiculoId)).toEqual([a!.id, b!.id, c!.id]);
    // Unblocked: its job (enqueued by the edit, run after it commits) hands it to the first.
    await acme(`entities/vaga/${vagas[0]}`, { bloqueio: false }, { method: 'PATCH' });
    expect(await t.platform.jobs.drain()).toBe(1);
    expect(await donoDa(vagas[0]!)).toBe(a!.id);
    expect((await fila(areaId)).map((i) => i.veiculoId)).toEqual([b!.id, c!.id]);
    // A new spot: to the next one.
    const nova = await acme('entities/vaga', { areaId, rua: 9, numero: 1 });
    expect(nova.statusCode, nova.body).toBe(200);
    expect(await t.platform.jobs.drain()).toBe(1);
    expect(await donoDa(nova.json().id)).toBe(b!.id);
    // An inactive spot activated: to the last one; an edit that frees nothing asks for nothing.
    const inativa = await acme('entities/vaga', { areaId, rua: 9, numero: 2, ativo: false });
    expect(inativa.statusCode, inativa.body).toBe(200);
    await acme(`entities/vaga/${inativa.json().id}`, { descricao: 'fundos' }, { method: 'PATCH' });
    expect(await t.platform.jobs.drain()).toBe(0);
    expect(await donoDa(inativa.json().id)).toBeNull();
    await acme(`entities/vaga/${inativa.json().id}`, { ativo: true }, { method: 'PATCH' });
    expect(await t.platform.jobs.drain()).toBe(1);
    expect(await donoDa(inativa.json().id)).toBe(c!.id);
    expect(await fila(areaId)).toEqual([]);
    // With nobody waiting, a freed spot stays free and the job does nothing.
    await acme(`entities/vaga/${vagas[0]}`, bloqueio, { method: 'PATCH' });
    const livre = await acme('entities/vaga', { areaId, rua: 9, numero: 3 });
    expect(await t.platform.jobs.drain()).toBe(1);
    expect(await donoDa(livre.json().id)).toBeNull();
    // Spots created together (one bulk POST) ask for one hand-on of their area.
    const lote = await acme(
      'entities/vaga/bulk',
      [4, 5, 6].map((numero) => ({ areaId, rua: 9, numero })),
    );
    expect(lote.statusCode, lote.body).toBe(200);
    expect(await t.platform.jobs.drain()).toBe(1);
    // With a spot free and someone waiting, a newcomer does not jump the queue.
    const { areaId: outra, vagas: outras } = await areaCom(1, {});
    await acme(`entities/vaga/${outras[0]}`, bloqueio, { method: 'PATCH' });
    await entrar(outra, d!.id);
    const [e] = await caminhoes(1);
    await acme(`entities/vaga/${outras[0]}`, { bloqueio: false }, { method: 'PATCH' });
    await entrar(outra, e!.id);
    expect(await donoDa(outras[0]!)).toBe(d!.id);
    expect((await fila(outra)).map((i) => i.veiculoId)).toEqual([e!.id]);
    await t.platform.jobs.drain();
    expect(await donoDa(outras[0]!)).toBe(d!.id);
  });
});

describe('buscarFilaArea', () => {
  it('answers GET too', async () => {
    const { areaId } = await areaCom(1);
    const res = await acme('queries/buscarFilaArea', undefined, { method: 'GET', query: { areaId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ fila: areaId, content: [] });
  });

  it('bad input is a 4xx genericError and changes nothing; another tenant’s area is 404', async () => {
    const before = await tableCounts(t.db);
    const cases: Array<[unknown, number]> = [
      [{}, 400],
      [{ areaId: 'não-é-uuid' }, 400],
      [{ areaId: 42 }, 400],
      [{ areaId: randomUUID() }, 404],
      [{ areaId: outraAreaTenant }, 404],
    ];
    for (const [body, status] of cases) {
      const res = await acme('queries/buscarFilaArea', body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(status);
      expect(Object.keys(res.json()).sort()).toEqual(['message', 'reason']);
    }
    expect((await globex('queries/buscarFilaArea', { areaId: outraAreaTenant })).statusCode).toBe(200);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('a report into another tenant’s area is 404 and queues nothing', async () => {
    const [a] = await caminhoes(1);
    const before = await tableCounts(t.db);
    expect((await entrar(outraAreaTenant, a!.id)).statusCode).toBe(404);
    expect(await tableCounts(t.db)).toEqual(before);
  });
});
