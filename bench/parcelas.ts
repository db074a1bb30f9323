import Fastify from 'fastify';
import pg from 'pg';
import type { Running } from './baselines.ts';
import type { BenchContext } from './entities.ts';
import { envInt, fmt, post, ratio, scenario, TABLE_HEADER, tableRow } from './harness.ts';

// (u) erp_mer/ped_pedidos obterParcelasPedidoVenda: 100 orders in one request, among 1,000,000
// stored orders (int_pedidovenda's tables, seeded here with generate_series: a bench, not a
// service). Each order has a product item, every other one a service item too, under a payment
// condition of 3 installments, with holidays. The bridge reads the orders through int_pedidovenda's
// contract (2 queries), the condition, its plan and the holidays (3 queries), splits and dates the
// installments in JS. The baseline is bare Fastify + raw pg.Pool running the same 5 queries as the
// superuser and returning their rows: what the reads cost without the bridge and the engine.

const PEDIDOS = envInt('BENCH_PEDIDOS', 1_000_000, 1000);
const POR_REQUISICAO = 100;
const CORPOS = 64;
const PATH = (tenant: string) =>
  `/t/${tenant}/bridge/1.0/rest/erp_mer/ped_pedidos/queries/obterParcelasPedidoVenda`;
const COM = (tenant: string) => `/t/${tenant}/bridge/1.0/rest/erp_agr/com_comum/entities`;

// The same SQL as int_pedidovenda's contract (pedidosVenda) and com_comum's engine (calcularParcelas).
const headersSql = (
  n: number,
) => `select id, codigo_empresa, codigo_filial, numero_pedido_venda, sequencia_pedido_venda,
    data_emissao, codigo_cliente, codigo_representante, valor_liquido, valor_total, codigo_condicao_pagamento,
    situacao_pedido_venda
  from isl_pedido_venda
  where tenant = $1 and (codigo_empresa, codigo_filial, numero_pedido_venda) in (${Array.from(
    { length: n },
    (_, i) => `(1::bigint, 1::bigint, $${i + 2}::bigint)`,
  ).join(', ')})`;
const ITEMS_SQL = `select pedido_venda_id, true as produto, sequencia_item, quantidade, quantidade_aberta, quantidade_cancelada,
    null::float8 as valor_unitario, null::float8 as valor_desconto, null::float8 as valor_liquido,
    null::float8 as valor_total, situacao_pedido_venda
  from isl_pedido_venda_item_pro where tenant = $1 and pedido_venda_id = any($2::uuid[])
  union all
  select pedido_venda_id, false, sequencia_item, quantidade, quantidade, 0::float8,
    valor_unitario, valor_desconto, valor_liquido, valor_total, null
  from isl_pedido_venda_item_ser where tenant = $1 and pedido_venda_id = any($2::uuid[])
  order by 1, 2 desc, 3`;
const CONDICAO_SQL = 'select * from com_condicao_pagamento where tenant = $1 and codigo = any($2::text[])';
const PLANO_SQL =
  'select * from com_condicao_pagamento_parcela where tenant = $1 and codigo_condicao_pagamento = any($2::text[])';
const FERIADOS_SQL = 'select * from com_feriado where tenant = $1 and data >= $2::date and data <= $3::date';

