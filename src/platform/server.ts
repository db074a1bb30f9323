import type { FastifyBaseLogger } from 'fastify';
import { type App, type AppOptions, buildApp } from './app.ts';
import { type Handed, isClusterPrimary, isClusterWorker, runPrimary, serveFromPrimary } from './cluster.ts';
import { loadConfig } from './core/config.ts';
import { ApiError } from './core/errors.ts';

/**
 * Builds the app, bootstraps the first tenant on an empty database, and listens. With WORKERS > 1
 * on a PostgreSQL server this process becomes the primary of that many workers (cluster.ts), each of
 * which comes back here and serves; the primary answers only the URL.
 */
export async function startServer(options: AppOptions): Promise<(App & { url: string }) | { url: string }> {
  // A closed stdout or stderr (whoever read it is gone: EPIPE) must neither crash the node nor keep
  // it up; what is written there is dropped. The logger's own stream drops it too (pino).
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  const config = loadConfig(process.env, options.config);
  if (isClusterPrimary(config)) return runPrimary(options, config, bootstrapDemo);
  const built = await buildApp(options);
  const { app, platform } = built;
  const { host, port } = platform.config;
  let stopping = false;
  const stop = (why: string) => {
    // A second signal means now: no more waiting for work in progress.
    if (stopping) return void forceExit(built, `${why} again`);
    stopping = true;
    void shutdown(built, why, handed);
  };
  const worker = isClusterWorker();
  // A worker serves the connections its primary accepted on the port (cluster.ts).
  const handed = worker
    ? await serveFromPrimary(app, () => stopping || stop('the primary stops'))
    : undefined;
  const url = worker ? `http://${host}:${port}` : await app.listen({ host, port });
  if (worker) platform.log.info({ url }, `Server listening at ${url} (connections from the primary)`);
  // A cluster's primary bootstraps once, for every worker.
  else await bootstrapDemo(built, url);
  if (worker) {
    // The primary tells its workers to stop, and passes a second stop signal on as SIGTERM; a
    // terminal's Ctrl-C reaches the whole process group, so a worker leaves SIGINT to the primary
    // rather than count it twice. A SIGTERM sent to the whole group (systemd) and the primary's
    // word are one stop, not two.
    process.on('SIGINT', () => {});
    process.on('SIGTERM', () => stop('SIGTERM'));
    // Without its primary a worker gets no more connections: it stops as on SIGTERM.
    process.on('disconnect', () => stop('the primary is gone'));
  } else {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
  }
  return { ...built, url };
}

/**
 * docs/platform.md "Shutdown and leases": stop accepting and claiming at once; finish the requests
 * in flight, the job and the webhook delivery in hand (a resumable job stops at its next safe point
 * and is handed back); release every lease; exit. Past SHUTDOWN_TIMEOUT_MS whatever still runs is
 * cut short, its leases are released, and the process exits anyway.
 */
async function shutdown(built: App, signal: string, handed?: Handed): Promise<void> {
  const { app, platform } = built;
  platform.log.info({ signal }, 'shutting down');
  const deadline = setTimeout(
    () => void forceExit(built, 'the shutdown deadline passed'),
    platform.config.shutdownTimeoutMs,
  );
  // A worker's connections just handed to it are read before idle ones are closed (cluster.ts).
  await handed?.settled();
  // A keep-alive connection is closed as soon as its request in flight is answered, rather than
  // held open until its keep-alive timeout (Node closes only the connections idle when close began).
  const idle = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    // Background work stops now; app.close() stops it too, but only once every connection is gone.
    await Promise.all([app.close(), platform.jobs.stop(), platform.events.stop()]);
    clearTimeout(deadline);
    clearInterval(idle);
    platform.log.info({ signal, leasesHeld: platform.leases.size }, 'stopped');
    process.exit(0);
  } catch (err) {
    platform.log.error({ err }, 'shutdown failed');
    await forceExit(built, 'shutdown failed');
  }
}

/** Hands back every lease still held (within a second: the database may be what hangs) and exits. */
async function forceExit({ platform }: App, why: string): Promise<void> {
  platform.log.warn({ why, leasesHeld: platform.leases.size }, 'exiting now');
  setTimeout(() => process.exit(1), 1000);
  await platform.leases.releaseAll().catch(() => undefined);
  process.exit(1);
}

/**
 * Waits until what the logger was given (the listening line) is written: pino writes to stdout
 * asynchronously, and a line written after the banner would push it up. Within a second at most.
 */
function logWritten(log: FastifyBaseLogger): Promise<void> {
  const flush = (log as { flush?: (done: () => void) => void }).flush;
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1000);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    if (typeof flush === 'function') flush.call(log, done);
    else done();
  });
}

/**
 * First start on an empty database: create the tenant `demo` with a full key and print, once, the
 * key and a ready curl line (the key is never shown again; `ponte key create demo` makes another).
 * Printed after the listening line and last, docs and console at the end, so it is what the terminal
 * shows until requests come (a line each at the default LOG_LEVEL, config `logRequests`).
 */
async function bootstrapDemo({ platform }: App, url: string): Promise<void> {
  if ((await platform.tenants.list()).length > 0) return;
  // Nodes started together on one empty database race here: the one that loses prints nothing.
  const tenant = await platform.tenants.create('demo').catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 409) return undefined;
    throw err;
  });
  if (!tenant) return;
  const key = await platform.credentials.createKey(tenant.name, 'full', 'created at first start');
  // Behind a proxy the configured public address is the one a reader can open (docs/platform.md).
  const base = platform.config.publicUrlConfigured ? platform.config.publicUrl.replace(/\/+$/, '') : url;
  const call = `${base}/t/demo/bridge/1.0/rest/hcm/platform_integration/queries/healthcheck`;
  await logWritten(platform.log);
  process.stdout.write(
    [
      '',
      'First start: created tenant "demo". Its API key, shown only this once:',
      `  ${key.apiKey}`,
      `(\`npx ponte key create demo\` makes another; its admin token is in ${platform.config.dataDir}/admin-token)`,
      'Try it:',
      `  curl -s -X POST -H 'Authorization: ${key.apiKey}' -H 'Content-Type: application/json' -d '{}' ${call}`,
      `Docs:    ${base}/t/demo/docs/`,
      `Console: ${base}/t/demo/console (paste the API key there)`,
      '',
    ].join('\n'),
  );
}
