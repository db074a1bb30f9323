import pg from 'pg';
import { lockName } from '../src/platform/core/db/locks.ts';
import { OUTBOX_LOCK } from '../src/platform/core/outbox.ts';
import { rawTenantRoute } from './baselines.ts';
import type { BenchContext } from './entities.ts';
import { fmt, type Measured, post, ratio, scenario, TABLE_HEADER, tableRow } from './harness.ts';

// (r) erp_est/sku_produto gerarSku and erp_sup/cot_cotacao criarCotacao (issue #16), each against
// the same SQL through raw `pg` in a tenant transaction (rawTenantRoute) in the same run.
// (r1)/(r2): every request generates a SKU from a fixed prefix and ONE auto-increment mask, so all
// the load's connections queue on that mask's counter row (docs/sku_produto.md "The counter"); after
// the run the catalogue must hold as many distinct codes as the counter says, or two requests got
// one number. (r3)/(r4): a quotation of 50 items, each of a purchase need of its own, with a SKU.

const REST = (tenant: string) => `/t/${tenant}/bridge/1.0/rest`;
const GERAR_ROUTE = '/t/:tenant/bridge/1.0/rest/erp_est/sku_produto/actions/gerarSku';
const CRIAR_ROUTE = '/t/:tenant/bridge/1.0/rest/erp_sup/cot_cotacao/actions/criarCotacao';
const EMPRESA = 1;
const ITENS = 50;
const SKU_COTADO = 'COT-BENCH';

const mascara = (familia: string, codigo: string, extra: Record<string, unknown>) => ({
  codigo,
  descricao: `Bench ${codigo}`,
  abreviatura: codigo,
  utilizaComponentes: 'Nao',
  autoIncrementavel: 'Nao',
  situacao: 'Ativo',
  empresa: { codigo: EMPRESA, tipo: 'Empresa' },
  codigoFamilia: familia,
  ...extra,
});

async function seed(bench: BenchContext): Promise<void> {
  const auth = { authorization: bench.apiKey };
  const base = `${bench.ponte}${REST(bench.tenant)}/erp_est/sku_produto`;
  for (const familia of ['PONTE', 'RAW']) {
    for (const body of [
      mascara(familia, 'PFX', {
        tipoComposicao: 'SequenciaFixa',
        sequenciaFixa: familia === 'PONTE' ? 'P' : 'R',
        quantidadePosicoes: 1,
      }),
      mascara(familia, 'NUM', {
        tipoComposicao: 'Numerico',
        autoIncrementavel: 'Sim',
        quantidadePosicoes: 9,
      }),
    ]) {
      const res = await post(`${base}/entities/mascaraSku`, body, auth);
      if (res.status !== 200) throw new Error(`mask ${familia}/${body.codigo}: ${res.status} ${res.text}`);
    }
  }
  const sku = await post(
    `${base}/actions/gerarSku`,
    { codigoEmpresa: EMPRESA, codigoFamilia: 'SEED', itens: [] },
    auth,
  );
  if (sku.status !== 400) throw new Error(`gerarSku without items answered ${sku.status}`);
  const client = new pg.Client({ connectionString: bench.databaseUrl });
  await client.connect();
  try {
    // As any write of a tenant: its int64 ids are numbered per tenant (docs/platform.md).
    await client.query('begin');
    await client.query(`select set_config('ponte.tenant', $1, true)`, [bench.tenant]);
    await client.query(
      `insert into com_sku (tenant, codigo, descricao, codigo_unidade_medida, tipo_produto, created_by, last_modified_by)
       values ($1, $2, 'Item cotado', 'UN', 'Mercadoria', 'bench', 'bench') on conflict do nothing`,
      [bench.tenant, SKU_COTADO],
    );
    await client.query('commit');
  } finally {
    await client.end();
  }
}

const gerarBody = (familia: string) =>
  JSON.stringify({
    codigoEmpresa: EMPRESA,
    codigoFamilia: familia,
    itens: [{ codigoMascara: 'PFX' }, { codigoMascara: 'NUM' }],
  });

const criarTemplate = (prefixo: string) =>
  JSON.stringify({
    cotacao: Array.from({ length: ITENS }, (_, k) => ({
      idNecessidadeCompra: `${prefixo}{n}-${k}`,
      numeroNecessidadeCompra: k,
      quantidade: 10,
      codigoEmpresa: '1',
      codigoFilial: '1',
      codigoUnidadeMedida: 'UN',
      codigoSKU: SKU_COTADO,
    })),
  });

