import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { appendEvent } from '../../../platform/core/outbox.ts';
import {
  makeArea,
  makeCircuito,
  makeMotorista,
  makePlanta,
  makeSequencia,
  makeVeiculo,
  outboxOf,
  patioCall,
  seed,
} from '../patio/fixtures.ts';
import { circuito, sequenciaCircuito } from '../patio/tables/circuitos.ts';
import { area, planta } from '../patio/tables/plantas.ts';
import { motorista, veiculo } from '../patio/tables/veiculos.ts';
import {
  agendaCall,
  agendaRow,
  historico,
  makeAgenda,
  makeTipo,
  type Status,
  seedAgendas,
  seedPatioDaPlanta,
  seedPlanta,
  seedTipos,
} from './fixtures.ts';

// The agenda's state actions after the hand-over (spec 000 §3; docs/agenda.md): the whole state
// table as one table-driven test, then iniciarAgendamento against a real yard, finishing, the two
// circuit-cancellation actions, and the cancellation that follows yms/patio's event.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;
let patio: ReturnType<typeof patioCall>;
const EXEC = '00000000-0000-4000-8000-0000000e0001';
/** A circuit of the agendas' plant (PLANTA) and its first sequence: what aguardarIntegracao records. */
let CIRCUITO: string;
let SEQUENCIA: string;
const TOPICO = 'yms/patio/execucaoCircuitoCancelada';
const FINALIZADA = 'yms/patio/execucaoCircuitoFinalizada';

beforeAll(async () => {
  t = await testApp();
  const key = await t.tenant('acme');
  acme = agendaCall(t, 'acme', key);
  patio = patioCall(t, 'acme', key);
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
  await seedPlanta(t, 'acme');
  ({ circuitoId: CIRCUITO, sequenciaId: SEQUENCIA } = await seedPatioDaPlanta(t, 'acme'));
});

/** What the dispatcher would deliver: an event in acme's outbox, then delivered to every consumer. */
async function publicar(payload: Record<string, unknown>, topico = TOPICO) {
  await t.db.tenant('acme', (tx) => appendEvent(tx, 'acme', topico, payload));
  await t.platform.events.drain();
}

// --- spec 000 §3 and the source states chosen (docs/agenda.md "States and transitions") ---------

/** A source state; EXECUTANDO/FALHOU is EXECUTANDO whose start of the yard execution failed. */
const ESTADOS = [
  'AGENDADO',
  'AGUARDANDO_INTEGRACAO',
  'EXECUTANDO',
  'EXECUTANDO/FALHOU',
  'ERRO_INTEGRACAO',
  'CONCLUIDO',
  'CANCELADO',
] as const;
type Estado = (typeof ESTADOS)[number];
/** The resulting state, `409` (refused, nothing changes) or `=` (accepted, nothing changes). */
type Resultado = Status | 409 | '=';

const GATILHOS = {
  aguardarIntegracao: (a: string) => [
    'aguardarIntegracao',
    { agenda: a, circuito: CIRCUITO, sequenciaInicial: SEQUENCIA },
  ],
  'informarIntegracao SUCESSO': (a: string) => [
    'informarIntegracao',
    { agenda: a, servico: 'erp', status: 'SUCESSO' },
  ],
  'informarIntegracao ERRO': (a: string) => [
    'informarIntegracao',
    { agenda: a, servico: 'erp', status: 'ERRO' },
  ],
  iniciarAgendamento: (a: string) => ['iniciarAgendamento', { agenda: a }],
  finalizarAgendamento: (a: string) => ['finalizarAgendamento', { agenda: a }],
  cancelarAgendamentoPorCancelamentoCircuito: (a: string) => [
    'cancelarAgendamentoPorCancelamentoCircuito',
    { agendaId: a, motivo: 'circuito errado' },
  ],
  reiniciarAgendamentoPorCancelamentoCircuito: (a: string) => [
    'reiniciarAgendamentoPorCancelamentoCircuito',
    { agendaId: a, motivo: 'refazer' },
  ],
  'evento execucaoCircuitoCancelada': undefined,
  'evento execucaoCircuitoFinalizada': undefined,
} as const;
type Gatilho = keyof typeof GATILHOS;

