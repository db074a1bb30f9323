import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Node,
  ok,
  ownerOfPort,
  sleep,
  started,
  startImport,
  tenantWithKey,
  testData,
  waitFor,
} from './processes.ts';

// Every core (docs/platform.md "Workers"): `ponte serve` with WORKERS=2 on PostgreSQL is one port
// served by two worker processes behind a primary. Together they behave as one node: requests are
// answered by both, a job runs once, a webhook is delivered once, the live stream carries events
// committed through the other worker, a crashed worker is replaced, and a SIGTERM stops them all
// with every lease released. The tests read which process answered from the request log's `pid`.

const describeOnServer = describe.skipIf(!process.env.DATABASE_URL);

interface Line {
  pid: number;
  msg: string;
  op?: string;
}

/** The server's JSON log lines so far. */
function logLines(node: Node): Line[] {
  return node
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);
}

const pidsOf = (node: Node, op: string) =>
  new Set(
    logLines(node)
      .filter((l) => l.msg === 'request' && l.op === op)
      .map((l) => l.pid),
  );

/** The workers listening now: the pids of `Server listening` lines whose process is alive. */
function workerPids(node: Node): number[] {
  return [
    ...new Set(
      logLines(node)
        .filter((l) => l.msg.startsWith('Server listening'))
        .map((l) => l.pid),
    ),
  ].filter(alive);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** POST on a connection of its own, so that the primary hands each to the next worker in turn. */
function postAlone(node: Node, path: string, key: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${node.base}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: { authorization: key, 'content-type': 'application/json', connection: 'close' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * GET on a connection of its own; `sent` gets a promise of the request having been written. The
 * answer: its status, or the error's code (a reset is ECONNRESET).
 */
function sendAlone(node: Node, path: string, key: string, sent: Promise<void>[]): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(`${node.base}${path}`, {
      agent: false,
      headers: { authorization: key, connection: 'close' },
    });
    sent.push(new Promise((done) => req.on('finish', done)));
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

describeOnServer('WORKERS=2 on one PostgreSQL database', () => {
  let env: Record<string, string>;
  let node: Node;
  let key: string;
  let db: pg.Client;

  beforeAll(async () => {
    ({ env } = await testData('ponte-workers-'));
    node = await started({ ...env, WORKERS: '2', LOG_LEVEL: 'info' });
    await waitFor(node, 'two workers', () => workerPids(node).length === 2);
    key = await tenantWithKey(node, 'acme');
    db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    return () => db.end();
  });

  it('answers from both workers, never from the primary', async () => {
    const op = 'hcm/platform_integration/queries/healthcheck';
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => postAlone(node, `/t/acme/bridge/1.0/rest/${op}`, key, {})),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    await waitFor(node, 'the request lines', () => pidsOf(node, op).size === 2);
    const pids = pidsOf(node, op);
    expect([...pids].sort()).toEqual(workerPids(node).sort());
    expect(pids.has(node.pid)).toBe(false);
  });

  it('refuses a key on every worker at once when one worker revoked it', async () => {
    const other = await fetch(`${node.base}/admin/tenants/acme/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${node.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope: 'full' }),
    }).then((r) => r.json() as Promise<{ apiKey: string; accessKey: string }>);
    const op = '/t/acme/bridge/1.0/rest/hcm/platform_integration/queries/healthcheck';
    const round = () => Promise.all(Array.from({ length: 10 }, () => postAlone(node, op, other.apiKey, {})));
    // Both workers verified the key and keep it in their caches (TTL 30 s).
    expect(new Set(await round())).toEqual(new Set([200]));
    const revoked = await fetch(`${node.base}/admin/tenants/acme/keys/${other.accessKey}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${node.adminToken}` },
    });
    expect(revoked.status).toBe(200);
    // Each worker heard of it within a second (docs/platform.md "Caches across nodes").
    const started = Date.now();
    let statuses = await round();
    while (statuses.some((s) => s !== 401) && Date.now() - started < 1000) statuses = await round();
    expect(new Set(statuses)).toEqual(new Set([401]));
  });

  it('delivers each webhook once, streams events committed through either worker, runs a job once', async () => {
    const deliveries: number[] = [];
    const hook = createServer((req: IncomingMessage, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        deliveries.push(JSON.parse(raw).id as number);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    afterAll(() => new Promise((resolve) => hook.close(resolve)));
    await ok(node, 'acme', key, 'platform/webhooks/actions/createSubscription', {
      url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
      topics: ['yms/patio/*'],
    });

    // The live stream, on whichever worker takes its connection.
    const streamed: number[] = [];
    let streamPort = 0;
    const stream = request(`${node.base}/t/acme/bridge/1.0/events/stream`, {
      agent: false,
      headers: { authorization: key },
    });
    await new Promise<void>((resolve, reject) => {
      stream.on('response', (res) => {
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          if (buffer.startsWith(':')) resolve();
          for (const m of buffer.matchAll(/^id: (\d+)$/gm)) streamed.push(Number(m[1]));
          buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
        });
      });
      stream.on('socket', (socket) => socket.on('connect', () => (streamPort = socket.localPort ?? 0)));
      stream.on('error', reject);
      stream.end();
    });
    afterAll(() => stream.destroy());
    const streamer = ownerOfPort(Number(new URL(node.base).port), workerPids(node), streamPort);
    expect(streamer, 'the worker holding the live stream').toBeDefined();

    const op = 'yms/patio/events/importAreaEvent';
    const EVENTS = 12;
    for (let i = 0; i < EVENTS; i++) {
      const status = await postAlone(node, `/t/acme/bridge/1.0/rest/${op}`, key, {
        eventpl: { importJobId: `w${i}`, state: 'done' },
      });
      expect(status).toBe(200);
    }
    await waitFor(node, 'the event request lines', () => pidsOf(node, op).size === 2);
    // Some of the events were committed through the worker that does not hold the stream.
    expect([...pidsOf(node, op)].some((pid) => pid !== streamer)).toBe(true);
    await waitFor(node, 'every event on the live stream', () => new Set(streamed).size === EVENTS, 20_000);
    await waitFor(node, 'every webhook delivered', () => new Set(deliveries).size === EVENTS, 30_000);
    // Two nodes polling one outbox: still one delivery per event.
    await sleep(3000);
    expect(deliveries.length).toBe(EVENTS);
    expect(streamed.length).toBe(EVENTS);

    const rows = 300;
    const importJobId = await startImport(
      node,
      'acme',
      key,
      'erp_agr/com_comum/actions/importPessoa',
      `codigo,nome,tipoPessoa\n${Array.from({ length: rows }, (_, i) => `W${i},Pessoa ${i},F`).join('\n')}\n`,
    );
    const job = () =>
      db.query<{ attempts: number; state: string }>('select attempts, state from jobs where id = $1', [
        importJobId,
      ]);
    // The import says done in its last batch; its job, a moment later, when the job's transaction ends.
    await waitFor(node, 'the import and its job to finish', async () => {
      const s = await ok(node, 'acme', key, 'platform/imports/queries/getImport', { importJobId });
      return s.state === 'done' && (await job()).rows[0]?.state === 'done';
    });
    expect((await job()).rows).toEqual([{ attempts: 1, state: 'done' }]);
    const imported = await db.query<{ n: number }>(
      `select count(*)::int as n from com_pessoa where tenant = 'acme' and codigo like 'W%'`,
    );
    expect(imported.rows[0]!.n).toBe(rows);
  }, 90_000);

  it('replaces a worker that dies', async () => {
    const [victim, survivor] = workerPids(node) as [number, number];
    process.kill(victim, 'SIGKILL');
    await waitFor(node, 'a new worker', () => {
      const pids = workerPids(node);
      return pids.length === 2 && !pids.includes(victim) && pids.includes(survivor);
    });
    expect((await ok(node, 'acme', key, 'hcm/platform_integration/queries/healthcheck', {})).status).toBe(
      'UP',
    );
  }, 60_000);

  it('stops every worker on SIGTERM, answering every connection it accepted, releasing every lease', async () => {
    const workers = workerPids(node);
    // A burst of connections, each with its whole request sent, then SIGTERM while they are being
    // answered: the port closes, and every connection accepted before is answered (with Node's own
    // sharing of the port, those still in the primary's queue were reset).
    const BURST = 300;
    const sent: Promise<void>[] = [];
    const answers = Array.from({ length: BURST }, () =>
      sendAlone(node, '/t/acme/bridge/1.0/rest/yms/patio/entities/planta', key, sent),
    );
    await Promise.all(sent);
    await sleep(100);
    const exit = await node.stop('SIGTERM');
    const outcomes = await Promise.all(answers);
    const tally: Record<string, number> = {};
    for (const o of outcomes) tally[o] = (tally[o] ?? 0) + 1;
    expect(tally).toEqual({ 200: BURST });
    expect(exit, node.output()).toEqual({ code: 0, signal: null });
    expect(workers.filter(alive)).toEqual([]);
    const held = await db.query<{ n: number }>(
      `select (select count(*) from jobs where lease_until is not null and state = 'running')
            + (select count(*) from event_cursors where lease_until is not null)
            + (select count(*) from webhook_subscriptions where lease_until is not null) as n`,
    );
    expect(Number(held.rows[0]!.n)).toBe(0);
  }, 30_000);

  it('stops its workers when the primary is killed', async () => {
    const again = await started({ ...env, WORKERS: '2', LOG_LEVEL: 'info' });
    await waitFor(again, 'two workers', () => workerPids(again).length === 2);
    const workers = workerPids(again);
    again.child.kill('SIGKILL');
    await again.exited;
    const deadline = Date.now() + 15_000;
    while (workers.some(alive) && Date.now() < deadline) await sleep(100);
    expect(workers.filter(alive)).toEqual([]);
  }, 60_000);
});