type Row = Record<string, unknown>;

/** gerarSku's statements: the masks, the counter (row-locked to commit), the catalogue insert. */
async function gerarRaw(client: pg.PoolClient, tenant: string, body: Row) {
  const itens = body.itens as Array<{ codigoMascara: string }>;
  const { rows: masks } = await client.query<{
    id: string;
    codigo: string;
    tipo_composicao: string;
    auto_incrementavel: string;
    sequencia_fixa: string | null;
    quantidade_posicoes: string;
    abreviatura: string;
  }>(
    `select * from sku_mascara where tenant = $1 and codigo_empresa = $2 and codigo_familia = $3 and codigo = any($4)`,
    [tenant, body.codigoEmpresa, body.codigoFamilia, itens.map((i) => i.codigoMascara)],
  );
  const partes: string[] = [];
  for (const item of itens) {
    const m = masks.find((x) => x.codigo === item.codigoMascara)!;
    if (m.auto_incrementavel === 'Sim') {
      const { rows } = await client.query<{ ultima_sequencia: string }>(
        `update sku_mascara set ultima_sequencia = coalesce(ultima_sequencia, 0) + greatest(coalesce(valor_incremento, 1), 1)
         where tenant = $1 and id = $2 and coalesce(ultima_sequencia, 0) + greatest(coalesce(valor_incremento, 1), 1) <= 999999999
         returning ultima_sequencia`,
        [tenant, m.id],
      );
      partes.push(String(rows[0]!.ultima_sequencia).padStart(Number(m.quantidade_posicoes), '0'));
    } else partes.push(m.sequencia_fixa ?? '');
  }
  const sku = partes.join('');
  const descricao = masks.map((m) => m.abreviatura).join(' ');
  const { rows } = await client.query(
    `insert into com_sku (tenant, codigo, descricao, codigo_unidade_medida, tipo_produto, created_by, last_modified_by)
     values ($1, $2, $3, 'UN', 'NaoClassificado', 'raw', 'raw') on conflict (tenant, codigo) do nothing returning id`,
    [tenant, sku, descricao],
  );
  if (rows.length === 0) throw new Error(`SKU ${sku} twice`);
  return { sku, descricao };
}

/** criarCotacao's statements: the SKUs, the open needs, the quotation, its items, the event. */
async function criarRaw(client: pg.PoolClient, tenant: string, body: Row) {
  const itens = body.cotacao as Row[];
  const ids = itens.map((i) => String(i.idNecessidadeCompra));
  await client.query('select codigo from com_sku where tenant = $1 and codigo = any($2)', [
    tenant,
    [...new Set(itens.map((i) => i.codigoSKU))],
  ]);
  const { rows: abertos } = await client.query(
    `select id from cot_cotacao_item where tenant = $1 and id_necessidade_compra = any($2) and situacao = 'Aberta'`,
    [tenant, ids],
  );
  if (abertos.length) throw new Error('need already open');
  const { rows } = await client.query<{ id: string }>(
    `insert into cot_cotacao (tenant, created_by, last_modified_by, quantidade_itens, itens)
     values ($1, 'raw', 'raw', $2, $3) returning id`,
    [tenant, itens.length, JSON.stringify(itens.map((i) => ({ ...i, situacao: 'Aberta' })))],
  );
  const idCotacao = rows[0]!.id;
  const values: unknown[] = [];
  const tuples = itens.map((i, k) => {
    values.push(
      idCotacao,
      i.idNecessidadeCompra,
      i.numeroNecessidadeCompra,
      i.quantidade,
      i.codigoEmpresa,
      i.codigoFilial,
      i.codigoUnidadeMedida,
      i.codigoSKU,
    );
    const b = k * 8;
    return `($1, 'raw', 'raw', $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}, $${b + 8}, $${b + 9})`;
  });
  await client.query(
    `insert into cot_cotacao_item (tenant, created_by, last_modified_by, cotacao_id, id_necessidade_compra,
       numero_necessidade_compra, quantidade, codigo_empresa, codigo_filial, codigo_unidade_medida, codigo_sku)
     values ${tuples.join(', ')}`,
    [tenant, ...values],
  );
  await client.query(
    `with l as (select pg_advisory_xact_lock(hashtextextended($3, 0)))
     insert into outbox (tenant, topic, payload) select $1, 'erp_sup/cot_cotacao/cotacaoCriada', $2::jsonb from l`,
    [tenant, JSON.stringify({ idCotacao, cotacao: itens }), lockName(OUTBOX_LOCK, tenant)],
  );
  return { idCotacao };
}

