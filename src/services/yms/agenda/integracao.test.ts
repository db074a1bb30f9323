import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import {
  makeArea,
  makeCircuito,
  makeMotorista,
  makePlanta,
  makeSequencia,
  makeVeiculo,
  seed,
} from '../patio/fixtures.ts';
import { circuito, sequenciaCircuito } from '../patio/tables/circuitos.ts';
import { area, planta } from '../patio/tables/plantas.ts';
import { motorista, veiculo } from '../patio/tables/veiculos.ts';
import { STATUS_AGENDAMENTO } from './contract.ts';
import {
  agendaCall,
  agendaRow,
  historico,
  makeAgenda,
  type Status,
  seedAgendas,
  seedPatioDaPlanta,
  seedPlanta,
} from './fixtures.ts';

// The hand-over of an agenda to the yard: aguardarIntegracao and informarIntegracao, as the state
// table of spec 000 §3 (with the rows where nothing changes), and the durable start signal.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;
/** The yard of the agendas' plant (PLANTA): a circuit, its first sequence, a spot of the plant. */
let CIRCUITO: string;
let SEQUENCIA: string;
let VAGA: string;

let acmeKey: string;

beforeAll(async () => {
  t = await testApp();
  acmeKey = await t.tenant('acme');
  acme = agendaCall(t, 'acme', acmeKey);
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
  await seedPlanta(t, 'acme');
  ({ circuitoId: CIRCUITO, sequenciaId: SEQUENCIA, vagaId: VAGA } = await seedPatioDaPlanta(t, 'acme'));
});

const emEstado = async (status: Status) => (await seedAgendas(t, 'acme', [makeAgenda({ status })]))[0]!;

