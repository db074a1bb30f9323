import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { BenchContext } from './entities.ts';
import { busyBetween, cpuTimes, createTenant, envInt, fmt, post, ratio, watchProcess } from './harness.ts';

// (k) Export throughput and memory: yms/patio `exportVeiculo` of N vehicles to CSV, as the durable
// job (keyset batches of 2,000 rows into the blob store), set against PostgreSQL's own
// `COPY (select … order by id) TO STDOUT` of the same columns into a file. Two sizes: the peak
// memory of the big one beside the small one's shows memory does not grow with the row count.

const ROWS = envInt('BENCH_EXPORT_ROWS', 1_000_000, 1);
const SMALL_ROWS = envInt('BENCH_EXPORT_SMALL_ROWS', 100_000, 0);
const SAMPLE_MS = 200;
const POLL_MS = 200;
const COLUMNS = 'placa, tipo_veiculo, descricao, renavam';

/** N vehicles of the tenant, in one statement as the superuser: unique plates, a description each. */
async function seed(databaseUrl: string, tenant: string, rows: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into patio_veiculo (tenant, created_by, last_modified_by, placa, tipo_veiculo, descricao, renavam)
       select $1, 'bench', 'bench',
         'B' || chr(65 + (i / 10000) / 26) || chr(65 + (i / 10000) % 26) || ((i / 1000) % 10)::text
           || ((i / 100) % 10)::text || lpad((i % 100)::text, 2, '0'),
         (array['CAVALO_MECANICO','CAMINHAO','REBOQUE','SEMIRREBOQUE'])[1 + i % 4],
         'Veículo ' || i || case when i % 7 = 0 then ', frota "A"' else '' end,
         case when i % 3 = 0 then null else (100000000 + i)::text end
       from generate_series(0, $2::int - 1) as i`,
      [tenant, rows],
    );
    await client.query('analyze patio_veiculo');
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
}

interface ExportMeasured {
  rows: number;
  bytes: number;
  seconds: number;
  rssBefore: number;
  rssPeak: number;
  heapPeak: number;
  nodeCpuSeconds: number;
  machineBusy: number;
}

/** GET of the signed URL, counting lines and bytes as they stream. */
async function download(url: string): Promise<{ lines: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let lines = 0;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () =>
        res.statusCode === 200 ? resolve({ lines, bytes }) : reject(new Error(`GET ${res.statusCode}`)),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function exportThroughPonte(bench: BenchContext, tenant: string, apiKey: string, rows: number) {
  const auth = { authorization: apiKey };
  const api = `${bench.ponte}/t/${tenant}/bridge/1.0/rest`;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const watch = watchProcess(SAMPLE_MS);
  const start = performance.now();
  try {
    const started = await post(
      `${api}/yms/patio/actions/exportVeiculo`,
      { config: { formato: 'CSV' } },
      auth,
    );
    if (started.status !== 200) throw new Error(`exportVeiculo answered ${started.status} ${started.text}`);
    const { exportJobId } = started.json as { exportJobId: string };
    let drained = false;
    const draining = bench.platform.jobs.drain().finally(() => {
      drained = true;
    });
    let status: { state: string; rows: number; size: number; downloadUrl: string; text: string };
    for (;;) {
      const wasDrained = drained;
      const res = await post(`${api}/platform/exports/queries/getExport`, { exportJobId }, auth);
      if (res.status !== 200) throw new Error(`getExport answered ${res.status} ${res.text}`);
      const s = res.json as { state: string; rows: number; size: number; downloadUrl: string };
      if (s.state === 'done' || s.state === 'failed') {
        await draining;
        status = { ...s, text: res.text };
        break;
      }
      if (wasDrained) throw new Error(`the job queue is idle but the export is ${res.text}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const seconds = (performance.now() - start) / 1000;
    const cost = watch.stop();
    if (status.state !== 'done' || status.rows !== rows)
      throw new Error(`the export of ${rows} rows ended as ${status.text}`);
    const url = new URL(status.downloadUrl);
    const file = await download(`${bench.ponte}${url.pathname}${url.search}`);
    if (file.lines !== rows + 1 || file.bytes !== status.size)
      throw new Error(
        `the file has ${file.lines} lines, ${file.bytes} bytes; expected ${rows + 1}, ${status.size}`,
      );
    return {
      rows,
      bytes: status.size,
      seconds,
      ...cost,
    } satisfies ExportMeasured;
  } finally {
    watch.stop();
  }
}

