import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { type Caller, parseSubject, type Scope } from '../core/caller.ts';
import type { Database } from '../core/db/database.ts';
import { errors } from '../core/errors.ts';
import { Forgets } from '../core/forgets.ts';
import type { Credentials, IssuedKey, KeyInfo, Session, Verified } from '../core/ports.ts';
import { NEGATIVE_TTL_MS } from '../core/tenants.ts';
import { apiKeys, sessions } from './tables.ts';

// API keys and bearer tokens (DESIGN.md "Credentials"). An API key is `<accessKey>.<secret>`; only a
// SHA-256 of the secret is stored. Bearer tokens are opaque random strings issued by loginWithKey,
// stored hashed, with an expiry; refresh rotates them, logout revokes them. A verified credential is
// trusted from memory for the cache TTL, so a request costs no database round trip; a revocation
// is announced to every node, which forgets the credential at once (core/db/notices.ts).

/** The caller of a key or session row, with its subject when it has one. */
function callerOf(scope: string, subject: string | null, rest: Omit<Caller, 'scope' | 'subject'>): Caller {
  const parsed = parseSubject(subject);
  return { ...rest, scope: scope as Scope, ...(parsed ? { subject: parsed } : {}) };
}

/** The scheme of `Authorization: Bearer <credential>`; schemes are case-insensitive (RFC 9110). */
const BEARER = /^bearer +/i;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const token = (bytes: number) => randomBytes(bytes).toString('base64url');

/**
 * A new access key: 20 characters of base64url that never begin with `-`, so that a command line
 * (`ponte key revoke <tenant> <accessKey>`) never reads a key as an option (one in 64 did).
 */
