import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { makeAgenda, makeTipo, seedAgendas, seedTipos } from '../agenda/fixtures.ts';
import {
  makeArea,
  makeCircuito,
  makeMotorista,
  makePlanta,
  makeSequencia,
  makeVeiculo,
  patioCall,
  seed,
} from './fixtures.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { execucaoCircuito } from './tables/execucoes.ts';
import { area, planta } from './tables/plantas.ts';
import { controleArea, presencaPatio } from './tables/presencas.ts';
import { motorista, veiculo } from './tables/veiculos.ts';

// The day's numbers (docs/patio.md "The day's numbers") against a day whose figures are known:
// 2026-03-10 in São Paulo (UTC-3) is [03:00Z on the 10th, 03:00Z on the 11th).

let t: TestApp;
let acme: ReturnType<typeof patioCall>;
let globex: ReturnType<typeof patioCall>;
let plantaId: string;
let outraPlanta: string;
let areaA: { id: string; codigo: string };
let areaB: { id: string; codigo: string };
const DIA = '2026-03-10';
const z = (hhmm: string, dia = '10') => new Date(`2026-03-${dia}T${hhmm}:00Z`);

beforeAll(async () => {
  t = await testApp();
  acme = patioCall(t, 'acme', await t.tenant('acme'));
  globex = patioCall(t, 'globex', await t.tenant('globex'));
  plantaId = (await seed(t, 'acme', planta, [makePlanta({ fusoHorario: 'America/Sao_Paulo' })]))[0]!.id;
  const [a, b] = await seed(t, 'acme', area, [
    makeArea(plantaId, { codigo: 'A-DOCA', descricao: 'Doca' }),
    makeArea(plantaId, { codigo: 'B-BAL', descricao: 'Balança' }),
  ]);
  areaA = a!;
  areaB = b!;
  const vs = await seed(
    t,
    'acme',
    veiculo,
    Array.from({ length: 6 }, () => makeVeiculo()),
  );
  const [joana] = await seed(t, 'acme', motorista, [makeMotorista({ nome: 'Joana Silva' })]);
  const stay = (i: number, entradaEm: Date, saidaEm: Date | null, motoristaId?: string) => ({
    plantaId,
    veiculoId: vs[i]!.id,
    placa: vs[i]!.placa,
    entradaEm,
    saidaEm,
    motoristaId,
  });
  await seed(t, 'acme', presencaPatio, [
    stay(0, z('11:50'), z('12:20')), // 30 min
    stay(1, z('12:00'), z('13:00')), // 60 min
    stay(2, z('15:00'), z('16:30')), // 90 min
    stay(3, z('16:00'), z('18:00')), // 120 min
    stay(4, z('01:00', '11'), z('04:00', '11')), // ends the next day (local): not counted
    stay(5, new Date(Date.now() - 3_600_000), null, joana!.id), // in the yard now
  ]);
  const arrival = (i: number, areaId: string, chegadaEm: Date, saidaEm: Date | null) => ({
    areaId,
    veiculoId: vs[i]!.id,
    placa: vs[i]!.placa,
    chegadaEm,
    saidaEm,
  });
  await seed(t, 'acme', controleArea, [
    arrival(0, areaA.id, z('12:00'), z('12:10')), // 10 min
    arrival(1, areaA.id, z('12:00'), z('12:20')), // 20 min
    arrival(5, areaA.id, new Date(Date.now() - 1_800_000), null),
  ]);
  const [tipo] = await seedTipos(t, 'acme', [makeTipo({ plantaId, codigo: 'DESC', descricao: 'Descarga' })]);
  const ag = (o: Parameters<typeof makeAgenda>[0]) =>
    makeAgenda({ plantaId, tipoAgendamentoId: tipo!.id, ...o });
  const agendas = await seedAgendas(t, 'acme', [
    ag({ dataEsperada: z('12:00'), veiculoId: vs[0]!.id, status: 'CONCLUIDO' }), // −10 min: on time
    ag({ dataEsperada: z('13:00'), veiculoId: vs[1]!.id, status: 'CONCLUIDO' }), // 1 h early
    ag({ dataEsperada: z('14:00'), veiculoId: vs[2]!.id, status: 'CONCLUIDO' }), // 1 h late
    ag({ dataEsperada: z('15:00'), status: 'AGENDADO' }), // overdue
    ag({ dataEsperada: z('16:00'), status: 'EXECUTANDO' }), // started, not arrived
    ag({ dataEsperada: z('17:00'), veiculoId: vs[3]!.id, unscheduled: true, status: 'CONCLUIDO' }),
    ag({ dataEsperada: z('18:00'), status: 'CANCELADO' }),
    ag({ dataEsperada: z('04:00', '11') }), // the next day (local)
    ag({ dataEsperada: z('02:59') }), // the previous day (local)
  ]);
  const [c] = await seed(t, 'acme', circuito, [makeCircuito(plantaId)]);
  const [s] = await seed(t, 'acme', sequenciaCircuito, [
    makeSequencia(c!.id, 1, areaB.id, { nome: 'Pesagem' }),
  ]);
  await seed(t, 'acme', execucaoCircuito, [
    { circuitoId: c!.id, agendaId: agendas[4]!.id, sequenciaAtualId: s!.id, iniciadaEm: z('16:05') },
  ]);
  // Another tenant's plant with a stay on the same day.
  outraPlanta = (await seed(t, 'globex', planta, [makePlanta()]))[0]!.id;
  const [gv] = await seed(t, 'globex', veiculo, [makeVeiculo()]);
  await seed(t, 'globex', presencaPatio, [
    {
      plantaId: outraPlanta,
      veiculoId: gv!.id,
      placa: gv!.placa,
      entradaEm: z('12:00'),
      saidaEm: z('12:05'),
    },
  ]);
});

