import cluster, { type Worker } from 'node:cluster';
import { createServer, type Server, type Socket } from 'node:net';
import pino from 'pino';
import { type App, type AppOptions, buildApp } from './app.ts';
import type { Config } from './core/config.ts';
import { logDestination } from './http/request-log.ts';

// Every core (docs/platform.md "Workers"): on a PostgreSQL server, `ponte serve` runs WORKERS
// processes behind one port. Each worker is a whole node (the bridge, jobs, event delivery, the live
// stream), exactly as separate nodes behind a load balancer are: everything they share is in
// PostgreSQL, under the same leases and locks (docs/platform.md "Scale-out", "Shutdown and leases").
// The primary serves nothing itself: it migrates, forks, listens on the port and hands each
// connection it accepts to the next worker in turn, creates the first-start tenant once (not once per
// worker), restarts a worker that died, and stops the workers on a stop signal.
//
// The primary holds the port itself (rather than Node's cluster sharing it) so that a stop can close
// the port first and only then stop the workers: every connection accepted before the port closed is
// already in a worker, which answers it. With Node's own sharing the port closes when the last worker
// leaves, and the connections still waiting in the primary's queue then were reset.

/** How long a stopping worker waits for the first request of a connection just handed to it. */
const FIRST_REQUEST_MS = 1000;

/** A worker's connections from its primary. */
export interface Handed {
  /** Resolves once every connection handed so far sent its first request (or a second passed). */
  settled(): Promise<void>;
}

/** A worker that dies this soon after it started waits longer before the next start (up to 30 s). */
const STEADY_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;

/** What the primary and its workers tell each other, besides the connections themselves. */
type Message =
  | { ponte: 'connection' } // with a socket: serve it (to a worker), hand it on (to the primary)
  | { ponte: 'ready' } // a worker serves from now on
  | { ponte: 'stopping' } // a worker stops: hand it no more connections
  | { ponte: 'stop' }; // to a worker: stop as on SIGTERM

const isMessage = (m: unknown): m is Message =>
  typeof m === 'object' && m !== null && typeof (m as { ponte?: unknown }).ponte === 'string';

/** Whether this process is the primary of a cluster of workers (and serves nothing itself). */
export function isClusterPrimary(config: Config): boolean {
  return cluster.isPrimary && config.workers > 1 && config.databaseUrl !== undefined;
}

/** Whether this process is one of a cluster's workers. */
export const isClusterWorker = (): boolean => cluster.isWorker;

/**
 * The primary: migrations (by building the app once, serving nothing), the workers, then the port,
 * then `once` (the first-start tenant). Then it hands connections to the workers and restarts any
 * that dies until a SIGTERM or SIGINT: it closes the port, and once every connection it accepted is
 * in a worker, tells each worker to stop (a second signal: SIGTERM to each, which stops at once). It
 * exits when every worker has: 0 if each exited 0.
 */
