import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { rawTenantRoute, type Statement } from './baselines.ts';
import { type BenchContext, capture } from './entities.ts';
import { envInt, fmt, type Measured, post, ratio, scenario, TABLE_HEADER, tableRow } from './harness.ts';

// (p) yms/patio's day numbers (docs/patio.md "The day's numbers") over 1,000,000 yard visits of one
// plant, 400 days up to now (about 2,500 a day): each visit an agenda, a yard stay, an arrival in
// an area and a circuit execution. The bridge's queries against the very statements they send
// (captured from pg on a first request), replayed by a bare Fastify + raw pg in the tenant
// transaction: the ratio is the bridge's cost, the SQL being the same.

const ROWS = envInt('BENCH_DIA_ROWS', 1_000_000, 1000);
const AREAS = 10;
const VEHICLES = 5000;
const u = (label: string, expr: string) => `md5('${label}' || (${expr}))::uuid`;
const QUERIES = ['veiculosNoPatio', 'temposDoDia', 'pontualidadeDoDia', 'agendaDoDia'] as const;

/** Seeds the plant and ROWS visits in a few statements as the superuser. */
async function seed(client: pg.Client, tenant: string): Promise<string> {
  const audit = `$1, 'bench', 'bench'`;
  const q = (text: string, values: unknown[] = [tenant]) => client.query(text, values);
  const planta = u('planta', "'dia'");
  await q(`insert into patio_planta (id, tenant, created_by, last_modified_by, codigo, nome, fuso_horario)
    values (${planta}, ${audit}, 'DIA', 'Planta do dia', 'America/Sao_Paulo')`);
  await q(`insert into patio_area (id, tenant, created_by, last_modified_by, planta_id, codigo, descricao, tipo)
    select ${u('area', 'a')}, ${audit}, ${planta}, 'AREA' || a, 'Área ' || a, 'DOCA' from generate_series(0, ${AREAS - 1}) a`);
  await q(`insert into patio_circuito (id, tenant, created_by, last_modified_by, planta_id, codigo, nome)
    values (${u('circuito', "'dia'")}, ${audit}, ${planta}, 'CIRC', 'Circuito')`);
  await q(`insert into patio_sequencia_circuito (id, tenant, created_by, last_modified_by, circuito_id, ordem, area_id, nome)
    select ${u('seq', 'a')}, ${audit}, ${u('circuito', "'dia'")}, a + 1, ${u('area', 'a')}, 'Etapa ' || a
    from generate_series(0, ${AREAS - 1}) a`);
  await q(`insert into patio_veiculo (id, tenant, created_by, last_modified_by, placa, tipo_veiculo)
    select ${u('veiculo', 'v')}, ${audit}, 'DIA' || lpad(v::text, 4, '0'), 'CAMINHAO' from generate_series(0, ${VEHICLES - 1}) v`);
  await q(`insert into patio_motorista (id, tenant, created_by, last_modified_by, documento, nome)
    select ${u('motorista', 'v')}, ${audit}, (10000000000 + v)::text, 'Motorista ' || v from generate_series(0, ${VEHICLES - 1}) v`);
  await q(`insert into agenda_tipo_agendamento (id, tenant, created_by, last_modified_by, codigo, descricao, operacao,
      planta_id, duracao_slot_minutos, capacidade_por_slot)
    values (${u('tipo', "'dia'")}, ${audit}, 'DIA', 'Descarga', 'DESCARGA', ${planta}, 60, 200)`);
  // Visit i: expected at d, entered about then (±30 min), left 30 min to 3.5 h later unless that is
  // still ahead (then it is in the yard now, its execution running and its arrival open).
  const visit = `from generate_series(1, $2::int) i,
    lateral (select now() - interval '400 days' + (i::float8 / $2) * interval '400 days' as d) x,
    lateral (select least(d + ((i % 61) - 30) * interval '1 minute', now()) as entrada) e,
    lateral (select case when entrada + (30 + i % 180) * interval '1 minute' < now()
      then entrada + (30 + i % 180) * interval '1 minute' end as saida) s`;
  const v = `i % ${VEHICLES}`;
  await q(
    `insert into agenda (id, tenant, created_by, last_modified_by, codigo, descricao, data_esperada, planta_id,
       tipo_agendamento_id, veiculo_id, motorista_id, status)
     select ${u('agenda', 'i')}, ${audit}, i, 'Agenda ' || i, d, ${planta}, ${u('tipo', "'dia'")},
       ${u('veiculo', v)}, ${u('motorista', v)},
       case when i % 50 = 0 then 'AGENDADO' when saida is null then 'EXECUTANDO' else 'CONCLUIDO' end ${visit}`,
    [tenant, ROWS],
  );
  await q(
    `insert into patio_presenca_patio (tenant, planta_id, veiculo_id, motorista_id, placa, entrada_em, saida_em)
     select $1, ${planta}, ${u('veiculo', v)}, ${u('motorista', v)}, 'DIA' || lpad((${v})::text, 4, '0'), entrada, saida
     ${visit} where i % 50 <> 0`,
    [tenant, ROWS],
  );
  await q(
    `insert into patio_controle_area (tenant, area_id, veiculo_id, placa, chegada_em, saida_em)
     select $1, ${u('area', `i % ${AREAS}`)}, ${u('veiculo', v)}, 'DIA' || lpad((${v})::text, 4, '0'),
       entrada + interval '5 minutes', case when saida is not null then saida - interval '5 minutes' end
     ${visit} where i % 50 <> 0`,
    [tenant, ROWS],
  );
  await q(
    `insert into patio_execucao_circuito (tenant, created_by, last_modified_by, circuito_id, veiculo_id, motorista_id,
       agenda_id, sequencia_atual_id, situacao, iniciada_em, finalizada_em)
     select ${audit}, ${u('circuito', "'dia'")}, ${u('veiculo', v)}, ${u('motorista', v)}, ${u('agenda', 'i')},
       ${u('seq', `i % ${AREAS}`)}, case when saida is null then 'EXECUTANDO' else 'FINALIZADO' end, entrada, saida
     ${visit} where i % 50 <> 0`,
    [tenant, ROWS],
  );
  // Statistics as autovacuum would leave them (without them the planner costs a join by guesses).
  for (const table of [
    'agenda',
    'agenda_tipo_agendamento',
    'patio_presenca_patio',
    'patio_controle_area',
    'patio_execucao_circuito',
    'patio_veiculo',
    'patio_motorista',
    'patio_area',
    'patio_sequencia_circuito',
  ])
    await client.query(`vacuum analyze ${table}`);
  return (await client.query(`select ${planta} as id`)).rows[0].id as string;
}

