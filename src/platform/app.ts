import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { CredentialStore } from './auth/credentials.ts';
import { blobPruner } from './blobs/prune.ts';
import { type BlobStore, openBlobStore } from './blobs/store.ts';
import { type Config, loadConfig } from './core/config.ts';
import { run } from './core/context.ts';
import { Database } from './core/db/database.ts';
import type { EntityDeclaration, Platform, ServiceDeclaration } from './core/declarations.ts';
import { Leases } from './core/lease.ts';
import type { MetadataProvider } from './core/ports.ts';
import { ServiceRegistry } from './core/registry.ts';
import { runChecks } from './core/standard.ts';
import { TenantDirectory } from './core/tenants.ts';
import { compile } from './core/validation.ts';
import { EntityEngine } from './entities/engine.ts';
import { EventDispatcher } from './events/dispatcher.ts';
import { NatsPublisher } from './events/nats.ts';
import { WebhookDeliverer, webhookFanOut } from './events/webhooks.ts';
import { FunctionRuntime } from './functions/runtime.ts';
import { registerAdmin } from './http/admin.ts';
import { registerBlobRoutes } from './http/blobs.ts';
import { registerBridge } from './http/bridge.ts';
import { registerConsole } from './http/console.ts';
import { registerDocs } from './http/docs.ts';
import {
  clientErrorHandler,
  frameworkErrors,
  installErrorHandling,
  MAX_PARAM_LENGTH,
} from './http/errors.ts';
import { installInputParsing } from './http/input.ts';
import { LiveStream, registerLiveStream } from './http/live.ts';
import { logDestination, requestLogController } from './http/request-log.ts';
import { JobQueue } from './jobs/queue.ts';

// The app factory (STYLE.md "App factory apart from listening"): builds the whole platform and its
// HTTP surface; `server.ts` only listens. Tests call `app.inject()` on what this returns.

export interface AppOptions {
  config?: Partial<Config>;
  /** An open database (tests pass a clone of a migrated template); otherwise one is opened from config. */
  db?: Database;
  /**
   * The services this build can serve (src/services/index.ts, handed in by the CLI and the tests:
   * the platform imports none); PONTE_SERVICES picks a subset of them.
   */
  services: ServiceDeclaration[];
  /** Apply migrations at start (default true). */
  migrate?: boolean;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
}

/**
 * The platform as this composition built it: the core's interfaces (core/declarations.ts
 * `Platform`) with the runtimes behind them, which only the composition and the tests reach as such.
 */
export interface AppPlatform extends Platform {
  registry: ServiceRegistry;
  credentials: CredentialStore;
  jobs: JobQueue;
  blobs: BlobStore;
  events: EventDispatcher;
}

export interface App {
  app: FastifyInstance;
  platform: AppPlatform;
}

function selectServices(all: ServiceDeclaration[], wanted: string[]): ServiceDeclaration[] {
  if (wanted.length === 0) return all;
  const unknown = wanted.filter((id) => !all.some((s) => s.id === id));
  if (unknown.length) throw new Error(`PONTE_SERVICES names unknown services: ${unknown.join(', ')}`);
  // A served service brings the services it calls, so `ctx.call` always has its target in process.
  const chosen = new Set<string>();
  const add = (id: string) => {
    if (chosen.has(id)) return;
    chosen.add(id);
    for (const dep of all.find((s) => s.id === id)?.dependencies ?? []) add(dep);
  };
  for (const id of [...wanted, 'platform/authentication']) add(id);
  return all.filter((s) => chosen.has(s.id));
}

