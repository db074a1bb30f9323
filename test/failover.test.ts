import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Node,
  ok,
  ownerOfPort,
  started,
  startImport,
  tenantWithKey,
  testData,
  waitFor,
} from './processes.ts';

// Failover (docs/platform.md "Shutdown and leases"): two real servers on one PostgreSQL database,
// with the default lease (LEASE_SECONDS 10) and poll (1 s). The node delivering a subscription's
// webhooks is killed with SIGKILL in the middle of a delivery; the other node resumes the deliveries
// within 15 s, from the delivery the dead node had in flight, none lost. Then the node running an
// import is killed, and the other resumes the import within 15 s, every row once. Two nodes need a
// server database: PGlite is one process on one folder. Both share DATA_DIR, the blob folder, as
// the nodes of one deployment must.

const EVENTS = 60;
const ROWS = 20_000;

interface Delivery {
  id: number;
  at: number;
  port: number;
}

/** A webhook receiver that answers after 20 ms; `stall()` makes it hold the next delivery unanswered. */
async function receiver() {
  const deliveries: Delivery[] = [];
  let stalling = false;
  let stalled: { delivery: Delivery; res: ServerResponse } | undefined;
  const server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const delivery = {
        id: JSON.parse(raw).id as number,
        at: performance.now(),
        port: req.socket.remotePort!,
      };
      deliveries.push(delivery);
      if (stalling && !stalled) {
        stalled = { delivery, res };
        return;
      }
      setTimeout(() => res.writeHead(204).end(), 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    stall: () => {
      stalling = true;
    },
    stalled: () => stalled?.delivery,
  };
}

const describeOnServer = describe.skipIf(!process.env.DATABASE_URL);

describeOnServer('failover between two nodes on one PostgreSQL database', () => {
  let env: Record<string, string>;
  let nodes: Node[];
  let key: string;
  /** The node started again after the first kill, for the second test. */
  let replacement: Promise<Node>;
  let db: pg.Client;

  beforeAll(async () => {
    ({ env } = await testData('ponte-failover-'));
    nodes = await Promise.all([started(env), started(env)]);
    key = await tenantWithKey(nodes[0]!, 'acme');
    db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    return () => db.end();
  });

  it('resumes the webhook deliveries of a node killed mid-delivery within 15 s', async () => {
    const hook = await receiver();
    const [first] = nodes as [Node, Node];
    await ok(first, 'acme', key, 'platform/webhooks/actions/createSubscription', {
      url: hook.url,
      topics: ['yms/patio/*'],
    });
    const emit = (node: Node, i: number) =>
      ok(node, 'acme', key, 'yms/patio/events/importAreaEvent', {
        eventpl: { importJobId: `e${i}`, state: 'done' },
      });
    for (let i = 0; i < EVENTS; i++) await emit(first, i);

    // Whichever node holds the subscription sends the delivery that the receiver now holds: that one dies.
    await waitFor(first, 'deliveries to flow', () => hook.deliveries.length >= 10);
    hook.stall();
    await waitFor(first, 'a delivery held in flight', () => hook.stalled() !== undefined);
    const holder = ownerOfPort(
      hook.stalled()!.port,
      nodes.map((n) => n.pid),
    );
    const dead = nodes.find((n) => n.pid === holder);
    expect(dead, 'the node holding the subscription').toBeDefined();
    const killed = performance.now();
    dead!.child.kill('SIGKILL');
    await dead!.exited;
    const survivor = nodes.find((n) => n !== dead)!;
    nodes = [survivor];
    replacement = started(env);

    await waitFor(survivor, 'deliveries to resume', () => hook.deliveries.some((d) => d.at > killed));
    const resumed = hook.deliveries.find((d) => d.at > killed)!;
    const gap = resumed.at - killed;
    // Events emitted after the kill go through the survivor's own fan-out as well.
    for (let i = EVENTS; i < EVENTS + 5; i++) await emit(survivor, i);
    await waitFor(
      survivor,
      'every event delivered',
      () => new Set(hook.deliveries.map((d) => d.id)).size === EVENTS + 5,
    );

    console.log(
      `failover of webhooks: deliveries resumed ${(gap / 1000).toFixed(1)} s after SIGKILL of the node ` +
        `delivering (LEASE_SECONDS 10, EVENT_POLL_MS 1000), from the delivery it had in flight`,
    );
    expect(gap).toBeLessThan(15_000);
    // The survivor starts again from the delivery the dead node had in flight (at least once).
    expect(resumed.id).toBe(hook.stalled()!.id);
    const firsts = [...new Map(hook.deliveries.map((d) => [d.id, d] as const).reverse()).values()]
      .reverse()
      .map((d) => d.id);
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
  }, 60_000);

  it('resumes the import of a node killed mid-run within 15 s, every row once', async () => {
    const [runner] = nodes as [Node];
    const other = await replacement;
    // The other node is frozen while the import is claimed, so that the runner is the one running it.
    other.child.kill('SIGSTOP');
    const importJobId = await startImport(
      runner,
      'acme',
      key,
      'erp_agr/com_comum/actions/importPessoa',
      `codigo,nome,tipoPessoa\n${Array.from({ length: ROWS }, (_, i) => `P${i},Pessoa ${i},F`).join('\n')}\n`,
    );
    const status = (node: Node) =>
      ok(node, 'acme', key, 'platform/imports/queries/getImport', { importJobId });
    await waitFor(runner, 'the import to run', async () => Number((await status(runner)).processed ?? 0) > 0);
    other.child.kill('SIGCONT');
    const attempts = async () =>
      (await db.query<{ attempts: number }>('select attempts from jobs where id = $1', [importJobId]))
        .rows[0]!.attempts;
    const claims = await attempts();
    const killed = performance.now();
    runner.child.kill('SIGKILL');
    await runner.exited;
    const atKill = Number((await status(other)).processed);

    // Taken over: the other node claimed the job (a new attempt).
    await waitFor(other, 'the import to be taken over', async () => (await attempts()) > claims, 30_000);
    const gap = performance.now() - killed;
    let last: Record<string, unknown> = {};
    await waitFor(other, 'the import to finish', async () => {
      last = await status(other);
      return last.state === 'done';
    });
    console.log(
      `failover of jobs: the import was taken over ${(gap / 1000).toFixed(1)} s after SIGKILL of the ` +
        `node running it (${atKill} of ${ROWS} rows done at the kill), and finished`,
    );
    expect(gap).toBeLessThan(15_000);
    expect(last).toMatchObject({ processed: ROWS, succeeded: ROWS, failed: 0 });
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n, count(distinct codigo)::int as d from com_pessoa where tenant = 'acme'`,
    );
    expect(rows[0]).toEqual({ n: ROWS, d: ROWS });
  }, 60_000);
});