async function seed(client: pg.Client, tenant: string): Promise<void> {
  const cols = 'tenant, created_by, created_date, last_modified_by, last_modified_date';
  const audit = `'bench', now(), 'bench', now()`;
  await client.query(
    `insert into isl_pedido_venda (${cols}, codigo_empresa, codigo_filial, numero_pedido_venda, sequencia_pedido_venda,
       data_emissao, codigo_cliente, valor_liquido, valor_total, codigo_condicao_pagamento)
     select $1, ${audit}, 1, 1, i, 1, date '2030-01-01' + (i % 365), i % 5000, 1000 + i % 997, 1000 + i % 997, '3X'
     from generate_series(1, $2::int) i`,
    [tenant, PEDIDOS],
  );
  await client.query(
    `insert into isl_pedido_venda_item_pro (${cols}, pedido_venda_id, sequencia_item, sequencia_embalagem,
       sequencia_conteudo, quantidade, volume, peso_bruto, peso_liquido, obs_produto, quantidade_aberta)
     select $1, ${audit}, id, 1, 1, 1, 10, 1, 1, 1, '', 10 from isl_pedido_venda where tenant = $1`,
    [tenant],
  );
  await client.query(
    `insert into isl_pedido_venda_item_ser (${cols}, pedido_venda_id, sequencia_item, codigo_servico, servico,
       quantidade, valor_unitario, valor_desconto, valor_liquido, valor_total)
     select $1, ${audit}, id, 1, 'FRETE', 'Frete', 1, 99.99, 0, 99.99, 99.99
     from isl_pedido_venda where tenant = $1 and numero_pedido_venda % 2 = 0`,
    [tenant],
  );
  await client.query('vacuum analyze isl_pedido_venda, isl_pedido_venda_item_pro, isl_pedido_venda_item_ser');
}

/** Bare Fastify + raw pg: the same five reads of 100 orders as the superuser. */
async function rawReads(databaseUrl: string, tenant: string): Promise<Running> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on('error', () => {});
  const app = Fastify({ logger: false });
  app.post('/t/:tenant/bridge/1.0/rest/erp_mer/ped_pedidos/queries/obterParcelasPedidoVenda', async (req) => {
    const numeros = (req.body as { pedidoVenda: Array<{ pedidoVenda: number }> }).pedidoVenda.map(
      (p) => p.pedidoVenda,
    );
    const client = await pool.connect();
    try {
      await client.query('begin read only');
      const headers = await client.query(headersSql(numeros.length), [tenant, ...numeros]);
      const ids = headers.rows.map((r) => r.id);
      const items = await client.query(ITEMS_SQL, [tenant, ids]);
      const condicoes = await client.query(CONDICAO_SQL, [tenant, ['3X']]);
      const plano = await client.query(PLANO_SQL, [tenant, ['3X']]);
      const feriados = await client.query(FERIADOS_SQL, [tenant, '2030-01-01', '2031-04-30']);
      await client.query('commit');
      return {
        headers: headers.rows,
        items: items.rows,
        condicoes: condicoes.rows,
        plano: plano.rows,
        feriados: feriados.rows,
      };
    } finally {
      client.release();
    }
  });
  app.addHook('onClose', () => pool.end());
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

/** CORPOS bodies of 100 random orders each, the same in both runs. */
function corpos(): string[] {
  let x = 12345;
  const rnd = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
  return Array.from({ length: CORPOS }, () =>
    JSON.stringify({
      pedidoVenda: Array.from({ length: POR_REQUISICAO }, () => ({
        empresa: 1,
        filial: 1,
        pedidoVenda: 1 + (rnd() % PEDIDOS),
        _discriminator: 'recPedidoVenda',
      })),
    }),
  );
}