export async function buildApp(options: AppOptions): Promise<App> {
  const config = loadConfig(process.env, options.config);
  const db =
    options.db ??
    (await Database.open({
      databaseUrl: config.databaseUrl,
      poolSize: config.databasePoolSize,
      dataDir: join(config.dataDir, 'pglite'),
    }));
  if (options.migrate !== false) await db.migrate();

  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization'],
      stream: logDestination(),
    },
    // One line per request when LOG_LEVEL asks for it (README "Running", http/request-log.ts);
    // errors are logged by the error handler anyway.
    logController: requestLogController(config.logRequests),
    bodyLimit: config.bodyLimit,
    // HEAD answers wherever GET does, without the body (pages, documents, entity reads).
    exposeHeadRoutes: true,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Even what the router and Node's HTTP parser refuse answers the error body (docs/platform.md).
    frameworkErrors: frameworkErrors(config.bodyLimit),
    clientErrorHandler,
    // A request that reaches a closing node on a connection already open is served (Fastify marks
    // the answer `Connection: close`), not refused with Fastify's own 503 body: the node is whole
    // until every connection is gone (docs/platform.md "Shutdown and leases").
    return503OnClosing: false,
  });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    compile(schema as never, httpPart === 'querystring' ? 'query' : 'body'),
  );

  installInputParsing(app, config.bodyTimeoutMs);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandling(app, config.bodyLimit);

  const now = options.now ?? (() => new Date());
  const registry = new ServiceRegistry(selectServices(options.services, config.services));
  let metadata: MetadataProvider = () => {
    throw new Error('metadata requested before the bridge was registered');
  };
  const blobs = await openBlobStore(db, config, now);
  const platform: AppPlatform = {
    config,
    db,
    registry,
    tenants: new TenantDirectory(db, config.credentialCacheTtlMs),
    credentials: new CredentialStore(
      db,
      config.credentialCacheTtlMs,
      { access: config.accessTokenTtlSeconds, refresh: config.refreshTokenTtlSeconds },
      now,
    ),
    jobs: new JobQueue(config.jobPollMs),
    blobs,
    events: new EventDispatcher(config.eventPollMs),
    leases: new Leases(config.leaseSeconds, app.log),
    metadata: (id, format, address) => metadata(id, format, address),
    functions: new FunctionRuntime(db, blobs),
    log: app.log,
    now,
  };
  platform.jobs.attach(platform);
  // The outbox's consumers (docs/events.md): webhooks always, NATS when configured; the live stream
  // is per node and follows the outbox on its own.
  platform.events.attach(platform);
  platform.events.addConsumer(webhookFanOut(platform));
  platform.events.addWorker(new WebhookDeliverer(platform));
  platform.events.addWorker(blobPruner(platform));
  const nats = config.natsUrl ? new NatsPublisher(platform) : undefined;
  if (nats) platform.events.addConsumer(nats.consumer());
  subscribeServices(platform);
  const live = new LiveStream(platform);
  platform.events.onWake(() => live.wake());

  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'UP' }));
  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    const checks = await runChecks(platform);
    const up = checks.every((c) => c.status === 'UP');
    return reply.code(up ? 200 : 503).send({ status: up ? 'UP' : 'DOWN', checks });
  });

  await registerAdmin(app, platform);
  await registerBlobRoutes(app, platform);
  const parts = { platform, engineFor: (entity: EntityDeclaration) => new EntityEngine(entity) };
  metadata = await registerBridge(app, parts);
  await registerDocs(app, platform);
  registerLiveStream(app, parts, live);
  registerConsole(app);

  app.addHook('onReady', async () => {
    if (config.runJobs) platform.jobs.start();
    if (config.runJobs) platform.events.start();
  });
  // Open event streams would keep the server from closing.
  app.addHook('preClose', async () => live.close());
  app.addHook('onClose', async () => {
    await platform.jobs.stop();
    await platform.events.stop();
    await nats?.close();
    await platform.blobs.close();
    if (!options.db) await db.close();
  });
  return { app, platform };
}

/**
 * The services' declared subscriptions (docs/events.md "Subscriptions"), each an in-process
 * subscriber of the dispatcher under its own durable name: the event is handled as the declaring
 * service, in a transaction of the event's tenant, with the system as caller. A throw leaves the
 * cursor on the event, which is retried; an event of a tenant that no longer exists is skipped.
 */
function subscribeServices(platform: Platform): void {
  for (const service of platform.registry.all())
    for (const [name, subscription] of Object.entries(service.subscriptions)) {
      const address = `${service.id}/${name}`;
      platform.events.subscribe(
        subscription.topic,
        async (event) => {
          const tenant = await platform.tenants.find(event.tenant);
          if (!tenant) return;
          const log = platform.log.child({ subscription: address, event: event.id, tenant: event.tenant });
          await run(
            platform,
            service,
            'tenant',
            { tenant, caller: { kind: 'system', scope: 'full' }, requestId: `event-${event.id}`, log },
            (ctx) => subscription.handler(ctx, event),
          );
        },
        { name: address },
      );
    }
}
