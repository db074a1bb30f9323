import { asc, eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Database, Tx } from './db/database.ts';
import { tenants } from './db/tables.ts';
import { errors } from './errors.ts';
import { Forgets } from './forgets.ts';

export type Edition = 'standard' | 'light';

export interface TenantInfo {
  id: string;
  name: string;
  edition: Edition;
  licenseLocked: boolean;
  /** Service resources (`domain/service`) a light-panel tenant may call. */
  permissions: string[];
  timeZone: string;
  createdAt: string;
}

/**
 * What a light-panel tenant may call besides the platform's own services (yard and scheduling);
 * LIGHT_PANEL_RESOURCES (comma-separated `domain/service`) overrides it.
 */
export function lightPanelResources(env: NodeJS.ProcessEnv = process.env): string[] {
  const configured = env.LIGHT_PANEL_RESOURCES?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return configured?.length ? configured : ['yms/patio', 'yms/agenda'];
}

/** The permission state of a light-panel tenant: nothing while its licenses are locked. */
export const lightPanelPermissions = (locked: boolean): string[] => (locked ? [] : lightPanelResources());

/** Tenant names are path segments: lower-case letters, digits, dots, dashes and underscores. */
export const TENANT_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

function toInfo(row: typeof tenants.$inferSelect): TenantInfo {
  return {
    id: row.id,
    name: row.name,
    edition: row.edition as Edition,
    licenseLocked: row.licenseLocked,
    permissions: row.permissions,
    timeZone: row.timeZone,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * How long a lookup that found nothing is remembered: enough to spare the database a burst of calls
 * to a wrong name, short enough that nothing depends on a notice having arrived.
 */
export const NEGATIVE_TTL_MS = 2000;

/**
 * The tenants of the platform, read through a short-TTL cache so that routing a request costs no
 * database round trip. A change evicts the entry here at once and, by a notice, on every other node
 * (core/db/notices.ts; docs/platform.md "Caches across nodes").
 */
export class TenantDirectory {
  private readonly cache: LRUCache<string, TenantInfo | 'missing'>;
  /** A lookup an eviction interrupted reads again and caches nothing stale (forgets.ts). */
  private readonly evictions = new Forgets();

  constructor(
    private readonly db: Database,
    private readonly ttlMs: number,
  ) {
    this.cache = new LRUCache({ max: 10_000, ttl: Math.max(ttlMs, 1), ttlAutopurge: false });
    db.notices.on(
      'tenants',
      (notice) => this.forget(String(notice.name)),
      () => {
        this.evictions.forget();
        this.cache.clear();
      },
    );
  }

  private forget(name: string): void {
    this.evictions.forget();
    this.cache.delete(name);
  }

  private async read(name: string): Promise<TenantInfo | undefined> {
    const [row] = await this.db.db.select().from(tenants).where(eq(tenants.name, name));
    return row ? toInfo(row) : undefined;
  }

  async find(name: string): Promise<TenantInfo | undefined> {
    const hit = this.cache.get(name);
    if (hit) return hit === 'missing' ? undefined : hit;
    if (!TENANT_NAME.test(name)) return undefined;
    const { value: info, settled } = await this.evictions.read(() => this.read(name));
    // A name that is not a tenant is remembered briefly only (NEGATIVE_TTL_MS).
    if (settled)
      this.cache.set(name, info ?? 'missing', info ? {} : { ttl: Math.min(NEGATIVE_TTL_MS, this.ttlMs) });
    return info;
  }

  /**
   * Forgets what this node knows of the tenant, and tells every other node to. Resolves when the
   * notice is sent; should it fail, the other nodes see the change when their entry expires.
   */
  evict(name: string): Promise<void> {
    this.forget(name);
    return this.db.notices.announce({ about: 'tenants', name }).catch(() => {});
  }

  async list(): Promise<TenantInfo[]> {
    const rows = await this.db.db.select().from(tenants).orderBy(asc(tenants.name));
    return rows.map(toInfo);
  }

  async create(
    name: string,
    options: { edition?: Edition; timeZone?: string; permissions?: string[] } = {},
  ): Promise<TenantInfo> {
    if (!TENANT_NAME.test(name)) {
      throw errors.badRequest(
        `Invalid field 'name': must match ${TENANT_NAME.source} (lower-case letters, digits, '.', '-', '_')`,
      );
    }
    const existing = await this.find(name);
    if (existing) throw errors.conflict(`Tenant ${name} already exists`);
    const [row] = await this.db.db
      .insert(tenants)
      .values({
        name,
        edition: options.edition ?? 'standard',
        ...(options.timeZone ? { timeZone: options.timeZone } : {}),
        permissions: options.permissions ?? (options.edition === 'light' ? lightPanelPermissions(false) : []),
        permissionsUpdatedAt: new Date(),
      })
      .onConflictDoNothing()
      .returning();
    await this.evict(name);
    if (!row) throw errors.conflict(`Tenant ${name} already exists`);
    return toInfo(row);
  }

  /** Locks or unlocks a tenant's licenses inside the caller's (system) transaction. */
  async setLicenseLocked(
    tx: Tx,
    name: string,
    locked: boolean,
    by: string,
    at: Date,
  ): Promise<TenantInfo | undefined> {
    const [row] = await tx
      .update(tenants)
      .set({ licenseLocked: locked, licenseChangedAt: at, licenseChangedBy: by })
      .where(eq(tenants.name, name))
      .returning();
    return row ? toInfo(row) : undefined;
  }

  /** Recomputes the permission state of every light-panel tenant; returns the tenants changed. */
  async recomputeLightPanelPermissions(tx: Tx, at: Date): Promise<string[]> {
    const light = await tx.select().from(tenants).where(eq(tenants.edition, 'light'));
    for (const row of light) {
      await tx
        .update(tenants)
        .set({ permissions: lightPanelPermissions(row.licenseLocked), permissionsUpdatedAt: at })
        .where(eq(tenants.id, row.id));
    }
    return light.map((row) => row.name);
  }
}
