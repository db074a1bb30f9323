import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { compile } from '../src/platform/core/validation.ts';
import { readRows } from '../src/platform/imports/reader.ts';
import { comumImports } from '../src/services/erp_agr/com_comum/imports.ts';
import type { BenchContext } from './entities.ts';
import { busyBetween, cpuTimes, createTenant, envInt, fmt, post, ratio, watchProcess } from './harness.ts';

// (g) Import throughput and memory: a CSV of com_comum `Pessoa` rows, written to a temporary file
// as a stream, uploaded to the signed URL, imported by `importPessoa` as the durable job, and set
// against PostgreSQL's own COPY of the same file into a copy of the table with the same indexes.

const ROWS = envInt('BENCH_IMPORT_ROWS', 1_000_000, 1);
/** A second, smaller import: its peak memory beside the big one's shows memory does not grow. */
const SMALL_ROWS = envInt('BENCH_IMPORT_SMALL_ROWS', 100_000, 0);
const SAMPLE_MS = 200;
const POLL_MS = 200;

const HEADER = [
  'codigo',
  'nome',
  'nomeFantasia',
  'tipoPessoa',
  'cpfCnpj',
  'inscricaoEstadual',
  'email',
  'telefone',
  'situacao',
  'cliente',
  'fornecedor',
  'representante',
  'produtor',
];
/** The table's columns in the file's order, for COPY. */
const COPY_COLUMNS = [
  'codigo',
  'nome',
  'nome_fantasia',
  'tipo_pessoa',
  'cpf_cnpj',
  'inscricao_estadual',
  'email',
  'telefone',
  'situacao',
  'cliente',
  'fornecedor',
  'representante',
  'produtor',
];

const FIRST = ['Ana', 'João', 'Maria', 'José', 'Antônio', 'Francisca', 'Carlos', 'Paulo', 'Adriana', 'Lucas'];
const FIRST2 = [
  'Beatriz',
  'Luiz',
  'Helena',
  'Pedro',
  'Márcia',
  'Rafael',
  'Sônia',
  'Tiago',
  'Vera',
  'Igor',
  'Rita',
];
const LAST = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
];

/**
 * One person: 1 in 5 a company (a CNPJ, a quoted name with a comma), the others natural persons (a
 * CPF); documents as digits, every boolean and situacao written, so COPY reads the same file.
 */
function line(i: number): string {
  const codigo = `P${String(i).padStart(9, '0')}`;
  const juridica = i % 5 === 0;
  const a = LAST[i % LAST.length]!;
  const b = LAST[Math.floor(i / 7) % LAST.length]!;
  const nome = juridica
    ? `"${a}, ${b} & Cia Agro ${i}"`
    : `${FIRST[i % FIRST.length]} ${FIRST2[Math.floor(i / 3) % FIRST2.length]} ${a} ${b}`;
  const fantasia = juridica ? `Agro ${a} ${i % 1000}` : i % 3 === 0 ? FIRST[i % FIRST.length]! : '';
  const documento = juridica ? String(10_000_000_000_000 + i) : String(10_000_000_000 + i);
  const ie = i % 2 === 0 ? String(100_000_000 + (i % 900_000_000)) : '';
  const email = `${codigo.toLowerCase()}@exemplo.com.br`;
  const telefone = `(44) 9${String(i % 100_000_000).padStart(8, '0')}`;
  const situacao = i % 20 === 0 ? 'Inativo' : i % 50 === 1 ? 'Bloqueado' : 'Ativo';
  return (
    `${codigo},${nome},${fantasia},${juridica ? 'J' : 'F'},${documento},${ie},${email},${telefone},${situacao},` +
    `${i % 10 < 7},${i % 4 === 0},${i % 25 === 0},${i % 3 === 0}\n`
  );
}

