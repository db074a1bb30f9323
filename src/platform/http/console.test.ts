import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import { until, yard } from '../events/fixtures.test-support.ts';
import { parseSse, resumo, semIds } from './console/console.js';
import { CONSOLE_CSP, SCRIPTS } from './console.ts';

// The live console: the page and its assets, the script's stream parser against the real stream
// (read with fetch and an Authorization header, as the browser does), and its one-line summaries.

let t: TestApp;
let key: string;
let base: string;

beforeAll(async () => {
  t = await testApp({ services: [...allServices, yard], config: { eventPollMs: 20 } });
  key = await t.tenant('acme');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.app.close());

describe('the console page', () => {
  it('is served for any well-formed tenant name (it holds nothing of one) with a strict content security policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/t/acme/console' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(res.body).toContain('<script type="module" src="/console/console.js"></script>');
    // Whether a tenant exists is told to its credentials only: an unknown name gets the same page.
    const unknown = await t.app.inject({ method: 'GET', url: '/t/nobody/console' });
    expect([unknown.statusCode, unknown.body]).toEqual([200, res.body]);
    const malformed = await t.app.inject({ method: 'GET', url: '/t/No%20Body/console' });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toEqual({
      reason: 'OBJECT_NOT_FOUND',
      message: 'No tenant can be named No Body',
    });
    expect((await t.app.inject({ method: 'GET', url: '/favicon.ico' })).statusCode).toBe(204);
  });

  it('serves its script and style, and nothing else under /console', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/console/console.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toContain('last-event-id');
    for (const script of SCRIPTS) {
      const res = await t.app.inject({ method: 'GET', url: `/console/${script}` });
      expect([script, res.statusCode, res.headers['content-type']]).toEqual([
        script,
        200,
        'text/javascript; charset=utf-8',
      ]);
    }
    const css = await t.app.inject({ method: 'GET', url: '/console/console.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await t.app.inject({ method: 'GET', url: '/console/console.ts' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/console/..%2Fconsole.ts' })).statusCode).toBe(404);
  });
});

describe('the console script', () => {
  it('parses events split anywhere across chunks, skipping comments', () => {
    const seen: Array<{ id: string | undefined; data: string }> = [];
    const feed = parseSse((e) => seen.push(e));
    const text =
      ': connected\nretry: 3000\n\nid: 7\ndata: {"a":1}\n\nid: 8\r\ndata: {"b":\ndata: 2}\n\n: heartbeat\n\n';
    for (let i = 0; i < text.length; i += 5) feed(text.slice(i, i + 5));
    expect(seen).toEqual([
      { id: '7', data: '{"a":1}' },
      { id: '8', data: '{"b":\n2}' },
    ]);
  });

  it('reads the real stream with an Authorization header and parses what the yard publishes', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/t/acme/bridge/1.0/events/stream?topics=test/*`, {
      headers: { authorization: key },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const seen: Array<{ id: string | undefined; data: string }> = [];
    const feed = parseSse((e) => seen.push(e));
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        feed(value);
      }
    })().catch(() => undefined);
    const sent = await t.call(
      'acme',
      'test/yard/events/vehicleEnteredYard',
      { placa: 'CON1A23' },
      { auth: key },
    );
    expect(sent.statusCode).toBe(200);
    await until(() => seen.length > 0);
    controller.abort();
    await reading;
    const event = JSON.parse(seen[0]!.data);
    expect(event).toMatchObject({ topic: 'test/yard/vehicleEnteredYard', payload: { placa: 'CON1A23' } });
    expect(seen[0]!.id).toBe(String(event.id));
    expect(resumo(event)).toEqual({
      topico: 'Entrada no pátio',
      texto: 'CON1A23 entrou no pátio.',
      classe: '',
    });
  });

  it('says routine results and queue changes as sentences, naming records, never by id', () => {
    const AREA = '0b6e1a52-3f2c-4c55-9a51-5d9b3c1f0a11';
    const VEICULO = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
    const MOTORISTA = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    const nomes = {
      area: (id: string) => (id === AREA ? 'DOCA1 · Doca 1' : undefined),
      placa: (id: string) => (id === VEICULO ? 'ABC1D23' : undefined),
      motorista: (id: string) => (id === MOTORISTA ? 'Joana Silva' : undefined),
    };
    const log = (logRotina: object) =>
      resumo({ topic: 'yms/patio/wsLogRotina', payload: { logRotina } }, nomes);
    expect(
      log({ tipo: 'CONDICAO', nome: 'pesoRegistrado', mensagem: 'peso ausente', resultado: false }),
    ).toEqual({
      topico: 'Rotina',
      texto: 'Condição pesoRegistrado não atendida: peso ausente.',
      classe: 'falha',
    });
    expect(
      log({ tipo: 'COMANDO', nome: 'alocarVaga', mensagem: `vaga rua 1 (${AREA})`, sucesso: true }),
    ).toEqual({ topico: 'Rotina', texto: 'Comando alocarVaga executado: vaga rua 1.', classe: 'ok' });
    const fila = (operacao: string, posicao: number) =>
      resumo(
        {
          topic: 'yms/patio/wsFilaItem',
          payload: {
            operacao,
            fila: AREA,
            filaItem: { id: VEICULO, veiculoId: VEICULO, placa: 'ABC1D23', posicao },
          },
        },
        nomes,
      ).texto;
    expect(fila('CRIADO', 3)).toBe('ABC1D23 entrou na fila de DOCA1 · Doca 1, 3º da fila.');
    expect(fila('ALTERADO', 2)).toBe('ABC1D23 passou a 2º na fila de DOCA1 · Doca 1.');
    expect(fila('REMOVIDO', 1)).toBe('ABC1D23 saiu da fila de DOCA1 · Doca 1.');
    const chegou = resumo(
      {
        topic: 'yms/patio/vehicleEnteredAreaInYard',
        payload: { plantaId: AREA, areaId: AREA, veiculoId: VEICULO, motoristaId: MOTORISTA },
      },
      nomes,
    );
    expect(chegou).toEqual({
      topico: 'Chegada em área',
      texto: 'ABC1D23 chegou em DOCA1 · Doca 1, motorista Joana Silva.',
      classe: '',
    });
    // Records the page does not know are named in words, not by id.
    const desconhecido = resumo({
      topic: 'yms/patio/vehicleExitedYard',
      payload: { veiculoId: VEICULO, areaId: AREA },
    }).texto;
    expect(desconhecido).toBe('veículo sem placa conhecida saiu do pátio por área não cadastrada.');
    const outro = resumo({
      topic: 'yms/agenda/agendaAlterada',
      payload: { id: AREA, codigo: 12, status: 'EXECUTANDO' },
    });
    expect(outro).toEqual({
      topico: 'Agenda alterada',
      texto: 'agenda 12, situação EXECUTANDO.',
      classe: '',
    });
    const agendada = (payload: Record<string, unknown>) =>
      resumo({ topic: 'yms/agenda/agendaAlterada', payload: { agendaId: AREA, codigo: 7, ...payload } })
        .texto;
    expect(agendada({ operacao: 'CRIADA' })).toBe('Agenda 7 agendada.');
    expect(agendada({ operacao: 'ESTADO', de: 'AGENDADO', para: 'EXECUTANDO' })).toBe(
      'Agenda 7 passou de AGENDADO a EXECUTANDO.',
    );
    expect(agendada({ operacao: 'EXCLUIDA' })).toBe('Agenda 7 excluída.');
    expect(semIds(`Planta ${AREA} não encontrada`)).toBe('Planta não encontrada');
  });
});