export async function runPrimary(
  options: AppOptions,
  config: Config,
  once: (built: App, url: string) => Promise<void>,
): Promise<{ url: string }> {
  const log = pino({ level: config.logLevel, base: { pid: process.pid, role: 'primary' } }, logDestination());
  const built = await buildApp({ ...options, config: { ...options.config, runJobs: false } });
  const ready: Worker[] = [];
  const waiting: Socket[] = [];
  let turn = 0;
  let sending = 0;
  let stopping = false;
  let failed = false;
  let delay = 1000;

  /** Gives a connection to the next worker that serves; without one, it waits for one. */
  const handOver = (socket: Socket, refusedBy = 0): void => {
    if (socket.destroyed) return;
    if (ready.length === 0 || refusedBy >= ready.length) {
      if (stopping) socket.destroy();
      else waiting.push(socket);
      return;
    }
    const worker = ready[turn++ % ready.length]!;
    sending++;
    worker.send({ ponte: 'connection' } satisfies Message, socket, (err) => {
      sending--;
      // A worker that died meanwhile: the next one takes it.
      if (err) handOver(socket, refusedBy + 1);
      if (sending === 0) handedOver();
    });
  };
  let handedOver = () => {};
  const listener: Server = createServer({ pauseOnConnect: true }, (socket) => handOver(socket));

  const leave = (worker: Worker) => {
    const i = ready.indexOf(worker);
    if (i >= 0) ready.splice(i, 1);
  };
  const fork = (): Promise<Worker> => {
    const started = Date.now();
    const worker = cluster.fork();
    worker.on('message', (m: unknown, socket?: Socket) => {
      if (!isMessage(m)) return;
      if (m.ponte === 'ready' && !stopping) {
        ready.push(worker);
        for (const held of waiting.splice(0)) handOver(held);
      } else if (m.ponte === 'stopping') leave(worker);
      else if (m.ponte === 'connection' && socket) handOver(socket);
    });
    worker.once('exit', (code, signal) => {
      leave(worker);
      if (stopping) {
        if (code !== 0) failed = true;
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failed ? 1 : 0);
        return;
      }
      delay = Date.now() - started < STEADY_MS ? Math.min(delay * 2, MAX_RESTART_DELAY_MS) : 1000;
      log.error(
        { worker: worker.process.pid, code, signal, restartInMs: delay },
        'worker died; restarting it',
      );
      setTimeout(() => {
        if (!stopping) void fork();
      }, delay);
    });
    return new Promise((resolve, reject) => {
      worker.on('message', (m: unknown) => {
        if (isMessage(m) && m.ponte === 'ready') resolve(worker);
      });
      worker.once('exit', (code) =>
        reject(new Error(`worker ${worker.process.pid} exited (${code}) before serving`)),
      );
    });
  };

  const workers = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  const stop = (signal: NodeJS.Signals) => {
    const again = stopping;
    stopping = true;
    log.info({ signal, workers: workers().length, again }, 'stopping the workers');
    if (workers().length === 0) process.exit(failed ? 1 : 0);
    if (again) {
      for (const worker of workers()) worker.process.kill('SIGTERM');
      return;
    }
    // New connections are refused from now on (a load balancer sends them elsewhere); those
    // accepted are all handed to a worker before the workers are told to stop.
    listener.close();
    for (const held of waiting.splice(0)) held.destroy();
    handedOver = () => {
      handedOver = () => {};
      for (const worker of workers())
        if (worker.isConnected()) worker.send({ ponte: 'stop' } satisfies Message);
    };
    if (sending === 0) handedOver();
    // The workers stop within their own SHUTDOWN_TIMEOUT_MS; one that does not is killed.
    setTimeout(() => {
      for (const worker of workers()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, config.shutdownTimeoutMs + 3000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  let url: string;
  try {
    await Promise.all(Array.from({ length: config.workers }, fork));
    url = await new Promise<string>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen({ host: config.host, port: config.port }, () => {
        const address = listener.address();
        const port = typeof address === 'object' && address ? address.port : config.port;
        resolve(`http://${config.host}:${port}`);
      });
    });
  } catch (err) {
    stopping = true;
    for (const worker of workers()) worker.process.kill('SIGTERM');
    await built.app.close();
    throw err;
  }
  log.info({ url, workers: config.workers }, 'workers listening');
  try {
    await once(built, url);
  } finally {
    await built.app.close();
  }
  return { url };
}

/**
 * A worker: serves the connections its primary hands it, on the app's HTTP server (which listens on
 * nothing itself). `onStop` is called when the primary says stop. At the app's close, after its live
 * streams ended, it waits until every connection it was handed is closed (each is answered, then
 * closed: server.ts), so the database closes after the last answer; a connection handed to it after
 * that goes back to the primary, for another worker.
 */
export async function serveFromPrimary(app: App['app'], onStop: () => void): Promise<Handed> {
  const open = new Set<Socket>();
  // Handed, and no request read from it yet: Node counts such a connection idle, and a closing
  // server closes idle connections, so a stop waits for their first request (handed.settled).
  const fresh = new Set<Socket>();
  let drained = false;
  app.addHook('preClose', async () => {
    process.send?.({ ponte: 'stopping' } satisfies Message);
    while (open.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    drained = true;
  });
  await app.ready();
  // Node tracks an HTTP server's connections (idle ones closed at close, the headers and request
  // timeouts) from its 'listening' event on.
  app.server.emit('listening');
  process.on('message', (m: unknown, socket?: Socket) => {
    if (!isMessage(m)) return;
    if (m.ponte === 'stop') onStop();
    if (m.ponte !== 'connection' || !socket) return;
    if (drained) {
      process.send?.({ ponte: 'connection' } satisfies Message, socket);
      return;
    }
    open.add(socket);
    fresh.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      fresh.delete(socket);
    });
    app.server.emit('connection', socket);
    socket.resume();
  });
  app.server.on('request', (req: { socket: Socket }) => fresh.delete(req.socket));
  process.send?.({ ponte: 'ready' } satisfies Message);
  return {
    async settled() {
      const until = Date.now() + FIRST_REQUEST_MS;
      while (fresh.size > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
}
