import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { until } from '../../../platform/events/fixtures.test-support.ts';
import { chave, makePedido, PEDIDOS } from './fixtures.ts';

// The events of erp_isl delivered to a real local webhook receiver (docs/int_pedidovenda.md
// "Events"), and the scenario of an ERP pushing to a WMS: an order inserted, its items changed, a
// pre-invoice for it, its installments asked of erp_mer/ped_pedidos, the order sent to the WMS; the
// WMS receives every event once, in order, and
// a WMS subscribed to AguardandoIntegracaoWms only receives that one.

const received: Array<{
  path: string;
  id: number;
  topic: string;
  tenant: string;
  payload: Record<string, unknown>;
}> = [];
let server: Server;
let base: string;
let t: TestApp;
let key: string;
let other: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      received.push({ path: req.url ?? '', ...body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await testApp({
    config: { runJobs: true, eventPollMs: 20, webhookBackoffMs: 20, webhookBackoffMaxMs: 100 },
  });
  key = await t.tenant('acme');
  other = await t.tenant('globex');
  for (const [path, topics] of [
    ['/wms', ['erp_isl/*']],
    ['/wms-fila', ['erp_isl/int_pedidovenda/pedidoVendaAguardandoIntegracaoWms']],
  ] as const) {
    const res = await t.call(
      'acme',
      'platform/webhooks/actions/createSubscription',
      { url: `${base}${path}`, topics },
      { auth: key },
    );
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(() => new Promise((r) => server.close(r)));

const ok = async (address: string, body: unknown, auth = key, tenant = 'acme') => {
  const res = await t.call(tenant, address, body, { auth });
  expect(res.statusCode, `${address}: ${res.body}`).toBe(200);
};

describe('an ERP pushing orders to a WMS', () => {
  it('delivers every insert, change and removal once, in order, with the record as it stands', async () => {
    await ok(`${PEDIDOS}/actions/inserirPedidoVenda`, makePedido(1));
    await ok(`${PEDIDOS}/actions/alterarPedidoVenda`, {
      ...chave(1),
      itensPro: [
        {
          sequenciaItem: 2,
          quantidadeAberta: 3,
          quantidadeCancelada: 1,
          situacaoPedidoVenda: 'AbertoParcial',
        },
      ],
    });
    await ok('erp_isl/int_prefatura/actions/inserirPreFatura', {
      codigoEmpresa: 1,
      codigoFilial: 1,
      analiseEmbarque: 1,
      numeroPreFatura: 77,
      sequenciaPreFatura: 1,
      codigoDepositoItem: 'DEP01',
      qtdItemPreFatura: 10,
      cancelaSaldoPedido: false,
      numeroPedidoVenda: 1,
      sequenciaPedidoVenda: 1,
    });
    await ok('erp_isl/int_prefatura/actions/alterarSitPreFatura', {
      codigoEmpresa: 1,
      codigoFilial: 1,
      analiseEmbarque: 1,
      numeroPreFatura: 77,
      situacaoPreFatura: 'AguardandoIntWMS',
    });
    await ok(`${PEDIDOS}/actions/alterarSitPedidoVenda`, {
      ...chave(1),
      situacaoPedidoVenda: 'AguardandoIntegracaoWms',
    });
    await ok(`${PEDIDOS}/actions/alterarItemSitPedidoVenda`, {
      ...chave(1),
      sequenciaPedidoVenda: 2,
      situacaoPedidoVenda: 'EmTransmissao',
    });
    // Finance asks erp_mer/ped_pedidos for the order's installments: they add up to its total to
    // the cent (a read: no event).
    const parcelas = await t.call(
      'acme',
      'erp_mer/ped_pedidos/queries/obterParcelasPedidoVenda',
      {
        calcularFluxoCaixa: false,
        pedidoVenda: [{ empresa: 1, filial: 1, pedidoVenda: 1, _discriminator: 'recPedidoVenda' }],
      },
      { auth: key },
    );
    expect(parcelas.statusCode, parcelas.body).toBe(200);
    const [comParcelas] = parcelas.json().pedidosVendaComParcelas;
    const centavos = comParcelas.parcelasPedido.reduce(
      (a: number, p: { valor: number }) => a + p.valor * 100,
      0,
    );
    expect(Math.round(centavos)).toBe(makePedido(1).valorTotal * 100);
    const link = { codigoEmpresa: 1, codigoProduto: 'P1', codigoDerivacao: '', codigoDeposito: 'DEP01' };
    await ok('erp_isl/int_ligacaoprodutodeposito/actions/inserirLigacao', { ...link, situacao: 'Ativo' });
    await ok('erp_isl/int_ligacaoprodutodeposito/actions/alterarLigacao', { ...link, situacao: 'Inativo' });
    await ok('erp_isl/int_ligacaoprodutodeposito/actions/excluirLigacao', link);
    // Nothing changed: no event. Another tenant's changes: not this WMS's.
    await ok(`${PEDIDOS}/actions/alterarSitPedidoVenda`, {
      ...chave(1),
      situacaoPedidoVenda: 'AguardandoIntegracaoWms',
    });
    await ok(`${PEDIDOS}/actions/inserirPedidoVenda`, makePedido(1), other, 'globex');

    const expected = [
      'erp_isl/int_pedidovenda/pedidoVendaInserido',
      'erp_isl/int_pedidovenda/pedidoVendaAlterado',
      'erp_isl/int_pedidovenda/pedidoVendaAlterado', // the pre-invoice attends item 1
      'erp_isl/int_prefatura/preFaturaItemInserido',
      'erp_isl/int_prefatura/preFaturaAlterada',
      'erp_isl/int_prefatura/preFaturaAguardandoIntWMS',
      'erp_isl/int_pedidovenda/pedidoVendaAlterado',
      'erp_isl/int_pedidovenda/pedidoVendaAguardandoIntegracaoWms',
      'erp_isl/int_pedidovenda/pedidoVendaAlterado',
      'erp_isl/int_ligacaoprodutodeposito/ligacaoInserida',
      'erp_isl/int_ligacaoprodutodeposito/ligacaoAlterada',
      'erp_isl/int_ligacaoprodutodeposito/ligacaoExcluida',
    ];
    await until(() => received.filter((r) => r.path === '/wms').length >= expected.length, 15_000).catch(
      () => {
        throw new Error(`received only ${received.map((r) => `${r.path} ${r.topic}`).join(', ')}`);
      },
    );
    await new Promise((r) => setTimeout(r, 300)); // any duplicate or stray event would arrive by now
    const wms = received.filter((r) => r.path === '/wms');
    expect(wms.map((r) => r.topic)).toEqual(expected);
    expect(new Set(wms.map((r) => r.id)).size).toBe(wms.length);
    expect(wms.every((r) => r.tenant === 'acme')).toBe(true);
    expect(wms.map((r) => r.id)).toEqual([...wms.map((r) => r.id)].sort((a, b) => a - b));

    expect(wms[0]!.payload).toMatchObject({
      ...chave(1),
      pedidoVenda: {
        situacaoPedidoVenda: 'AbertoTotal',
        itensPro: [{ sequenciaItem: 1 }, { sequenciaItem: 2 }],
      },
    });
    expect(wms[1]!.payload).toMatchObject({
      operacao: 'alterarPedidoVenda',
      situacaoAnterior: 'AbertoTotal',
      situacaoPedidoVenda: 'AbertoParcial',
      alteracoes: expect.arrayContaining([
        expect.objectContaining({ sequenciaItem: 2, quantidadeCancelada: { de: 0, para: 1 } }),
      ]),
    });
    expect(wms[2]!.payload).toMatchObject({ operacao: 'int_prefatura/inserirPreFatura' });
    expect(wms[3]!.payload).toMatchObject({
      numeroPreFatura: 77,
      preFatura: { itens: [{ quantidadePedido: 10 }] },
    });

    const fila = received.filter((r) => r.path === '/wms-fila');
    expect(fila.map((r) => r.topic)).toEqual(['erp_isl/int_pedidovenda/pedidoVendaAguardandoIntegracaoWms']);
    expect(fila[0]!.payload).toMatchObject({
      ...chave(1),
      pedidoVenda: {
        situacaoPedidoVenda: 'AguardandoIntegracaoWms',
        itensPro: [
          { sequenciaItem: 1, situacaoPedidoVenda: 'AguardandoIntegracaoWms', quantidadeAtendida: 10 },
          { sequenciaItem: 2, situacaoPedidoVenda: 'AguardandoIntegracaoWms', quantidadeCancelada: 1 },
        ],
      },
    });
  });
});
