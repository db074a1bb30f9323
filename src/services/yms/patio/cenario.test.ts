import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { rowsOf } from '../../../platform/core/db/database.ts';
import { verify } from '../../../platform/events/signature.ts';
import { outboxOf } from './fixtures.ts';

// A whole truck visit, through the API only, as a plant runs it: the yard is registered, a truck
// is booked and handed to the yard, it arrives, is weighed, is sent to a spot by the circuit's own
// condition and command, goes to the dock (where a command calls the plant's dock system) and
// leaves. And the truck that is blocked: yms/agenda's start, which reads the blocks before it asks
// the yard, stops it at the gate.

// biome-ignore lint/suspicious/noExplicitAny: the scenario reads JSON answers field by field
type Json = any;

let t: TestApp;
let api: (address: string, body?: unknown, method?: 'GET' | 'PUT' | 'DELETE') => Promise<Json>;
let receiver: Server;
let receiverUrl: string;
const received: Array<{ body: Record<string, unknown>; signed: boolean }> = [];
const SEGREDO = 'segredo-da-doca';
let failFirst = 1;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (failFirst-- > 0) return void res.writeHead(503).end('doca fora do ar');
      const signed = verify(
        SEGREDO,
        {
          signature: req.headers['x-ponte-signature'] as string,
          timestamp: req.headers['x-ponte-timestamp'] as string,
        },
        raw,
      );
      received.push({ body: JSON.parse(raw), signed });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/doca`;

  t = await testApp();
  const key = await t.tenant('acme');
  api = async (address, body = {}, method) => {
    const res = await t.call('acme', address, body, { auth: key, ...(method ? { method } : {}) });
    expect(res.statusCode, `${address}: ${res.body}`).toBe(200);
    return res.body ? res.json() : {};
  };
  y = await registrarPatio();
});
afterAll(() => new Promise((r) => receiver.close(r)));

const P = 'yms/patio';
let y: Awaited<ReturnType<typeof registrarPatio>>;
const entity = (name: string, body: unknown) => api(`${P}/entities/${name}`, body);

async function registrarPatio() {
  const planta = await entity('planta', {
    codigo: 'UB',
    nome: 'Unidade Barueri',
    fusoHorario: 'America/Sao_Paulo',
  });
  const area = (codigo: string, tipo: string) =>
    entity('area', { plantaId: planta.id, codigo, descricao: codigo, tipo });
  const portaria = await area('PORT', 'PORTARIA');
  const balanca = await area('BAL', 'BALANCA');
  const estacionamento = await area('EST', 'ESTACIONAMENTO');
  const doca = await area('DOCA', 'DOCA');
  const saida = await area('SAIDA', 'SAIDA');
  const tipo = await api('yms/agenda/entities/tipoAgendamento', {
    codigo: 'DESC',
    descricao: 'Descarga',
    operacao: 'DESCARGA',
    plantaId: planta.id,
    duracaoSlotMinutos: 30,
    capacidadePorSlot: 10,
  });
  for (const numero of [1, 2]) await entity('vaga', { areaId: estacionamento.id, rua: 1, numero });
  // The plant's own routines, made of built-in parts.
  await entity('rotina', {
    tipo: 'CONDICAO',
    nome: 'pesoRegistrado',
    descricao: 'pesado na entrada e liberado',
    operador: 'TODAS',
    partes: [
      { nome: 'variavelCompara', parametros: { chave: 'peso', operador: 'MAIOR', valor: '0' } },
      { nome: 'veiculoNaoBloqueado' },
    ],
  });
  await entity('rotina', {
    tipo: 'COMANDO',
    nome: 'avisarDoca',
    partes: [
      { nome: 'definirVariavel', parametros: { chave: 'doca', valor: 'D1' } },
      { nome: 'chamarWebhook', parametros: { url: receiverUrl, segredo: SEGREDO } },
    ],
  });
  const circuito = await entity('circuito', {
    plantaId: planta.id,
    tipoAgendamentoId: 'DESCARGA',
    codigo: 'DESC',
    nome: 'Descarga',
  });
  const seqs = await api(`${P}/entities/circuito/${circuito.id}/sequencias`, [
    { ordem: 1, areaId: portaria.id, nome: 'Portaria', nomeCondicao: 'veiculoNaoBloqueado' },
    { ordem: 2, areaId: balanca.id, nome: 'Pesagem', nomeComando: 'avancarEtapa' },
    {
      ordem: 3,
      areaId: estacionamento.id,
      nome: 'Estacionamento',
      nomeCondicao: 'pesoRegistrado',
      nomeComando: 'alocarVaga',
    },
    { ordem: 4, areaId: doca.id, nome: 'Doca', nomeComando: 'avisarDoca' },
    { ordem: 5, areaId: saida.id, nome: 'Saída' },
  ]);
  return {
    planta,
    portaria,
    balanca,
    estacionamento,
    doca,
    saida,
    tipo,
    circuito,
    seqs: seqs as unknown as Json[],
  };
}

/** Books a truck for the yard and hands it over: the ERP integration succeeds and the start job runs. */
async function agendarEIntegrar(placa: string, documento: string, bloqueio?: string) {
  const veiculo = await entity('veiculo', { placa, tipoVeiculo: 'CAVALO_MECANICO' });
  const motorista = await entity('motorista', { documento, nome: `Motorista de ${placa}` });
  if (bloqueio) await api(`${P}/actions/bloquearVeiculo`, { veiculoId: veiculo.id, motivo: bloqueio });
  const composicao = await entity('composicaoVeiculo', { cavaloId: veiculo.id });
  const { agenda } = await api(`${P}/actions/cadastrarAgendamentoSimplificado`, {
    tipoAgendamentoId: y.tipo.id,
    plantaId: y.planta.id,
    motoristaId: motorista.id,
    composicaoVeiculoId: composicao.id,
    descricao: `Descarga ${placa}`,
  });
  await api('yms/agenda/actions/aguardarIntegracao', {
    agenda: agenda.id,
    circuito: y.circuito.id,
    sequenciaInicial: y.seqs[0].id,
  });
  await api('yms/agenda/actions/informarIntegracao', {
    agenda: agenda.id,
    servico: 'erp',
    status: 'SUCESSO',
  });
  await t.platform.jobs.drain();
  const atual = await api(`yms/agenda/entities/agenda/${agenda.id}`, undefined, 'GET');
  return { veiculo, motorista, agenda: atual };
}

/** Runs the queued jobs until none is left, retries included (their backoff is skipped). */
async function drainJobs() {
  for (let i = 0; i < 10; i++) {
    await t.platform.jobs.drain();
    const result = await t.db.system((tx) =>
      tx.execute(sql`update jobs set run_at = now() where state = 'queued' returning id`),
    );
    if (rowsOf(result).length === 0) return;
  }
}

describe('a truck visit', () => {
  it('arrives, is weighed, parks, docks and leaves: steps moved by yard events, a condition and commands', async () => {
    const { veiculo, motorista, agenda } = await agendarEIntegrar('RIO2A18', '52998224725');
    expect(agenda).toMatchObject({ status: 'EXECUTANDO', inicioExecucao: 'INICIADO' });
    const exec = agenda.execucaoCircuitoId as string;
    const estado = async () =>
      (await api(`${P}/queries/buscaExecucaoCircuitoPorVeiculo`, { veiculoId: veiculo.id })).execucoes[0];
    const ordem = async () => {
      const atual = (await estado()).sequenciaAtualId;
      return y.seqs.find((s) => s.id === atual)?.ordem;
    };
    const yard = (evento: string, areaId: string) =>
      api(`${P}/events/${evento}`, {
        plantaId: y.planta.id,
        areaId,
        veiculoId: veiculo.id,
        motoristaId: motorista.id,
        origem: 'camera-1',
      });

    // Gate: the truck is not blocked, so it was allowed in at the first step.
    expect(await ordem()).toBe(1);
    await yard('vehicleEnteredYard', y.portaria.id);
    expect(await ordem()).toBe(1);

    // Scale: reaching it runs its command (advance), refused while the weight is missing.
    await yard('vehicleEnteredAreaInYard', y.balanca.id);
    expect(await ordem()).toBe(2);
    const falha = (
      await api(`${P}/queries/buscarLogRotina`, {
        execucaoCircuitoId: exec,
        tipo: 'COMANDO',
        page: 0,
        size: 10,
      })
    ).logs[0];
    expect(falha).toMatchObject({ nome: 'avancarEtapa', origem: 'ETAPA', sucesso: false });
    expect(falha.mensagem).toContain('pesoRegistrado');

    // The scale reports the weight: the condition now holds, the truck is sent to the parking and gets a spot.
    await api(`${P}/actions/addVariavelCircuito`, {
      id: exec,
      tipo: 'BALANCA',
      chave: 'peso',
      valor: '31500,5',
      variaveis: '',
    });
    expect(await ordem()).toBe(3);
    const livre = await api(`${P}/actions/filtrarVaga`, {
      page: 0,
      size: 10,
      areaId: y.estacionamento.id,
      ocupada: true,
    });
    expect(livre.vagas).toEqual([expect.objectContaining({ rua: 1, numero: 1, veiculoId: veiculo.id })]);
    await yard('vehicleEnteredAreaInYard', y.estacionamento.id);
    expect(await ordem()).toBe(3);

    // Dock: the plant's own command records the dock and calls the dock system (retried once).
    await yard('vehicleEnteredAreaInYard', y.doca.id);
    expect(await ordem()).toBe(4);
    expect((await estado()).variaveis).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ chave: 'peso', valor: '31500,5', tipoCaptura: 'BALANCA' }),
        expect.objectContaining({ chave: 'doca', valor: 'D1', tipoCaptura: 'ROTINA' }),
      ]),
    );
    await drainJobs();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      signed: true,
      body: { comando: 'avisarDoca.chamarWebhook', execucaoCircuitoId: exec },
    });

    // Exit: the last step, so the execution finishes; the parking spot was left at the dock.
    await yard('vehicleExitedYard', y.saida.id);
    const fim = await estado();
    expect(fim.status).toBe('FINALIZADO');
    expect(
      fim.historico.map((h: { acao: string; origem: string }) => `${h.acao} ${h.origem.split(':')[0]}`),
    ).toEqual([
      'INICIADA MANUAL',
      'AVANCOU EVENTO',
      'AVANCOU COMANDO',
      'AVANCOU EVENTO',
      'AVANCOU EVENTO',
      'FINALIZADA EVENTO',
    ]);
    // The appointment follows the yard: the finished execution concludes it.
    await t.platform.events.drain();
    const concluida = await api(`yms/agenda/entities/agenda/${agenda.id}`, undefined, 'GET');
    expect(concluida.status).toBe('CONCLUIDO');
    const ocupadas = await api(`${P}/actions/filtrarVaga`, { page: 0, size: 10, ocupada: true });
    expect(ocupadas.totalElements).toBe(0);
    const topics = (await outboxOf(t, 'acme')).map((e) => e.topic);
    expect(topics).toEqual(
      expect.arrayContaining([
        'yms/patio/vehicleEnteredYard',
        'yms/patio/wsLogRotina',
        'yms/patio/vehicleExitedYard',
      ]),
    );
  });

  it('a blocked truck is stopped before the yard starts it: nothing starts, the agenda says why', async () => {
    const { veiculo, agenda } = await agendarEIntegrar('BLQ1A23', '11144477735', 'documentação vencida');
    expect(agenda).toMatchObject({ status: 'EXECUTANDO', inicioExecucao: 'FALHOU' });
    // The start after the integration checks the blocks as iniciarAgendamento does (docs/agenda.md).
    expect(agenda.motivoDeFalha).toContain('o veículo BLQ1A23 está bloqueado (documentação vencida)');
    const { quantidade } = await api(`${P}/queries/quantidadeExecucaoCircuitoPorVeiculo`, {
      veiculoId: veiculo.id,
    });
    expect(quantidade).toBe(0);
  });
});
