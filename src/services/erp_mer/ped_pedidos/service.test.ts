import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { seedPedidos } from './fixtures.ts';

// erp_mer/ped_pedidos through HTTP: the installments of the orders int_pedidovenda stores, under
// com_comum's payment conditions and holidays; values to the cent of the order's total, the cash
// flow, unknown orders, bad input and tenant isolation.

const PED = 'erp_mer/ped_pedidos';
const COM = 'erp_agr/com_comum';
const TODAY = new Date('2026-11-25T15:00:00Z');

let t: TestApp;
let acme: string;
let globex: string;

const post = (path: string, body: unknown, auth = acme, tenant = 'acme') =>
  t.app.inject({
    method: 'POST',
    url: `/t/${tenant}/bridge/1.0/rest/${path}`,
    headers: { authorization: auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const chave = (pedidoVenda: number, empresa = 1, filial = 1) => ({
  empresa,
  filial,
  pedidoVenda,
  _discriminator: 'recPedidoVenda',
});

const obter = (pedidoVenda: unknown[], calcularFluxoCaixa?: boolean, auth = acme, tenant = 'acme') =>
  post(
    `${PED}/queries/obterParcelasPedidoVenda`,
    { ...(calcularFluxoCaixa === undefined ? {} : { calcularFluxoCaixa }), pedidoVenda },
    auth,
    tenant,
  );

type P = {
  valor: number;
  sequenciaItem: number;
  produto: boolean;
  vencimentoUtil: string;
  sequenciaParcela: number;
};
const cents = (ps: P[]) => Math.round(ps.reduce((a, p) => a + p.valor * 100, 0));

beforeAll(async () => {
  t = await testApp({ now: () => TODAY });
  acme = await t.tenant('acme');
  globex = await t.tenant('globex');
  const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
    const r = await res;
    if (r.statusCode >= 300) throw new Error(r.body);
  };
  await ok(
    post(`${COM}/entities/condicaoPagamento`, {
      codigo: '3X',
      descricao: '3 vezes',
      quantidadeParcelas: 3,
      diasPrimeiraParcela: 30,
      intervaloDias: 30,
    }),
  );
  await ok(post(`${COM}/entities/feriado`, { data: '2026-12-31', descricao: 'Véspera' }));
  await seedPedidos(t, 'acme', [
    // 1000.00: a freight service of 100.01, products of 2 and 1 units share 899.99
    {
      numero: 1,
      valorTotal: 1000,
      condicao: '3X',
      produtos: [{ quantidade: 2 }, { quantidade: 1 }],
      servicos: [{ sequenciaItem: 10, valorTotal: 100.01 }],
    },
    { numero: 2, valorTotal: 50, produtos: [{ quantidade: 5 }] },
    { numero: 3, valorTotal: 300, condicao: '3X', situacao: 'Cancelado', produtos: [{ quantidade: 1 }] },
    {
      numero: 4,
      valorTotal: 300,
      condicao: '3X',
      produtos: [{ quantidade: 1, situacao: 'Cancelado' }, { quantidade: 1 }],
    },
    { numero: 5, valorTotal: 10, condicao: 'NADA', produtos: [{ quantidade: 1 }] },
    { numero: 1, empresa: 2, valorTotal: 7, produtos: [{ quantidade: 1 }] },
  ]);
});

describe('obterParcelasPedidoVenda', () => {
  it('splits the order total over its items and the plan, to the cent', async () => {
    const res = await obter([chave(1)]);
    expect(res.statusCode).toBe(200);
    const [p] = res.json().pedidosVendaComParcelas;
    expect(p).toMatchObject(chave(1));
    const parcelas: P[] = p.parcelasPedido;
    expect(parcelas).toHaveLength(9);
    expect(cents(parcelas)).toBe(100000);
    const porItem = (seq: number, produto: boolean) =>
      parcelas.filter((q) => q.sequenciaItem === seq && q.produto === produto).map((q) => q.valor);
    // 899.99 by 2:1 → 599.99 and 300.00; each in 3, the cents left over one each to the later
    // installments (com_comum's dividir: none a cent or more from its exact part)
    expect(porItem(1, true)).toEqual([199.99, 200, 200]);
    expect(porItem(2, true)).toEqual([100, 100, 100]);
    expect(porItem(10, false)).toEqual([33.33, 33.34, 33.34]);
    // from 2026-11-01: +30 Tue 12-01; +60 Thu 12-31, a holiday here → Fri 01-01; +90 Sat 01-30 → Mon 02-01
    expect(parcelas.filter((q) => q.sequenciaItem === 1 && q.produto)).toEqual([
      {
        sequenciaParcela: 1,
        valor: 199.99,
        vencimento: '2026-12-01',
        vencimentoUtil: '2026-12-01',
        produto: true,
        sequenciaItem: 1,
      },
      {
        sequenciaParcela: 2,
        valor: 200,
        vencimento: '2026-12-31',
        vencimentoUtil: '2027-01-01',
        produto: true,
        sequenciaItem: 1,
      },
      {
        sequenciaParcela: 3,
        valor: 200,
        vencimento: '2027-01-30',
        vencimentoUtil: '2027-02-01',
        produto: true,
        sequenciaItem: 1,
      },
    ]);
  });

  it('an order without a payment condition is one installment at its emission date', async () => {
    const res = await obter([chave(2)]);
    expect(res.json().pedidosVendaComParcelas[0].parcelasPedido).toEqual(
      [
        {
          sequenciaParcela: 1,
          valor: 50,
          vencimento: '2026-11-01',
          vencimentoUtil: '2026-11-03',
          produto: true,
          sequenciaItem: 1,
        },
      ].map((q) => ({ ...q, vencimentoUtil: '2026-11-02' })),
    );
  });

  it('answers each order asked, in order, keyed by empresa and filial too', async () => {
    const res = await obter([chave(1, 2), chave(2), chave(1, 2)]);
    const out = res.json().pedidosVendaComParcelas;
    expect(out.map((p: { empresa: number; pedidoVenda: number }) => [p.empresa, p.pedidoVenda])).toEqual([
      [2, 1],
      [1, 2],
      [2, 1],
    ]);
    expect(out[0].parcelasPedido.map((q: P) => q.valor)).toEqual([7]);
  });

  it('calcularFluxoCaixa: only installments due from today; none of a cancelled order or item', async () => {
    const res = await obter([chave(1), chave(2), chave(3), chave(4)], true);
    const [um, dois, tres, quatro] = res.json().pedidosVendaComParcelas;
    expect(um.parcelasPedido).toHaveLength(9); // all due from 2026-12-01
    expect(dois.parcelasPedido).toEqual([]); // due 2026-11-02, past
    expect(tres.parcelasPedido).toEqual([]);
    expect(quatro.parcelasPedido.map((q: P) => q.sequenciaItem)).toEqual([2, 2, 2]);
    const all = await obter([chave(3), chave(4)], false);
    expect(all.json().pedidosVendaComParcelas[0].parcelasPedido).toHaveLength(3);
    expect(all.json().pedidosVendaComParcelas[1].parcelasPedido).toHaveLength(6);
  });

  it('an unknown order is 404 naming it and its position; an unknown condition 422', async () => {
    const res = await obter([chave(1), chave(404)]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      reason: 'OBJECT_NOT_FOUND',
      message: expect.stringMatching(/pedidoVenda\[1\].*404.*empresa 1, filial 1/),
    });
    const nada = await obter([chave(5)]);
    expect(nada.statusCode).toBe(422);
    expect(nada.json().message).toMatch(/condicaoPagamento NADA/);
  });

  it('another tenant’s orders are 404', async () => {
    const res = await obter([chave(1)], false, globex, 'globex');
    expect(res.statusCode).toBe(404);
  });

  it.each([
    ['an empty list (declared minimum 1)', { pedidoVenda: [] }, /pedidoVenda/],
    ['no list', {}, /pedidoVenda/],
    ['no _discriminator', { pedidoVenda: [{ empresa: 1, filial: 1, pedidoVenda: 1 }] }, /_discriminator/],
    ['a negative number', { pedidoVenda: [{ ...chave(1), pedidoVenda: -1 }] }, /pedidoVenda/],
    ['a text number', { pedidoVenda: [{ ...chave(1), filial: '1' }] }, /filial/],
    ['too many orders', { pedidoVenda: Array.from({ length: 1001 }, () => chave(1)) }, /pedidoVenda/],
  ])('%s is 400 naming the field', async (_, body, field) => {
    const res = await post(`${PED}/queries/obterParcelasPedidoVenda`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('BAD_REQUEST');
    expect(res.json().message).toMatch(field);
  });

  it('getDependencies is PUBLIC, the query is not; the document lists no 401', async () => {
    const pub = (await t.key('acme', 'public')).apiKey;
    expect((await post(`${PED}/queries/getDependencies`, {}, pub)).statusCode).toBe(200);
    expect((await obter([chave(1)], false, pub)).statusCode).toBe(403);
    const doc = JSON.parse((await post(`${PED}/queries/getMetadata`, {})).json().metadata);
    expect(doc.paths['/ped_pedidos/queries/obterParcelasPedidoVenda'].post.responses['401']).toBeUndefined();
    expect(doc.definitions.recpedidosVendaComParcelas).toBeDefined();
  });
});
