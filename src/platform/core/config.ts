import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';

export interface Config {
  host: string;
  port: number;
  /** Folder of the embedded database, the admin token and (later) blobs. */
  dataDir: string;
  /** PostgreSQL server; when unset the embedded PGlite in `dataDir/pglite` is used. */
  databaseUrl: string | undefined;
  /** Most pooled connections one process opens to the server (`DATABASE_POOL_SIZE`). */
  databasePoolSize: number;
  adminToken: string;
  /** Tenant whose full keys may manage licenses (managementpanel.updateLicense). */
  operatorTenant: string;
  bodyLimit: number;
  /** How long a request's body may send no byte before it is refused with 408 (`BODY_TIMEOUT_MS`). */
  bodyTimeoutMs: number;
  /** How long a verified credential or tenant record is trusted from memory. */
  credentialCacheTtlMs: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Services to serve (`domain/service` names); empty serves every registered service. */
  services: string[];
  jobPollMs: number;
  /** Base URL that signed blob URLs start with (what clients reach this server at). */
  publicUrl: string;
  /**
   * Whether PUBLIC_URL was set: then it is the address every document gives (a reverse proxy's);
   * otherwise a document gives the address its request reached.
   */
  publicUrlConfigured: boolean;
  /** Largest blob an upload URL accepts. */
  blobMaxBytes: number;
  /**
   * Where blob bytes live (BLOB_STORE, docs/platform.md "Blobs"): a folder under DATA_DIR, chunks in
   * the database, or an S3-compatible bucket. Unset: the folder on the embedded database, the
   * database on a PostgreSQL server (every node then reaches every file without a shared volume).
   */
  blobStore: BlobStoreKind | undefined;
  /** The bucket of BLOB_STORE=s3 (S3_* variables); undefined when S3_BUCKET is unset. */
  s3: S3Config | undefined;
  /** Whether this node runs background work: jobs, and event dispatch (webhooks, subscribers, NATS). */
  runJobs: boolean;
  /** pino's level; LOG_LEVEL, `info` when unset. */
  logLevel: string;
  /**
   * One log line per request (http/request-log.ts: request id, tenant, operation, method, status,
   * time) at `info` or more, the default: LOG_LEVEL=warn leaves start-up and problems only (errors
   * keep their request id either way). About 1 % of a request's CPU (docs/performance.md).
   */
  logRequests: boolean;
  /** How often a node looks for undelivered events and due webhook retries (docs/events.md). */
  eventPollMs: number;
  /** How often a live stream checks its credential is still valid (`LIVE_RECHECK_MS`). */
  liveRecheckMs: number;
  webhookMaxAttempts: number;
  /** First retry delay; it doubles with each attempt up to webhookBackoffMaxMs. */
  webhookBackoffMs: number;
  webhookBackoffMaxMs: number;
  webhookTimeoutMs: number;
  /** Events older than this are deleted once every consumer has passed them; 0 keeps them forever. */
  outboxRetentionHours: number;
  /** How often a node looks for events to delete. */
  outboxPruneIntervalMs: number;
  /** NATS server(s), comma-separated; when set every event is also published to JetStream. */
  natsUrl: string | undefined;
  natsStream: string;
  /**
   * How long a node holds a job, an outbox cursor or a webhook subscription without renewing it;
   * it renews every third of that while it works. A node that dies frees its work within this.
   */
  leaseSeconds: number;
  /** After SIGTERM/SIGINT, how long a node may finish its work before it releases its leases and exits anyway. */
  shutdownTimeoutMs: number;
  /**
   * Processes serving one port (`WORKERS`, default: the machine's cores) on a PostgreSQL server;
   * the embedded database is one process, so always 1 there (docs/platform.md "Workers").
   */
  workers: number;
}

export const BLOB_STORES = ['folder', 'postgres', 's3'] as const;
export type BlobStoreKind = (typeof BLOB_STORES)[number];