export async function runDia(bench: BenchContext): Promise<void> {
  const { ponte, tenant, databaseUrl, load } = bench;
  const auth = { authorization: bench.apiKey };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let raw: Awaited<ReturnType<typeof rawTenantRoute>> | undefined;
  try {
    const started = performance.now();
    const plantaId = await seed(client, tenant);
    console.log(
      `seeded ${fmt(ROWS)} yard visits for ${tenant} in ${fmt((performance.now() - started) / 1000, 1)} s`,
    );
    const url = (q: string) => `${ponte}/t/${tenant}/bridge/1.0/rest/yms/patio/queries/${q}`;
    const body = { plantaId };
    // What each query sends (the plant's check and its SQL), and its answer.
    const sent = new Map<string, Statement[]>();
    const answers = new Map<string, unknown>();
    for (const q of QUERIES) {
      const { result, statements } = await capture(
        (text) => /patio_|"agenda"/.test(text),
        () => post(url(q), body, auth),
      );
      if (result.status !== 200)
        throw new Error(`${q} answered ${result.status} ${result.text.slice(0, 300)}`);
      sent.set(q, statements);
      answers.set(q, result.json);
    }
    raw = await rawTenantRoute(databaseUrl, '/t/:tenant/raw/:q', async (c, _t, _b, params) => {
      const out = [];
      for (const s of sent.get(params.q ?? '') ?? []) out.push((await c.query(s.text, s.values)).rows);
      return out;
    });
    // The raw route must run the same statements on the same rows: its last statement's rows are
    // the figures the bridge answered.
    const figures = (await post(`${raw.url}/t/${tenant}/raw/pontualidadeDoDia`, {}, {})).json as Array<
      Array<Record<string, unknown>>
    >;
    const ponteFigures = answers.get('pontualidadeDoDia') as Record<string, unknown>;
    const rawRow = figures.at(-1)![0]!;
    if (!isDeepStrictEqual([ponteFigures.total, ponteFigures.noHorario], [rawRow.total, rawRow.noHorario]))
      throw new Error(`raw pg gives ${JSON.stringify(rawRow)}, the bridge ${JSON.stringify(ponteFigures)}`);
    console.log(
      `today: ${JSON.stringify(answers.get('pontualidadeDoDia'))}; in the yard now ${(answers.get('veiculosNoPatio') as { quantidade: number }).quantidade}; ` +
        `turn time ${JSON.stringify((answers.get('temposDoDia') as { permanenciaPatio: unknown }).permanenciaPatio)}`,
    );

    const results: Array<[Measured, Measured]> = [];
    for (const [i, q] of QUERIES.entries()) {
      const ponteRun = await scenario(`(p${i + 1}) Ponte ${q}`, url(q), load, {
        bodies: [JSON.stringify(body)],
        headers: auth,
      });
      const rawRun = await scenario(
        `(p${i + 1}r) raw pg, the same statements`,
        `${raw.url}/t/${tenant}/raw/${q}`,
        load,
        {
          bodies: ['{}'],
        },
      );
      results.push([ponteRun, rawRun]);
    }
    console.log(
      [
        '',
        `## yms/patio day numbers over ${fmt(ROWS)} visits (${load.connections} connections, ${load.seconds} s per scenario)`,
        '',
        ...TABLE_HEADER,
        ...results.flat().map(tableRow),
        '',
        '| ratio, Ponte / raw pg | requests/s | server CPU per request |',
        '|---|---:|---:|',
        ...results.map(
          ([p, r], i) =>
            `| (p${i + 1}) ${QUERIES[i]} | ${ratio(p.requestsPerSecond, r.requestsPerSecond)} | ${ratio(p.serverCpuUsPerRequest, r.serverCpuUsPerRequest)} |`,
        ),
      ].join('\n'),
    );
  } finally {
    await raw?.close();
    await client.end();
  }
}
