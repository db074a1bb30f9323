import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { lockName } from '../src/platform/core/db/locks.ts';
import { OUTBOX_LOCK } from '../src/platform/core/outbox.ts';
import { rawTenantRoute } from './baselines.ts';
import type { BenchContext } from './entities.ts';
import { envInt, fmt, type Measured, post, ratio, scenario, TABLE_HEADER, tableRow } from './harness.ts';

// (h) yms/patio under load: `buscaVagaLivre` over a yard of 50 areas × 200 spots, three quarters
// of them taken (the free one is deep in each area's order), and (i) event ingestion: yard
// events (`wsFilaItem`, whose effect is its outbox row) posted as fast as the bridge takes them,
// then the dispatcher's catch-up rate to an in-process subscriber. Baselines: the same SQL in the
// same tenant transaction through a raw pg.Pool behind a bare Fastify route.

const AREAS = envInt('BENCH_PATIO_AREAS', 50, 1);
const SPOTS = envInt('BENCH_PATIO_SPOTS', 200, 4);
const TAKEN = Math.floor((SPOTS * 3) / 4);

const FREE_SQL =
  'select id, area_id, rua, numero from patio_vaga where tenant = $1 and area_id = $2 ' +
  'and not ocupada and ativo and not bloqueio order by rua, numero, id limit 1';
const APPEND_SQL = `with l as (select pg_advisory_xact_lock(hashtextextended($4, 0)))
  insert into outbox (tenant, topic, payload) select $1, $2, $3::jsonb from l returning id`;

async function seedYard(client: pg.Client, tenant: string): Promise<string[]> {
  const planta = await client.query<{ id: string }>(
    `insert into patio_planta (tenant, created_by, last_modified_by, codigo, nome)
     values ($1, 'bench', 'bench', 'BENCH', 'Planta bench') returning id`,
    [tenant],
  );
  const areas = await client.query<{ id: string }>(
    `insert into patio_area (tenant, created_by, last_modified_by, planta_id, codigo, descricao, tipo)
     select $1, 'bench', 'bench', $2, 'EST' || i, 'Estacionamento ' || i, 'ESTACIONAMENTO'
     from generate_series(1, $3::int) i returning id`,
    [tenant, planta.rows[0]!.id, AREAS],
  );
  const ids = areas.rows.map((r) => r.id);
  // Spots street by street; the first TAKEN of each area occupied, every 7th of the rest blocked.
  await client.query(
    `insert into patio_vaga (tenant, created_by, last_modified_by, area_id, rua, numero, ocupada, bloqueio, motivo_bloqueio)
     select $1, 'bench', 'bench', a, (n - 1) / 20 + 1, (n - 1) % 20 + 1, n <= $3,
       n > $3 and n % 7 = 0, case when n > $3 and n % 7 = 0 then 'manutenção' end
     from unnest($2::uuid[]) a, generate_series(1, $4::int) n`,
    [tenant, ids, TAKEN, SPOTS],
  );
  await client.query('vacuum analyze patio_vaga');
  return ids;
}

const filaItem = (i: number) =>
  JSON.stringify({
    operacao: 'ALTERADO',
    fila: 'DOCA-1',
    filaItem: { id: `item-${i}`, posicao: (i % 30) + 1, placa: `BEN${String(i % 10_000).padStart(4, '0')}` },
    ws_users: 'operador1,operador2',
  });