export interface S3Config {
  bucket: string;
  /** Another S3-compatible service than AWS (MinIO, Ceph, s3rver): its URL. */
  endpoint: string | undefined;
  region: string;
  /** Both or neither: without them the AWS SDK's own chain (AWS_* variables, instance roles) answers. */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>` (most self-hosted stores). */
  forcePathStyle: boolean;
  /** Prepended to every object key (`ponte/`), so that one bucket can serve several installations. */
  prefix: string;
}

function blobStoreOf(value: string | undefined): BlobStoreKind | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(BLOB_STORES as readonly string[]).includes(value))
    throw new Error(`BLOB_STORE must be one of ${BLOB_STORES.join(', ')}, got "${value}"`);
  return value as BlobStoreKind;
}

function s3Of(env: NodeJS.ProcessEnv): S3Config | undefined {
  if (!env.S3_BUCKET) return undefined;
  return {
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || env.AWS_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: ['1', 'true'].includes(env.S3_FORCE_PATH_STYLE ?? ''),
    prefix: env.S3_PREFIX ?? '',
  };
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** Where a server started with `env` listens and keeps its data: what the CLI needs to reach it. */
export function serverLocation(env: NodeJS.ProcessEnv = process.env): {
  host: string;
  port: number;
  dataDir: string;
} {
  return {
    host: env.HOST ?? '127.0.0.1',
    port: int(env.PORT, 8080, 'PORT'),
    dataDir: resolve(env.DATA_DIR ?? './data'),
  };
}

/** The file a server keeps its generated admin token in. */
export const adminTokenFile = (dataDir: string) => join(dataDir, 'admin-token');

/** Reads the admin token from the environment, or from (or into) `dataDir/admin-token` with mode 0600. */
export function resolveAdminToken(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const file = adminTokenFile(dataDir);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const location = serverLocation(env);
  const dataDir = overrides.dataDir ? resolve(overrides.dataDir) : location.dataDir;
  const { host, port } = location;
  const databaseUrl = overrides.databaseUrl ?? (env.DATABASE_URL || undefined);
  return {
    host,
    port,
    publicUrl: env.PUBLIC_URL ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    publicUrlConfigured: Boolean(env.PUBLIC_URL || overrides.publicUrl),
    blobMaxBytes: int(env.BLOB_MAX_BYTES, 100 * 1024 * 1024, 'BLOB_MAX_BYTES'),
    blobStore: blobStoreOf(env.BLOB_STORE),
    s3: s3Of(env),
    dataDir,
    databaseUrl,
    databasePoolSize: Math.max(1, int(env.DATABASE_POOL_SIZE, 10, 'DATABASE_POOL_SIZE')),
    adminToken: overrides.adminToken ?? resolveAdminToken(dataDir, env.ADMIN_TOKEN),
    operatorTenant: env.OPERATOR_TENANT ?? 'demo',
    bodyLimit: int(env.BODY_LIMIT, 1024 * 1024, 'BODY_LIMIT'),
    bodyTimeoutMs: Math.max(1, int(env.BODY_TIMEOUT_MS, 30_000, 'BODY_TIMEOUT_MS')),
    credentialCacheTtlMs: int(env.CREDENTIAL_CACHE_TTL_MS, 30_000, 'CREDENTIAL_CACHE_TTL_MS'),
    accessTokenTtlSeconds: int(env.ACCESS_TOKEN_TTL_SECONDS, 3600, 'ACCESS_TOKEN_TTL_SECONDS'),
    refreshTokenTtlSeconds: int(env.REFRESH_TOKEN_TTL_SECONDS, 30 * 86400, 'REFRESH_TOKEN_TTL_SECONDS'),
    services: (env.PONTE_SERVICES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    jobPollMs: int(env.JOB_POLL_MS, 1000, 'JOB_POLL_MS'),
    runJobs: env.PONTE_JOBS !== 'off',
    logLevel: env.LOG_LEVEL || 'info',
    logRequests: ['info', 'debug', 'trace'].includes(env.LOG_LEVEL || 'info'),
    eventPollMs: int(env.EVENT_POLL_MS, 1000, 'EVENT_POLL_MS'),
    liveRecheckMs: Math.max(1, int(env.LIVE_RECHECK_MS, 5000, 'LIVE_RECHECK_MS')),
    webhookMaxAttempts: Math.max(1, int(env.WEBHOOK_MAX_ATTEMPTS, 8, 'WEBHOOK_MAX_ATTEMPTS')),
    webhookBackoffMs: int(env.WEBHOOK_BACKOFF_MS, 30_000, 'WEBHOOK_BACKOFF_MS'),
    webhookBackoffMaxMs: int(env.WEBHOOK_BACKOFF_MAX_MS, 3_600_000, 'WEBHOOK_BACKOFF_MAX_MS'),
    webhookTimeoutMs: int(env.WEBHOOK_TIMEOUT_MS, 10_000, 'WEBHOOK_TIMEOUT_MS'),
    outboxRetentionHours: int(env.OUTBOX_RETENTION_HOURS, 168, 'OUTBOX_RETENTION_HOURS'),
    outboxPruneIntervalMs: int(env.OUTBOX_PRUNE_INTERVAL_MS, 600_000, 'OUTBOX_PRUNE_INTERVAL_MS'),
    natsUrl: env.NATS_URL || undefined,
    natsStream: env.NATS_STREAM ?? 'PONTE_EVENTS',
    leaseSeconds: Math.max(1, int(env.LEASE_SECONDS, 10, 'LEASE_SECONDS')),
    shutdownTimeoutMs: int(env.SHUTDOWN_TIMEOUT_MS, 8000, 'SHUTDOWN_TIMEOUT_MS'),
    workers: databaseUrl ? Math.max(1, int(env.WORKERS, availableParallelism(), 'WORKERS')) : 1,
    ...overrides,
  };
}
