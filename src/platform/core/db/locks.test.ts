import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { emEspera, LIBRE_MS, portao } from '../../../../test/corrida.ts';
import { openTestDb } from '../../../../test/harness.ts';
import { appendEvent } from '../outbox.ts';
import { type Database, rowsOf, type Tx } from './database.ts';
import { advisoryLock, advisoryLocks, lockName } from './locks.ts';

// Advisory locks (locks.ts; docs/platform.md "Contended decisions"): one name per purpose, tenant
// and parts, a 64-bit lock per name; the same name makes a second transaction wait for the first,
// another name never does, even one whose 32-bit hashtext is the same.

let db: Database;
const onServer = inject('template').engine === 'postgres';

beforeAll(async () => {
  db = await openTestDb({ poolSize: 6 });
});

/** The advisory locks `tx` holds, as the 64-bit keys PostgreSQL shows (classid high, objid low). */
const held = async (tx: Tx) =>
  rowsOf<{ key: string }>(
    await tx.execute(sql`
      select ((classid::bigint << 32) | objid::bigint)::text as key from pg_locks
      where locktype = 'advisory' and objsubid = 1 and pid = pg_backend_pid() order by 1`),
  ).map((r) => r.key);

const hash = async (tx: Tx, name: string) =>
  rowsOf<{ h: string }>(await tx.execute(sql`select hashtextextended(${name}, 0)::text as h`))[0]!.h;

describe('lock names', () => {
  it('tells lists of parts apart, and wants a purpose and a tenant', () => {
    expect(lockName('p', 't', 'a\nb')).not.toBe(lockName('p', 't', 'a', 'b'));
    expect(lockName('p', 't:a', 'b')).not.toBe(lockName('p', 't', 'a:b'));
    expect(lockName('p', 't', 1)).not.toBe(lockName('p', 't', '1'));
    expect(() => lockName('', 't')).toThrow();
    expect(() => lockName('p', '')).toThrow();
  });

  it('takes a 64-bit lock on the hash of the name, on this engine too', async () => {
    const name = lockName('test/locks', 'acme', 'x');
    const [keys, expected] = await db.tenant('acme', async (tx) => {
      await advisoryLock(tx, 'test/locks', 'acme', 'x');
      return [await held(tx), await hash(tx, name)];
    });
    // PostgreSQL shows a bigint key as two 32-bit halves; the unsigned halves joined give it back.
    expect(keys.map((k) => BigInt.asIntN(64, BigInt(k)).toString())).toEqual([expected]);
    expect(BigInt(expected) > 2n ** 31n || BigInt(expected) < -(2n ** 31n)).toBe(true);
  });

  it('takes several at once, each once', async () => {
    const names = [lockName('test/locks', 'acme', 'b'), lockName('test/locks', 'acme', 'a')];
    const keys = await db.tenant('acme', async (tx) => {
      await advisoryLocks(tx, [...names, names[0]!]);
      return held(tx);
    });
    expect(keys).toHaveLength(2);
  });
});

describe('every advisory lock of src/', () => {
  it('is taken through locks.ts (the migrations’ lock is one constant, session-level, on purpose)', () => {
    const src = fileURLToPath(new URL('../../..', import.meta.url));
    const allowed = ['platform/core/db/locks.ts', 'platform/core/db/database.ts'];
    const offenders = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => !allowed.includes(relative(src, join(src, f))))
      .filter((f) => /pg_(try_)?advisory|hashtext/.test(readFileSync(join(src, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe.skipIf(!onServer)('locks under concurrency (PostgreSQL)', () => {
  /** A transaction of `tenant` that takes (purpose, tenant, ...parts) and holds it until `hold` opens. */
  const holding = async (tenant: string, parts: string[], hold: Promise<void>) => {
    const taken = portao();
    const done = db.tenant(tenant, async (tx) => {
      await advisoryLock(tx, 'test/locks', tenant, ...parts);
      taken.open();
      await hold;
    });
    await taken.opened;
    // Wrapped: an async function's returned promise would be awaited with it.
    return { done };
  };

  it('makes a second transaction on the same name wait until the first commits', async () => {
    const hold = portao();
    const { done: first } = await holding('acme', ['k'], hold.opened);
    const order: string[] = [];
    const second = db.tenant('acme', async (tx) => {
      await advisoryLock(tx, 'test/locks', 'acme', 'k');
      order.push('second');
    });
    expect(await emEspera(second)).toBe('waiting');
    order.push('first ends');
    hold.open();
    await first;
    await second;
    expect(order).toEqual(['first ends', 'second']);
  });

  it('never makes another name wait: another tenant, purpose or part', async () => {
    const hold = portao();
    const { done: first } = await holding('acme', ['k'], hold.opened);
    const others = [
      db.tenant('globex', (tx) => advisoryLock(tx, 'test/locks', 'globex', 'k')),
      db.tenant('acme', (tx) => advisoryLock(tx, 'test/other', 'acme', 'k')),
      db.tenant('acme', (tx) => advisoryLock(tx, 'test/locks', 'acme', 'l')),
    ];
    for (const other of others) expect(await emEspera(other, LIBRE_MS)).toBe('done');
    hold.open();
    await first;
  });

  it('keeps two tenants whose 32-bit hashtext collides apart: neither waits for the other’s outbox', async () => {
    // Two tenant names with one hashtext: among 200,000 names a few such pairs are expected.
    const [pair] = rowsOf<{ a: string; b: string }>(
      await db.db.execute(sql`
        select min(name) as a, max(name) as b from (select 't' || i as name from generate_series(1, 200000) i) n
        group by hashtext(name) having count(*) > 1 limit 1`),
    );
    expect(pair).toBeDefined();
    const { a, b } = pair!;
    const hold = portao();
    const appended = portao();
    const first = db.tenant(a, async (tx) => {
      await appendEvent(tx, a, 'test/locks', {});
      appended.open();
      await hold.opened;
    });
    await appended.opened;
    const other = db.tenant(b, (tx) => appendEvent(tx, b, 'test/locks', {}));
    expect(await emEspera(other, LIBRE_MS)).toBe('done');
    // And the same tenant still waits: its events commit in id order.
    const same = db.tenant(a, (tx) => appendEvent(tx, a, 'test/locks', {}));
    expect(await emEspera(same)).toBe('waiting');
    hold.open();
    await Promise.all([first, other, same]);
  });
});