export async function runPatio(bench: BenchContext): Promise<void> {
  const { ponte, tenant, databaseUrl, load } = bench;
  const auth = { authorization: bench.apiKey };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const areas = await seedYard(client, tenant);
    console.log(
      `seeded ${fmt(AREAS)} areas × ${fmt(SPOTS)} spots (${fmt(TAKEN)} taken in each) for tenant ${tenant}`,
    );
    const path = (p: string) => `/t/${tenant}/bridge/1.0/rest/yms/patio/${p}`;
    const free = path('queries/buscaVagaLivre');
    const bodies = areas.map((areaId) => JSON.stringify({ areaId }));

    // The answers must agree before anything is timed.
    for (const areaId of areas.slice(0, 3)) {
      const res = await post(`${ponte}${free}`, { areaId }, auth);
      const raw = (await client.query(FREE_SQL, [tenant, areaId])).rows[0];
      const vaga = (res.json as { vaga?: Record<string, unknown> }).vaga;
      if (
        res.status !== 200 ||
        !isDeepStrictEqual([vaga?.id, vaga?.rua, vaga?.numero], [raw.id, Number(raw.rua), Number(raw.numero)])
      )
        throw new Error(
          `buscaVagaLivre answered ${res.status} ${res.text} where the SQL gives ${JSON.stringify(raw)}`,
        );
    }

    const results: Measured[] = [];
    const h1 = await scenario('(h1) Ponte buscaVagaLivre', `${ponte}${free}`, load, {
      bodies,
      headers: auth,
    });
    results.push(h1);
    const rawFree = await rawTenantRoute(databaseUrl, '/t/:tenant/free', async (c, t, body) => {
      const { rows } = await c.query(FREE_SQL, [t, body.areaId]);
      return { vaga: rows[0] };
    });
    let h2: Measured;
    try {
      h2 = await scenario(
        '(h2) raw pg, same query in the tenant transaction',
        `${rawFree.url}/t/${tenant}/free`,
        load,
        {
          bodies,
        },
      );
    } finally {
      await rawFree.close();
    }
    results.push(h2);

    const events = path('events/wsFilaItem');
    const eventBodies = Array.from({ length: 500 }, (_, i) => filaItem(i));
    const before = Number(
      (await client.query('select count(*) n from outbox where tenant = $1', [tenant])).rows[0].n,
    );
    const i1 = await scenario('(i1) Ponte event ingestion, wsFilaItem', `${ponte}${events}`, load, {
      bodies: eventBodies,
      headers: auth,
    });
    results.push(i1);
    const rawAppend = await rawTenantRoute(databaseUrl, '/t/:tenant/append', async (c, t, body) => {
      await c.query(APPEND_SQL, [t, 'yms/patio/wsFilaItem', JSON.stringify(body), lockName(OUTBOX_LOCK, t)]);
      return null;
    });
    let i2: Measured;
    try {
      i2 = await scenario(
        '(i2) raw pg, the same outbox insert in the tenant transaction',
        `${rawAppend.url}/t/${tenant}/append`,
        load,
        {
          bodies: eventBodies,
        },
      );
    } finally {
      await rawAppend.close();
    }
    results.push(i2);

    // Dispatch: a new subscriber starts at the beginning of the outbox; time its catch-up.
    const total = Number(
      (await client.query('select count(*) n from outbox where tenant = $1', [tenant])).rows[0].n,
    );
    let seen = 0;
    const stop = bench.platform.events.subscribe(
      'yms/patio/wsFilaItem',
      async () => {
        seen++;
      },
      { name: 'bench:dispatch' },
    );
    const started = performance.now();
    await bench.platform.events.drain();
    const seconds = (performance.now() - started) / 1000;
    stop();
    const ingested = total - before;

    console.log(
      [
        '',
        `## yms/patio (${load.connections} connections, ${load.seconds} s per scenario)`,
        '',
        ...TABLE_HEADER,
        ...results.map(tableRow),
        '',
        '| ratio | value |',
        '|---|---:|',
        `| (h1) ÷ (h2) buscaVagaLivre, Ponte / raw pg | ${ratio(h1.requestsPerSecond, h2.requestsPerSecond)} |`,
        `| (h1) ÷ (h2) buscaVagaLivre, server CPU per request, Ponte / raw pg | ${ratio(h1.serverCpuUsPerRequest, h2.serverCpuUsPerRequest)} |`,
        `| (i1) ÷ (i2) event ingestion, Ponte / raw pg | ${ratio(i1.requestsPerSecond, i2.requestsPerSecond)} |`,
        '',
        `dispatch: ${fmt(seen)} wsFilaItem events (the ${fmt(ingested)} of (i1) and (i2)) ` +
          `delivered to a new in-process subscriber in ${fmt(seconds, 2)} s: ${fmt(seen / Math.max(seconds, 1e-9))} events/s ` +
          '(with the webhook consumer and, when NATS_URL is set, NATS publishing in the same drain)',
      ].join('\n'),
    );
    if (seen < ingested) throw new Error(`the subscriber saw ${seen} events of ${ingested} ingested`);
  } finally {
    await client.end();
  }
}