const ok = async (res: Awaited<ReturnType<typeof acme>>) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('the day’s numbers', () => {
  it('temposDoDia: turn time and dwell per area, average and 90th percentile, of stays ended that day', async () => {
    const body = await ok(await acme('queries/temposDoDia', { plantaId, data: DIA }));
    expect(body.data).toBe(DIA);
    // 30, 60, 90, 120 min: average 75 min; percentile_cont(0.9) = 5400 + 0.7 × 1800 = 6660 s.
    expect(body.permanenciaPatio).toEqual({ quantidade: 4, mediaSegundos: 4500, p90Segundos: 6660 });
    expect(body.areas).toEqual([
      {
        areaId: areaA.id,
        codigo: 'A-DOCA',
        descricao: 'Doca',
        quantidade: 2,
        mediaSegundos: 900,
        p90Segundos: 1140,
      },
      {
        areaId: areaB.id,
        codigo: 'B-BAL',
        descricao: 'Balança',
        quantidade: 0,
      },
    ]);
    const seguinte = await ok(
      await acme('queries/temposDoDia', undefined, {
        method: 'GET',
        query: { plantaId, data: '2026-03-11' },
      }),
    );
    expect(seguinte.permanenciaPatio).toEqual({ quantidade: 1, mediaSegundos: 10_800, p90Segundos: 10_800 });
  });

  it('pontualidadeDoDia: on time, early, late, overdue against the expected time', async () => {
    const body = await ok(await acme('queries/pontualidadeDoDia', { plantaId, data: DIA }));
    expect(body).toEqual({
      data: DIA,
      toleranciaMinutos: 15,
      total: 7,
      noHorario: 1,
      adiantadas: 1,
      atrasadas: 1,
      vencidas: 1,
      aguardando: 1,
      semAgendamento: 1,
      canceladas: 1,
    });
    // A tolerance of 5 minutes makes the 10-minute-early arrival early.
    const estrita = await ok(
      await acme('queries/pontualidadeDoDia', { plantaId, data: DIA, toleranciaMinutos: 5 }),
    );
    expect([estrita.noHorario, estrita.adiantadas]).toEqual([0, 2]);
  });

  it('agendaDoDia: the schedule in order with type, plate, standing and yard step', async () => {
    const body = await ok(await acme('queries/agendaDoDia', { plantaId, data: DIA }));
    expect(body.fusoHorario).toBe('America/Sao_Paulo');
    expect(body.agendas.map((a: { situacao: string }) => a.situacao)).toEqual([
      'NO_HORARIO',
      'ADIANTADA',
      'ATRASADA',
      'VENCIDA',
      'AGUARDANDO',
      'SEM_AGENDAMENTO',
      'CANCELADA',
    ]);
    expect(body.agendas[0]).toMatchObject({
      tipoCodigo: 'DESC',
      tipoDescricao: 'Descarga',
      chegada: '2026-03-10T11:50:00.000Z',
      dataEsperada: '2026-03-10T12:00:00.000Z',
      status: 'CONCLUIDO',
    });
    expect(body.agendas[0].placa).toMatch(/^TST/);
    expect(body.agendas[4]).toMatchObject({
      etapa: 'Pesagem',
      etapaAreaCodigo: 'B-BAL',
      execucaoSituacao: 'EXECUTANDO',
    });
  });

  it('veiculosNoPatio: who is in the yard now, where, with the driver by name', async () => {
    const body = await ok(await acme('queries/veiculosNoPatio', { plantaId }));
    expect(body.quantidade).toBe(1);
    expect(body.veiculos[0]).toMatchObject({
      motorista: 'Joana Silva',
      areaCodigo: 'A-DOCA',
      areaDescricao: 'Doca',
      temVaga: false,
      naFila: false,
    });
  });

  it('counts one tenant only; another tenant’s plant is 404', async () => {
    const g = await ok(await globex('queries/temposDoDia', { plantaId: outraPlanta, data: DIA }));
    expect(g.permanenciaPatio).toEqual({ quantidade: 1, mediaSegundos: 300, p90Segundos: 300 });
    expect(g.areas).toEqual([]);
    for (const q of ['temposDoDia', 'pontualidadeDoDia', 'agendaDoDia', 'veiculosNoPatio']) {
      const res = await globex(`queries/${q}`, { plantaId, data: DIA });
      expect(res.statusCode, q).toBe(404);
      expect(res.json().message).toContain(plantaId);
    }
  });

  it('refuses bad input naming the field', async () => {
    const bad = async (q: string, body: unknown, field: string) => {
      const res = await acme(`queries/${q}`, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain(field);
    };
    await bad('temposDoDia', { plantaId: 'x' }, 'plantaId');
    await bad('temposDoDia', {}, 'plantaId');
    await bad('temposDoDia', { plantaId, data: '2026-13-40' }, 'data');
    await bad('pontualidadeDoDia', { plantaId, toleranciaMinutos: -1 }, 'toleranciaMinutos');
    await bad('agendaDoDia', { plantaId, toleranciaMinutos: 'a' }, 'toleranciaMinutos');
  });

  it('answers today by default, in the plant’s time zone', async () => {
    const hoje = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const body = await ok(await acme('queries/temposDoDia', { plantaId }));
    expect(body.data).toBe(hoje);
    expect((await ok(await acme('queries/agendaDoDia', { plantaId }))).data).toBe(hoje);
  });
});