export function newAccessKey(): string {
  for (;;) {
    const key = token(15);
    if (!key.startsWith('-')) return key;
  }
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export class CredentialStore implements Credentials {
  private readonly cache: LRUCache<string, Verified | 'invalid'>;
  /** A lookup a forget interrupted reads again and caches nothing stale (core/forgets.ts). */
  private readonly forgets = new Forgets();

  constructor(
    private readonly db: Database,
    private readonly ttlMs: number,
    private readonly tokenTtl: { access: number; refresh: number },
    private readonly now: () => Date,
  ) {
    this.cache = new LRUCache({ max: 50_000, ttl: Math.max(ttlMs, 1) });
    db.notices.on(
      'credentials',
      (notice) =>
        this.forgetHere(notice.keyId ? 'keyId' : 'sessionId', String(notice.keyId ?? notice.sessionId)),
      () => {
        this.forgets.forget();
        this.cache.clear();
      },
    );
  }

  /** A new key; a `subject` (`<kind>:<id>`) binds a `public` key to whom it acts for. */
  async createKey(tenant: string, scope: Scope, description?: string, subject?: string): Promise<IssuedKey> {
    if (subject !== undefined && !parseSubject(subject))
      throw errors.badRequest(`Invalid subject '${subject}': expected <kind>:<id>`);
    if (subject !== undefined && scope !== 'public')
      throw errors.badRequest('Only a key of scope public acts for a subject');
    const accessKey = newAccessKey();
    const secret = token(32);
    const [row] = await this.db.db
      .insert(apiKeys)
      .values({
        tenant,
        accessKey,
        secretHash: sha256(secret),
        scope,
        subject: subject ?? null,
        description: description ?? null,
      })
      .returning({ id: apiKeys.id });
    return {
      id: row!.id,
      tenant,
      scope,
      subject: subject ?? null,
      accessKey,
      secret,
      apiKey: `${accessKey}.${secret}`,
    };
  }

  async listKeys(tenant: string): Promise<KeyInfo[]> {
    const rows = await this.db.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.tenant, tenant))
      .orderBy(asc(apiKeys.createdAt));
    return rows.map((r) => ({
      id: r.id,
      tenant: r.tenant,
      accessKey: r.accessKey,
      scope: r.scope as Scope,
      subject: r.subject,
      description: r.description,
      createdAt: r.createdAt.toISOString(),
      revokedAt: r.revokedAt?.toISOString() ?? null,
    }));
  }

  /** Revokes a key and every session opened with it. */
  async revokeKey(tenant: string, accessKey: string): Promise<void> {
    const at = this.now();
    const revoked = await this.db.system(async (tx) => {
      const [row] = await tx
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.tenant, tenant), eq(apiKeys.accessKey, accessKey), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      if (row) await tx.update(sessions).set({ revokedAt: at }).where(eq(sessions.keyId, row.id));
      return row;
    });
    if (!revoked) throw errors.notFound(`Active key ${accessKey} not found in tenant ${tenant}`);
    await this.forget('keyId', revoked.id);
  }

  /**
   * Resolves an `Authorization` header value: `<apiKey>`, `Bearer <apiKey>` (clients that send every
   * credential as a bearer) or `Bearer <accessToken>`; undefined when it is not a valid credential.
   * A key is told from a token by its dot, which a token (base64url) never holds.
   */
  async verify(header: string): Promise<Verified | undefined> {
    const cacheKey = sha256(header);
    const hit = this.cache.get(cacheKey);
    if (hit === 'invalid') return undefined;
    if (hit) {
      if (hit.expiresAt !== undefined && hit.expiresAt <= this.now().getTime()) return undefined;
      return hit;
    }
    const bearer = BEARER.exec(header);
    const credential = (bearer ? header.slice(bearer[0].length) : header).trim();
    const read = () =>
      credential.includes('.')
        ? this.verifyKey(credential)
        : bearer
          ? this.verifyToken(credential)
          : Promise.resolve(undefined);
    const { value: verified, settled } = await this.forgets.read(read);
    // A credential that is not valid is remembered briefly only (NEGATIVE_TTL_MS).
    if (settled)
      this.cache.set(
        cacheKey,
        verified ?? 'invalid',
        verified ? {} : { ttl: Math.min(NEGATIVE_TTL_MS, this.ttlMs) },
      );
    return verified;
  }

  private async verifyKey(apiKey: string): Promise<Verified | undefined> {
    const dot = apiKey.indexOf('.');
    if (dot <= 0) return undefined;
    const accessKey = apiKey.slice(0, dot);
    const [row] = await this.db.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.accessKey, accessKey), isNull(apiKeys.revokedAt)));
    if (!row || !sameHash(row.secretHash, sha256(apiKey.slice(dot + 1)))) return undefined;
    return {
      tenant: row.tenant,
      caller: callerOf(row.scope, row.subject, { kind: 'key', keyId: row.id }),
      expiresAt: undefined,
    };
  }

  private async verifyToken(accessToken: string): Promise<Verified | undefined> {
    if (!accessToken) return undefined;
    const [row] = await this.db.db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.accessHash, sha256(accessToken)),
          isNull(sessions.revokedAt),
          gt(sessions.accessExpiresAt, this.now()),
        ),
      );
    if (!row) return undefined;
    return {
      tenant: row.tenant,
      caller: callerOf(row.scope, row.subject, {
        kind: 'token',
        keyId: row.keyId,
        sessionId: row.id,
        token: accessToken,
      }),
      expiresAt: row.accessExpiresAt.getTime(),
    };
  }

  /** platform/authentication loginWithKey: a session for a valid, unrevoked key of `tenant`. */
  async login(tenant: string, accessKey: string, secret: string): Promise<Session> {
    const [key] = await this.db.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.accessKey, accessKey), eq(apiKeys.tenant, tenant), isNull(apiKeys.revokedAt)));
    if (!key || !sameHash(key.secretHash, sha256(secret))) throw errors.unauthorized();
    return this.openSession(tenant, key.id, key.scope as Scope, key.subject);
  }

  /** Rotates a session: the old refresh token and access token stop working. */
  async refresh(tenant: string, refreshToken: string): Promise<Session> {
    const at = this.now();
    const old = await this.db.system(async (tx) => {
      const [row] = await tx
        .update(sessions)
        .set({ revokedAt: at })
        .where(
          and(
            eq(sessions.refreshHash, sha256(refreshToken)),
            eq(sessions.tenant, tenant),
            isNull(sessions.revokedAt),
            gt(sessions.refreshExpiresAt, at),
          ),
        )
        .returning();
      return row;
    });
    if (!old) throw errors.unauthorized();
    await this.forget('sessionId', old.id);
    return this.openSession(tenant, old.keyId, old.scope as Scope, old.subject);
  }

  async logout(sessionId: string): Promise<void> {
    await this.db.db.update(sessions).set({ revokedAt: this.now() }).where(eq(sessions.id, sessionId));
    await this.forget('sessionId', sessionId);
  }

  private async openSession(
    tenant: string,
    keyId: string,
    scope: Scope,
    subject: string | null,
  ): Promise<Session> {
    const accessToken = token(32);
    const refreshToken = token(32);
    const now = this.now().getTime();
    await this.db.db.insert(sessions).values({
      tenant,
      keyId,
      scope,
      subject,
      accessHash: sha256(accessToken),
      refreshHash: sha256(refreshToken),
      accessExpiresAt: new Date(now + this.tokenTtl.access * 1000),
      refreshExpiresAt: new Date(now + this.tokenTtl.refresh * 1000),
    });
    return { tenant, accessToken, refreshToken, expiresIn: this.tokenTtl.access, scope };
  }

  /**
   * Forgets the credentials of a key (its sessions' too) or of a session, here and, by a notice, on
   * every other node. The caller answers once the notice is sent: the next request, to any node, is
   * refused.
   */
  private async forget(field: 'keyId' | 'sessionId', id: string): Promise<void> {
    this.forgetHere(field, id);
    await this.db.notices.announce({ about: 'credentials', [field]: id }).catch(() => {});
  }

  private forgetHere(field: 'keyId' | 'sessionId', id: string): void {
    this.forgets.forget();
    for (const [k, v] of this.cache.entries())
      if (v !== 'invalid' && v.caller[field] === id) this.cache.delete(k);
  }
}
