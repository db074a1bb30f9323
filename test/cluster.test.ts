import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AckPolicy, connect, DeliverPolicy } from 'nats';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balancer } from './balancer.ts';
import {
  freePort,
  type Node,
  ownerOfPort,
  serve,
  startImport,
  tempDir,
  testData,
  waitFor,
} from './processes.ts';

// A cluster as it is deployed (docs/deploy.md): three real `ponte serve` processes on one PostgreSQL
// database (and NATS JetStream where NATS_URL names one), behind HAProxy, round-robin: every request
// of the test goes through the balancer, so each step of a whole truck visit, the import, the
// attachments, the webhooks and the live stream lands on whichever node. The node delivering the
// webhooks is killed with SIGKILL midway. Nothing may be lost: every event of the tenant reaches the
// webhook receiver, the live stream (which reconnects through the balancer with Last-Event-ID) and
// NATS; the import has every row once; the visit finishes. The figures (takeover, duplicates) are
// printed. Each node has a data folder of its own: the files are in the database (the blob store's
// default on a server, docs/deploy.md "Blobs").

const describeOnServer = describe.skipIf(!process.env.DATABASE_URL);
const TENANT = `cluster${randomBytes(3).toString('hex')}`;
const ROWS = 60_000;
/** Yard reports sent while the node dies. */
const FLOW = 200;
const P = 'yms/patio';

// biome-ignore lint/suspicious/noExplicitAny: the scenario reads JSON answers field by field
type Json = any;

/**
 * A webhook receiver: each delivery's event id, when it came, and which of `pids()` sent it (read
 * from the connection while it is open).
 */
async function receiver(pids: () => number[]) {
  const deliveries: Array<{ id: number; at: number; pid: number | undefined }> = [];
  const server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      deliveries.push({
        id: JSON.parse(raw).id,
        at: performance.now(),
        pid: ownerOfPort(req.socket.remotePort!, pids()),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, deliveries };
}

/** The tenant's live stream through the balancer; on a dropped connection it reconnects with Last-Event-ID. */
function liveStream(base: string, key: string) {
  const ids: number[] = [];
  let reconnects = 0;
  let closed = false;
  let current: ReturnType<typeof request> | undefined;
  let ready!: () => void;
  const connected = new Promise<void>((resolve) => (ready = resolve));
  const open = () => {
    const last = ids.at(-1);
    const req = request(`${base}/t/${TENANT}/bridge/1.0/events/stream`, {
      headers: { authorization: key, ...(last === undefined ? {} : { 'last-event-id': String(last) }) },
    });
    current = req;
    const again = () => {
      if (closed || current !== req) return;
      reconnects++;
      setTimeout(open, 100);
    };
    req.on('response', (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        if (buffer.startsWith(':')) ready();
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const id = /^id: (\d+)$/m.exec(buffer.slice(0, end))?.[1];
          if (id) ids.push(Number(id));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      });
      res.on('end', again);
      res.on('error', again);
    });
    req.on('error', again);
    req.end();
  };
  open();
  return {
    ids,
    connected,
    reconnects: () => reconnects,
    close: () => {
      closed = true;
      current?.destroy();
    },
  };
}

