import pg from 'pg';
import type { BenchContext } from './entities.ts';
import { fmt, type Measured, post, ratio, scenario, TABLE_HEADER, tableRow } from './harness.ts';

// (m) Entity creates under load, one tenant: an entity with an int64 id (com_comum
// condicaoPagamento, numbered per tenant and table by a counter row that each create holds until
// its commit: docs/platform.md "Storage and tenant isolation") against one with a UUID id (patio
// tipoVeiculo, no counter). Every request creates a new record (its code numbered by the load
// generator), so a refused duplicate would void the run.

const ENTITIES = (tenant: string) => `/t/${tenant}/bridge/1.0/rest`;

export async function runCreates(bench: BenchContext): Promise<void> {
  const { ponte, tenant, load, databaseUrl } = bench;
  const auth = { authorization: bench.apiKey };
  const intUrl = `${ponte}${ENTITIES(tenant)}/erp_agr/com_comum/entities/condicaoPagamento`;
  const uuidUrl = `${ponte}${ENTITIES(tenant)}/yms/patio/entities/tipoVeiculo`;
  // One create of each by hand first: the bodies must be accepted as they are.
  for (const [url, body] of [
    [intUrl, { codigo: 'X0', descricao: 'Condição inicial' }],
    [uuidUrl, { codigo: 'X0', descricao: 'Tipo inicial', categoria: 'CAMINHAO' }],
  ] as const) {
    const res = await post(url, body, auth);
    if (res.status !== 200) throw new Error(`create at ${url} answered ${res.status} ${res.text}`);
  }
  const m1 = await scenario('(m1) Ponte create, int64 id (condicaoPagamento)', intUrl, load, {
    template: JSON.stringify({ codigo: 'A{n}', descricao: 'Condição {n}', quantidadeParcelas: 3 }),
    headers: auth,
  });
  const m2 = await scenario('(m2) Ponte create, UUID id (tipoVeiculo)', uuidUrl, load, {
    template: JSON.stringify({ codigo: 'T{n}', descricao: 'Tipo {n}', categoria: 'CAMINHAO' }),
    headers: auth,
  });
  const numbering = await numbered(databaseUrl, tenant);
  console.log(
    `com_condicao_pagamento of ${tenant}: ${fmt(numbering.rows)} rows, ids ${numbering.min}–${numbering.max}` +
      ` (${fmt(numbering.max - numbering.min + 1 - numbering.rows)} unused in that range)`,
  );
  if (numbering.distinct !== numbering.rows) throw new Error('two creates got the same id');
  printCreates(m1, m2);
}

async function numbered(databaseUrl: string, tenant: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ rows: string; distinct: string; min: string; max: string }>(
      `select count(*) as rows, count(distinct id) as distinct, min(id) as min, max(id) as max
       from com_condicao_pagamento where tenant = $1`,
      [tenant],
    );
    const r = rows[0]!;
    return { rows: Number(r.rows), distinct: Number(r.distinct), min: Number(r.min), max: Number(r.max) };
  } finally {
    await client.end();
  }
}

function printCreates(m1: Measured, m2: Measured): void {
  console.log(
    [
      '',
      '## Results (m)',
      '',
      ...TABLE_HEADER,
      tableRow(m1),
      tableRow(m2),
      '',
      '| ratio | value |',
      '|---|---:|',
      `| int64-id create req/s ÷ UUID-id create req/s | ${ratio(m1.requestsPerSecond, m2.requestsPerSecond)} |`,
      `| int64-id create p99 ÷ UUID-id create p99 | ${ratio(m1.latencyP99, m2.latencyP99)} |`,
    ].join('\n'),
  );
}