/** The baseline: COPY of the same columns, in the same order, to a file. */
async function copyBaseline(databaseUrl: string, tenant: string, file: string, rows: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const machineStart = cpuTimes();
    const start = performance.now();
    let lines = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        done(null, chunk);
      },
    });
    const tenantLiteral = tenant.replace(/'/g, "''");
    await pipeline(
      client.query(
        copyTo(
          `copy (select ${COLUMNS} from patio_veiculo where tenant = '${tenantLiteral}' order by id) to stdout with (format csv, header true)`,
        ),
      ),
      counter,
      createWriteStream(file),
    );
    const seconds = (performance.now() - start) / 1000;
    const machineBusy = busyBetween(machineStart, cpuTimes());
    if (lines !== rows + 1) throw new Error(`COPY wrote ${lines} lines; expected ${rows + 1}`);
    return { seconds, machineBusy, bytes: (await stat(file)).size };
  } finally {
    await client.end();
  }
}

const mib = (bytes: number) => fmt(bytes / 2 ** 20);

export async function runExports(bench: BenchContext): Promise<void> {
  const dir = await mkdtemp(join(os.tmpdir(), 'ponte-bench-export-'));
  const runs: Array<{
    ponte: ExportMeasured;
    copy: { seconds: number; machineBusy: number; bytes: number };
  }> = [];
  try {
    const sizes = [...(SMALL_ROWS > 0 && SMALL_ROWS < ROWS ? [SMALL_ROWS] : []), ROWS];
    for (const rows of sizes) {
      const tenant = `${bench.tenant}-export-${rows}`;
      const apiKey = await createTenant(bench.ponte, bench.adminToken, tenant);
      const seedStart = performance.now();
      await seed(bench.databaseUrl, tenant, rows);
      console.log(
        `\n(k) export of ${fmt(rows)} Veiculo rows (tenant ${tenant}): seeded in ${fmt((performance.now() - seedStart) / 1000, 1)} s`,
      );
      const ponte = await exportThroughPonte(bench, tenant, apiKey, rows);
      console.log(
        `  Ponte: ${fmt(ponte.seconds, 1)} s, ${fmt(rows / ponte.seconds)} rows/s, ${mib(ponte.bytes)} MiB of CSV; ` +
          `RSS ${mib(ponte.rssBefore)} → peak ${mib(ponte.rssPeak)} MiB (+${mib(ponte.rssPeak - ponte.rssBefore)}), ` +
          `heap peak ${mib(ponte.heapPeak)} MiB; Node CPU ${fmt(ponte.nodeCpuSeconds, 1)} s, machine ${fmt(ponte.machineBusy * 100)} % busy`,
      );
      const file = join(dir, `copy-${rows}.csv`);
      const copy = await copyBaseline(bench.databaseUrl, tenant, file, rows);
      console.log(
        `  COPY TO: ${fmt(copy.seconds, 1)} s, ${fmt(rows / copy.seconds)} rows/s, ${mib(copy.bytes)} MiB, machine ${fmt(copy.machineBusy * 100)} % busy`,
      );
      await rm(file, { force: true });
      runs.push({ ponte, copy });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.log(
    [
      '',
      `## (k) Export of yms/patio Veiculo rows to CSV (${os.availableParallelism()} cores)`,
      '',
      '| rows | CSV MiB | Ponte s | Ponte rows/s | COPY TO s | COPY TO rows/s | Ponte ÷ COPY | RSS before MiB | RSS peak MiB | peak − before MiB | heap peak MiB |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...runs.map(
        ({ ponte: p, copy: c }) =>
          `| ${fmt(p.rows)} | ${mib(p.bytes)} | ${fmt(p.seconds, 1)} | ${fmt(p.rows / p.seconds)} | ${fmt(c.seconds, 1)} | ` +
          `${fmt(p.rows / c.seconds)} | ${ratio(c.seconds, p.seconds)} | ${mib(p.rssBefore)} | ${mib(p.rssPeak)} | ` +
          `${mib(p.rssPeak - p.rssBefore)} | ${mib(p.heapPeak)} |`,
      ),
    ].join('\n'),
  );
}
