import { describe, expect, it, vi } from 'vitest';
import { openTestDb } from '../../../test/harness.ts';
import { holdFirstRead } from '../../../test/held-read.ts';
import { tenants } from './db/tables.ts';
import { NEGATIVE_TTL_MS, TenantDirectory } from './tenants.ts';

// The tenant directory's cache (docs/platform.md "Caches across nodes"): a tenant found is kept for
// the TTL (changes are announced), a name that is no tenant only for NEGATIVE_TTL_MS, so that a
// tenant created where no notice reaches (another node's notice missed) is served within seconds.

describe('the tenant directory', () => {
  it('remembers a name that is no tenant only briefly', async () => {
    const db = await openTestDb();
    const directory = new TenantDirectory(db, 30_000);
    // On a server, the directory starts from an empty cache once it listens for notices.
    await db.notices.ready();
    expect(await directory.find('created-behind')).toBeUndefined();
    // Created behind the directory's back: no eviction, no notice.
    await db.db.insert(tenants).values({ name: 'created-behind', permissionsUpdatedAt: new Date() });
    expect(await directory.find('created-behind')).toBeUndefined(); // still remembered as missing
    await vi.waitFor(
      async () => expect((await directory.find('created-behind'))?.name).toBe('created-behind'),
      {
        timeout: NEGATIVE_TTL_MS + 1500,
        interval: 100,
      },
    );
  });

  it('does not keep what a lookup under way read when the tenant changed meanwhile', async () => {
    const db = await openTestDb();
    const directory = new TenantDirectory(db, 30_000);
    await db.notices.ready();
    await directory.create('changing');
    // The first read, held after it read the tenant unlocked until the lock has committed and been
    // evicted: the race of a request on a cold cache with a license change.
    const held = holdFirstRead(directory, 'read');
    try {
      const first = directory.find('changing');
      await held.started();
      expect(held.reads()).toBe(1);
      await db.db.update(tenants).set({ licenseLocked: true });
      await directory.evict('changing');
      held.release();
      expect((await first)?.licenseLocked).toBe(true);
      expect(held.reads()).toBe(2);
    } finally {
      held.restore();
    }
    expect((await directory.find('changing'))?.licenseLocked).toBe(true);
  });

  it('keeps a tenant found for the TTL', async () => {
    const db = await openTestDb();
    const directory = new TenantDirectory(db, 30_000);
    // On a server, the directory starts from an empty cache once it listens for notices.
    await db.notices.ready();
    await directory.create('kept');
    expect((await directory.find('kept'))?.licenseLocked).toBe(false);
    await db.db.update(tenants).set({ licenseLocked: true });
    await new Promise((resolve) => setTimeout(resolve, NEGATIVE_TTL_MS + 200));
    expect((await directory.find('kept'))?.licenseLocked).toBe(false);
  });
});
