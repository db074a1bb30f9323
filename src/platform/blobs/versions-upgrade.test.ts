import { expect } from 'vitest';
import { itUpgrades, MIGRATIONS_FOLDER, uuidNumbered as V } from '../../../test/migrations.ts';

// The upgrade that moved the PostgreSQL store's pointer into the facts row (drizzle/0037_blob_versions.sql),
// run on a database written by the code before it: every key keeps its bytes, and the chunks no key
// names any more (an upload that stopped half-way, bytes whose facts never committed) are listed for
// the prune.

itUpgrades(
  '0037_blob_versions',
  'points each key at the version it held, and lists every other version for the prune',
  async (db) => {
    await db.query(`
      insert into blobs (tenant, key, size, sha256, content_type) values
        ('acme', 'a.bin', 6, 'x', 'text/plain'), ('acme', 'folder.bin', 1, 'y', 'text/plain'),
        ('globex', 'a.bin', 3, 'z', 'text/plain')`);
    await db.query(`
      insert into blob_objects (tenant, key, version, size, chunks) values
        ('acme', 'a.bin', '${V(1)}', 6, 2), ('acme', 'no-facts.bin', '${V(2)}', 3, 1),
        ('globex', 'a.bin', '${V(3)}', 3, 1)`);
    await db.query(`
      insert into blob_chunks (tenant, version, seq, data) values
        ('acme', '${V(1)}', 0, 'abc'), ('acme', '${V(1)}', 1, 'def'), ('acme', '${V(2)}', 0, 'ghi'),
        ('acme', '${V(4)}', 0, 'half'), ('globex', '${V(3)}', 0, 'jkl')`);
    await db.migrate(MIGRATIONS_FOLDER);
    expect(await db.query('select tenant, key, version from blobs order by tenant, key')).toEqual([
      { tenant: 'acme', key: 'a.bin', version: V(1) },
      { tenant: 'acme', key: 'folder.bin', version: null },
      { tenant: 'globex', key: 'a.bin', version: V(3) },
    ]);
    const replaced = () => db.query('select tenant, version from blob_replaced order by tenant, version');
    expect(await replaced()).toEqual([
      { tenant: 'acme', version: V(2) },
      { tenant: 'acme', version: V(4) },
    ]);
    // From now on the trigger lists a version as its key moves on or goes.
    await db.query(`update blobs set version = '${V(5)}' where tenant = 'acme' and key = 'a.bin'`);
    await db.query(`delete from blobs where tenant = 'globex'`);
    await db.query(`update blobs set size = 2 where key = 'folder.bin'`);
    expect(await replaced()).toEqual([
      { tenant: 'acme', version: V(1) },
      { tenant: 'acme', version: V(2) },
      { tenant: 'acme', version: V(4) },
      { tenant: 'globex', version: V(3) },
    ]);
  },
);