/** Codes of the family's prefix in the catalogue, distinct ones, and the family's counter. */
async function conferir(databaseUrl: string, tenant: string, familia: string, prefixo: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string; distintos: string; contador: string }>(
      `select (select count(*) from com_sku where tenant = $1 and codigo like $3) as n,
              (select count(distinct codigo) from com_sku where tenant = $1 and codigo like $3) as distintos,
              (select ultima_sequencia from sku_mascara where tenant = $1 and codigo_familia = $2 and codigo = 'NUM') as contador`,
      [tenant, familia, `${prefixo}%`],
    );
    const r = rows[0]!;
    const out = { n: Number(r.n), distintos: Number(r.distintos), contador: Number(r.contador) };
    console.log(
      `  ${familia}: ${fmt(out.n)} SKUs, ${fmt(out.distintos)} distinct, counter at ${fmt(out.contador)}`,
    );
    if (out.n !== out.distintos || out.n !== out.contador)
      throw new Error(`${familia}: duplicates or lost numbers (${JSON.stringify(out)})`);
    return out;
  } finally {
    await client.end();
  }
}

export async function runSku(bench: BenchContext): Promise<void> {
  const { ponte, tenant, load, databaseUrl } = bench;
  const auth = { authorization: bench.apiKey };
  await seed(bench);
  const gerarUrl = `${ponte}${REST(tenant)}/erp_est/sku_produto/actions/gerarSku`;
  const criarUrl = `${ponte}${REST(tenant)}/erp_sup/cot_cotacao/actions/criarCotacao`;
  const p1 = await scenario('(r1) Ponte gerarSku, one auto-increment mask', gerarUrl, load, {
    bodies: [gerarBody('PONTE')],
    headers: auth,
  });
  const rawGerar = await rawTenantRoute(databaseUrl, GERAR_ROUTE, gerarRaw);
  let p2: Measured;
  try {
    p2 = await scenario(
      '(r2) raw pg, the same SQL',
      `${rawGerar.url}${REST(tenant)}/erp_est/sku_produto/actions/gerarSku`,
      load,
      {
        bodies: [gerarBody('RAW')],
      },
    );
  } finally {
    await rawGerar.close();
  }
  console.log('\nafter (r1), (r2): duplicates');
  await conferir(databaseUrl, tenant, 'PONTE', 'P');
  await conferir(databaseUrl, tenant, 'RAW', 'R');

  const p3 = await scenario(`(r3) Ponte criarCotacao, ${ITENS} items`, criarUrl, load, {
    template: criarTemplate('P'),
    headers: auth,
  });
  const rawCriar = await rawTenantRoute(databaseUrl, CRIAR_ROUTE, criarRaw);
  let p4: Measured;
  try {
    p4 = await scenario(
      '(r4) raw pg, the same SQL',
      `${rawCriar.url}${REST(tenant)}/erp_sup/cot_cotacao/actions/criarCotacao`,
      load,
      {
        template: criarTemplate('R'),
      },
    );
  } finally {
    await rawCriar.close();
  }
  console.log(
    [
      '',
      '## Results (p)',
      '',
      ...TABLE_HEADER,
      tableRow(p1),
      tableRow(p2),
      tableRow(p3),
      tableRow(p4),
      '',
      '| ratio | value |',
      '|---|---:|',
      `| gerarSku req/s, Ponte ÷ raw pg | ${ratio(p1.requestsPerSecond, p2.requestsPerSecond)} |`,
      `| gerarSku p99, Ponte ÷ raw pg | ${ratio(p1.latencyP99, p2.latencyP99)} |`,
      `| criarCotacao (${ITENS} items) req/s, Ponte ÷ raw pg | ${ratio(p3.requestsPerSecond, p4.requestsPerSecond)} |`,
      `| criarCotacao (${ITENS} items) p99, Ponte ÷ raw pg | ${ratio(p3.latencyP99, p4.latencyP99)} |`,
    ].join('\n'),
  );
}
