import Fastify from 'fastify';
import pg from 'pg';
import type { Running } from './baselines.ts';
import type { BenchContext } from './entities.ts';
import { createTenant, post, ratio, scenario, TABLE_HEADER, tableRow } from './harness.ts';

// (s) platform/functions: a primitive (erp_agr/com_comum pesquisarVinculoTransacao, 20 links) called
// through the bridge without a function, and the same with a trivial ACTIVE function bound to it
// (run by the bridge in the QuickJS sandbox of a worker thread after every call), against bare
// Fastify + raw pg running the same SQL. The ratio with/without is what a bound function costs.

const LINKS = 20;
const PROCESSOS = ['RecebimentoProducao', 'CompraProducao', 'VendaProducao'];
const PATH = (tenant: string) =>
  `/t/${tenant}/bridge/1.0/rest/erp_agr/com_comum/queries/pesquisarVinculoTransacao`;
const FN = (tenant: string, kind: string, op: string) =>
  `/t/${tenant}/bridge/1.0/rest/platform/functions/${kind}/${op}`;
const SQL = `select id, transacao_id as "transacaoId", processo from com_vinculo_transacao
  where tenant = $1 order by transacao_id, processo`;

async function seedLinks(ponte: string, tenant: string, apiKey: string): Promise<void> {
  for (let i = 0; i < LINKS; i++) {
    const res = await post(
      `${ponte}/t/${tenant}/bridge/1.0/rest/erp_agr/com_comum/actions/criarVinculoTransacao`,
      { transacaoId: `T${String(i).padStart(3, '0')}`, processo: PROCESSOS[i % 3] },
      { authorization: apiKey },
    );
    if (res.status !== 200) throw new Error(`criarVinculoTransacao answered ${res.status}: ${res.text}`);
  }
}

async function bindTrivialFunction(ponte: string, tenant: string, apiKey: string): Promise<void> {
  const auth = { authorization: apiKey };
  const created = await post(
    `${ponte}${FN(tenant, 'entities', 'function')}`,
    {
      name: 'trivial',
      domainName: 'erp_agr',
      serviceName: 'com_comum',
      primitiveName: 'pesquisarVinculoTransacao',
    },
    auth,
  );
  if (created.status !== 200) throw new Error(`function: ${created.status} ${created.text}`);
  const code = 'function handler(event) { return undefined }';
  const up = await post(
    `${ponte}${FN(tenant, 'actions', 'uploadFunctionCode')}`,
    { functionName: 'trivial', code },
    auth,
  );
  if (up.status !== 200) throw new Error(`upload: ${up.status} ${up.text}`);
  const id = (created.json as { id: string }).id;
  const res = await fetch(`${ponte}${FN(tenant, 'entities', 'function')}/${id}`, {
    method: 'PATCH',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ stage: 'ACTIVE' }),
  });
  if (res.status !== 200) throw new Error(`activate: ${res.status} ${await res.text()}`);
}

async function rawLinks(databaseUrl: string, tenant: string): Promise<Running> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on('error', () => {});
  const app = Fastify({ logger: false });
  app.post(PATH(':tenant'), async () => ({ vinculos: (await pool.query(SQL, [tenant])).rows }));
  app.addHook('onClose', () => pool.end());
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

export async function runFunctions(bench: BenchContext): Promise<void> {
  const { ponte, databaseUrl } = bench;
  const plain = 'benchnofn';
  const bound = 'benchfn';
  const plainKey = await createTenant(ponte, bench.adminToken, plain);
  const boundKey = await createTenant(ponte, bench.adminToken, bound);
  await seedLinks(ponte, plain, plainKey);
  await seedLinks(ponte, bound, boundKey);
  await bindTrivialFunction(ponte, bound, boundKey);
  for (const [tenant, key] of [
    [plain, plainKey],
    [bound, boundKey],
  ] as const) {
    const check = await post(`${ponte}${PATH(tenant)}`, {}, { authorization: key });
    const n = (check.json as { vinculos?: unknown[] } | undefined)?.vinculos?.length;
    if (check.status !== 200 || n !== LINKS)
      throw new Error(`${tenant}: ${check.status} ${check.text.slice(0, 200)}`);
  }
  const n1 = await scenario(
    '(s1) Ponte pesquisarVinculoTransacao, no function',
    `${ponte}${PATH(plain)}`,
    bench.load,
    {
      bodies: ['{}'],
      headers: { authorization: plainKey },
    },
  );
  const n2 = await scenario(
    '(s2) Ponte pesquisarVinculoTransacao, a trivial function bound to it',
    `${ponte}${PATH(bound)}`,
    bench.load,
    { bodies: ['{}'], headers: { authorization: boundKey } },
  );
  const raw = await rawLinks(databaseUrl, plain);
  let n3: Awaited<ReturnType<typeof scenario>>;
  try {
    n3 = await scenario(
      '(s3) bare Fastify + raw pg.Pool, the same SQL',
      `${raw.url}${PATH(plain)}`,
      bench.load,
      {
        bodies: ['{}'],
      },
    );
  } finally {
    await raw.close();
  }
  console.log(
    [
      '',
      ...TABLE_HEADER,
      tableRow(n1),
      tableRow(n2),
      tableRow(n3),
      '',
      `| with function req/s ÷ without req/s | ${ratio(n2.requestsPerSecond, n1.requestsPerSecond)} |`,
      `| with function p99 ÷ without p99 | ${ratio(n2.latencyP99, n1.latencyP99)} |`,
      `| without function req/s ÷ raw pg req/s | ${ratio(n1.requestsPerSecond, n3.requestsPerSecond)} |`,
      `| with function req/s ÷ raw pg req/s | ${ratio(n2.requestsPerSecond, n3.requestsPerSecond)} |`,
      `| with function p99 ÷ raw pg p99 | ${ratio(n2.latencyP99, n3.latencyP99)} |`,
    ].join('\n'),
  );
}