// Columns in the order of ESTADOS:
//   AGENDADO, AGUARDANDO_INTEGRACAO, EXECUTANDO, EXECUTANDO/FALHOU, ERRO_INTEGRACAO, CONCLUIDO, CANCELADO
const TABELA: Record<Gatilho, Resultado[]> = {
  aguardarIntegracao: ['AGUARDANDO_INTEGRACAO', 409, 409, 409, 409, 409, 409],
  'informarIntegracao SUCESSO': ['=', 'EXECUTANDO', '=', '=', '=', '=', '='],
  'informarIntegracao ERRO': ['=', 'ERRO_INTEGRACAO', '=', '=', '=', '=', '='],
  iniciarAgendamento: ['EXECUTANDO', 'EXECUTANDO', 409, 'EXECUTANDO', 'EXECUTANDO', 409, 409],
  finalizarAgendamento: [409, 409, 'CONCLUIDO', 'CONCLUIDO', 409, 409, 409],
  cancelarAgendamentoPorCancelamentoCircuito: [
    409,
    'CANCELADO',
    'CANCELADO',
    'CANCELADO',
    'CANCELADO',
    409,
    409,
  ],
  reiniciarAgendamentoPorCancelamentoCircuito: [
    409,
    'AGENDADO',
    'AGENDADO',
    'AGENDADO',
    'AGENDADO',
    409,
    'AGENDADO',
  ],
  // The subscription: as cancelar, but a refusal is no error (the event is consumed, nothing changes).
  'evento execucaoCircuitoCancelada': ['=', 'CANCELADO', 'CANCELADO', 'CANCELADO', 'CANCELADO', '=', '='],
  // The yard finished the execution: only an executing agenda concludes; anything else is left alone.
  'evento execucaoCircuitoFinalizada': ['=', '=', 'CONCLUIDO', 'CONCLUIDO', '=', '=', '='],
};

const casos = (Object.keys(TABELA) as Gatilho[]).flatMap((gatilho) =>
  ESTADOS.map((estado, i) => ({ gatilho, estado, resultado: TABELA[gatilho][i]! })),
);

async function emEstado(estado: Estado) {
  const [status, inicio] = estado.split('/') as [Status, string | undefined];
  const [a] = await seedAgendas(t, 'acme', [
    makeAgenda({
      status,
      ...(status !== 'AGENDADO' ? { circuitoId: null, execucaoCircuitoId: EXEC } : {}),
      ...(inicio ? { inicioExecucao: inicio, execucaoCircuitoId: null } : {}),
    }),
  ]);
  return a!;
}

describe('the state table of spec 000 §3 with the chosen source states', () => {
  it('covers every state and every trigger', () => {
    expect(casos).toHaveLength(ESTADOS.length * Object.keys(GATILHOS).length);
  });

  it.each(casos)('$estado + $gatilho → $resultado', async ({ gatilho, estado, resultado }) => {
    const a = await emEstado(estado);
    const before = await tableCounts(t.db);
    const de = a.status as Status;
    const chamada = GATILHOS[gatilho];
    if (chamada) {
      const [op, body] = chamada(a.id);
      const res = await acme(`actions/${op}`, body);
      if (resultado === 409) {
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toMatchObject({
          reason: 'UNPROCESSABLE',
          message: expect.stringContaining(`Agenda ${a.codigo}`),
        });
      } else expect(res.statusCode, res.body).toBe(200);
    } else if (gatilho === 'evento execucaoCircuitoFinalizada')
      await publicar({ execucaoCircuitoId: EXEC, circuitoId: CIRCUITO, agendaId: a.id }, FINALIZADA);
    else
      await publicar({ execucaoCircuitoId: EXEC, circuitoId: CIRCUITO, agendaId: a.id, motivo: 'no pátio' });

    const row = await agendaRow(t, 'acme', a.id);
    const h = await historico(t, 'acme', a.id);
    if (resultado === 409 || resultado === '=') {
      expect(row.status).toBe(de);
      expect(h).toEqual([]);
      expect(row.lastModifiedDate).toEqual(a.lastModifiedDate);
      if (chamada) expect(await tableCounts(t.db)).toEqual(before);
      return;
    }
    expect(row.status).toBe(resultado);
    expect(h).toEqual([expect.objectContaining({ de, para: resultado })]);
    // And told once, committed with it (a refusal told nothing: the outbox counted above).
    const avisos = (await outboxOf(t, 'acme'))
      .map((e): Record<string, unknown> => ({ topic: e.topic, ...(e.payload as Record<string, unknown>) }))
      .filter((e) => e.topic === 'yms/agenda/agendaAlterada' && e.agendaId === a.id);
    expect(avisos).toEqual([
      expect.objectContaining({
        operacao: 'ESTADO',
        codigo: Number(a.codigo),
        status: resultado,
        de,
        para: resultado,
      }),
    ]);
    if (resultado === 'AGENDADO')
      expect(row).toMatchObject({ circuitoId: null, execucaoCircuitoId: null, inicioExecucao: null });
  });
});

