import autocannon from 'autocannon';

// The load generator, run as a child process by run.ts (one per scenario): autocannon gets its own
// process and event loop instead of sharing the servers' one. It still shares the machine's cores with
// the servers and PostgreSQL, which the report says.

export interface LoadJob {
  url: string;
  /** POST cycles through `bodies`; GET requests the URL (path and query) as it is. */
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Request bodies, cycled through by every connection (each prebuilt once by autocannon). */
  bodies: string[];
  /**
   * Instead of `bodies`: one body per request, `{n}` replaced by a number no other request of the
   * run gets (every connection cycles through the same `bodies`, so they cannot create distinct
   * records: creates with a unique key would be refused from the second connection on).
   */
  template?: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface LoadSummary {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  latencyAverage: number;
  total: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  seconds: number;
}

export type LoadMessage =
  | { type: 'measuring' }
  | { type: 'result'; summary: LoadSummary }
  | { type: 'failed'; message: string };

function send(message: LoadMessage): Promise<void> {
  return new Promise((resolve, reject) =>
    process.send!(message, undefined, {}, (err) => (err ? reject(err) : resolve())),
  );
}

async function run(job: LoadJob): Promise<void> {
  let n = 0;
  const { template } = job;
  const requests: NonNullable<Parameters<typeof autocannon>[0]['requests']> = template
    ? [{ setupRequest: (req) => ({ ...req, body: template.replaceAll('{n}', String(++n)) }) }]
    : job.bodies.map((body) => ({ body }));
  const options =
    job.method === 'POST'
      ? {
          url: job.url,
          method: 'POST',
          headers: { 'content-type': 'application/json', ...job.headers },
          requests,
          connections: job.connections,
          timeout: 10,
        }
      : { url: job.url, method: 'GET', headers: job.headers, connections: job.connections, timeout: 10 };
  if (job.warmupSeconds > 0) await autocannon({ ...options, duration: job.warmupSeconds });
  await send({ type: 'measuring' });
  const r = await autocannon({ ...options, duration: job.seconds });
  await send({
    type: 'result',
    summary: {
      requestsPerSecond: r.requests.mean,
      latencyP50: r.latency.p50,
      latencyP99: r.latency.p99,
      latencyAverage: r.latency.average,
      total: r.requests.total,
      errors: r.errors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      resets: r.resets,
      seconds: r.duration,
    },
  });
}

if (process.send) {
  process.once('message', (job: LoadJob) => {
    run(job)
      .catch((err: unknown) => send({ type: 'failed', message: String((err as Error)?.stack ?? err) }))
      .finally(() => process.disconnect());
  });
}
