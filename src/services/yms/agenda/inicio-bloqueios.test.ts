import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import {
  makeArea,
  makeCircuito,
  makeMotorista,
  makePlanta,
  makeSequencia,
  makeVeiculo,
  patioCall,
  seed,
} from '../patio/fixtures.ts';
import { circuito, sequenciaCircuito } from '../patio/tables/circuitos.ts';
import { area, planta } from '../patio/tables/plantas.ts';
import { composicaoVeiculo, motorista, veiculo } from '../patio/tables/veiculos.ts';
import { agendaCall, agendaRow, makeAgenda, seedAgendas } from './fixtures.ts';

// The blocks of the vehicle, the driver and the composition an agenda names, on every path that
// starts its circuit execution (docs/agenda.md "Starting, finishing, cancelling"): iniciarAgendamento
// without `validated`, and the start after a successful integration (aguardarIntegracao, then
// informarIntegracao SUCESSO), which no caller validated. A composition is blocked as yms/patio says
// (docs/patio.md "Blocking"): its own reason or a blocked part.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let patio: ReturnType<typeof patioCall>;

beforeAll(async () => {
  t = await testApp();
  const key = await t.tenant('acme');
  acme = agendaCall(t, 'acme', key);
  patio = patioCall(t, 'acme', key);
});

/**
 * A plant's yard and an AGENDADO agenda of that plant: a circuit of two sequences (the first with
 * `condicao`), a tractor, a trailer, their composition and a driver.
 */
async function cenario(o: { condicao?: string } = {}) {
  const [pl] = await seed(t, 'acme', planta, [makePlanta()]);
  const areas = await seed(t, 'acme', area, [makeArea(pl!.id), makeArea(pl!.id)]);
  const [c] = await seed(t, 'acme', circuito, [makeCircuito(pl!.id)]);
  const [s] = await seed(t, 'acme', sequenciaCircuito, [
    makeSequencia(c!.id, 1, areas[0]!.id, o.condicao ? { nomeCondicao: o.condicao } : {}),
    makeSequencia(c!.id, 2, areas[1]!.id),
  ]);
  const [cavalo, reboque] = await seed(t, 'acme', veiculo, [
    makeVeiculo({ tipoVeiculo: 'CAVALO_MECANICO' }),
    makeVeiculo({ tipoVeiculo: 'SEMIRREBOQUE' }),
  ]);
  const [comp] = await seed(t, 'acme', composicaoVeiculo, [
    { descricao: 'Bitrem', cavaloId: cavalo!.id, reboqueIds: [reboque!.id] },
  ]);
  const [m] = await seed(t, 'acme', motorista, [makeMotorista()]);
  const [a] = await seedAgendas(t, 'acme', [
    makeAgenda({
      plantaId: pl!.id,
      veiculoId: cavalo!.id,
      composicaoVeiculoId: comp!.id,
      motoristaId: m!.id,
    }),
  ]);
  return {
    agenda: a!,
    circuitoId: c!.id,
    sequenciaId: s!.id,
    cavalo: cavalo!,
    reboque: reboque!,
    composicaoId: comp!.id,
    motorista: m!,
  };
}
type Cenario = Awaited<ReturnType<typeof cenario>>;