describe('the yard finishing an execution', () => {
  it('concludes the executing agenda once (a redelivery changes nothing), not for a branch’s end', async () => {
    const a = await emEstado('EXECUTANDO');
    await publicar(
      { execucaoCircuitoId: '00000000-0000-4000-8000-0000000e0099', agendaId: a.id, execucaoPaiId: EXEC },
      FINALIZADA,
    );
    expect((await agendaRow(t, 'acme', a.id)).status).toBe('EXECUTANDO');
    const outra = await emEstado('EXECUTANDO');
    await publicar(
      { execucaoCircuitoId: '00000000-0000-4000-8000-0000000e0098', agendaId: outra.id },
      FINALIZADA,
    );
    expect((await agendaRow(t, 'acme', outra.id)).status).toBe('EXECUTANDO'); // tied to another execution
    await publicar({ execucaoCircuitoId: EXEC, agendaId: a.id }, FINALIZADA);
    await publicar({ execucaoCircuitoId: EXEC, agendaId: a.id }, FINALIZADA);
    expect((await agendaRow(t, 'acme', a.id)).status).toBe('CONCLUIDO');
    expect(await historico(t, 'acme', a.id)).toEqual([
      expect.objectContaining({ de: 'EXECUTANDO', para: 'CONCLUIDO', motivo: expect.stringContaining(EXEC) }),
    ]);
  });
});

describe('the yard changing the driver of an execution', () => {
  it('gives the agenda running on it the new driver, only while it names the old one there', async () => {
    const [antigo, novo, outro] = [1, 2, 3].map((i) => `00000000-0000-4000-8000-0000000d000${i}`);
    const [a] = await seedAgendas(t, 'acme', [
      makeAgenda({ status: 'EXECUTANDO', circuitoId: null, execucaoCircuitoId: EXEC, motoristaId: antigo }),
    ]);
    const troca = (o: Record<string, unknown>) =>
      publicar(
        { agendaId: a!.id, execucaoCircuitoid: EXEC, motoristaAntigoId: antigo, motoristaNovoId: novo, ...o },
        'yms/patio/motoristaAlteradoEmExecucao',
      );
    await troca({ execucaoCircuitoid: '00000000-0000-4000-8000-0000000e0097' });
    await troca({ motoristaAntigoId: outro });
    expect((await agendaRow(t, 'acme', a!.id)).motoristaId).toBe(antigo);
    await troca({});
    await troca({}); // a redelivery changes nothing
    expect((await agendaRow(t, 'acme', a!.id)).motoristaId).toBe(novo);
  });
});

// --- against a real yard ------------------------------------------------------------------------

async function yard(o: { ativo?: boolean } = {}) {
  const [pl] = await seed(t, 'acme', planta, [makePlanta()]);
  const areas = await seed(t, 'acme', area, [makeArea(pl!.id), makeArea(pl!.id)]);
  const [c] = await seed(t, 'acme', circuito, [makeCircuito(pl!.id, { ativo: o.ativo ?? true })]);
  const seqs = await seed(t, 'acme', sequenciaCircuito, [
    makeSequencia(c!.id, 1, areas[0]!.id),
    makeSequencia(c!.id, 2, areas[1]!.id),
  ]);
  const vs = await seed(t, 'acme', veiculo, [makeVeiculo(), makeVeiculo()]);
  const ms = await seed(t, 'acme', motorista, [makeMotorista(), makeMotorista()]);
  return { circuitoId: c!.id, sequencias: seqs, veiculos: vs, motoristas: ms };
}

