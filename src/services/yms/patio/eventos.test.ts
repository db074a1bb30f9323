import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { execucaoOf } from './execucao-consultas.ts';
import { iniciarExecucao } from './execucao-inicio.ts';
import {
  asTenant,
  makeArea,
  makeCircuito,
  makeMotorista,
  makePlanta,
  makeSequencia,
  makeVaga,
  makeVeiculo,
  outboxOf,
  patioCall,
  seed,
} from './fixtures.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { area, planta, vaga } from './tables/plantas.ts';
import { presencaPatio } from './tables/presencas.ts';
import { motorista, veiculo } from './tables/veiculos.ts';

// The yard events (spec 000 §4.3, §6; docs/patio.md "Yard events"): a whole truck visit, the
// inconsistent events that are refused and change nothing, arrival control, the driver change.

let t: TestApp;
let acme: ReturnType<typeof patioCall>;
const ids: Record<string, string> = {};
const seqs: string[] = [];
const veiculos: Array<{ id: string; placa: string }> = [];
const motoristas: string[] = [];

const evento = (name: string, body: Record<string, unknown>) => acme(`events/${name}`, body);
const vagaDe = async (veiculoId: string) =>
  (await asTenant(t, 'acme', (ctx) => ctx.store.select(vaga, eq(vaga.veiculoId, veiculoId))))[0];
const presencaAberta = async (veiculoId: string) =>
  (
    await asTenant(t, 'acme', (ctx) =>
      ctx.store.select(
        presencaPatio,
        and(eq(presencaPatio.veiculoId, veiculoId), isNull(presencaPatio.saidaEm)),
      ),
    )
  )[0];

beforeAll(async () => {
  t = await testApp();
  acme = patioCall(t, 'acme', await t.tenant('acme'));
  const [p, outra] = await seed(t, 'acme', planta, [makePlanta(), makePlanta()]);
  ids.planta = p!.id;
  ids.outraPlanta = outra!.id;
  const [portaria, estacionamento, doca, lotada, alheia] = await seed(t, 'acme', area, [
    makeArea(p!.id, { tipo: 'PORTARIA', codigo: 'PORT' }),
    makeArea(p!.id, { tipo: 'ESTACIONAMENTO', codigo: 'EST' }),
    makeArea(p!.id, { tipo: 'DOCA', codigo: 'DOC' }),
    makeArea(p!.id, { tipo: 'ESTACIONAMENTO', codigo: 'LOT' }),
    makeArea(outra!.id, { tipo: 'PORTARIA' }),
  ]);
  Object.assign(ids, {
    portaria: portaria!.id,
    estacionamento: estacionamento!.id,
    doca: doca!.id,
    lotada: lotada!.id,
    alheia: alheia!.id,
  });
  await seed(t, 'acme', vaga, [
    makeVaga(estacionamento!.id, 1, 1),
    makeVaga(estacionamento!.id, 1, 2),
    makeVaga(doca!.id, 1, 1),
    makeVaga(lotada!.id, 1, 1, { bloqueio: true, motivoBloqueio: 'obra' }),
  ]);
  const [c] = await seed(t, 'acme', circuito, [makeCircuito(p!.id)]);
  ids.circuito = c!.id;
  seqs.push(
    ...(
      await seed(t, 'acme', sequenciaCircuito, [
        makeSequencia(c!.id, 1, portaria!.id),
        makeSequencia(c!.id, 2, estacionamento!.id),
        makeSequencia(c!.id, 3, doca!.id),
      ])
    ).map((s) => s.id),
  );
  veiculos.push(
    ...(await seed(
      t,
      'acme',
      veiculo,
      Array.from({ length: 5 }, () => makeVeiculo()),
    )),
  );
  motoristas.push(
    ...(
      await seed(
        t,
        'acme',
        motorista,
        Array.from({ length: 4 }, () => makeMotorista()),
      )
    ).map((m) => m.id),
  );
});

