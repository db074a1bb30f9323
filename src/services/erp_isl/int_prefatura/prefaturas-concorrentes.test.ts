import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, RODADAS } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { chave as chavePedido, makePedido, PEDIDOS } from '../int_pedidovenda/fixtures.ts';

// Two pre-invoices whose items name the same two orders in opposite orders, changed at once, each
// in a transaction of its own on PostgreSQL (docs/int_prefatura.md "Orders"): each locks the orders
// it attends in key order before attending any, so they take turns (an outside probe found one of
// the two a 500, a deadlock, in every round). PGlite runs one transaction at a time.

const S = 'erp_isl/int_prefatura';

describe.skipIf(!process.env.DATABASE_URL)('pre-invoices crossing two orders, changed at once', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await testApp({ db: await bancoDeCorrida() });
    key = await t.tenant('acme');
  });

  const act = (op: string, body: unknown) => t.call('acme', `${S}/${op}`, body, { auth: key });
  const chave = (n: number) => ({
    codigoEmpresa: 1,
    codigoFilial: 1,
    analiseEmbarque: 1,
    numeroPreFatura: n,
  });
  const inserir = async (n: number, seq: number, pedido: number, item: number) => {
    const res = await act('actions/inserirPreFatura', {
      ...chave(n),
      sequenciaPreFatura: seq,
      codigoDepositoItem: 'DEP01',
      qtdItemPreFatura: 1,
      cancelaSaldoPedido: false,
      numeroPedidoVenda: pedido,
      sequenciaPedidoVenda: item,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const atendido = async (pedido: number) => {
    const res = await t.call('acme', `${PEDIDOS}/queries/obterPedidoVenda`, chavePedido(pedido), {
      auth: key,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().pedidoVenda.itensPro as Array<{ quantidadeAtendida: number }>).map(
      (i) => i.quantidadeAtendida,
    );
  };

  it('both cancelled at once: both 200, every order item given back', async () => {
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const [o1, o2, a, b] = [9100 + rodada * 2, 9101 + rodada * 2, 100 + rodada * 2, 101 + rodada * 2];
      for (const o of [o1, o2]) {
        const res = await t.call('acme', `${PEDIDOS}/actions/inserirPedidoVenda`, makePedido(o), {
          auth: key,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      await inserir(a, 1, o1, 1);
      await inserir(a, 2, o2, 1);
      await inserir(b, 1, o2, 2);
      await inserir(b, 2, o1, 2);
      const respostas = await aoMesmoTempo(
        [a, b].map(
          (n) => () => act('actions/alterarSitPreFatura', { ...chave(n), situacaoPreFatura: 'Cancelada' }),
        ),
      );
      for (const r of respostas) expect(r.statusCode, r.body).toBe(200);
      expect([await atendido(o1), await atendido(o2)]).toEqual([
        [0, 0],
        [0, 0],
      ]);
    }
  });
});
