import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { execucaoOf } from './execucao-consultas.ts';
import { avancarEtapa, retornarEtapa } from './execucao-etapas.ts';
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
import { motorista, veiculo } from './tables/veiculos.ts';

// Circuit executions (spec 000 §4.1, §4.2; docs/patio.md "Executions"): starting one, its steps and
// history, the queries over executions, variables and images, the controller in charge, cancelling.

let t: TestApp;
let acme: ReturnType<typeof patioCall>;
const ids: Record<string, string> = {};
const seqs: string[] = [];
const veiculos: string[] = [];
const motoristas: string[] = [];

const iniciar = (input: Parameters<typeof iniciarExecucao>[1]) =>
  asTenant(t, 'acme', (ctx) => iniciarExecucao(ctx, input));
/** Expects the store function to throw an ApiError with this status. */
async function falha(work: Promise<unknown>, status: number, message?: RegExp) {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e as { status: number; message: string },
  );
  expect(err, 'expected a failure').toBeDefined();
  expect(err!.status).toBe(status);
  if (message) expect(err!.message).toMatch(message);
}

beforeAll(async () => {
  t = await testApp();
  acme = patioCall(t, 'acme', await t.tenant('acme'));
  const [p] = await seed(t, 'acme', planta, [makePlanta()]);
  ids.planta = p!.id;
  const areas = await seed(t, 'acme', area, [
    makeArea(p!.id, { tipo: 'PORTARIA' }),
    makeArea(p!.id, { tipo: 'ESTACIONAMENTO' }),
    makeArea(p!.id, { tipo: 'DOCA' }),
  ]);
  ids.estacionamento = areas[1]!.id;
  const [c, inativo, vazio] = await seed(t, 'acme', circuito, [
    makeCircuito(p!.id),
    makeCircuito(p!.id, { ativo: false }),
    makeCircuito(p!.id),
  ]);
  ids.circuito = c!.id;
  ids.inativo = inativo!.id;
  ids.vazio = vazio!.id;
  const rows = await seed(t, 'acme', sequenciaCircuito, [
    makeSequencia(c!.id, 10, areas[0]!.id),
    makeSequencia(c!.id, 20, areas[1]!.id, { nomeComando: 'alocarVaga' }),
    makeSequencia(c!.id, 30, areas[2]!.id),
  ]);
  seqs.push(...rows.map((r) => r.id));
  const [outra] = await seed(t, 'acme', sequenciaCircuito, [makeSequencia(inativo!.id, 1, areas[0]!.id)]);
  ids.seqOutroCircuito = outra!.id;
  veiculos.push(
    ...(
      await seed(
        t,
        'acme',
        veiculo,
        Array.from({ length: 8 }, () => makeVeiculo()),
      )
    ).map((v) => v.id),
  );
  motoristas.push(
    ...(
      await seed(
        t,
        'acme',
        motorista,
        Array.from({ length: 6 }, () => makeMotorista()),
      )
    ).map((m) => m.id),
  );
  const [v1] = await seed(t, 'acme', vaga, [
    makeVaga(ids.estacionamento, 1, 1),
    makeVaga(ids.estacionamento, 1, 2),
  ]);
  ids.vaga = v1!.id;
});

