import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, CONCORRENTES, RODADAS, umVencedor } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { chave, makePedido, PEDIDOS } from './fixtures.ts';

// Races of erp_isl (docs/int_pedidovenda.md "Concurrency"): the same order, link or pre-invoice item
// inserted by several requests at once, each in a transaction of its own on PostgreSQL: the key's
// unique index lets exactly one in (200) and the rest get 409; and pre-invoice items attending one
// order item at once never attend more than it has open (the order's row lock). On PGlite the
// requests run one after the other and the same answers hold.

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await testApp({ db: await bancoDeCorrida() });
  key = await t.tenant('acme');
});

const call = (address: string, body: unknown) => () => t.call('acme', address, body, { auth: key });

describe('inserts of one key at once', () => {
  it('inserirPedidoVenda: one 200, the rest 409, one order with its items once', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const numero = 9000 + r;
      const res = await aoMesmoTempo(
        Array.from({ length: CONCORRENTES }, () =>
          call(`${PEDIDOS}/actions/inserirPedidoVenda`, makePedido(numero)),
        ),
      );
      umVencedor(res, { status: 409, mensagem: /already exists/ });
      const got = await t.call('acme', `${PEDIDOS}/queries/obterPedidoVenda`, chave(numero), { auth: key });
      expect(got.json().pedidoVenda.itensPro).toHaveLength(2);
      expect(got.json().historico).toHaveLength(1);
    }
  });

  it('inserirLigacao and inserirPreFatura: one 200, the rest 409', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const ligacao = {
        codigoEmpresa: 1,
        codigoProduto: `P${r}`,
        codigoDerivacao: '',
        codigoDeposito: 'D',
        situacao: 'Ativo',
      };
      umVencedor(
        await aoMesmoTempo(
          Array.from({ length: CONCORRENTES }, () =>
            call('erp_isl/int_ligacaoprodutodeposito/actions/inserirLigacao', ligacao),
          ),
        ),
        { status: 409, mensagem: /already exists/ },
      );
      const item = {
        codigoEmpresa: 1,
        codigoFilial: 1,
        analiseEmbarque: 1,
        numeroPreFatura: 100 + r,
        sequenciaPreFatura: 1,
        codigoDepositoItem: 'D',
        qtdItemPreFatura: 1,
        cancelaSaldoPedido: false,
      };
      umVencedor(
        await aoMesmoTempo(
          Array.from({ length: CONCORRENTES }, () =>
            call('erp_isl/int_prefatura/actions/inserirPreFatura', item),
          ),
        ),
        { status: 409, mensagem: /already exists/ },
      );
    }
  });

  it('pre-invoice items attending one order item at once never attend more than is open', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const numero = 9500 + r;
      // Item 1 has 10 open; 8 pre-invoice items of 3 each: exactly 3 fit.
      await call(`${PEDIDOS}/actions/inserirPedidoVenda`, makePedido(numero))();
      const res = await aoMesmoTempo(
        Array.from({ length: CONCORRENTES }, (_, i) =>
          call('erp_isl/int_prefatura/actions/inserirPreFatura', {
            codigoEmpresa: 1,
            codigoFilial: 1,
            analiseEmbarque: 2,
            numeroPreFatura: numero,
            sequenciaPreFatura: i + 1,
            codigoDepositoItem: 'D',
            qtdItemPreFatura: 3,
            cancelaSaldoPedido: false,
            numeroPedidoVenda: numero,
            sequenciaPedidoVenda: 1,
          }),
        ),
      );
      const codes = res.map((x) => x.statusCode).sort();
      expect(
        codes.filter((c) => c === 200),
        codes.join(),
      ).toHaveLength(3);
      expect(codes.filter((c) => c === 422)).toHaveLength(CONCORRENTES - 3);
      const p = (
        await t.call('acme', `${PEDIDOS}/queries/obterPedidoVenda`, chave(numero), { auth: key })
      ).json();
      expect(p.pedidoVenda.itensPro[0]).toMatchObject({ quantidadeAtendida: 9, quantidadeAberta: 1 });
    }
  });
});
