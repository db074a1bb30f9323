import cluster, { type Worker } from 'node:cluster';
import pino from 'pino';
import { type App, type AppOptions, buildApp } from './app.ts';
import type { Config } from './core/config.ts';
import { logDestination } from './http/request-log.ts';

// Every core (docs/platform.md "Workers"): on a PostgreSQL server, `ponte serve` runs WORKERS
// processes behind one port (Node's cluster: the primary accepts connections and hands them to the
// workers in turn). Each worker is a whole node (the bridge, jobs, event delivery, the live stream),
// exactly as separate nodes behind a load balancer are: everything they share is in PostgreSQL, under
// the same leases and locks (docs/platform.md "Scale-out", "Shutdown and leases"). The primary serves
// nothing itself: it migrates, forks, creates the first-start tenant once (not once per worker),
// restarts a worker that died, and passes a stop signal on to every worker.

/** A worker that dies this soon after it started waits longer before the next start (up to 30 s). */
const STEADY_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;

/** Whether this process is the primary of a cluster of workers (and serves nothing itself). */
export function isClusterPrimary(config: Config): boolean {
  return cluster.isPrimary && config.workers > 1 && config.databaseUrl !== undefined;
}

/** Whether this process is one of a cluster's workers. */
export const isClusterWorker = (): boolean => cluster.isWorker;

/**
 * The primary: migrations (by building the app once, serving nothing), the workers, then `once`
 * (the first-start tenant) when every worker listens; then it watches and restarts workers until a
 * SIGTERM or SIGINT, which it sends on to each worker as SIGTERM (a second signal, a second SIGTERM:
 * the workers stop at once). It exits when every worker has: 0 if each exited 0.
 */
export async function runPrimary(
  options: AppOptions,
  config: Config,
  once: (built: App, url: string) => Promise<void>,
): Promise<{ url: string }> {
  const log = pino({ level: config.logLevel, base: { pid: process.pid, role: 'primary' } }, logDestination());
  const url = `http://${config.host}:${config.port}`;
  const built = await buildApp({ ...options, config: { ...options.config, runJobs: false } });
  let stopping = false;
  let failed = false;
  let delay = 1000;

  const fork = (): Promise<Worker> => {
    const started = Date.now();
    const worker = cluster.fork();
    worker.once('exit', (code, signal) => {
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
      worker.once('listening', () => resolve(worker));
      worker.once('exit', (code) =>
        reject(new Error(`worker ${worker.process.pid} exited (${code}) before listening`)),
      );
    });
  };

  const stop = (signal: NodeJS.Signals) => {
    const again = stopping;
    stopping = true;
    log.info({ signal, workers: Object.keys(cluster.workers ?? {}).length, again }, 'stopping the workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failed ? 1 : 0);
    // The workers stop within their own SHUTDOWN_TIMEOUT_MS; one that does not is killed.
    if (!again)
      setTimeout(() => {
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
        process.exit(1);
      }, config.shutdownTimeoutMs + 3000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  try {
    await Promise.all(Array.from({ length: config.workers }, fork));
  } catch (err) {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
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
