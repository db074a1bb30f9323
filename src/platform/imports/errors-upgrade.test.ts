import { expect } from 'vitest';
import { itUpgrades, MIGRATIONS_FOLDER } from '../../../test/migrations.ts';

// The upgrade that gave import_errors its key (drizzle/0036_tenant_keys_everywhere.sql), run on a
// database holding errors written before it: each row's errors are numbered from 0, in the order
// they were stored, and the key holds them all, for every tenant alike.

itUpgrades(
  '0036_tenant_keys_everywhere',
  'numbers the stored errors of each row from 0, in their order, and keys them by the tenant',
  async (db) => {
    const job = '00000000-0000-4000-8000-000000000001';
    const other = '00000000-0000-4000-8000-000000000002';
    await db.query(`insert into import_errors (tenant, import_id, row, field, message) values
      ('acme', '${job}', 3, 'nome', 'a'), ('acme', '${job}', 3, 'nascimento', 'b'),
      ('acme', '${job}', 2, 'codigo', 'c'), ('acme', '${job}', 3, null, 'd'),
      ('acme', '${other}', 3, 'nome', 'e'), ('globex', '${job}', 3, 'nome', 'f')`);
    await db.migrate(MIGRATIONS_FOLDER);
    const rows = await db.query<{
      tenant: string;
      import_id: string;
      row: number;
      seq: number;
      message: string;
    }>('select tenant, import_id, row, seq, message from import_errors order by tenant, import_id, row, seq');
    expect(
      rows.map((r) => [r.tenant, r.import_id === job ? 'job' : 'other', r.row, r.seq, r.message]),
    ).toEqual([
      ['acme', 'job', 2, 0, 'c'],
      ['acme', 'job', 3, 0, 'a'],
      ['acme', 'job', 3, 1, 'b'],
      ['acme', 'job', 3, 2, 'd'],
      ['acme', 'other', 3, 0, 'e'],
      ['globex', 'job', 3, 0, 'f'],
    ]);
    const [key] = await db.query<{ columns: string }>(
      `select pg_get_constraintdef(oid) as columns from pg_constraint
        where conrelid = 'import_errors'::regclass and contype = 'p'`,
    );
    expect(key?.columns).toBe('PRIMARY KEY (tenant, import_id, "row", seq)');
  },
);
