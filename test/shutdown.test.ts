import { createServer, get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, rowsOf } from '../src/platform/core/db/database.ts';
import { ok, sleep, started, startImport, tenantWithKey, testData, waitFor } from './processes.ts';

// SIGTERM (docs/platform.md "Shutdown and leases"): a node in the middle of everything (a request
// in flight, an import running, a webhook delivery in flight, an idle keep-alive connection, an
// open live stream) whose stdout nobody reads any more (the pipe is closed, as when its parent is
// gone) exits within 10 s, having answered the request in flight, and holds no lease afterwards;
// restarted, it finishes the import it handed back.

const ROWS = 20_000;
const pessoas = (n: number) =>
  `codigo,nome,tipoPessoa\n${Array.from({ length: n }, (_, i) => `P${i},Pessoa ${i},F`).join('\n')}\n`;

/** A webhook receiver that answers each delivery after `delayMs` (never, when Infinity). */
async function receiver(delayMs: number) {
  let inFlight = 0;
  let received = 0;
  const server = createServer((req, res) => {
    inFlight++;
    req.resume();
    if (delayMs === Number.POSITIVE_INFINITY) return;
    setTimeout(() => {
      inFlight--;
      received++;
      res.writeHead(204).end();
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, inFlight: () => inFlight, received: () => received };
}

/** Sends a request's headers, asking to continue; resolves once the server has them (100 Continue). */
async function requestInFlight(port: string, key: string, body: string) {
  const socket = connect(Number(port), '127.0.0.1');
  const reply = rawResponse(socket);
  const accepted = new Promise((resolve) =>
    socket.on('data', (chunk) => chunk.includes('100 Continue') && resolve(0)),
  );
  socket.write(
    'POST /t/acme/bridge/1.0/rest/erp_agr/com_comum/actions/criarVinculoTransacao HTTP/1.1\r\n' +
      `Host: 127.0.0.1\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await accepted;
  return { socket, reply };
}

/** Reads one HTTP response from a raw socket until the server closes it. */
function rawResponse(socket: ReturnType<typeof connect>): Promise<string> {
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

/** Runs `query` on the database the node used, after it exited. */
async function inDatabase<T>(env: Record<string, string>, query: ReturnType<typeof sql>): Promise<T[]> {
  const db = await Database.open(
    env.DATABASE_URL
      ? { databaseUrl: env.DATABASE_URL, poolSize: 1 }
      : { dataDir: join(env.DATA_DIR!, 'pglite') },
  );
  try {
    return rowsOf<T>(await db.db.execute(query));
  } finally {
    await db.close();
  }
}

/** How many jobs, cursors and subscriptions are still leased (or, for jobs, running). */
async function leasesHeld(env: Record<string, string>) {
  const [held] = await inDatabase<Record<string, number>>(
    env,
    sql`select
      (select count(*)::int from jobs where lease_until is not null or state = 'running') as jobs,
      (select count(*)::int from event_cursors where lease_token is not null or lease_until is not null) as cursors,
      (select count(*)::int from webhook_subscriptions where lease_token is not null or lease_until is not null)
        as subscriptions`,
  );
  return held;
}

describe('SIGTERM', () => {
  it('finishes what is in flight, releases every lease and exits within 10 s, its stdout closed', async () => {
    const { env, engine } = await testData('ponte-shutdown-');
    const hook = await receiver(300);
    const node = await started({ ...env, LOG_LEVEL: 'info', JOB_POLL_MS: '100', EVENT_POLL_MS: '100' });
    const key = await tenantWithKey(node, 'acme');
    const { port } = new URL(node.base);

    // A subscription with a backlog of events: deliveries go on while the node stops.
    await ok(node, 'acme', key, 'platform/webhooks/actions/createSubscription', {
      url: hook.url,
      topics: ['yms/patio/*'],
    });
    for (let i = 0; i < 30; i++)
      await ok(node, 'acme', key, 'yms/patio/events/importAreaEvent', {
        eventpl: { importJobId: `e${i}`, state: 'done' },
      });
    // An idle keep-alive connection: one request answered, the connection left open.
    const keepAlive = connect(Number(port), '127.0.0.1');
    const idleClosed = rawResponse(keepAlive);
    const answered = new Promise((resolve) =>
      keepAlive.on('data', (chunk) => chunk.includes('UP') && resolve(0)),
    );
    keepAlive.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await answered;
    // An open live stream.
    const stream = await new Promise<IncomingMessage>((resolve) =>
      get(`${node.base}/t/acme/bridge/1.0/events/stream`, { headers: { authorization: key } }, resolve),
    );
    expect(stream.statusCode).toBe(200);
    stream.resume();
    const streamEnded = new Promise((resolve) => stream.once('close', resolve));
    // An import running, and a delivery in flight.
    const importJobId = await startImport(
      node,
      'acme',
      key,
      'erp_agr/com_comum/actions/importPessoa',
      pessoas(ROWS),
    );
    const importStatus = () => ok(node, 'acme', key, 'platform/imports/queries/getImport', { importJobId });
    await waitFor(node, 'the import to run', async () => Number((await importStatus()).processed ?? 0) > 0);
    await waitFor(node, 'a webhook delivery in flight', () => hook.inFlight() > 0);

    // A request in flight: the server has its headers (it answered 100 Continue), not yet its body.
    const body = JSON.stringify({ transacaoId: 'IN-FLIGHT', processo: 'RecebimentoProducao' });
    const { socket, reply } = await requestInFlight(port, key, body);

    // Nobody reads the node's stdout any more: its next log line meets a closed pipe (EPIPE).
    node.child.stdout!.destroy();
    const signalled = performance.now();
    node.child.kill('SIGTERM');
    await sleep(300);
    // The body, and right behind it on the same connection a second request that reaches the node
    // while it closes: served (marked Connection: close), not refused with Fastify's own 503.
    const late = JSON.stringify({ transacaoId: 'DURING-CLOSE', processo: 'RecebimentoProducao' });
    socket.write(
      body +
        'POST /t/acme/bridge/1.0/rest/erp_agr/com_comum/actions/criarVinculoTransacao HTTP/1.1\r\n' +
        `Host: 127.0.0.1\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(late)}\r\n\r\n${late}`,
    );

    const exit = await node.exited;
    const ms = performance.now() - signalled;
    expect(exit, node.output()).toEqual({ code: 0, signal: null });
    expect(ms).toBeLessThan(10_000);
    const replies = await reply;
    expect(replies).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(replies.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 100', 'HTTP/1.1 200', 'HTTP/1.1 200']);
    expect(replies).toMatch(/connection: close/i);
    await idleClosed;
    await streamEnded;
    expect(await leasesHeld(env)).toEqual({ jobs: 0, cursors: 0, subscriptions: 0 });
    const [after] = await inDatabase<{ state: string; attempts: number; answered: number }>(
      env,
      sql`select state, attempts, (select count(*)::int from com_vinculo_transacao
        where transacao_id in ('IN-FLIGHT', 'DURING-CLOSE')) as answered from jobs where id = ${importJobId}`,
    );
    expect(after!.answered).toBe(2);
    // Handed back unfinished (queued, the attempt not counted), or finished just in time.
    expect(['queued', 'done']).toContain(after!.state);

    // Restarted, the node finishes the import it handed back: every row once.
    const again = await started({ ...env, ADMIN_TOKEN: node.adminToken, JOB_POLL_MS: '100' });
    let status: Record<string, unknown> = {};
    await waitFor(again, 'the import to finish', async () => {
      status = await ok(again, 'acme', key, 'platform/imports/queries/getImport', { importJobId });
      return status.state === 'done';
    });
    expect(status).toMatchObject({ processed: ROWS, succeeded: ROWS, failed: 0 });
    console.log(
      `shutdown on ${engine}: exited ${Math.round(ms)} ms after SIGTERM with a request in flight, ` +
        `an import running, a webhook delivery in flight (${hook.received()} delivered), an idle ` +
        `keep-alive connection and a live stream open, stdout closed; no lease left; the import's job ` +
        `${after!.state} (attempts ${after!.attempts}) at exit, done after the restart`,
    );
    await again.stop('SIGTERM');
  }, 120_000);

  it('past SHUTDOWN_TIMEOUT_MS cuts short what still runs, hands its leases back and exits', async () => {
    const { env } = await testData('ponte-deadline-');
    const hook = await receiver(Number.POSITIVE_INFINITY);
    const node = await started({
      ...env,
      EVENT_POLL_MS: '100',
      SHUTDOWN_TIMEOUT_MS: '1000',
      WEBHOOK_TIMEOUT_MS: '60000',
    });
    const key = await tenantWithKey(node, 'acme');
    await ok(node, 'acme', key, 'platform/webhooks/actions/createSubscription', {
      url: hook.url,
      topics: ['yms/patio/*'],
    });
    await ok(node, 'acme', key, 'yms/patio/events/importAreaEvent', {
      eventpl: { importJobId: 'stuck', state: 'done' },
    });
    // A receiver that never answers, and a request whose body never comes.
    await waitFor(node, 'a webhook delivery in flight', () => hook.inFlight() > 0);
    const { reply } = await requestInFlight(new URL(node.base).port, key, '{}');

    const signalled = performance.now();
    node.child.kill('SIGTERM');
    const exit = await node.exited;
    expect(performance.now() - signalled).toBeLessThan(10_000);
    expect(exit, node.output()).toEqual({ code: 1, signal: null });
    expect(await reply).not.toMatch(/HTTP\/1\.1 200/);
    expect(await leasesHeld(env)).toEqual({ jobs: 0, cursors: 0, subscriptions: 0 });
    // The delivery cut short is still to be sent, and was not counted as an attempt.
    expect(
      await inDatabase(env, sql`select state, attempts from webhook_deliveries where tenant = 'acme'`),
    ).toEqual([{ state: 'pending', attempts: 0 }]);
  }, 120_000);
});