describe('a truck visit', () => {
  it('enters, parks, docks and leaves: spots, presence, execution steps and the outbox follow', async () => {
    const truck = veiculos[0]!;
    const agendaId = randomUUID();
    const exec = await asTenant(t, 'acme', (ctx) =>
      iniciarExecucao(ctx, {
        circuitoId: ids.circuito!,
        veiculoId: truck.id,
        motoristaId: motoristas[0],
        agendaId,
      }),
    );
    expect(exec.sequenciaAtualId).toBe(seqs[0]);
    const atStep = async () =>
      (await asTenant(t, 'acme', (ctx) => execucaoOf(ctx, exec.id))).sequenciaAtualId;
    const yard = { plantaId: ids.planta, veiculoId: truck.id };

    let res = await evento('vehicleEnteredYard', {
      ...yard,
      areaId: ids.portaria,
      origem: 'camera-portaria-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('');
    expect(await presencaAberta(truck.id)).toMatchObject({
      plantaId: ids.planta,
      areaEntradaId: ids.portaria,
    });
    expect(await atStep()).toBe(seqs[0]);

    res = await evento('vehicleEnteredAreaInYard', { ...yard, areaId: ids.estacionamento });
    expect(res.statusCode, res.body).toBe(200);
    expect(await vagaDe(truck.id)).toMatchObject({
      areaId: ids.estacionamento,
      rua: 1,
      numero: 1,
      ocupada: true,
    });
    expect(await atStep()).toBe(seqs[1]);

    res = await evento('vehicleEnteredAreaInYard', {
      placa: truck.placa,
      plantaId: ids.planta,
      areaId: ids.doca,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await vagaDe(truck.id)).toMatchObject({ areaId: ids.doca });
    expect(await atStep()).toBe(seqs[2]);

    res = await evento('vehicleExitedYard', yard);
    expect(res.statusCode, res.body).toBe(200);
    expect(await vagaDe(truck.id)).toBeUndefined();
    expect(await presencaAberta(truck.id)).toBeUndefined();
    // At its last sequence when it left: the execution finished.
    expect(await asTenant(t, 'acme', (ctx) => execucaoOf(ctx, exec.id))).toMatchObject({
      situacao: 'FINALIZADO',
    });

    const events = (await outboxOf(t, 'acme')).filter((e) => e.topic.startsWith('yms/patio/vehicle'));
    expect(events.map((e) => e.topic)).toEqual([
      'yms/patio/vehicleEnteredYard',
      'yms/patio/vehicleEnteredAreaInYard',
      'yms/patio/vehicleEnteredAreaInYard',
      'yms/patio/vehicleExitedYard',
    ]);
    expect(events[0]!.payload).toMatchObject({ veiculoId: truck.id, origem: 'camera-portaria-1' });

    // Arrival control: the gate, the parking, the dock, in order, each closed when the truck moved on.
    const historico = (
      await acme('queries/buscarHistoricoControleChegada', { areaId: ids.estacionamento })
    ).json();
    expect(historico.content).toEqual([
      expect.objectContaining({
        veiculoId: truck.id,
        placa: truck.placa,
        execucaoCircuitoId: exec.id,
        agendaId,
        motoristaId: motoristas[0],
      }),
    ]);
    expect(historico.content[0].saidaEm).toBeDefined();
  });
});

describe('inconsistent events are refused and change nothing', () => {
  it('exiting or moving inside a yard the vehicle is not in: 409', async () => {
    const before = await tableCounts(t.db);
    const v = veiculos[1]!;
    let res = await evento('vehicleExitedYard', { plantaId: ids.planta, veiculoId: v.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      reason: 'UNPROCESSABLE',
      message: expect.stringMatching(/não está no pátio/),
    });
    res = await evento('vehicleEnteredAreaInYard', {
      plantaId: ids.planta,
      veiculoId: v.id,
      areaId: ids.doca,
    });
    expect(res.statusCode).toBe(409);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('entering twice is 409; exiting through another plant is 409', async () => {
    const v = veiculos[1]!;
    expect((await evento('vehicleEnteredYard', { plantaId: ids.planta, veiculoId: v.id })).statusCode).toBe(
      200,
    );
    const before = await tableCounts(t.db);
    const twice = await evento('vehicleEnteredYard', { plantaId: ids.outraPlanta, veiculoId: v.id });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/já está no pátio/);
    expect(
      (await evento('vehicleExitedYard', { plantaId: ids.outraPlanta, veiculoId: v.id })).statusCode,
    ).toBe(409);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('an event dated before what is recorded of the stay (its entry, its current arrival, the last exit): 409', async () => {
    const v = veiculos[4]!;
    const at = (iso: string, extra: Record<string, unknown> = {}) => ({
      plantaId: ids.planta,
      veiculoId: v.id,
      dataHora: iso,
      ...extra,
    });
    const ok = async (name: string, body: Record<string, unknown>) => {
      const res = await evento(name, body);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
    };
    const outOfOrder = async (name: string, body: Record<string, unknown>, ultimo: string, onde: RegExp) => {
      const before = await tableCounts(t.db);
      const res = await evento(name, body);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(409);
      expect(res.json().message).toMatch(new RegExp(`antes de ${ultimo}`));
      expect(res.json().message).toMatch(onde);
      expect(await tableCounts(t.db)).toEqual(before);
    };
    await ok('vehicleEnteredYard', at('2026-04-01T10:00:00Z', { areaId: ids.portaria }));
    await outOfOrder(
      'vehicleEnteredAreaInYard',
      at('2026-04-01T09:59:00Z', { areaId: ids.estacionamento }),
      '2026-04-01T10:00:00.000Z',
      /a chegada na área/,
    );
    await ok('vehicleEnteredAreaInYard', at('2026-04-01T10:30:00Z', { areaId: ids.estacionamento }));
    await outOfOrder('vehicleExitedYard', at('2026-04-01T10:20:00Z'), '2026-04-01T10:30:00.000Z', /área/);
    // The same instant is in order (two reports of one moment).
    await ok('vehicleExitedYard', at('2026-04-01T10:30:00Z', { areaId: ids.portaria }));
    const chegadas = (await acme('queries/buscarHistoricoControleChegada', { areaId: ids.estacionamento }))
      .json()
      .content.filter((c: { veiculoId: string }) => c.veiculoId === v.id);
    expect(chegadas).toMatchObject([
      { chegadaEm: '2026-04-01T10:30:00.000Z', saidaEm: '2026-04-01T10:30:00.000Z' },
    ]);
    // A new stay cannot begin before the last one ended.
    await outOfOrder(
      'vehicleEnteredYard',
      at('2026-04-01T10:29:00Z'),
      '2026-04-01T10:30:00.000Z',
      /a saída do pátio/,
    );
    await ok('vehicleEnteredYard', at('2026-04-01T11:00:00Z'));
    // A repeated report into the area it is in (a retry, a second camera) records nothing more.
    const doca = at('2026-04-01T11:01:00Z', { areaId: ids.doca, origem: 'cam-1' });
    await ok('vehicleEnteredAreaInYard', doca);
    const semOutbox = async () => ({ ...(await tableCounts(t.db)), outbox: 0 });
    const before = await semOutbox();
    await ok('vehicleEnteredAreaInYard', { ...doca, origem: 'cam-2' });
    // Only the report itself is published (every event is), as sent.
    expect(await semOutbox()).toEqual(before);
    await ok('vehicleExitedYard', at('2026-04-01T11:05:00Z'));
    // A device clock a few minutes ahead is taken; one further ahead is refused (422).
    const adiante = (min: number) => new Date(Date.now() + min * 60_000).toISOString();
    const futuro = await evento('vehicleEnteredYard', at(adiante(10)));
    expect(futuro.statusCode, futuro.body).toBe(422);
    expect(futuro.json().message).toMatch(/^Invalid field 'dataHora': .* is more than 5 minutes after now/);
    const quase = adiante(4);
    await ok('vehicleEnteredYard', at(quase));
    await ok('vehicleExitedYard', at(quase));
  });

  it('no free spot in the area: 200, the arrival recorded, the vehicle waits in its queue (fila.test.ts)', async () => {
    const v = veiculos[1]!;
    const res = await evento('vehicleEnteredAreaInYard', {
      plantaId: ids.planta,
      veiculoId: v.id,
      areaId: ids.lotada,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await vagaDe(v.id)).toBeUndefined();
    const fila = await acme('queries/buscarFilaArea', { areaId: ids.lotada });
    expect(fila.json().content).toMatchObject([{ posicao: 1, placa: v.placa, veiculoId: v.id }]);
    const chegadas = await acme('queries/buscarHistoricoControleChegada', { areaId: ids.lotada });
    expect(chegadas.json().content.at(-1)).toMatchObject({ veiculoId: v.id });
  });

  it('bad input: no vehicle (400), no area where required (400), unknown plate (404), foreign area (422)', async () => {
    const cases: Array<[string, Record<string, unknown>, number]> = [
      ['vehicleEnteredYard', { plantaId: ids.planta }, 400],
      ['vehicleEnteredAreaInYard', { plantaId: ids.planta, veiculoId: veiculos[1]!.id }, 400],
      ['vehicleEnteredYard', { plantaId: ids.planta, placa: 'ZZZ9Z99' }, 404],
      ['vehicleEnteredYard', { plantaId: ids.planta, placa: 'not a plate' }, 400],
      ['vehicleEnteredYard', { plantaId: ids.planta, veiculoId: veiculos[2]!.id, areaId: ids.alheia }, 422],
      [
        'vehicleEnteredYard',
        { plantaId: ids.planta, veiculoId: veiculos[2]!.id, placa: veiculos[3]!.placa },
        422,
      ],
      ['vehicleEnteredYard', { plantaId: randomUUID(), veiculoId: veiculos[2]!.id }, 404],
    ];
    for (const [name, body, status] of cases) {
      const res = await evento(name, body);
      expect(res.statusCode, `${name} ${JSON.stringify(body)}: ${res.body}`).toBe(status);
    }
    expect(await presencaAberta(veiculos[2]!.id)).toBeUndefined();
  });
});

describe('buscarHistoricoControleChegada', () => {
  it('answers the arrivals of an area in arrival order, by the device time', async () => {
    const [a, b] = [veiculos[2]!, veiculos[3]!];
    const at = (iso: string) => ({ plantaId: ids.planta, areaId: ids.portaria, dataHora: iso });
    await evento('vehicleEnteredYard', { ...at('2026-03-02T08:10:00-03:00'), veiculoId: b.id });
    await evento('vehicleEnteredYard', { ...at('2026-03-02T08:00:00-03:00'), veiculoId: a.id });
    const res = await acme('queries/buscarHistoricoControleChegada', undefined, {
      method: 'GET',
      query: { areaId: ids.portaria! },
    });
    expect(res.statusCode, res.body).toBe(200);
    const recentes = res
      .json()
      .content.filter((c: { veiculoId: string }) => [a.id, b.id].includes(c.veiculoId));
    expect(recentes.map((c: { placa: string; chegadaEm: string }) => [c.placa, c.chegadaEm])).toEqual([
      [a.placa, '2026-03-02T11:00:00.000Z'],
      [b.placa, '2026-03-02T11:10:00.000Z'],
    ]);
    expect((await acme('queries/buscarHistoricoControleChegada', { areaId: randomUUID() })).statusCode).toBe(
      404,
    );
  });
});

describe('motoristaAlteradoEmExecucao', () => {
  it('changes the driver of the running execution; 409 when the new one is in another execution', async () => {
    const agendaId = randomUUID();
    const [exec, outra] = await asTenant(t, 'acme', async (ctx) => [
      await iniciarExecucao(ctx, {
        circuitoId: ids.circuito!,
        veiculoId: veiculos[3]!.id,
        motoristaId: motoristas[1],
        agendaId,
      }),
      await iniciarExecucao(ctx, {
        circuitoId: ids.circuito!,
        veiculoId: veiculos[4]!.id,
        motoristaId: motoristas[2],
      }),
    ]);
    const body = {
      agendaId,
      execucaoCircuitoid: exec.id,
      motoristaAntigoId: motoristas[1],
      motoristaNovoId: motoristas[3],
      motivo: 'Troca de turno',
    };
    expect(
      (await evento('motoristaAlteradoEmExecucao', { ...body, motivo: 'x'.repeat(401) })).statusCode,
    ).toBe(400);
    expect(
      (await evento('motoristaAlteradoEmExecucao', { ...body, agendaId: randomUUID() })).statusCode,
    ).toBe(422);
    const busy = await evento('motoristaAlteradoEmExecucao', { ...body, motoristaNovoId: motoristas[2] });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toContain(outra.id);
    const res = await evento('motoristaAlteradoEmExecucao', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(await asTenant(t, 'acme', (ctx) => execucaoOf(ctx, exec.id))).toMatchObject({
      motoristaId: motoristas[3],
    });
    // The old driver is free; replaying the same change is now stale (409).
    expect(
      (await acme('queries/quantidadeExecucaoCircuitoPorMotorista', { motoristaId: motoristas[1] })).json(),
    ).toEqual({ quantidade: 0 });
    const [published] = (await outboxOf(t, 'acme')).filter(
      (e) => e.topic === 'yms/patio/motoristaAlteradoEmExecucao',
    );
    expect(published!.payload).toEqual(body);
    expect(
      (await evento('motoristaAlteradoEmExecucao', { ...body, motoristaNovoId: motoristas[0] })).statusCode,
    ).toBe(409);
  });
});