describe('aguardarIntegracao', () => {
  it('AGENDADO → AGUARDANDO_INTEGRACAO, recording circuit, initial sequence and spot, with history', async () => {
    const a = await emEstado('AGENDADO');
    const res = await acme('actions/aguardarIntegracao', {
      agenda: a.id,
      circuito: CIRCUITO,
      sequenciaInicial: SEQUENCIA,
      vagaInicial: VAGA,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().agenda).toMatchObject({
      id: a.id,
      codigo: a.codigo,
      status: 'AGUARDANDO_INTEGRACAO',
      circuitoId: CIRCUITO,
      sequenciaInicialId: SEQUENCIA,
      vagaInicialId: VAGA,
    });
    const h = await historico(t, 'acme', a.id);
    expect(h).toEqual([
      expect.objectContaining({
        de: 'AGENDADO',
        para: 'AGUARDANDO_INTEGRACAO',
        quem: expect.stringMatching(/^key:/),
      }),
    ]);
  });

  it('accepts the agenda by its code, and vagaInicial is optional', async () => {
    const a = await emEstado('AGENDADO');
    const res = await acme('actions/aguardarIntegracao', {
      agenda: String(a.codigo),
      circuito: CIRCUITO,
      sequenciaInicial: SEQUENCIA,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().agenda.status).toBe('AGUARDANDO_INTEGRACAO');
    expect(res.json().agenda.vagaInicialId).toBeUndefined();
  });

  it.each(STATUS_AGENDAMENTO.filter((s) => s !== 'AGENDADO'))(
    'from %s is 409 and changes nothing',
    async (status) => {
      const a = await emEstado(status);
      const before = await tableCounts(t.db);
      const res = await acme('actions/aguardarIntegracao', {
        agenda: a.id,
        circuito: CIRCUITO,
        sequenciaInicial: SEQUENCIA,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        reason: 'UNPROCESSABLE',
        message: `Agenda ${a.codigo} está em ${status}: aguardarIntegracao só é possível a partir de AGENDADO`,
      });
      expect((await agendaRow(t, 'acme', a.id)).status).toBe(status);
      expect(await tableCounts(t.db)).toEqual(before);
    },
  );

  it("is 404 for an unknown agenda and for another tenant's", async () => {
    const a = await emEstado('AGENDADO');
    for (const agenda of [a.id, '00000000-0000-4000-8000-000000000999', '99999999', 'not-an-id']) {
      const res = await globex('actions/aguardarIntegracao', {
        agenda,
        circuito: CIRCUITO,
        sequenciaInicial: SEQUENCIA,
      });
      expect(res.statusCode, agenda).toBe(404);
      expect(res.json().message).toBe(`Agenda ${agenda} não encontrada`);
    }
  });
});

// spec 000 §3, informarIntegracao, one row each. `job`: whether the start signal is queued.
const tabela: Array<{
  de: Status;
  reportado: 'SUCESSO' | 'ERRO';
  para: Status;
  job: boolean;
  linha: string;
}> = [
  {
    de: 'AGUARDANDO_INTEGRACAO',
    reportado: 'SUCESSO',
    para: 'EXECUTANDO',
    job: true,
    linha: 'success: next state, start signal',
  },
  {
    de: 'AGUARDANDO_INTEGRACAO',
    reportado: 'ERRO',
    para: 'ERRO_INTEGRACAO',
    job: false,
    linha: 'error: error state',
  },
  {
    de: 'EXECUTANDO',
    reportado: 'SUCESSO',
    para: 'EXECUTANDO',
    job: false,
    linha: 'EXECUTANDO, any result: unchanged',
  },
  {
    de: 'EXECUTANDO',
    reportado: 'ERRO',
    para: 'EXECUTANDO',
    job: false,
    linha: 'EXECUTANDO, any result: unchanged',
  },
  {
    de: 'AGENDADO',
    reportado: 'SUCESSO',
    para: 'AGENDADO',
    job: false,
    linha: 'other state, success: unchanged',
  },
  {
    de: 'CONCLUIDO',
    reportado: 'SUCESSO',
    para: 'CONCLUIDO',
    job: false,
    linha: 'other state, success: unchanged',
  },
  {
    de: 'ERRO_INTEGRACAO',
    reportado: 'SUCESSO',
    para: 'ERRO_INTEGRACAO',
    job: false,
    linha: 'other state, success: unchanged',
  },
  {
    de: 'CANCELADO',
    reportado: 'SUCESSO',
    para: 'CANCELADO',
    job: false,
    linha: 'other state, success: unchanged',
  },
  // Not shown by the spec (docs/agenda.md): an error outside AGUARDANDO_INTEGRACAO changes nothing either.
  {
    de: 'AGENDADO',
    reportado: 'ERRO',
    para: 'AGENDADO',
    job: false,
    linha: 'design: other state, error: unchanged',
  },
  {
    de: 'CONCLUIDO',
    reportado: 'ERRO',
    para: 'CONCLUIDO',
    job: false,
    linha: 'design: other state, error: unchanged',
  },
];

describe('informarIntegracao: the state table of spec 000 §3', () => {
  it.each(tabela)('$de + $reportado → $para ($linha)', async ({ de, reportado, para, job }) => {
    const a = await emEstado(de);
    const before = await tableCounts(t.db);
    const res = await acme('actions/informarIntegracao', {
      agenda: a.id,
      servico: 'erp',
      status: reportado,
      motivoDeFalha: reportado === 'ERRO' ? 'NF-e rejeitada' : undefined,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({});
    const row = await agendaRow(t, 'acme', a.id);
    expect(row.status).toBe(para);
    expect(Boolean(res.headers['x-job-id'])).toBe(job);
    const after = await tableCounts(t.db);
    if (de === para) {
      // Nothing at all: no history row, no job, no field touched.
      expect(after).toEqual(before);
      expect(row.lastModifiedDate).toEqual(a.lastModifiedDate);
      return;
    }
    expect(after.agenda_historico).toBe(before.agenda_historico! + 1);
    expect(after.jobs).toBe(before.jobs! + (job ? 1 : 0));
    expect(await historico(t, 'acme', a.id)).toEqual([expect.objectContaining({ de, para })]);
    if (para === 'ERRO_INTEGRACAO') {
      expect(row).toMatchObject({ motivoDeFalha: 'NF-e rejeitada', servicoIntegracao: 'erp' });
      expect((await historico(t, 'acme', a.id))[0]!.motivo).toBe('NF-e rejeitada');
    }
    if (para === 'EXECUTANDO')
      expect(row).toMatchObject({ inicioExecucao: 'SOLICITADO', servicoIntegracao: 'erp' });
  });

  it('an error without motivoDeFalha still records why', async () => {
    const a = await emEstado('AGUARDANDO_INTEGRACAO');
    await acme('actions/informarIntegracao', { agenda: a.id, servico: 'wms', status: 'ERRO' });
    expect((await agendaRow(t, 'acme', a.id)).motivoDeFalha).toBe('falha informada por wms, sem motivo');
  });

  it('rejects an unknown statusIntegracao with 400 naming the field', async () => {
    const a = await emEstado('AGUARDANDO_INTEGRACAO');
    const res = await acme('actions/informarIntegracao', { agenda: a.id, servico: 'erp', status: 'OK' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/field 'status' must be one of SUCESSO, ERRO/);
    expect((await agendaRow(t, 'acme', a.id)).status).toBe('AGUARDANDO_INTEGRACAO');
  });

  it('the start signal is a durable job, queued once; an agenda without circuit or vehicle records FALHOU', async () => {
    const a = await emEstado('AGUARDANDO_INTEGRACAO');
    const res = await acme('actions/informarIntegracao', { agenda: a.id, servico: 'erp', status: 'SUCESSO' });
    const jobId = String(res.headers['x-job-id']);
    expect((await t.platform.jobs.status('acme', jobId))?.state).toBe('queued');
    // A repeated report finds the agenda EXECUTANDO: nothing more is queued.
    const again = await acme('actions/informarIntegracao', {
      agenda: a.id,
      servico: 'erp',
      status: 'SUCESSO',
    });
    expect(again.headers['x-job-id']).toBeUndefined();

    expect(await t.platform.jobs.drain()).toBeGreaterThanOrEqual(1);
    const status = await t.platform.jobs.status('acme', jobId);
    expect(status).toMatchObject({ state: 'done', result: { agendaId: a.id, inicioExecucao: 'FALHOU' } });
    const row = await agendaRow(t, 'acme', a.id);
    expect(row).toMatchObject({ status: 'EXECUTANDO', inicioExecucao: 'FALHOU', execucaoCircuitoId: null });
    expect(row.motivoDeFalha).toMatch(/não tem circuito ou veículo/);
  });
});

describe('the hand-over to the yard', () => {
  // A real yard: a plant, two areas, a circuit of two sequences, vehicles and a driver.
  async function yard() {
    const [pl] = await seed(t, 'acme', planta, [makePlanta()]);
    const areas = await seed(t, 'acme', area, [makeArea(pl!.id), makeArea(pl!.id)]);
    const [c] = await seed(t, 'acme', circuito, [makeCircuito(pl!.id)]);
    const seqs = await seed(t, 'acme', sequenciaCircuito, [
      makeSequencia(c!.id, 1, areas[0]!.id),
      makeSequencia(c!.id, 2, areas[1]!.id),
    ]);
    const vs = await seed(t, 'acme', veiculo, [makeVeiculo(), makeVeiculo()]);
    const [m] = await seed(t, 'acme', motorista, [makeMotorista()]);
    return { circuitoId: c!.id, sequencias: seqs, veiculos: vs, motoristaId: m!.id };
  }

  async function integrated(fields: Record<string, unknown>) {
    const [a] = await seedAgendas(t, 'acme', [makeAgenda({ status: 'AGUARDANDO_INTEGRACAO', ...fields })]);
    const res = await acme('actions/informarIntegracao', {
      agenda: a!.id,
      servico: 'erp',
      status: 'SUCESSO',
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.platform.jobs.drain();
    return agendaRow(t, 'acme', a!.id);
  }

  it('starts the circuit execution in yms/patio at the recorded sequence and marks the agenda INICIADO', async () => {
    const y = await yard();
    const row = await integrated({
      circuitoId: y.circuitoId,
      sequenciaInicialId: y.sequencias[1]!.id,
      veiculoId: y.veiculos[0]!.id,
      motoristaId: y.motoristaId,
    });
    expect(row).toMatchObject({ status: 'EXECUTANDO', inicioExecucao: 'INICIADO' });
    const patio = (op: string, body: unknown) =>
      t.call('acme', `yms/patio/queries/${op}`, body, { auth: acmeKey });
    const running = await patio('quantidadeExecucaoCircuitoPorVeiculo', { veiculoId: y.veiculos[0]!.id });
    expect(running.json()).toEqual({ quantidade: 1 });
    const at = await patio('buscarExecucaoCircuitoPorSequencia', {
      sequenciaCircuitoId: y.sequencias[1]!.id,
    });
    expect(at.json().execucaoCircuito).toMatchObject({ id: row.execucaoCircuitoId, agendaId: row.id });
  });

  it('records the yard’s refusal (the driver is already in an execution) as FALHOU, without retrying', async () => {
    const y = await yard();
    await integrated({ circuitoId: y.circuitoId, veiculoId: y.veiculos[0]!.id, motoristaId: y.motoristaId });
    const row = await integrated({
      circuitoId: y.circuitoId,
      veiculoId: y.veiculos[1]!.id,
      motoristaId: y.motoristaId,
    });
    expect(row).toMatchObject({ status: 'EXECUTANDO', inicioExecucao: 'FALHOU', execucaoCircuitoId: null });
    expect(row.motivoDeFalha).toMatch(/./);
    const running = await t.call(
      'acme',
      'yms/patio/queries/quantidadeExecucaoCircuitoPorVeiculo',
      {
        veiculoId: y.veiculos[1]!.id,
      },
      { auth: acmeKey },
    );
    expect(running.json()).toEqual({ quantidade: 0 });
  });
});
