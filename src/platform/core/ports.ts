import type { Readable } from 'node:stream';
import type { Caller, Scope } from './caller.ts';
import type { Tx } from './db/database.ts';
import type { EventRecord } from './outbox.ts';

// What the core needs of the runtimes around it, as interfaces (docs/platform.md "Layers"): a
// handler's context and the runtimes beside each other reach credentials, jobs, blobs, events and
// the service documents only through these. The runtimes implement them (auth/credentials.ts,
// jobs/queue.ts, blobs/store.ts, events/dispatcher.ts, http/bridge.ts); app.ts wires them together.

// ── credentials (auth/) ──────────────────────────────────────────────────────────────────────

export interface IssuedKey {
  id: string;
  tenant: string;
  scope: Scope;
  subject: string | null;
  accessKey: string;
  secret: string;
  apiKey: string;
}

export interface KeyInfo {
  id: string;
  tenant: string;
  accessKey: string;
  scope: Scope;
  subject: string | null;
  description: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface Session {
  tenant: string;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scope: Scope;
}

export interface Verified {
  tenant: string;
  caller: Caller;
  /** Access-token expiry in ms since epoch; keys do not expire. */
  expiresAt: number | undefined;
}

/** API keys and bearer tokens: issued, verified, revoked. */
export interface Credentials {
  createKey(tenant: string, scope: Scope, description?: string, subject?: string): Promise<IssuedKey>;
  listKeys(tenant: string): Promise<KeyInfo[]>;
  revokeKey(tenant: string, accessKey: string): Promise<void>;
  /** The caller of an `Authorization` header, or undefined when it proves nothing. */
  verify(header: string): Promise<Verified | undefined>;
  login(tenant: string, accessKey: string, secret: string): Promise<Session>;
  refresh(tenant: string, refreshToken: string): Promise<Session>;
  logout(sessionId: string): Promise<void>;
}

// ── jobs (jobs/) ─────────────────────────────────────────────────────────────────────────────

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface JobStatus {
  id: string;
  tenant: string;
  kind: string;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  result: unknown;
  createdAt: string;
  finishedAt: string | null;
}

/** The durable queue behind signals, imports and exports. */
export interface Jobs {
  /** Inserts a job in `tx`: it exists exactly if that transaction commits. */
  enqueue(
    tx: Tx,
    tenant: string,
    kind: string,
    payload: unknown,
    options?: { runAt?: Date; maxAttempts?: number },
  ): Promise<string>;
  status(tenant: string, id: string): Promise<JobStatus | undefined>;
  /** Something was enqueued: look now rather than at the next poll. */
  wake(): void;
}

// ── blobs (blobs/) ───────────────────────────────────────────────────────────────────────────

export interface BlobInfo {
  key: string;
  size: number;
  sha256: string;
  contentType: string;
  uploadedAt: string;
}

export type BlobOp = 'get' | 'put';

export interface SignedUrl {
  url: string;
  expiresAt: string;
}

/** Attachments and files, by key within a tenant, reached through signed URLs. */
export interface Blobs {
  /**
   * A URL that lets its holder `op` the blob until it expires, at `baseUrl` (the address the caller
   * reached the platform at, `Ctx.baseUrl`; PUBLIC_URL by default); a put takes at most `maxBytes`.
   */
  sign(
    tenant: string,
    key: string,
    op: BlobOp,
    expiresInSeconds?: number,
    options?: { maxBytes?: number; baseUrl?: string },
  ): SignedUrl;
  /** Checks a signed URL's query; answers the most bytes an upload may have. */
  verify(tenant: string, key: string, op: BlobOp, query: Record<string, string | undefined>): number;
  write(
    tenant: string,
    key: string,
    body: Readable,
    contentType: string,
    maxBytes?: number,
  ): Promise<BlobInfo>;
  stat(tenant: string, key: string): Promise<BlobInfo | undefined>;
  open(tenant: string, key: string): Promise<{ info: BlobInfo; stream: Readable }>;
}

// ── events (events/) ─────────────────────────────────────────────────────────────────────────

export type EventHandler = (event: EventRecord) => Promise<void> | void;

/** Delivery of the outbox: woken after a commit appended to it. */
export interface Events {
  wake(): void;
  /** Calls `handler` for each published event whose topic matches `pattern`; answers the unsubscribe. */
  subscribe(pattern: string, handler: EventHandler, options?: { name?: string }): () => void;
}

// ── service documents (http/) ────────────────────────────────────────────────────────────────

export type MetadataFormat = 'swagger' | 'openapi';
/** Whom a document addresses: the tenant, at the base URL its caller reached the platform at. */
export interface DocumentAddress {
  /** scheme, host and any path before `/t/` (`https://api.example.com/ponte`) */
  baseUrl: string;
  tenant: string;
}
/**
 * Each service's generated Swagger 2.0 / OpenAPI 3 document, addressed to one tenant (host,
 * basePath and schemes; servers), so that a client generated from it reaches that tenant.
 */
export type MetadataProvider = (
  serviceId: string,
  format: MetadataFormat,
  address: DocumentAddress,
) => Record<string, unknown>;

// ── user functions (functions/) ──────────────────────────────────────────────────────────────

/** A tenant's function as the bridge runs it: its code at its current version, and its limits. */
export interface BoundFunction {
  id: string;
  name: string;
  /** `domain/service/primitive` it customises. */
  primitive: string;
  version: number;
  code: string;
  timeoutMs: number;
  memoryLimitMb: number;
}

export interface FunctionRun {
  /** What the handler answered; undefined when it answered nothing. */
  value: unknown;
  logs: string[];
  durationMs: number;
}

/**
 * The tenant's functions as the bridge meets them (docs/functions.md "Binding"): the ACTIVE function
 * bound to an operation, run after its handler inside its transaction, and the sandbox that runs it.
 */
export interface FunctionHooks {
  /**
   * The tenant's ACTIVE function bound to `domain/service/primitive`, with its code; read outside any
   * transaction. Undefined at once (no promise) when the bindings held in memory say there is none:
   * the path of nearly every call costs no await.
   */
  bound(tenant: string, primitive: string): Promise<BoundFunction | undefined> | undefined;
  /** A function with its code read from the blob store (invoked directly): read outside any transaction. */
  load(
    tenant: string,
    fn: Omit<BoundFunction, 'code'> & { versionId: string; blobKey: string },
  ): Promise<BoundFunction>;
  /** Runs the function on `event`; an ApiError naming the function when it throws, loops or runs out of memory. */
  run(fn: BoundFunction, event: unknown): Promise<FunctionRun>;
  /** Forgets what this node holds of the tenant's functions (after a change commits). */
  evict(tenant: string): void;
}