/** An agenda handed over to the yard (AGUARDANDO_INTEGRACAO) with the yard's circuit, vehicle and driver. */
async function entregue(y: Awaited<ReturnType<typeof yard>>, i = 0, o: Record<string, unknown> = {}) {
  const [a] = await seedAgendas(t, 'acme', [
    makeAgenda({
      status: 'AGUARDANDO_INTEGRACAO',
      circuitoId: y.circuitoId,
      sequenciaInicialId: y.sequencias[0]!.id,
      veiculoId: y.veiculos[i]!.id,
      motoristaId: y.motoristas[i]!.id,
      ...o,
    }),
  ]);
  return a!;
}

const emExecucao = async (veiculoId: string) =>
  (await patio('queries/quantidadeExecucaoCircuitoPorVeiculo', { veiculoId })).json().quantidade;

describe('iniciarAgendamento', () => {
  it('starts the yard execution at the recorded sequence in the same transaction', async () => {
    const y = await yard();
    const a = await entregue(y);
    const res = await acme('actions/iniciarAgendamento', { agenda: a.id });
    expect(res.statusCode, res.body).toBe(200);
    const agenda = res.json().agenda;
    expect(agenda).toMatchObject({ id: a.id, status: 'EXECUTANDO', inicioExecucao: 'INICIADO' });
    expect(await emExecucao(y.veiculos[0]!.id)).toBe(1);
    const c = await patio('queries/buscaControladorAtivo', { agendaId: a.id });
    expect(c.json().controlador).toMatchObject({
      execucaoCircuitoId: agenda.execucaoCircuitoId,
      sequenciaCircuitoId: y.sequencias[0]!.id,
    });
  });

  it('without a recorded circuit, starts the type’s circuit at its first sequence; the recorded one wins', async () => {
    const y = await yard();
    const outro = await yard();
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ circuitoId: y.circuitoId })]);
    const [semCircuito, gravado] = await seedAgendas(t, 'acme', [
      makeAgenda({
        tipoAgendamentoId: tipo!.id,
        veiculoId: y.veiculos[0]!.id,
        motoristaId: y.motoristas[0]!.id,
      }),
      makeAgenda({
        tipoAgendamentoId: tipo!.id,
        status: 'AGUARDANDO_INTEGRACAO',
        circuitoId: outro.circuitoId,
        sequenciaInicialId: outro.sequencias[1]!.id,
        veiculoId: y.veiculos[1]!.id,
        motoristaId: y.motoristas[1]!.id,
      }),
    ]);
    const res = await acme('actions/iniciarAgendamento', { agenda: semCircuito!.id });
    expect(res.statusCode, res.body).toBe(200);
    const agenda = res.json().agenda;
    expect(agenda).toMatchObject({
      status: 'EXECUTANDO',
      inicioExecucao: 'INICIADO',
      circuitoId: y.circuitoId,
      execucaoCircuitoId: expect.any(String),
    });
    const c = await patio('queries/buscaControladorAtivo', { agendaId: semCircuito!.id });
    expect(c.json().controlador).toMatchObject({
      execucaoCircuitoId: agenda.execucaoCircuitoId,
      sequenciaCircuitoId: y.sequencias[0]!.id,
    });

    const res2 = await acme('actions/iniciarAgendamento', { agenda: gravado!.id });
    expect(res2.statusCode, res2.body).toBe(200);
    expect(res2.json().agenda).toMatchObject({ circuitoId: outro.circuitoId, inicioExecucao: 'INICIADO' });
    const c2 = await patio('queries/buscaControladorAtivo', { agendaId: gravado!.id });
    expect(c2.json().controlador).toMatchObject({ sequenciaCircuitoId: outro.sequencias[1]!.id });
  });

  it('a type’s circuit the yard refuses (inactive), or without a vehicle, is 409 and keeps nothing; a type without one runs without the yard', async () => {
    const y = await yard({ ativo: false });
    const [tipo, semCircuito] = await seedTipos(t, 'acme', [
      makeTipo({ circuitoId: y.circuitoId }),
      makeTipo(),
    ]);
    const [a, b] = await seedAgendas(t, 'acme', [
      makeAgenda({ tipoAgendamentoId: tipo!.id, veiculoId: y.veiculos[0]!.id }),
      makeAgenda({ tipoAgendamentoId: semCircuito!.id, veiculoId: y.veiculos[1]!.id }),
    ]);
    const before = await tableCounts(t.db);
    const res = await acme('actions/iniciarAgendamento', { agenda: a!.id });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/pátio recusou/);
    expect(await tableCounts(t.db)).toEqual(before);
    expect(await agendaRow(t, 'acme', a!.id)).toMatchObject({ status: 'AGENDADO', circuitoId: null });
    // As with a recorded circuit, an agenda without a vehicle cannot run the type's circuit.
    const [ativo] = await seedTipos(t, 'acme', [makeTipo({ circuitoId: (await yard()).circuitoId })]);
    const [semVeiculo] = await seedAgendas(t, 'acme', [makeAgenda({ tipoAgendamentoId: ativo!.id })]);
    const sem = await acme('actions/iniciarAgendamento', { agenda: semVeiculo!.id });
    expect(sem.statusCode, sem.body).toBe(409);
    expect((await agendaRow(t, 'acme', semVeiculo!.id)).status).toBe('AGENDADO');
    const ok = await acme('actions/iniciarAgendamento', { agenda: b!.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().agenda.inicioExecucao).toBeUndefined();
  });

  it('is 409 when the vehicle is already in a running execution, and nothing changes', async () => {
    const y = await yard();
    await acme('actions/iniciarAgendamento', { agenda: (await entregue(y, 0)).id });
    const b = await entregue(y, 1, { veiculoId: y.veiculos[0]!.id });
    const before = await tableCounts(t.db);
    const res = await acme('actions/iniciarAgendamento', { agenda: b.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `Agenda ${b.codigo} não pode ser iniciada: o veículo ${await agendaPlaca(
        y.veiculos[0]!.id,
      )} já está em uma execução de circuito em andamento no pátio`,
    );
    expect(await tableCounts(t.db)).toEqual(before);
    expect((await agendaRow(t, 'acme', b.id)).status).toBe('AGUARDANDO_INTEGRACAO');
  });

  it('is 409 when the driver is in a running execution or in another EXECUTANDO agenda', async () => {
    const y = await yard();
    await acme('actions/iniciarAgendamento', { agenda: (await entregue(y, 0)).id });
    const b = await entregue(y, 1, { motoristaId: y.motoristas[0]!.id });
    const res = await acme('actions/iniciarAgendamento', { agenda: b.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/o motorista .* já está em uma execução de circuito em andamento/);
    // No yard execution, but an EXECUTANDO agenda holds the driver (its start failed, say).
    const [x] = await seedAgendas(t, 'acme', [
      makeAgenda({ status: 'EXECUTANDO', motoristaId: y.motoristas[1]!.id, inicioExecucao: 'FALHOU' }),
    ]);
    const [c] = await seedAgendas(t, 'acme', [makeAgenda({ motoristaId: y.motoristas[1]!.id })]);
    const res2 = await acme('actions/iniciarAgendamento', { agenda: c!.id });
    expect(res2.statusCode).toBe(409);
    expect(res2.json().message).toContain(`outra agenda em EXECUTANDO (${x!.codigo})`);
  });

  it('checks blocks unless validated', async () => {
    const y = await yard();
    const a = await entregue(y);
    const bloquear = await patio('actions/bloquearVeiculo', {
      veiculoId: y.veiculos[0]!.id,
      motivo: 'manutenção',
    });
    expect(bloquear.statusCode, bloquear.body).toBe(200);
    const res = await acme('actions/iniciarAgendamento', { agenda: a.id, validated: false });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/o veículo .* está bloqueado \(manutenção\)/);
    const ok = await acme('actions/iniciarAgendamento', { agenda: a.id, validated: true });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await historico(t, 'acme', a.id))[0]!.motivo).toContain('validado antes');
  });

  it('a refusal of the yard is 409 with its reason and keeps nothing', async () => {
    const y = await yard({ ativo: false });
    const a = await entregue(y);
    const before = await tableCounts(t.db);
    const res = await acme('actions/iniciarAgendamento', { agenda: a.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(
      new RegExp(
        `^Agenda ${a.codigo} não pode ser iniciada: o pátio recusou iniciar a execução do circuito \\(.+\\)$`,
      ),
    );
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('retries a start that FALHOU, and a circuit without a vehicle is 409', async () => {
    const y = await yard();
    const a = await entregue(y, 0, { status: 'EXECUTANDO', inicioExecucao: 'FALHOU', motivoDeFalha: 'x' });
    const res = await acme('actions/iniciarAgendamento', { agenda: a.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().agenda).toMatchObject({ status: 'EXECUTANDO', inicioExecucao: 'INICIADO' });
    expect(res.json().agenda.motivoDeFalha).toBeUndefined();
    const b = await entregue(y, 1, { veiculoId: null });
    const res2 = await acme('actions/iniciarAgendamento', { agenda: b.id });
    expect(res2.statusCode).toBe(409);
    expect(res2.json().message).toContain('mas não tem veículo');
  });

  it('needs a UUID; 404 for another tenant’s agenda', async () => {
    const a = await emEstado('AGENDADO');
    expect((await acme('actions/iniciarAgendamento', { agenda: String(a.codigo) })).statusCode).toBe(400);
    expect((await acme('actions/iniciarAgendamento', { agenda: a.id, validated: 'yes' })).statusCode).toBe(
      400,
    );
    const res = await globex('actions/iniciarAgendamento', { agenda: a.id });
    expect(res.statusCode).toBe(404);
    expect((await agendaRow(t, 'acme', a.id)).status).toBe('AGENDADO');
  });
});

async function agendaPlaca(veiculoId: string) {
  const [v] = await t.db.tenant('acme', (tx) =>
    tx.select({ placa: veiculo.placa }).from(veiculo).where(sql`${veiculo.id} = ${veiculoId}`),
  );
  return v!.placa;
}

describe('finishing and the circuit-cancellation actions while the yard still runs', () => {
  it('finalizar, cancelar and reiniciar are 409 while the execution runs; finalizar after it ended', async () => {
    const y = await yard();
    const a = await entregue(y);
    const exec = (await acme('actions/iniciarAgendamento', { agenda: a.id })).json().agenda
      .execucaoCircuitoId;
    for (const [op, body] of [
      ['finalizarAgendamento', { agenda: a.id }],
      ['cancelarAgendamentoPorCancelamentoCircuito', { agendaId: a.id }],
      ['reiniciarAgendamentoPorCancelamentoCircuito', { agendaId: a.id }],
    ] as const) {
      const res = await acme(`actions/${op}`, body);
      expect(res.statusCode, op).toBe(409);
      expect(res.json().message).toBe(
        `Agenda ${a.codigo}: a execução de circuito ${exec} ainda está em andamento no pátio; ${op} só depois que o pátio a finalizar ou cancelar`,
      );
    }
    const cancel = await patio('actions/cancelarExecucaoCircuito', { execucaoCircuitoId: exec });
    expect(cancel.statusCode, cancel.body).toBe(200);
    // The event is not delivered yet: the agenda is still EXECUTANDO and may be finished.
    const res = await acme('actions/finalizarAgendamento', { agenda: a.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().agenda.status).toBe('CONCLUIDO');
    // The event arrives late: a finished agenda stays finished.
    await t.platform.events.drain();
    expect((await agendaRow(t, 'acme', a.id)).status).toBe('CONCLUIDO');
  });

  it('reiniciar clears the hand-over, keeps the motivo; the agenda can be handed over again', async () => {
    const a = await emEstado('CANCELADO');
    const res = await acme('actions/reiniciarAgendamentoPorCancelamentoCircuito', {
      agendaId: String(a.codigo),
      motivo: '  trocar de circuito ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().agendaReiniciada).toMatchObject({ id: a.id, status: 'AGENDADO' });
    expect(res.json().agendaReiniciada.execucaoCircuitoId).toBeUndefined();
    expect((await historico(t, 'acme', a.id)).at(-1)).toMatchObject({
      de: 'CANCELADO',
      para: 'AGENDADO',
      motivo: 'trocar de circuito',
    });
    const again = await acme('actions/aguardarIntegracao', {
      agenda: a.id,
      circuito: CIRCUITO,
      sequenciaInicial: SEQUENCIA,
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('motivo over 255 is 400; unknown agenda 404; default motivo', async () => {
    const a = await emEstado('ERRO_INTEGRACAO');
    for (const op of [
      'cancelarAgendamentoPorCancelamentoCircuito',
      'reiniciarAgendamentoPorCancelamentoCircuito',
    ]) {
      const res = await acme(`actions/${op}`, { agendaId: a.id, motivo: 'x'.repeat(256) });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/motivo/);
      const g = await globex(`actions/${op}`, { agendaId: a.id });
      expect(g.statusCode).toBe(404);
    }
    expect((await agendaRow(t, 'acme', a.id)).status).toBe('ERRO_INTEGRACAO');
    const res = await acme('actions/cancelarAgendamentoPorCancelamentoCircuito', { agendaId: a.id });
    expect(res.json().agendaCancelada.status).toBe('CANCELADO');
    expect((await historico(t, 'acme', a.id))[0]!.motivo).toBe('circuito cancelado');
  });
});

describe('yms/patio cancels an execution: the subscription cancels the agenda', () => {
  it('end to end: cancel in patio, drain, CANCELADO with history; a redelivery changes nothing', async () => {
    const y = await yard();
    const a = await entregue(y);
    const exec = (await acme('actions/iniciarAgendamento', { agenda: a.id })).json().agenda
      .execucaoCircuitoId;
    const cancel = await patio('actions/cancelarExecucaoCircuito', {
      execucaoCircuitoId: exec,
      motivo: 'doca interditada',
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((await agendaRow(t, 'acme', a.id)).status).toBe('EXECUTANDO');
    await t.platform.events.drain();
    expect((await agendaRow(t, 'acme', a.id)).status).toBe('CANCELADO');
    const h = await historico(t, 'acme', a.id);
    expect(h.at(-1)).toMatchObject({
      de: 'EXECUTANDO',
      para: 'CANCELADO',
      quem: 'system',
      motivo: `execução de circuito ${exec} cancelada no pátio: doca interditada`,
    });
    // At least once: the same event delivered again (cursor moved back) finds the agenda cancelled.
    await t.db.db.execute(
      sql`update event_cursors set last_id = 0 where consumer = 'yms/agenda/cancelarPorExecucaoCancelada'`,
    );
    await t.platform.events.drain();
    expect(await historico(t, 'acme', a.id)).toHaveLength(h.length);
  });

  it('an agenda restarted before the event arrives, or tied to another execution, is left alone', async () => {
    const y = await yard();
    const a = await entregue(y);
    const exec = (await acme('actions/iniciarAgendamento', { agenda: a.id })).json().agenda
      .execucaoCircuitoId;
    await patio('actions/cancelarExecucaoCircuito', { execucaoCircuitoId: exec });
    const r = await acme('actions/reiniciarAgendamentoPorCancelamentoCircuito', { agendaId: a.id });
    expect(r.statusCode, r.body).toBe(200);
    const [b] = await seedAgendas(t, 'acme', [
      makeAgenda({ status: 'EXECUTANDO', execucaoCircuitoId: EXEC }),
    ]);
    await publicar({
      execucaoCircuitoId: '00000000-0000-4000-8000-0000000e0999',
      circuitoId: CIRCUITO,
      agendaId: b!.id,
    });
    expect((await agendaRow(t, 'acme', a.id)).status).toBe('AGENDADO');
    expect((await agendaRow(t, 'acme', b!.id)).status).toBe('EXECUTANDO');
  });

  it('events of another tenant never touch this tenant’s agendas', async () => {
    const a = await emEstado('EXECUTANDO');
    await t.db.tenant('globex', (tx) =>
      appendEvent(tx, 'globex', TOPICO, { execucaoCircuitoId: EXEC, circuitoId: CIRCUITO, agendaId: a.id }),
    );
    await t.platform.events.drain();
    expect((await agendaRow(t, 'acme', a.id)).status).toBe('EXECUTANDO');
  });
});