describe('iniciarExecucao', () => {
  it('starts at the first sequence, with an INICIADA step in the history', async () => {
    const agendaId = randomUUID();
    const row = await iniciar({
      circuitoId: ids.circuito!,
      veiculoId: veiculos[0]!,
      motoristaId: motoristas[0],
      agendaId,
    });
    ids.exec0 = row.id;
    ids.agenda0 = agendaId;
    expect(row).toMatchObject({ situacao: 'EXECUTANDO', sequenciaAtualId: seqs[0], agendaId });
    const res = await acme('queries/buscarExecucaoCircuitoPorSequencia', { sequenciaCircuitoId: seqs[0] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().execucaoCircuito).toMatchObject({
      id: row.id,
      status: 'EXECUTANDO',
      veiculoId: veiculos[0],
      motoristaId: motoristas[0],
      variaveis: [],
      imagens: [],
      historico: [{ sequenciaCircuitoId: seqs[0], acao: 'INICIADA', origem: 'MANUAL:system' }],
    });
    expect(res.json().execucaoCircuito.historico[0].saidaEm).toBeUndefined();
  });

  it('refuses (409) a vehicle or a driver already in a running execution, and changes nothing', async () => {
    const before = await tableCounts(t.db);
    await falha(iniciar({ circuitoId: ids.circuito!, veiculoId: veiculos[0]! }), 409, /já está na execução/);
    await falha(
      iniciar({ circuitoId: ids.circuito!, veiculoId: veiculos[1]!, motoristaId: motoristas[0] }),
      409,
      /motorista/i,
    );
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('checks the circuit (404, inactive 422, no sequences 422) and the initial sequence', async () => {
    await falha(iniciar({ circuitoId: randomUUID(), veiculoId: veiculos[1]! }), 404);
    await falha(iniciar({ circuitoId: ids.inativo!, veiculoId: veiculos[1]! }), 422, /inativo/);
    await falha(iniciar({ circuitoId: ids.vazio!, veiculoId: veiculos[1]! }), 422, /sequências/);
    await falha(
      iniciar({
        circuitoId: ids.circuito!,
        veiculoId: veiculos[1]!,
        sequenciaInicialId: ids.seqOutroCircuito,
      }),
      422,
    );
    await falha(iniciar({ circuitoId: ids.circuito!, veiculoId: randomUUID() }), 404);
  });

  it('starts at the given sequence and takes the given initial spot', async () => {
    const row = await iniciar({
      circuitoId: ids.circuito!,
      veiculoId: veiculos[1]!,
      sequenciaInicialId: seqs[1],
      vagaInicialId: ids.vaga,
    });
    ids.exec1 = row.id;
    expect(row.sequenciaAtualId).toBe(seqs[1]);
    const [v] = await asTenant(t, 'acme', (ctx) => ctx.store.select(vaga, eq(vaga.id, ids.vaga!)));
    expect(v).toMatchObject({ ocupada: true, veiculoId: veiculos[1] });
    // The spot is taken now: another start cannot have it.
    await falha(
      iniciar({ circuitoId: ids.circuito!, veiculoId: veiculos[2]!, vagaInicialId: ids.vaga }),
      422,
    );
  });

  it('of two concurrent starts for one vehicle, exactly one succeeds', async () => {
    const results = await Promise.allSettled([
      iniciar({ circuitoId: ids.circuito!, veiculoId: veiculos[5]! }),
      iniciar({ circuitoId: ids.circuito!, veiculoId: veiculos[5]! }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason.status).toBe(409);
  });
});

describe('steps', () => {
  it('advance and revert keep one history row per step with its times; past the last it finishes', async () => {
    let clock = new Date('2026-03-02T10:00:00Z');
    const now = () => clock;
    const row = await asTenant(
      t,
      'acme',
      (ctx) => iniciarExecucao(ctx, { circuitoId: ids.circuito!, veiculoId: veiculos[3]! }),
      now,
    );
    const step = async (fn: 'avancar' | 'retornar', at: string) => {
      clock = new Date(at);
      return asTenant(
        t,
        'acme',
        async (ctx) => {
          const atual = await execucaoOf(ctx, row.id);
          return fn === 'avancar'
            ? avancarEtapa(ctx, atual, 'COMANDO:teste')
            : retornarEtapa(ctx, atual, 'MANUAL:ana');
        },
        now,
      );
    };
    expect((await step('avancar', '2026-03-02T10:05:00Z')).sequenciaAtualId).toBe(seqs[1]);
    expect((await step('retornar', '2026-03-02T10:07:00Z')).sequenciaAtualId).toBe(seqs[0]);
    await falha(step('retornar', '2026-03-02T10:08:00Z'), 409, /primeira sequência/);
    await step('avancar', '2026-03-02T10:10:00Z');
    await step('avancar', '2026-03-02T10:20:00Z');
    const fim = await step('avancar', '2026-03-02T10:30:00Z');
    expect(fim).toMatchObject({ situacao: 'FINALIZADO', sequenciaAtualId: seqs[2] });
    const res = await acme('queries/buscaExecucaoCircuitoPorVeiculo', { veiculoId: veiculos[3] });
    const [exec] = res.json().execucoes;
    expect(exec.fim).toBe('2026-03-02T10:30:00.000Z');
    expect(
      exec.historico.map((h: Record<string, string>) => [
        h.acao,
        h.sequenciaCircuitoId,
        h.entradaEm,
        h.saidaEm,
      ]),
    ).toEqual([
      ['INICIADA', seqs[0], '2026-03-02T10:00:00.000Z', '2026-03-02T10:05:00.000Z'],
      ['AVANCOU', seqs[1], '2026-03-02T10:05:00.000Z', '2026-03-02T10:07:00.000Z'],
      ['RETORNOU', seqs[0], '2026-03-02T10:07:00.000Z', '2026-03-02T10:10:00.000Z'],
      ['AVANCOU', seqs[1], '2026-03-02T10:10:00.000Z', '2026-03-02T10:20:00.000Z'],
      ['AVANCOU', seqs[2], '2026-03-02T10:20:00.000Z', '2026-03-02T10:30:00.000Z'],
      ['FINALIZADA', seqs[2], '2026-03-02T10:30:00.000Z', '2026-03-02T10:30:00.000Z'],
    ]);
    await falha(step('avancar', '2026-03-02T10:40:00Z'), 409);
  });
});

describe('queries over executions', () => {
  it('buscaExecucaoCircuitoPorVeiculo narrows by status; the counts are of running executions', async () => {
    const all = await acme('queries/buscaExecucaoCircuitoPorVeiculo', { veiculoId: veiculos[3] });
    expect(all.json().execucoes).toHaveLength(1);
    const running = await acme('queries/buscaExecucaoCircuitoPorVeiculo', undefined, {
      method: 'GET',
      query: { veiculoId: veiculos[3]!, status: 'EXECUTANDO' },
    });
    expect(running.json().execucoes).toEqual([]);
    const q = (op: string, body: unknown) => acme(`queries/${op}`, body).then((r) => r.json());
    expect(await q('quantidadeExecucaoCircuitoPorVeiculo', { veiculoId: veiculos[0] })).toEqual({
      quantidade: 1,
    });
    expect(await q('quantidadeExecucaoCircuitoPorVeiculo', { veiculoId: veiculos[3] })).toEqual({
      quantidade: 0,
    });
    expect(await q('quantidadeExecucaoCircuitoPorMotorista', { motoristaId: motoristas[0] })).toEqual({
      quantidade: 1,
    });
    expect(await q('quantidadeExecucaoCircuitoPorMotorista', { motoristaId: motoristas[5] })).toEqual({
      quantidade: 0,
    });
  });

  it('buscarExecucaoCircuitoPorSequencia: 404 when no execution is running at the sequence', async () => {
    const res = await acme('queries/buscarExecucaoCircuitoPorSequencia', { sequenciaCircuitoId: seqs[2] });
    expect(res.statusCode).toBe(404);
    expect(res.json().reason).toBe('OBJECT_NOT_FOUND');
  });

  it('buscaControladorAtivo: the current step and its command; first id wins; empty when none', async () => {
    const q = (body: Record<string, unknown>) =>
      acme('queries/buscaControladorAtivo', body).then((r) => ({ status: r.statusCode, body: r.json() }));
    // exec1 is at the second step, whose command is alocarVaga.
    const byExec = await q({ execucaoCircuitoId: ids.exec1 });
    expect(byExec.body.controlador).toMatchObject({
      execucaoCircuitoId: ids.exec1,
      sequenciaCircuitoId: seqs[1],
      areaId: ids.estacionamento,
      nomeComando: 'alocarVaga',
    });
    expect(byExec.body.controlador.desde).toBeDefined();
    const byAgenda = await q({ agendaId: ids.agenda0 });
    expect(byAgenda.body.controlador).toMatchObject({ execucaoCircuitoId: ids.exec0, agendaId: ids.agenda0 });
    // Both ids: only execucaoCircuitoId counts — exec1, not agenda0's execution...
    const both = await q({ execucaoCircuitoId: ids.exec1, agendaId: ids.agenda0 });
    expect(both.body.controlador.execucaoCircuitoId).toBe(ids.exec1);
    // ...even when that id names no running execution: no fallback to the agenda.
    const semFallback = await q({ execucaoCircuitoId: randomUUID(), agendaId: ids.agenda0 });
    expect(semFallback.body).toEqual({ controlador: {} });
    expect(
      (await q({ execucaoCircuitoId: ids.exec1, nomeComando: 'alocarVaga' })).body.controlador.nomeComando,
    ).toBe('alocarVaga');
    expect((await q({ execucaoCircuitoId: ids.exec1, nomeComando: 'pesar' })).body).toEqual({
      controlador: {},
    });
    expect((await q({})).status).toBe(400);
    const get = await acme('queries/buscaControladorAtivo', undefined, {
      method: 'GET',
      query: { agendaId: ids.agenda0! },
    });
    expect(get.json().controlador.execucaoCircuitoId).toBe(ids.exec0);
  });
});

describe('variables and images', () => {
  it('adicionaVariavelExecucaoCircuito overwrites an existing key of the same target', async () => {
    const add = (chave: string, valor: string, alvoId = seqs[0]) =>
      acme('actions/adicionaVariavelExecucaoCircuito', {
        execucaoCircuitoId: ids.exec0,
        alvoId,
        chave,
        valor,
      });
    expect((await add('peso', '31000')).statusCode).toBe(200);
    await add('lacre', 'A1', ids.estacionamento);
    const res = await add('peso', '32500');
    expect(res.json().execucaoCircuito.variaveis).toEqual(
      [
        { alvoId: seqs[0], chave: 'peso', valor: '32500', tipoCaptura: 'MANUAL' },
        { alvoId: ids.estacionamento, chave: 'lacre', valor: 'A1', tipoCaptura: 'MANUAL' },
      ].sort((a, b) => String(a.alvoId).localeCompare(String(b.alvoId))),
    );
    const alheio = await add('x', '1', randomUUID());
    expect(alheio.statusCode).toBe(422);
    expect(alheio.json().message).toMatch(/alvoId/);
  });

  it('adicionaImagemExecucaoCircuito records the image; a finished execution takes none (409)', async () => {
    const res = await acme('actions/adicionaImagemExecucaoCircuito', {
      execucaoCircuitoId: ids.exec0,
      alvoId: seqs[0],
      cameraIp: '10.0.0.7',
      imagemUrl: 'https://cameras.example/portaria/1.jpg',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().execucaoCircuito.imagens).toEqual([
      expect.objectContaining({
        alvoId: seqs[0],
        cameraIp: '10.0.0.7',
        imagemUrl: 'https://cameras.example/portaria/1.jpg',
      }),
    ]);
    const [finalizada] = (
      await acme('queries/buscaExecucaoCircuitoPorVeiculo', { veiculoId: veiculos[3] })
    ).json().execucoes;
    const late = await acme('actions/adicionaImagemExecucaoCircuito', {
      execucaoCircuitoId: finalizada.id,
      alvoId: seqs[0],
      cameraIp: '10.0.0.7',
      imagemUrl: 'x',
    });
    expect(late.statusCode).toBe(409);
  });

  it('addVariavelCircuito sets chave and the pairs of variaveis on the current sequence, with tipo', async () => {
    const res = await acme('actions/addVariavelCircuito', {
      id: ids.exec1,
      tipo: 'BALANCA',
      chave: 'pesoBruto',
      valor: '45000',
      rotina: 'pesagemEntrada',
      variaveis: '{"tara": 15000, "umidade": "13.5"}',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ successo: true });
    const exec = (
      await acme('queries/buscarExecucaoCircuitoPorSequencia', { sequenciaCircuitoId: seqs[1] })
    ).json().execucaoCircuito;
    expect(exec.variaveis).toEqual([
      { alvoId: seqs[1], chave: 'pesoBruto', valor: '45000', tipoCaptura: 'BALANCA' },
      { alvoId: seqs[1], chave: 'tara', valor: '15000', tipoCaptura: 'BALANCA' },
      { alvoId: seqs[1], chave: 'umidade', valor: '13.5', tipoCaptura: 'BALANCA' },
    ]);
    const bad = await acme('actions/addVariavelCircuito', {
      id: ids.exec1,
      tipo: 'BALANCA',
      chave: 'k',
      variaveis: '[1',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/variaveis/);
    const tipo = await acme('actions/addVariavelCircuito', {
      id: ids.exec1,
      tipo: 'TELEPATIA',
      chave: 'k',
      variaveis: '',
    });
    expect(tipo.statusCode).toBe(400);
    const seq = await acme('actions/addVariavelCircuito', {
      id: ids.exec1,
      tipo: 'MANUAL',
      chave: 'k',
      variaveis: '{}',
      sequencia: ids.seqOutroCircuito,
    });
    expect(seq.statusCode).toBe(422);
  });
});

describe('cancelarExecucaoCircuito', () => {
  it('cancels with the reason, frees the spot and publishes execucaoCircuitoCancelada with the agenda', async () => {
    const agendaId = randomUUID();
    const row = await iniciar({
      circuitoId: ids.circuito!,
      veiculoId: veiculos[6]!,
      agendaId,
      vagaInicialId: undefined,
    });
    await asTenant(t, 'acme', async (ctx) => {
      const { alocarVaga } = await import('./vagas.ts');
      await alocarVaga(ctx, ids.estacionamento!, veiculos[6]!);
    });
    const longo = await acme('actions/cancelarExecucaoCircuito', {
      execucaoCircuitoId: row.id,
      motivo: 'x'.repeat(256),
    });
    expect(longo.statusCode).toBe(400);
    const res = await acme('actions/cancelarExecucaoCircuito', {
      execucaoCircuitoId: row.id,
      motivo: 'Carga recusada',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().circuitoCancelado).toMatchObject({
      id: row.id,
      status: 'CANCELADO',
      motivoCancelamento: 'Carga recusada',
      agendaId,
    });
    expect(res.json().circuitoCancelado.historico.at(-1)).toMatchObject({ acao: 'CANCELADA' });
    const spots = await asTenant(t, 'acme', (ctx) =>
      ctx.store.select(vaga, eq(vaga.veiculoId, veiculos[6]!)),
    );
    expect(spots).toEqual([]);
    const events = (await outboxOf(t, 'acme')).filter(
      (e) => e.topic === 'yms/patio/execucaoCircuitoCancelada',
    );
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({ execucaoCircuitoId: row.id, agendaId, motivo: 'Carga recusada' }),
    ]);
    const again = await acme('actions/cancelarExecucaoCircuito', { execucaoCircuitoId: row.id });
    expect(again.statusCode).toBe(409);
    // The vehicle is free to run a circuit again.
    expect(
      (await acme('queries/quantidadeExecucaoCircuitoPorVeiculo', { veiculoId: veiculos[6] })).json(),
    ).toEqual({
      quantidade: 0,
    });
  });

  it('an unknown execution is 404', async () => {
    const res = await acme('actions/cancelarExecucaoCircuito', { execucaoCircuitoId: randomUUID() });
    expect(res.statusCode).toBe(404);
  });
});