/** Writes the CSV as a stream with back-pressure: never more than one chunk of lines in memory. */
async function writeCsv(file: string, rows: number): Promise<number> {
  const out = createWriteStream(file);
  out.write(`${HEADER.join(',')}\n`);
  for (let i = 1; i <= rows; ) {
    let chunk = '';
    for (const end = Math.min(rows, i + 999); i <= end; i++) chunk += line(i);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return (await stat(file)).size;
}

/** PUT of the file, streamed from disk, to the signed URL (on the app's real address). */
async function upload(url: string, file: string, size: number): Promise<void> {
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      { method: 'PUT', headers: { 'content-type': 'text/csv', 'content-length': String(size) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    pipeline(createReadStream(file), req).catch(reject);
  });
  if (status !== 200) throw new Error(`upload answered ${status}`);
}

/**
 * Time spent between pg's query() and its result, by kind of statement, while `work` runs: the
 * batch transaction's first statement (`synchronous_commit` off; it carries BEGIN and the tenant
 * settings), the merge into com_pessoa (imports/merge.ts), the progress row and the commit. A
 * statement sent with the transaction's opening (a pg submittable) ends with its 'end'.
 * Transactions that do not write for the import (getImport polls) are not counted.
 */
async function timeStatements<T>(work: () => Promise<T>) {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const ms = { opening: 0, merge: 0, progress: 0, commit: 0, batches: 0 };
  /** Connections whose open transaction wrote for the import: their commit counts. */
  const writing = new WeakSet<object>();
  proto.query = function (this: object, ...args: unknown[]) {
    const result = original.apply(this, args);
    const first = args[0] as { text?: unknown; submit?: unknown } | string | undefined;
    const text = typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : undefined;
    const kind =
      text === undefined
        ? undefined
        : text.startsWith('insert into "com_pessoa"')
          ? 'merge'
          : text.startsWith("select set_config('synchronous_commit'")
            ? 'opening'
            : text.startsWith('update "imports"')
              ? 'progress'
              : text === 'commit'
                ? 'commit'
                : undefined;
    if (!kind || (kind === 'commit' && !writing.has(this))) return result;
    if (kind === 'commit') writing.delete(this);
    else writing.add(this);
    if (kind === 'merge') ms.batches++;
    const start = performance.now();
    const done = () => {
      ms[kind] += performance.now() - start;
    };
    if (result instanceof Promise) return result.finally(done);
    // A submitted query: it ends with 'end', or fails.
    const events = result as NodeJS.EventEmitter;
    let ended = false;
    const once = () => {
      if (!ended) done();
      ended = true;
    };
    events.once('end', once);
    events.once('error', once);
    return result;
  };
  try {
    return { result: await work(), ms };
  } finally {
    proto.query = original;
  }
}

interface ImportMeasured {
  rows: number;
  bytes: number;
  seconds: number;
  rssBefore: number;
  rssPeak: number;
  heapPeak: number;
  nodeCpuSeconds: number;
  machineBusy: number;
  ms: { opening: number; merge: number; progress: number; commit: number; batches: number };
}

async function importThroughPonte(
  bench: BenchContext,
  tenant: string,
  apiKey: string,
  file: string,
  bytes: number,
  rows: number,
): Promise<ImportMeasured> {
  const auth = { authorization: apiKey };
  const api = `${bench.ponte}/t/${tenant}/bridge/1.0/rest`;
  const signed = await post(
    `${api}/platform/imports/actions/requestUploadUrl`,
    { fileName: 'pessoas.csv' },
    auth,
  );
  if (signed.status !== 200) throw new Error(`requestUploadUrl answered ${signed.status} ${signed.text}`);
  const { arquivo, uploadUrl } = signed.json as { arquivo: string; uploadUrl: string };
  // The signature covers the path and query, not the host: send it to where the app listens.
  const target = new URL(uploadUrl);
  const uploadStart = performance.now();
  await upload(`${bench.ponte}${target.pathname}${target.search}`, file, bytes);
  console.log(
    `  uploaded ${fmt(bytes / 2 ** 20, 1)} MiB in ${fmt((performance.now() - uploadStart) / 1000, 1)} s`,
  );

  await quiet(bench.databaseUrl);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const watch = watchProcess(SAMPLE_MS);
  const start = performance.now();
  try {
    const { result: status, ms } = await timeStatements(async () => {
      const started = await post(
        `${api}/erp_agr/com_comum/actions/importPessoa`,
        { config: { arquivo } },
        auth,
      );
      if (started.status !== 200) throw new Error(`importPessoa answered ${started.status} ${started.text}`);
      const { importJobId } = started.json as { importJobId: string };
      // The app runs with runJobs off (the load scenarios want a quiet worker): run the queue now.
      let drained = false;
      const draining = bench.platform.jobs.drain().finally(() => {
        drained = true;
      });
      let lastLog = performance.now();
      for (;;) {
        const wasDrained = drained;
        const res = await post(`${api}/platform/imports/queries/getImport`, { importJobId }, auth);
        const s = res.json as { state: string; processed: number; succeeded: number; failed: number };
        if (res.status !== 200) throw new Error(`getImport answered ${res.status} ${res.text}`);
        if (s.state === 'done' || s.state === 'failed') {
          await draining;
          return { ...s, text: res.text };
        }
        if (wasDrained) throw new Error(`the job queue is idle but the import is ${res.text}`);
        if (performance.now() - lastLog > 10_000) {
          lastLog = performance.now();
          const elapsed = (lastLog - start) / 1000;
          console.log(
            `  ${fmt(elapsed)} s: ${fmt(s.processed)} rows, ${fmt(s.processed / elapsed)} rows/s, ` +
              `RSS ${fmt(process.memoryUsage().rss / 2 ** 20)} MiB`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    });
    const seconds = (performance.now() - start) / 1000;
    const cost = watch.stop();
    if (status.state !== 'done' || status.succeeded !== rows || status.failed !== 0)
      throw new Error(`the import of ${rows} rows ended as ${status.text}`);
    return {
      rows,
      bytes,
      seconds,
      ...cost,
      ms,
    };
  } finally {
    watch.stop();
  }
}

/** A checkpoint, so that none falls in the measurement; no autovacuum of the table either (as for COPY's). */
async function quiet(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('alter table com_pessoa set (autovacuum_enabled = false)');
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
}

async function countFor(databaseUrl: string, table: string, tenant: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from ${table} where tenant = $1`,
      [tenant],
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

/** The baseline: COPY of the same file into a fresh copy of com_pessoa with the same indexes. */
async function copyBaseline(databaseUrl: string, tenant: string, file: string, rows: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('drop table if exists bench_pessoa_copy');
    await client.query('create table bench_pessoa_copy (like com_pessoa including all)');
    await client.query('alter table bench_pessoa_copy set (autovacuum_enabled = false)');
    // The tenant column defaults to the setting, as in the app's transactions.
    await client.query(`select set_config('ponte.tenant', $1, false)`, [tenant]);
    await client.query('checkpoint');
    const machineStart = cpuTimes();
    const start = performance.now();
    const copy = client.query(
      copyFrom(
        `copy bench_pessoa_copy (${COPY_COLUMNS.join(', ')}) from stdin with (format csv, header true)`,
      ),
    );
    await pipeline(createReadStream(file), copy);
    const seconds = (performance.now() - start) / 1000;
    const machineBusy = busyBetween(machineStart, cpuTimes());
    const { rows: counted } = await client.query<{ n: string }>(
      'select count(*) as n from bench_pessoa_copy where tenant = $1',
      [tenant],
    );
    if (copy.rowCount !== rows || Number(counted[0]!.n) !== rows)
      throw new Error(`COPY took ${copy.rowCount} rows, the table has ${counted[0]!.n}; expected ${rows}`);
    await client.query('drop table bench_pessoa_copy');
    return { seconds, machineBusy };
  } finally {
    await client.end();
  }
}

/** Reading and validating the file alone, as the import job does, without writing anything. */
async function readAndValidate(file: string): Promise<number> {
  const validate = compile(comumImports.Pessoa!.row, 'query');
  const start = performance.now();
  let valid = 0;
  for await (const item of readRows(createReadStream(file), 'CSV')) {
    if ('value' in item && validate(item.value)) valid++;
  }
  const seconds = (performance.now() - start) / 1000;
  return valid === 0 ? Number.NaN : seconds;
}

const mib = (bytes: number) => fmt(bytes / 2 ** 20);

export async function runImports(bench: BenchContext): Promise<void> {
  const dir = await mkdtemp(join(os.tmpdir(), 'ponte-bench-csv-'));
  const runs: Array<{
    ponte: ImportMeasured;
    copy: { seconds: number; machineBusy: number };
    parse?: number;
  }> = [];
  try {
    const sizes = [...(SMALL_ROWS > 0 && SMALL_ROWS < ROWS ? [SMALL_ROWS] : []), ROWS];
    for (const rows of sizes) {
      // Each size in a tenant of its own, so each count is that import's.
      const tenant = rows === ROWS ? bench.tenant : `${bench.tenant}-small`;
      const apiKey = rows === ROWS ? bench.apiKey : await createTenant(bench.ponte, bench.adminToken, tenant);
      const file = join(dir, `pessoas-${rows}.csv`);
      const genStart = performance.now();
      const bytes = await writeCsv(file, rows);
      console.log(
        `\n(g) import of ${fmt(rows)} Pessoa rows (tenant ${tenant}): wrote ${mib(bytes)} MiB of CSV in ` +
          `${fmt((performance.now() - genStart) / 1000, 1)} s`,
      );
      const ponte = await importThroughPonte(bench, tenant, apiKey, file, bytes, rows);
      const counted = await countFor(bench.databaseUrl, 'com_pessoa', tenant);
      if (counted !== rows) throw new Error(`com_pessoa has ${counted} rows for ${tenant}, expected ${rows}`);
      console.log(
        `  Ponte: ${fmt(ponte.seconds, 1)} s, ${fmt(rows / ponte.seconds)} rows/s, succeeded ${fmt(rows)}, ` +
          `failed 0, count(*) ${fmt(counted)}; RSS ${mib(ponte.rssBefore)} → peak ${mib(ponte.rssPeak)} MiB ` +
          `(+${mib(ponte.rssPeak - ponte.rssBefore)}), heap peak ${mib(ponte.heapPeak)} MiB; ` +
          `Node CPU ${fmt(ponte.nodeCpuSeconds, 1)} s, machine ${fmt(ponte.machineBusy * 100)} % busy; ` +
          `in pg (${ponte.ms.batches} merges): opening ${fmt(ponte.ms.opening / 1000, 1)} s, merge ${fmt(ponte.ms.merge / 1000, 1)} s, ` +
          `progress ${fmt(ponte.ms.progress / 1000, 1)} s, ` +
          `commit ${fmt(ponte.ms.commit / 1000, 1)} s`,
      );
      const copy = await copyBaseline(bench.databaseUrl, tenant, file, rows);
      console.log(
        `  COPY: ${fmt(copy.seconds, 1)} s, ${fmt(rows / copy.seconds)} rows/s, machine ${fmt(copy.machineBusy * 100)} % busy`,
      );
      // Once, on the first (smallest) file: what reading alone costs, for the split below.
      const parse =
        rows === sizes[0] && process.env.BENCH_IMPORT_PARSE !== '0' ? await readAndValidate(file) : undefined;
      if (parse !== undefined)
        console.log(`  reading and validating the file alone (no database): ${fmt(parse, 1)} s`);
      runs.push({ ponte, copy, ...(parse !== undefined ? { parse } : {}) });
      await rm(file, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  const big = runs.at(-1)!;
  const parsed = runs.find((r) => r.parse !== undefined);
  console.log(
    [
      '',
      `## (g) Import of com_comum Pessoa rows from CSV (${os.availableParallelism()} cores)`,
      '',
      '| rows | CSV MiB | Ponte s | Ponte rows/s | COPY s | COPY rows/s | Ponte ÷ COPY | RSS before MiB | RSS peak MiB | peak − before MiB | heap peak MiB |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...runs.map(
        ({ ponte: p, copy: c }) =>
          `| ${fmt(p.rows)} | ${mib(p.bytes)} | ${fmt(p.seconds, 1)} | ${fmt(p.rows / p.seconds)} | ${fmt(c.seconds, 1)} | ` +
          `${fmt(p.rows / c.seconds)} | ${ratio(c.seconds, p.seconds)} | ${mib(p.rssBefore)} | ${mib(p.rssPeak)} | ` +
          `${mib(p.rssPeak - p.rssBefore)} | ${mib(p.heapPeak)} |`,
      ),
      '',
      `Where the ${fmt(big.ponte.rows)}-row import's ${fmt(big.ponte.seconds, 1)} s went:`,
      '',
      '| part | seconds | share of the wall time |',
      '|---|---:|---:|',
      ...(
        [
          [
            "each batch transaction's first statement, sent with BEGIN and the settings",
            big.ponte.ms.opening,
          ],
          [
            `the ${fmt(big.ponte.ms.batches)} merges: INSERT ... SELECT ... FROM unnest(...) ON CONFLICT`,
            big.ponte.ms.merge,
          ],
          ['progress row updates', big.ponte.ms.progress],
          ['commits', big.ponte.ms.commit],
        ] as const
      ).map(
        ([what, ms]) =>
          `| waiting on PostgreSQL: ${what} | ${fmt(ms / 1000, 1)} | ${fmt((100 * ms) / 1000 / big.ponte.seconds)} % |`,
      ),
      ...(parsed?.parse !== undefined
        ? [
            `| (for scale: reading and validating the file alone, no database${parsed === big ? '' : `, measured on ${fmt(parsed.ponte.rows)} rows and scaled`}) | ` +
              `${fmt((parsed.parse * big.ponte.rows) / parsed.ponte.rows, 1)} | |`,
          ]
        : []),
      `| Node process CPU during the import (all of it) | ${fmt(big.ponte.nodeCpuSeconds, 1)} | ${fmt((100 * big.ponte.nodeCpuSeconds) / big.ponte.seconds)} % of one core |`,
    ].join('\n'),
  );
}
