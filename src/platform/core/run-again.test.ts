import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bancoDeCorrida } from '../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import { runs, yard } from '../events/fixtures.test-support.ts';
import { rowsOf } from './db/database.ts';

// Transactions under contention on PostgreSQL (docs/platform.md "Events last", "Transactions run
// again"): an operation's events are appended at its commit, so the outbox's per-tenant lock never
// closes a cycle with a lock taken after an emit; and a transaction the database undid (a deadlock)
// runs again, answered as if it had been alone. PGlite runs one transaction at a time: nothing races.

const describeOnServer = describe.skipIf(!process.env.DATABASE_URL);

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await testApp({ db: await bancoDeCorrida(), services: [...allServices, yard] });
  key = await t.tenant('acme');
});

const steps = (tag: string, list: string[]) =>
  t.call('acme', 'test/yard/actions/steps', { tag, steps: list }, { auth: key });
const later = <T>(ms: number, f: () => Promise<T>) =>
  new Promise((resolve) => setTimeout(resolve, ms)).then(f);

const events = async (topic = 'test/yard/stepped') =>
  rowsOf<{ id: string; tag: string }>(
    await t.db.system((tx) =>
      tx.execute(
        sql`select id, payload->>'tag' as tag from outbox where tenant = 'acme' and topic = ${topic} order by id`,
      ),
    ),
  ).map((r) => r.tag);
const stepped = () => events();

describe('events appended at commit', () => {
  it('in the order emitted, without those of a savepoint rolled back', async () => {
    const ok = await steps('order', ['emit', 'refused', 'emit']);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await stepped()).filter((tag) => tag === 'order')).toEqual(['order', 'order']);
    expect(await events('test/yard/undone')).toEqual([]);
  });
});

describe('an ApiError', () => {
  it.each(['40P01', '40001', '23505', '23503'])(
    'is the answer, run once, even when its code reads as SQLSTATE %s',
    async (code) => {
      const tag = `api-error-${code}`;
      const res = await steps(tag, ['emit', `fail:${code}`]);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({ message: `refused with code ${code}`, reason: 'UNPROCESSABLE' });
      expect(runs.get(tag)).toBe(1);
      expect((await stepped()).filter((s) => s === tag)).toEqual([]);
    },
  );
});

describeOnServer('transactions under contention', () => {
  it('an event emitted before a lock closes no cycle with a transaction that locked first and emits later', async () => {
    // B takes the row first and emits last; A emits first, then waits for B's row. Were A's event
    // appended at once, A would hold the outbox lock B needs: a deadlock, one of them undone.
    const [b, a] = await Promise.all([
      steps('cycle-b', ['lock:row', 'wait:400', 'emit']),
      later(100, () => steps('cycle-a', ['emit', 'wait:100', 'lock:row'])),
    ]);
    expect([b.statusCode, a.statusCode], `${b.body} ${a.body}`).toEqual([200, 200]);
    expect([runs.get('cycle-b'), runs.get('cycle-a')]).toEqual([1, 1]);
    // Both events, in the order their transactions committed.
    expect((await stepped()).filter((tag) => tag.startsWith('cycle-'))).toEqual(['cycle-b', 'cycle-a']);
  });

  it('runs a transaction the database undid for a deadlock again, and answers both', async () => {
    const [x, y] = await Promise.all([
      steps('dead-x', ['lock:x', 'wait:300', 'lock:y', 'emit']),
      steps('dead-y', ['lock:y', 'wait:300', 'lock:x', 'emit']),
    ]);
    expect([x.statusCode, y.statusCode], `${x.body} ${y.body}`).toEqual([200, 200]);
    // One of the two ran twice: its first run was the deadlock's victim, and left nothing.
    expect((runs.get('dead-x') ?? 0) + (runs.get('dead-y') ?? 0)).toBe(3);
    expect((await stepped()).filter((tag) => tag.startsWith('dead-')).sort()).toEqual(['dead-x', 'dead-y']);
  }, 20_000);
});
