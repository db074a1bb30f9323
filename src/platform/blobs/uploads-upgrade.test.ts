import { expect } from 'vitest';
import { itUpgrades, MIGRATIONS_FOLDER, uuidNumbered as V } from '../../../test/migrations.ts';

// The upgrade that gave every store versions and recorded uploads in progress
// (drizzle/0039_blob_uploads.sql), run on a database written by the code before it: the chunks of
// uploads cut off under the old code are recorded as uploads begun when they were written (pruned a
// day later), and rows without a version (the folder and S3 stores' bytes at the key's own path) are
// listed by their key once replaced or deleted.

itUpgrades(
  '0039_blob_uploads',
  'records the cut-off uploads’ chunks, and lists a legacy row’s key when it is replaced',
  async (db) => {
    await db.query(`
      insert into blobs (tenant, key, size, sha256, content_type, version) values
        ('acme', 'named.bin', 3, 'x', 'text/plain', '${V(1)}'),
        ('acme', 'legacy/a.txt', 1, 'y', 'text/plain', null),
        ('acme', 'legacy/b.txt', 1, 'z', 'text/plain', null)`);
    await db.query(`insert into blob_replaced (tenant, version) values ('acme', '${V(2)}')`);
    await db.query(`
      insert into blob_chunks (tenant, version, seq, data, created_at) values
        ('acme', '${V(1)}', 0, 'abc', now()), ('acme', '${V(2)}', 0, 'old', now()),
        ('acme', '${V(3)}', 0, 'cut', '2026-01-02T00:00:00Z'), ('acme', '${V(3)}', 1, 'off', '2026-01-02T00:05:00Z')`);
    await db.migrate(MIGRATIONS_FOLDER);
    expect(
      await db.query(
        `select tenant, version, started_at = '2026-01-02T00:00:00Z' as "atFirstChunk" from blob_uploads`,
      ),
    ).toEqual([{ tenant: 'acme', version: V(3), atFirstChunk: true }]);
    // A facts update that keeps the version, or a legacy row rewritten as it was, lists nothing.
    await db.query(`update blobs set size = 2 where key in ('named.bin', 'legacy/b.txt')`);
    await db.query(`update blobs set version = '${V(4)}' where key = 'legacy/a.txt'`);
    await db.query(`delete from blobs where key = 'legacy/b.txt'`);
    await db.query(`update blobs set version = '${V(5)}' where key = 'named.bin'`);
    const listed = await db.query<{ version: string; legacy_key: string | null }>(
      'select version, legacy_key from blob_replaced order by legacy_key nulls first, version',
    );
    expect(listed.map((r) => r.legacy_key)).toEqual([null, null, 'legacy/a.txt', 'legacy/b.txt']);
    expect(listed.slice(0, 2).map((r) => r.version)).toEqual([V(1), V(2)]);
  },
);
