import Fastify from 'fastify';
import pg from 'pg';
import type { Running } from './baselines.ts';
import type { BenchContext } from './entities.ts';
import { envInt, fmt, post, ratio, scenario, TABLE_HEADER, tableRow } from './harness.ts';

// (j) yms/agenda horarioOperacao on a busy day: a plant open 24 hours, a type of 10-minute slots
// (144 a day) and 5,000 agendas of the type on that day. The bridge answers the day's slots with
// their counts (one call to yms/patio for the shifts, one grouped count, the slots and reasons in
// JS); the baseline is bare Fastify + raw pg.Pool running the same grouped count as the superuser
// and returning its rows: what reading the counts costs without the bridge, the shifts and the slots.

const AGENDAS = envInt('BENCH_AGENDAS', 5000, 100);
const DIA = '2030-06-10';
const PLANTA = '00000000-0000-4000-8000-0000000be001';
const TIPO = '00000000-0000-4000-8000-0000000be002';
/** The range the service counts: a day before the day's first slot (the longest execution) to its end. */
const FROM = new Date(Date.parse(`${DIA}T03:00:00Z`) - 86_400_000);
const TO = new Date(Date.parse(`${DIA}T03:00:00Z`) + 86_400_000);
const PATH = (tenant: string) => `/t/${tenant}/bridge/1.0/rest/yms/agenda/queries/horarioOperacao`;

const COUNT_SQL = `select data_esperada, fim_previsto, count(*)::int as n from agenda
  where tenant = $1 and tipo_agendamento_id = $2 and data_esperada >= $3 and data_esperada < $4
    and status <> 'CANCELADO'
  group by data_esperada, fim_previsto`;

async function seed(client: pg.Client, tenant: string): Promise<void> {
  const audit = `'bench', now(), 'bench', now()`;
  const cols = 'tenant, created_by, created_date, last_modified_by, last_modified_date';
  await client.query(
    `insert into patio_planta (id, ${cols}, codigo, nome, fuso_horario)
     values ($1, $2, ${audit}, 'PLB', 'Planta bench', 'America/Sao_Paulo')`,
    [PLANTA, tenant],
  );
  await client.query(
    `insert into patio_turno (${cols}, planta_id, data, hora_inicio, hora_fim)
     select $1, ${audit}, $2, d::date, '00:00', '23:50' from generate_series($3::date - 1, $3::date + 15, '1 day') d`,
    [tenant, PLANTA, DIA],
  );
  await client.query(
    `insert into agenda_tipo_agendamento (id, ${cols}, codigo, descricao, operacao, planta_id,
       duracao_slot_minutos, capacidade_por_slot)
     values ($1, $2, ${audit}, 'BENCH', 'Descarga bench', 'DESCARGA', $3, 10, 40)`,
    [TIPO, tenant, PLANTA],
  );
  // 5,000 agendas over the 143 slots of the day (00:00 to 23:40 São Paulo), 10 minutes each, a few cancelled.
  await client.query(
    `insert into agenda (${cols}, codigo, data_esperada, fim_previsto, planta_id, tipo_agendamento_id, status)
     select $1, ${audit}, 1000000 + i,
       ($2::date::timestamp at time zone 'America/Sao_Paulo') + ((i % 143) * interval '10 minutes'),
       ($2::date::timestamp at time zone 'America/Sao_Paulo') + ((i % 143 + 1) * interval '10 minutes'),
       $3, $4, case when i % 50 = 0 then 'CANCELADO' else 'AGENDADO' end
     from generate_series(1, $5::int) i`,
    [tenant, DIA, PLANTA, TIPO, AGENDAS],
  );
  await client.query('vacuum analyze agenda');
}

/** Bare Fastify + raw pg: the grouped count of the day as the superuser. */
async function rawCounts(databaseUrl: string, tenant: string, from: Date, to: Date): Promise<Running> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on('error', () => {});
  const app = Fastify({ logger: false });
  app.post('/t/:tenant/bridge/1.0/rest/yms/agenda/queries/horarioOperacao', async () => {
    const { rows } = await pool.query(COUNT_SQL, [tenant, TIPO, from, to]);
    return { horarios: rows };
  });
  app.addHook('onClose', () => pool.end());
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

export async function runHorarios(bench: BenchContext): Promise<void> {
  const { ponte, tenant, databaseUrl } = bench;
  const auth = { authorization: bench.apiKey };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    await seed(client, tenant);
    console.log(
      `seeded ${fmt(AGENDAS)} agendas on ${DIA} in ${fmt((performance.now() - started) / 1000, 1)} s`,
    );
    const body = { tipoAgendamentoId: TIPO, plantaId: PLANTA, data: DIA };
    const check = await post(`${ponte}${PATH(tenant)}`, body, auth);
    const answer = check.json as { horarios?: Array<{ agendados: number }> } | undefined;
    const booked = (answer?.horarios ?? []).reduce((n, h) => n + h.agendados, 0);
    const expected = AGENDAS - Math.floor(AGENDAS / 50);
    if (check.status !== 200 || answer?.horarios?.length !== 143 || booked !== expected)
      throw new Error(
        `horarioOperacao answered ${check.status}: ${check.text.slice(0, 300)} (booked ${booked}, want ${expected})`,
      );
    const { rows } = await client.query(`explain (analyze, costs off) ${COUNT_SQL}`, [
      tenant,
      TIPO,
      FROM,
      TO,
    ]);
    console.log(`plan of the grouped count (superuser):\n${rows.map((r) => Object.values(r)[0]).join('\n')}`);

    const h1 = await scenario(
      `(j1) Ponte horarioOperacao, ${fmt(AGENDAS)} agendas on the day`,
      `${ponte}${PATH(tenant)}`,
      bench.load,
      { bodies: [JSON.stringify(body)], headers: auth },
    );
    const raw = await rawCounts(databaseUrl, tenant, FROM, TO);
    let h2: Awaited<ReturnType<typeof scenario>>;
    try {
      h2 = await scenario(
        '(j2) bare Fastify + raw pg.Pool, the grouped count alone',
        `${raw.url}${PATH(tenant)}`,
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
        tableRow(h1),
        tableRow(h2),
        '',
        `| Ponte horarioOperacao req/s ÷ raw grouped count req/s | ${ratio(h1.requestsPerSecond, h2.requestsPerSecond)} |`,
        `| Ponte horarioOperacao p99 ÷ raw grouped count p99 | ${ratio(h1.latencyP99, h2.latencyP99)} |`,
        `| Ponte horarioOperacao server CPU per request ÷ raw grouped count's | ${ratio(h1.serverCpuUsPerRequest, h2.serverCpuUsPerRequest)} |`,
      ].join('\n'),
    );
  } finally {
    await client.end();
  }
}