/** The hand-over: aguardarIntegracao records the circuit and its first sequence. */
async function entregar(c: Cenario) {
  const res = await acme('actions/aguardarIntegracao', {
    agenda: c.agenda.id,
    circuito: c.circuitoId,
    sequenciaInicial: c.sequenciaId,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The ERP path: the hand-over, informarIntegracao SUCESSO, and the start job it queues. */
async function pelaIntegracao(c: Cenario) {
  await entregar(c);
  const informar = await acme('actions/informarIntegracao', {
    agenda: c.agenda.id,
    servico: 'erp',
    status: 'SUCESSO',
  });
  expect(informar.statusCode, informar.body).toBe(200);
  await t.platform.jobs.drain();
  return agendaRow(t, 'acme', c.agenda.id);
}

/** The plant's path: the hand-over, then iniciarAgendamento without waiting for the ERP. */
async function direto(c: Cenario, validated?: boolean) {
  await entregar(c);
  return acme('actions/iniciarAgendamento', {
    agenda: c.agenda.id,
    ...(validated === undefined ? {} : { validated }),
  });
}

const execucoesDo = async (veiculoId: string) =>
  (await patio('queries/buscaExecucaoCircuitoPorVeiculo', { veiculoId, status: 'EXECUTANDO' })).json()
    .execucoes as Array<Record<string, unknown>>;

/** Each block, set through yms/patio's actions, and the reason the refused start gives. */
const BLOQUEIOS: Record<
  string,
  { bloquear: (c: Cenario) => Promise<unknown>; motivo: (c: Cenario) => RegExp }
> = {
  veículo: {
    bloquear: (c) => patio('actions/bloquearVeiculo', { veiculoId: c.cavalo.id, motivo: 'manutenção' }),
    motivo: (c) => new RegExp(`o veículo ${c.cavalo.placa} está bloqueado \\(manutenção\\)`),
  },
  motorista: {
    bloquear: (c) =>
      patio('actions/bloquearMotorista', { motoristaId: c.motorista.id, motivo: 'CNH vencida' }),
    motivo: (c) => new RegExp(`o motorista ${c.motorista.nome} está bloqueado \\(CNH vencida\\)`),
  },
  'composição (o seu motivo)': {
    bloquear: async (c) => {
      const res = await patio('actions/atualizarBloqueioComposicaoVeiculo', {
        composicaoVeiculoId: c.composicaoId,
        motivo: 'lacre violado',
      });
      expect(res.json()).toEqual({ statusComposicaoVeiculo: true });
    },
    motivo: () => /a composição Bitrem está bloqueada \(lacre violado\)/,
  },
  'composição (um reboque bloqueado)': {
    bloquear: (c) => patio('actions/bloquearVeiculo', { veiculoId: c.reboque.id, motivo: 'pneu' }),
    motivo: (c) =>
      new RegExp(
        `a composição Bitrem está bloqueada \\(o veículo ${c.reboque.placa} está bloqueado: pneu\\)`,
      ),
  },
};

describe('a blocked vehicle, driver or composition does not start', () => {
  it.each(Object.keys(BLOQUEIOS))('iniciarAgendamento without validated: %s is 409', async (nome) => {
    const c = await cenario();
    await BLOQUEIOS[nome]!.bloquear(c);
    const res = await direto(c);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(new RegExp(`^Agenda ${c.agenda.codigo} não pode ser iniciada: `));
    expect(res.json().message).toMatch(BLOQUEIOS[nome]!.motivo(c));
    expect((await agendaRow(t, 'acme', c.agenda.id)).status).toBe('AGUARDANDO_INTEGRACAO');
    expect(await execucoesDo(c.cavalo.id)).toEqual([]);
  });

  it.each(Object.keys(BLOQUEIOS))(
    'after a successful integration: %s leaves the start FALHOU with the reason, no execution',
    async (nome) => {
      const c = await cenario();
      await BLOQUEIOS[nome]!.bloquear(c);
      const row = await pelaIntegracao(c);
      // As a start the yard refuses on this path: EXECUTANDO, start FALHOU, the reason kept.
      expect(row).toMatchObject({ status: 'EXECUTANDO', inicioExecucao: 'FALHOU', execucaoCircuitoId: null });
      expect(row.motivoDeFalha).toMatch(BLOQUEIOS[nome]!.motivo(c));
      expect(await execucoesDo(c.cavalo.id)).toEqual([]);
    },
  );

  it('a start that FALHOU on a block starts by iniciarAgendamento once it is lifted', async () => {
    const c = await cenario();
    await BLOQUEIOS.veículo!.bloquear(c);
    expect((await pelaIntegracao(c)).inicioExecucao).toBe('FALHOU');
    await patio('actions/desbloquearVeiculo', { veiculoId: c.cavalo.id });
    const res = await acme('actions/iniciarAgendamento', { agenda: c.agenda.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().agenda).toMatchObject({ status: 'EXECUTANDO', inicioExecucao: 'INICIADO' });
  });

  it.each(Object.keys(BLOQUEIOS))(
    'iniciarAgendamento validated: %s is not read (the caller checked it)',
    async (nome) => {
      const c = await cenario();
      await BLOQUEIOS[nome]!.bloquear(c);
      const res = await direto(c, true);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().agenda.inicioExecucao).toBe('INICIADO');
    },
  );
});

describe("the execution started for an agenda carries the agenda's composition", () => {
  it('on both paths', async () => {
    const iniciado = await cenario();
    const res = await direto(iniciado);
    expect(res.statusCode, res.body).toBe(200);
    const integrado = await cenario();
    expect((await pelaIntegracao(integrado)).inicioExecucao).toBe('INICIADO');
    for (const c of [iniciado, integrado])
      expect(await execucoesDo(c.cavalo.id)).toEqual([
        expect.objectContaining({ agendaId: c.agenda.id, composicaoVeiculoId: c.composicaoId }),
      ]);
  });

  it("yms/patio's iniciarExecucaoCircuito refuses an unknown composition with 422, starting nothing", async () => {
    const c = await cenario();
    const id = '00000000-0000-4000-8000-00000000dead';
    const res = await patio('actions/iniciarExecucaoCircuito', {
      circuitoId: c.circuitoId,
      veiculoId: c.cavalo.id,
      composicaoVeiculoId: id,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe(`composicaoVeiculo ${id} não existe (composicaoVeiculoId)`);
    expect(await execucoesDo(c.cavalo.id)).toEqual([]);
  });

  it("so the yard's veiculoNaoBloqueado on the first step sees a blocked composition (validated start: 409)", async () => {
    const c = await cenario({ condicao: 'veiculoNaoBloqueado' });
    await BLOQUEIOS['composição (o seu motivo)']!.bloquear(c);
    const res = await direto(c, true);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/o pátio recusou iniciar a execução do circuito .*lacre violado/);
    expect(await execucoesDo(c.cavalo.id)).toEqual([]);
  });
});