describeOnServer('a cluster of three nodes behind a load balancer', () => {
  let nodes: Node[];
  let lb: Node;
  let db: pg.Client;
  let key: string;

  beforeAll(async () => {
    const { env } = await testData('ponte-cluster-');
    db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    // JetStream drops a message id it saw in the last two minutes, and each test database counts
    // outbox ids from 1: this run's ids start past every earlier run's.
    if (process.env.NATS_URL) await db.query(`alter table outbox alter column id restart with ${Date.now()}`);
    const lbPort = await freePort();
    const shared = {
      ...env,
      ADMIN_TOKEN: randomBytes(12).toString('hex'),
      PUBLIC_URL: `http://127.0.0.1:${lbPort}`,
      // A delivery that fails (the receiver is slow on a busy machine) is retried within the test's patience.
      WEBHOOK_BACKOFF_MS: '500',
      WEBHOOK_BACKOFF_MAX_MS: '2000',
      ...(process.env.NATS_URL ? { NATS_URL: process.env.NATS_URL } : {}),
    };
    // Each node a data folder of its own: what they share is the database (blobs included).
    const own = () => ({ ...shared, DATA_DIR: tempDir('ponte-cluster-node-') });
    nodes = await Promise.all([serve(own()), serve(own()), serve(own())]);
    for (const node of nodes)
      await waitFor(
        node,
        'GET /ready',
        async () => (await fetch(`${node.base}/ready`).catch(() => undefined))?.status === 200,
      );
    const front = await balancer(
      nodes.map((n) => n.base),
      lbPort,
    );
    lb = { ...nodes[0]!, base: front.url, alive: () => true };
    const admin = (path: string, body: unknown) =>
      fetch(`${lb.base}/admin${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${shared.ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Json>);
    await admin('/tenants', { name: TENANT });
    key = (await admin(`/tenants/${TENANT}/keys`, { scope: 'full' })).apiKey;
    return () => db.end();
  });

  it('runs a truck visit, an import, attachments, webhooks and the live stream, losing nothing when a node dies', async () => {
    const api = async (
      address: string,
      body: unknown = {},
      method: 'POST' | 'GET' | 'PUT' = 'POST',
    ): Promise<Json> => {
      const res = await fetch(`${lb.base}/t/${TENANT}/bridge/1.0/rest/${address}`, {
        method,
        headers: { authorization: key, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
        ...(method === 'GET' ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      expect(res.status, `${address}: ${text}`).toBe(200);
      return text ? JSON.parse(text) : {};
    };
    const entity = (name: string, body: unknown) => api(`${P}/entities/${name}`, body);

    const hook = await receiver(() => nodes.filter((n) => n.alive()).map((n) => n.pid));
    await api('platform/webhooks/actions/createSubscription', {
      url: hook.url,
      topics: ['yms/patio/*', 'yms/agenda/*'],
    });
    const live = liveStream(lb.base, key);
    await live.connected;
    // The stream carries what is committed after it connected.
    const before = Number((await db.query('select coalesce(max(id), 0) as id from outbox')).rows[0].id);

    // The yard, through whichever node the balancer picks for each call.
    const planta = await entity('planta', {
      codigo: 'UB',
      nome: 'Unidade Barueri',
      fusoHorario: 'America/Sao_Paulo',
    });
    const area = (codigo: string, tipo: string) =>
      entity('area', { plantaId: planta.id, codigo, descricao: codigo, tipo });
    const portaria = await area('PORT', 'PORTARIA');
    const estacionamento = await area('EST', 'ESTACIONAMENTO');
    const doca = await area('DOCA', 'DOCA');
    const saida = await area('SAIDA', 'SAIDA');
    for (const numero of [1, 2]) await entity('vaga', { areaId: estacionamento.id, rua: 1, numero });
    const circuito = await entity('circuito', {
      plantaId: planta.id,
      tipoAgendamentoId: 'DESCARGA',
      codigo: 'DESC',
      nome: 'Descarga',
    });
    const seqs: Json[] = await api(`${P}/entities/circuito/${circuito.id}/sequencias`, [
      { ordem: 1, areaId: portaria.id, nome: 'Portaria', nomeCondicao: 'veiculoNaoBloqueado' },
      { ordem: 2, areaId: estacionamento.id, nome: 'Estacionamento', nomeComando: 'alocarVaga' },
      { ordem: 3, areaId: doca.id, nome: 'Doca' },
      { ordem: 4, areaId: saida.id, nome: 'Saída' },
    ]);
    const veiculo = await entity('veiculo', { placa: 'CLU1A23', tipoVeiculo: 'CAVALO_MECANICO' });
    const motorista = await entity('motorista', { documento: '52998224725', nome: 'Motorista' });
    const composicao = await entity('composicaoVeiculo', { cavaloId: veiculo.id });
    const tipo = await api('yms/agenda/entities/tipoAgendamento', {
      codigo: 'DESC',
      descricao: 'Descarga',
      operacao: 'DESCARGA',
      plantaId: planta.id,
      duracaoSlotMinutos: 30,
      capacidadePorSlot: 10,
    });
    const { agenda } = await api(`${P}/actions/cadastrarAgendamentoSimplificado`, {
      tipoAgendamentoId: tipo.id,
      plantaId: planta.id,
      motoristaId: motorista.id,
      composicaoVeiculoId: composicao.id,
      descricao: 'Descarga no cluster',
    });

    // An attachment of the agenda: uploaded through the balancer, read back through each node.
    const bytes = randomBytes(300_000);
    const upload = await api('yms/agenda/queries/obterUrlUploadAnexo', {
      nomeAnexo: 'nota.pdf',
      agendaId: agenda.id,
    });
    expect(new URL(upload.url).origin).toBe(lb.base);
    const put = await fetch(upload.url, {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': 'application/pdf' },
    });
    expect(put.status, await put.clone().text()).toBeLessThan(300);

    // The import runs as a job on some node while the visit goes on.
    const importJobId = await startImport(
      lb,
      TENANT,
      key,
      'erp_agr/com_comum/actions/importPessoa',
      `codigo,nome,tipoPessoa\n${Array.from({ length: ROWS }, (_, i) => `P${i},Pessoa ${i},F`).join('\n')}\n`,
    );

    await api('yms/agenda/actions/aguardarIntegracao', {
      agenda: agenda.id,
      circuito: circuito.id,
      sequenciaInicial: seqs[0].id,
    });
    await api('yms/agenda/actions/informarIntegracao', {
      agenda: agenda.id,
      servico: 'erp',
      status: 'SUCESSO',
    });
    await waitFor(
      lb,
      'the agenda to start (a job)',
      async () =>
        (await api(`yms/agenda/entities/agenda/${agenda.id}`, undefined, 'GET')).status === 'EXECUTANDO',
    );
    const yard = (evento: string, areaId: string) =>
      api(`${P}/events/${evento}`, {
        plantaId: planta.id,
        areaId,
        veiculoId: veiculo.id,
        motoristaId: motorista.id,
        origem: 'camera-1',
      });
    await yard('vehicleEnteredYard', portaria.id);
    await yard('vehicleEnteredAreaInYard', estacionamento.id);

    // A steady flow of yard reports from four clients, across the kill: a request that was on the
    // dead node when it died may fail (the client would retry it); what was committed must arrive.
    const flow = { sent: 0, failed: 0 };
    const reporter = async (client: number) => {
      for (let i = 0; i < FLOW / 4; i++) {
        const res = await fetch(`${lb.base}/t/${TENANT}/bridge/1.0/rest/${P}/events/importAreaEvent`, {
          method: 'POST',
          headers: { authorization: key, 'content-type': 'application/json' },
          body: JSON.stringify({ eventpl: { importJobId: `c${client}-${i}`, state: 'done' } }),
        }).catch(() => undefined);
        flow.sent++;
        if (res?.status !== 200) flow.failed++;
        await res?.arrayBuffer();
      }
    };
    const reporting = Promise.all([0, 1, 2, 3].map(reporter));

    // The node delivering the webhooks (the one connected to the receiver) dies now.
    await waitFor(lb, 'webhook deliveries to flow', () => hook.deliveries.length > 20);
    const holder = hook.deliveries.at(-1)!.pid;
    const dead = nodes.find((n) => n.pid === holder) ?? nodes[0]!;
    const killedAt = performance.now();
    dead.child.kill('SIGKILL');
    await dead.exited;
    const survivors = nodes.filter((n) => n !== dead);
    lb = { ...survivors[0]!, base: lb.base, alive: () => survivors.some((n) => n.alive()) };

    // The visit goes on through the balancer, which stops sending to the dead node.
    await yard('vehicleEnteredAreaInYard', doca.id);
    await yard('vehicleExitedYard', saida.id);
    const execucao = (await api(`${P}/queries/buscaExecucaoCircuitoPorVeiculo`, { veiculoId: veiculo.id }))
      .execucoes[0];
    expect(execucao.status).toBe('FINALIZADO');
    await reporting;
    await waitFor(
      lb,
      'the agenda to be concluded',
      async () =>
        (await api(`yms/agenda/entities/agenda/${agenda.id}`, undefined, 'GET')).status === 'CONCLUIDO',
    );

    // The attachment, three times through the balancer: the same bytes whichever node serves it.
    const download = await api('yms/agenda/queries/obterUrlDownloadAnexo', {
      nomeAnexo: 'nota.pdf',
      agendaId: agenda.id,
    });
    for (let i = 0; i < 3; i++) {
      const got = Buffer.from(await (await fetch(download.url)).arrayBuffer());
      expect(got.equals(bytes)).toBe(true);
    }

    // The import: every row once, whichever node ran it or took it over.
    let state: Json = {};
    await waitFor(
      lb,
      'the import to finish',
      async () => {
        state = await api('platform/imports/queries/getImport', { importJobId });
        return state.state === 'done' || state.state === 'failed';
      },
      120_000,
    );
    expect(state).toMatchObject({ state: 'done', processed: ROWS, succeeded: ROWS, failed: 0 });
    const pessoas = await db.query(
      'select count(*)::int as n, count(distinct codigo)::int as d from com_pessoa where tenant = $1',
      [TENANT],
    );
    expect(pessoas.rows[0]).toEqual({ n: ROWS, d: ROWS });
    const attempts = (await db.query('select attempts from jobs where id = $1', [importJobId])).rows[0]
      .attempts;

    // Every event of the tenant: to the webhook (at least once), to the live stream (once), to NATS (once).
    const outbox = (
      await db.query<{ id: string; topic: string }>(
        'select id, topic from outbox where tenant = $1 order by id',
        [TENANT],
      )
    ).rows;
    const hooked = outbox
      .filter((e) => e.topic.startsWith('yms/patio/') || e.topic.startsWith('yms/agenda/'))
      .map((e) => Number(e.id));
    await waitFor(
      lb,
      'every webhook delivery',
      () => hooked.every((id) => hook.deliveries.some((d) => d.id === id)),
      60_000,
    );
    // The first delivery after the kill by a surviving node: when the dead node's lease was taken over.
    const resumed = hook.deliveries.find((d) => d.at > killedAt && d.pid !== dead.pid && d.pid !== undefined);
    const all = outbox.map((e) => Number(e.id));
    const streamed = all.filter((id) => id > before);
    await waitFor(
      lb,
      'every event on the live stream',
      () => streamed.every((id) => live.ids.includes(id)),
      30_000,
    );
    live.close();
    expect(live.ids).toEqual(streamed);

    let nats = 'NATS not configured (NATS_URL unset)';
    if (process.env.NATS_URL) {
      const nc = await connect({ servers: process.env.NATS_URL.split(',') });
      try {
        const jsm = await nc.jetstreamManager();
        const stream = process.env.NATS_STREAM ?? 'PONTE_EVENTS';
        const durable = `cluster_${TENANT}`;
        await jsm.consumers.add(stream, {
          durable_name: durable,
          ack_policy: AckPolicy.None,
          deliver_policy: DeliverPolicy.All,
          filter_subject: `ponte.${TENANT}.>`,
        });
        const consumer = await nc.jetstream().consumers.get(stream, durable);
        const got: number[] = [];
        const deadline = Date.now() + 30_000;
        while (got.length < all.length && Date.now() < deadline) {
          const m = await consumer.next({ expires: 1000 });
          if (m) got.push(Number(m.headers?.get('Nats-Msg-Id')));
        }
        await jsm.consumers.delete(stream, durable);
        expect(got).toEqual(all);
        nats = `NATS: ${got.length} of ${all.length} events, each once, in order`;
      } finally {
        await nc.close();
      }
    }

    const ids = hook.deliveries.map((d) => d.id);
    const duplicates = ids.length - new Set(ids).size;
    console.log(
      [
        `cluster of 3 nodes behind HAProxy: node ${dead.pid} (delivering the webhooks) killed with SIGKILL midway`,
        `  webhooks: ${hooked.length} events, ${ids.length} deliveries, ${duplicates} duplicate(s) (at least once: what the dead node sent and had not recorded), ` +
          `resumed ${resumed ? `${((resumed.at - killedAt) / 1000).toFixed(1)} s` : 'n/a'} after the kill`,
        `  yard reports across the kill: ${flow.sent} sent, ${flow.failed} failed (in flight on the dead node)`,
        `  live stream: ${streamed.length} events, each once, ${live.reconnects()} reconnection(s) with Last-Event-ID`,
        `  import: ${ROWS} rows each once, in ${attempts} attempt(s)${attempts > 1 ? ' (taken over from the dead node)' : ''}`,
        `  ${nats}`,
      ].join('\n'),
    );
    for (const node of survivors) expect(node.alive()).toBe(true);
  }, 240_000);
});