export async function runParcelas(bench: BenchContext): Promise<void> {
  const { ponte, tenant, databaseUrl } = bench;
  const auth = { authorization: bench.apiKey };
  for (const [path, body] of [
    ['condicaoPagamento', { codigo: '3X', descricao: '3 vezes' }],
    ['condicaoPagamentoParcela', { codigoCondicaoPagamento: '3X', sequencia: 1, dias: 30, percentual: 30 }],
    ['condicaoPagamentoParcela', { codigoCondicaoPagamento: '3X', sequencia: 2, dias: 60, percentual: 30 }],
    ['condicaoPagamentoParcela', { codigoCondicaoPagamento: '3X', sequencia: 3, dias: 90, percentual: 40 }],
    ['feriado', { data: '2030-04-21', descricao: 'Tiradentes' }],
    ['feriado', { data: '2030-09-07', descricao: 'Independência' }],
    ['feriado', { data: '2030-12-25', descricao: 'Natal' }],
  ] as const) {
    const res = await post(`${ponte}${COM(tenant)}/${path}`, body, auth);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text.slice(0, 300)}`);
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    await seed(client, tenant);
    console.log(`seeded ${fmt(PEDIDOS)} orders in ${fmt((performance.now() - started) / 1000, 1)} s`);
    const bodies = corpos();
    const check = await post(`${ponte}${PATH(tenant)}`, JSON.parse(bodies[0]!), auth);
    const answer = check.json as
      | { pedidosVendaComParcelas?: Array<{ parcelasPedido: unknown[] }> }
      | undefined;
    if (check.status !== 200 || answer?.pedidosVendaComParcelas?.length !== POR_REQUISICAO)
      throw new Error(`obterParcelasPedidoVenda answered ${check.status}: ${check.text.slice(0, 300)}`);
    const numeros = (
      JSON.parse(bodies[0]!) as { pedidoVenda: Array<{ pedidoVenda: number }> }
    ).pedidoVenda.map((p) => p.pedidoVenda);
    const { rows } = await client.query(`explain (analyze, costs off) ${headersSql(numeros.length)}`, [
      tenant,
      ...numeros,
    ]);
    // The plan's top, and its timings (its 100 index scans, one per key, are left out).
    const plan = rows.map((r) => String(Object.values(r)[0]));
    console.log(
      `plan of the orders' read (superuser):\n${[...plan.slice(0, 1), ...plan.filter((l) => /Time:/.test(l))].join('\n')}`,
    );

    const p1 = await scenario(
      `(u1) Ponte obterParcelasPedidoVenda, ${POR_REQUISICAO} of ${fmt(PEDIDOS)} orders`,
      `${ponte}${PATH(tenant)}`,
      bench.load,
      { bodies, headers: auth },
    );
    const raw = await rawReads(databaseUrl, tenant);
    let p2: Awaited<ReturnType<typeof scenario>>;
    try {
      p2 = await scenario(
        '(u2) bare Fastify + raw pg.Pool, the same 5 reads',
        `${raw.url}${PATH(tenant)}`,
        bench.load,
        {
          bodies,
        },
      );
    } finally {
      await raw.close();
    }
    // One request at a time: the latency of one request of 100 orders, without queueing behind 31 others.
    const one = { ...bench.load, connections: 1 };
    const p3 = await scenario(
      '(u3) Ponte obterParcelasPedidoVenda, 1 connection',
      `${ponte}${PATH(tenant)}`,
      one,
      {
        bodies,
        headers: auth,
      },
    );
    const raw1 = await rawReads(databaseUrl, tenant);
    let p4: Awaited<ReturnType<typeof scenario>>;
    try {
      p4 = await scenario(
        '(u4) bare Fastify + raw pg.Pool, 1 connection',
        `${raw1.url}${PATH(tenant)}`,
        one,
        {
          bodies,
        },
      );
    } finally {
      await raw1.close();
    }
    console.log(
      [
        '',
        ...TABLE_HEADER,
        tableRow(p1),
        tableRow(p2),
        tableRow(p3),
        tableRow(p4),
        '',
        `| Ponte obterParcelasPedidoVenda req/s ÷ raw reads req/s | ${ratio(p1.requestsPerSecond, p2.requestsPerSecond)} |`,
        `| Ponte obterParcelasPedidoVenda p99 ÷ raw reads p99 | ${ratio(p1.latencyP99, p2.latencyP99)} |`,
        `| Ponte obterParcelasPedidoVenda p99 ÷ raw reads p99, 1 connection | ${ratio(p3.latencyP99, p4.latencyP99)} |`,
        `| Ponte obterParcelasPedidoVenda p99, 1 connection (target < 50 ms) | ${fmt(p3.latencyP99)} ms |`,
      ].join('\n'),
    );
  } finally {
    await client.end();
  }
}
