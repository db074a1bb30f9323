import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';

// erp_mer/ctr_contratos through HTTP: contracts kept as an entity, their installments computed from
// com_comum's payment conditions (plan lines or equal installments) and holiday calendar, the cash
// flow, unknown contracts, bad input and tenant isolation.

const CTR = 'erp_mer/ctr_contratos';
const COM = 'erp_agr/com_comum';
const TODAY = new Date('2026-11-25T15:00:00Z'); // a Wednesday

let t: TestApp;
let acme: string;
let globex: string;

const post = (tenant: string, auth: string, path: string, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/t/${tenant}/bridge/1.0/rest/${path}`,
    headers: { authorization: auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const contrato = (contratoVenda: number, extra: Record<string, unknown> = {}) => ({
  empresa: 1,
  filial: 1,
  contratoVenda,
  condicaoPagamento: '30-60',
  dataBase: '2026-11-01',
  itens: [
    { sequenciaItem: 1, produto: true, codigo: 'SOJA', valor: 1000 },
    { sequenciaItem: 2, produto: false, codigo: 'FRETE', valor: 100.01 },
  ],
  ...extra,
});

const obter = (auth: string, contratosVenda: unknown[], calcularFluxoCaixa?: boolean, tenant = 'acme') =>
  post(tenant, auth, `${CTR}/queries/obterParcelasContratoVenda`, {
    ...(calcularFluxoCaixa === undefined ? {} : { calcularFluxoCaixa }),
    contratosVenda,
  });

const chave = (contratoVenda: number, empresa = 1, filial = 1) => ({
  empresa,
  filial,
  contratoVenda,
  _discriminator: 'recContratoVenda',
});

beforeAll(async () => {
  t = await testApp({ now: () => TODAY });
  acme = await t.tenant('acme');
  globex = await t.tenant('globex');
  const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
    const r = await res;
    if (r.statusCode >= 300) throw new Error(r.body);
  };
  // 30/60 days, 40% and 60%; 3x every 30 days from day 0; a plan that adds up to 90%.
  for (const [codigo, descricao, extra] of [
    ['30-60', '30 e 60 dias', {}],
    ['3X', '3 vezes', { quantidadeParcelas: 3, diasPrimeiraParcela: 0, intervaloDias: 30 }],
    ['RUIM', 'incompleta', {}],
  ] as const) {
    await ok(post('acme', acme, `${COM}/entities/condicaoPagamento`, { codigo, descricao, ...extra }));
  }
  for (const linha of [
    { codigoCondicaoPagamento: '30-60', sequencia: 1, dias: 30, percentual: 40 },
    { codigoCondicaoPagamento: '30-60', sequencia: 2, dias: 60, percentual: 60 },
    { codigoCondicaoPagamento: 'RUIM', sequencia: 1, dias: 10, percentual: 90 },
  ])
    await ok(post('acme', acme, `${COM}/entities/condicaoPagamentoParcela`, linha));
  // 2026-12-01 is a Tuesday (holiday here) and 2026-12-31 a Thursday; 2027-01-01 a holiday too.
  for (const [data, descricao] of [
    ['2026-11-02', 'Finados'],
    ['2026-12-01', 'Feriado municipal'],
    ['2027-01-01', 'Confraternização'],
  ])
    await ok(post('acme', acme, `${COM}/entities/feriado`, { data, descricao }));
  await ok(post('acme', acme, `${CTR}/entities/contratoVenda`, contrato(10)));
  await ok(
    post(
      'acme',
      acme,
      `${CTR}/entities/contratoVenda`,
      contrato(11, { condicaoPagamento: '3X', dataBase: '2026-10-03' }),
    ),
  );
  await ok(
    post('acme', acme, `${CTR}/entities/contratoVenda`, contrato(12, { condicaoPagamento: undefined })),
  );
  await ok(
    post(
      'acme',
      acme,
      `${CTR}/entities/contratoVenda`,
      contrato(13, { condicaoPagamento: '3X', situacao: 'Cancelado' }),
    ),
  );
  await ok(post('acme', acme, `${CTR}/entities/contratoVenda`, contrato(14, { condicaoPagamento: 'RUIM' })));
  await ok(post('acme', acme, `${CTR}/entities/contratoVenda`, contrato(15, { condicaoPagamento: 'NADA' })));
});

const sum = (values: number[]) => Math.round(values.reduce((a, b) => a + b * 100, 0));

describe('obterParcelasContratoVenda', () => {
  it('splits each item by the plan lines, to the cent, past weekends and holidays', async () => {
    const res = await obter(acme, [chave(10)]);
    expect(res.statusCode).toBe(200);
    const [c] = res.json().contratosVendaComParcelas;
    expect(c).toMatchObject(chave(10));
    expect(c.parcelasContratoVenda).toEqual([
      {
        sequenciaParcela: 1,
        valor: 400,
        vencimento: '2026-12-01',
        vencimentoUtil: '2026-12-02',
        produto: true,
        sequenciaItem: 1,
      },
      {
        sequenciaParcela: 2,
        valor: 600,
        vencimento: '2026-12-31',
        vencimentoUtil: '2026-12-31',
        produto: true,
        sequenciaItem: 1,
      },
      {
        sequenciaParcela: 1,
        valor: 40,
        vencimento: '2026-12-01',
        vencimentoUtil: '2026-12-02',
        produto: false,
        sequenciaItem: 2,
      },
      {
        sequenciaParcela: 2,
        valor: 60.01,
        vencimento: '2026-12-31',
        vencimentoUtil: '2026-12-31',
        produto: false,
        sequenciaItem: 2,
      },
    ]);
    expect(sum(c.parcelasContratoVenda.map((p: { valor: number }) => p.valor))).toBe(110001);
  });

  it('uses equal installments when the condition has no plan lines, and cash without a condition', async () => {
    const res = await obter(acme, [chave(11), chave(12)]);
    expect(res.statusCode).toBe(200);
    const [tres, avista] = res.json().contratosVendaComParcelas;
    const item1 = tres.parcelasContratoVenda.filter((p: { sequenciaItem: number }) => p.sequenciaItem === 1);
    expect(item1.map((p: { valor: number }) => p.valor)).toEqual([333.33, 333.33, 333.34]);
    // 2026-10-03 is a Saturday: due on Monday; +30 Monday; +60 Wednesday.
    expect(item1.map((p: { vencimento: string }) => p.vencimento)).toEqual([
      '2026-10-03',
      '2026-11-02',
      '2026-12-02',
    ]);
    expect(item1.map((p: { vencimentoUtil: string }) => p.vencimentoUtil)).toEqual([
      '2026-10-05',
      '2026-11-03',
      '2026-12-02',
    ]);
    expect(avista.parcelasContratoVenda).toEqual(
      [
        {
          sequenciaParcela: 1,
          valor: 1000,
          vencimento: '2026-11-01',
          vencimentoUtil: '2026-11-03',
          produto: true,
          sequenciaItem: 1,
        },
        {
          sequenciaParcela: 1,
          valor: 100.01,
          vencimento: '2026-11-01',
          vencimentoUtil: '2026-11-03',
          produto: false,
          sequenciaItem: 2,
        },
      ].map((p) => ({ ...p, vencimentoUtil: '2026-11-03' })),
    );
  });

  it('answers in the order asked, the same contract twice if asked twice', async () => {
    const res = await obter(acme, [chave(12), chave(10), chave(12)]);
    expect(
      res.json().contratosVendaComParcelas.map((c: { contratoVenda: number }) => c.contratoVenda),
    ).toEqual([12, 10, 12]);
  });

  it('calcularFluxoCaixa keeps only installments due from today, none of a cancelled contract', async () => {
    const res = await obter(acme, [chave(11), chave(13), chave(12)], true);
    expect(res.statusCode).toBe(200);
    const [tres, cancelado, avista] = res.json().contratosVendaComParcelas;
    expect(tres.parcelasContratoVenda.map((p: { vencimentoUtil: string }) => p.vencimentoUtil)).toEqual([
      '2026-12-02',
      '2026-12-02',
    ]);
    expect(cancelado.parcelasContratoVenda).toEqual([]);
    expect(avista.parcelasContratoVenda).toEqual([]);
    const sem = await obter(acme, [chave(13)], false);
    expect(sem.json().contratosVendaComParcelas[0].parcelasContratoVenda).toHaveLength(6);
  });

  it('an unknown contract is 404 naming it and its position', async () => {
    const res = await obter(acme, [chave(10), chave(99, 1, 2)]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      reason: 'OBJECT_NOT_FOUND',
      message: expect.stringMatching(/contratosVenda\[1\].*99.*empresa 1, filial 2/),
    });
  });

  it('a plan that does not add up to 100% or an unknown condition is 422 naming it', async () => {
    const ruim = await obter(acme, [chave(14)]);
    expect(ruim.statusCode).toBe(422);
    expect(ruim.json().message).toMatch(/RUIM.*90%/);
    const nada = await obter(acme, [chave(15)]);
    expect(nada.statusCode).toBe(422);
    expect(nada.json().message).toMatch(/condicaoPagamento NADA/);
  });

  it('a request that would compute more than 200,000 installments is 422', async () => {
    await post('acme', acme, `${COM}/entities/condicaoPagamento`, {
      codigo: 'MUITAS',
      descricao: '999x',
      quantidadeParcelas: 999,
      intervaloDias: 1,
    });
    const itens = Array.from({ length: 300 }, (_, i) => ({
      sequenciaItem: i + 1,
      produto: true,
      codigo: 'P',
      valor: 1,
    }));
    const res = await post(
      'acme',
      acme,
      `${CTR}/entities/contratoVenda`,
      contrato(16, { condicaoPagamento: 'MUITAS', itens }),
    );
    expect(res.statusCode).toBe(200);
    const big = await obter(acme, [chave(16)]);
    expect(big.statusCode).toBe(422);
    expect(big.json().message).toMatch(/299700 installments, more than 200000/);
  });

  it.each([
    ['an empty list (declared minimum 1)', { contratosVenda: [] }, /contratosVenda/],
    ['no list', {}, /contratosVenda/],
    [
      'a key without _discriminator',
      { contratosVenda: [{ empresa: 1, filial: 1, contratoVenda: 10 }] },
      /_discriminator/,
    ],
    ['a text number', { contratosVenda: [{ ...chave(10), contratoVenda: '10' }] }, /contratoVenda/],
    ['a fractional number', { contratosVenda: [{ ...chave(10), empresa: 1.5 }] }, /empresa/],
    [
      'a text calcularFluxoCaixa',
      { calcularFluxoCaixa: 'sim', contratosVenda: [chave(10)] },
      /calcularFluxoCaixa/,
    ],
  ])('%s is 400 naming the field', async (_, body, field) => {
    const res = await post('acme', acme, `${CTR}/queries/obterParcelasContratoVenda`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('BAD_REQUEST');
    expect(res.json().message).toMatch(field);
  });

  it('another tenant’s contracts are unknown (404), and its conditions unseen', async () => {
    const res = await obter(globex, [chave(10)], false, 'globex');
    expect(res.statusCode).toBe(404);
    await post('globex', globex, `${CTR}/entities/contratoVenda`, contrato(10));
    const own = await obter(globex, [chave(10)], false, 'globex');
    expect(own.statusCode).toBe(422); // globex has no condition 30-60
    expect(own.json().message).toMatch(/30-60/);
  });
});

describe('contratoVenda entity', () => {
  it('keeps a contract by (empresa, filial, contratoVenda): a duplicate is 409, nothing changed', async () => {
    const before = await tableCounts(t.db);
    const res = await post('acme', acme, `${CTR}/entities/contratoVenda`, contrato(10));
    expect(res.statusCode).toBe(409);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('refuses an item number twice (400 naming it) and negative values', async () => {
    const twice = await post(
      'acme',
      acme,
      `${CTR}/entities/contratoVenda`,
      contrato(20, {
        itens: [
          { sequenciaItem: 1, produto: true, codigo: 'A', valor: 1 },
          { sequenciaItem: 1, produto: true, codigo: 'B', valor: 1 },
        ],
      }),
    );
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toMatch(/itens\[1\].sequenciaItem/);
    const negative = await post(
      'acme',
      acme,
      `${CTR}/entities/contratoVenda`,
      contrato(21, {
        itens: [{ sequenciaItem: 1, produto: true, codigo: 'A', valor: -1 }],
      }),
    );
    expect(negative.statusCode).toBe(400);
    expect(negative.json().message).toMatch(/valor/);
  });

  it('lists by filter, and a change of items changes the installments', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: `/t/acme/bridge/1.0/rest/${CTR}/entities/contratoVenda?filter=${encodeURIComponent('contratoVenda eq 12')}`,
      headers: { authorization: acme },
    });
    expect(list.statusCode).toBe(200);
    const [row] = list.json();
    expect(row.contratoVenda).toBe(12);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/t/acme/bridge/1.0/rest/${CTR}/entities/contratoVenda/${row.id}`,
      headers: { authorization: acme, 'content-type': 'application/json' },
      payload: JSON.stringify({ itens: [{ sequenciaItem: 7, produto: false, codigo: 'X', valor: 5 }] }),
    });
    expect(patch.statusCode).toBe(200);
    const res = await obter(acme, [chave(12)]);
    expect(res.json().contratosVendaComParcelas[0].parcelasContratoVenda).toEqual([
      {
        sequenciaParcela: 1,
        valor: 5,
        vencimento: '2026-11-01',
        vencimentoUtil: '2026-11-03',
        produto: false,
        sequenciaItem: 7,
      },
    ]);
  });
});

describe('standard operations', () => {
  it('getDependencies is PUBLIC and names com_comum', async () => {
    const pub = (await t.key('acme', 'public')).apiKey;
    const res = await post('acme', pub, `${CTR}/queries/getDependencies`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().dependencies).toContainEqual({
      domain: 'erp_agr',
      service: 'com_comum',
      version: '2.1.8',
    });
    expect((await obter(pub, [chave(10)])).statusCode).toBe(403);
  });

  it('getMetadata lists no 401 response (spec 001 §5)', async () => {
    const res = await post('acme', acme, `${CTR}/queries/getMetadata`, {});
    const doc = JSON.parse(res.json().metadata);
    expect(doc.info.version).toBe('0.1.1');
    const op = doc.paths['/ctr_contratos/queries/obterParcelasContratoVenda'];
    expect(op.post.responses['401']).toBeUndefined();
    expect(doc.definitions.recContratosVendaComParcelas).toBeDefined();
  });
});
