import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import { rowsOf } from '../core/db/database.ts';
import { yard } from './fixtures.test-support.ts';

// Outbox retention: old events go once every consumer passed them and no webhook delivery that may
// still be sent needs them; recent ones, unread ones and needed ones stay.

let t: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  t = await testApp({ services: [...allServices, yard], config: { outboxRetentionHours: 24 } });
  key = await t.tenant('acme');
  otherKey = await t.tenant('other');
});

const emit = async (tenant: string, auth: string, topic: string) => {
  const res = await t.call(tenant, 'test/yard/actions/emit', { topic, payload: {} }, { auth });
  expect(res.statusCode).toBe(200);
  return res.json().id as number;
};
const ids = async (tenant: string) =>
  t.db.system(async (tx) =>
    rowsOf<{ id: string }>(
      await tx.execute(sql`select id from outbox where tenant = ${tenant} order by id`),
    ).map((r) => Number(r.id)),
  );
const age = (idList: number[], days: number) =>
  t.db.system((tx) =>
    tx.execute(sql`update outbox set created_at = now() - make_interval(days => ${days})
      where id in (${sql.join(
        idList.map((i) => sql`${i}`),
        sql`, `,
      )})`),
  );

describe('outbox retention', () => {
  it('deletes old events every consumer passed, keeps recent ones and those a consumer has not read', async () => {
    const seen: number[] = [];
    let stopAt: number | undefined;
    // A consumer that refuses one event: its cursor stays before it.
    t.platform.events.subscribe('test/*', async (e) => {
      if (e.id === stopAt) throw new Error('not yet');
      seen.push(e.id);
    });
    const old = [await emit('acme', key, 'test/a'), await emit('acme', key, 'test/b')];
    stopAt = await emit('acme', key, 'test/c');
    const afterStop = await emit('acme', key, 'test/d');
    const recent = await emit('acme', key, 'test/e');
    await age([...old, stopAt, afterStop], 3);
    const unread = await emit('other', otherKey, 'test/x');
    await age([unread], 3);
    // Before any consumer read them, nothing goes, however old.
    expect(await t.platform.events.prune()).toBe(0);
    expect(await ids('other')).toEqual([unread]);

    await t.platform.events.drain();
    expect(seen).toEqual(expect.arrayContaining([...old, unread]));
    expect(seen).not.toContain(stopAt);
    await t.platform.events.prune();
    const left = await ids('acme');
    for (const id of old) expect(left).not.toContain(id);
    expect(left).toEqual([stopAt, afterStop, recent]);
    expect(await ids('other')).toEqual([]);

    // Once the consumer gets past it, the rest of the old events go; the recent one stays.
    stopAt = undefined;
    await t.platform.events.drain();
    await t.platform.events.prune();
    expect(await ids('acme')).toEqual([recent]);
  });

  it('keeps an old event that a pending or dead webhook delivery still needs', async () => {
    const needed = await emit('acme', key, 'test/hook');
    const gone = await emit('acme', key, 'test/hook');
    await age([needed, gone], 5);
    await t.platform.events.drain();
    await t.db.system(async (tx) => {
      const sub = rowsOf<{ id: string }>(
        await tx.execute(sql`insert into webhook_subscriptions (tenant, url, topics, secret)
          values ('acme', 'http://127.0.0.1:9/x', '["test/*"]', 's') returning id`),
      )[0]!;
      await tx.execute(sql`insert into webhook_deliveries (tenant, subscription_id, event_id, topic, state)
        values ('acme', ${sub.id}, ${needed}, 'test/hook', 'dead'),
               ('acme', ${sub.id}, ${gone}, 'test/hook', 'delivered')`);
    });
    await t.platform.events.prune();
    const left = await ids('acme');
    expect(left).toContain(needed);
    expect(left).not.toContain(gone);
  });

  it('keeps everything when the retention is 0 hours', async () => {
    const t0 = await testApp({ services: [...allServices, yard], config: { outboxRetentionHours: 0 } });
    const k = await t0.tenant('acme');
    const res = await t0.call(
      'acme',
      'test/yard/actions/emit',
      { topic: 'test/z', payload: {} },
      { auth: k },
    );
    await t0.db.system((tx) => tx.execute(sql`update outbox set created_at = now() - interval '400 days'`));
    await t0.platform.events.drain();
    expect(await t0.platform.events.prune()).toBe(0);
    const n = await t0.db.system(async (tx) =>
      rowsOf<{ n: string }>(
        await tx.execute(sql`select count(*) as n from outbox where id = ${res.json().id}`),
      ),
    );
    expect(Number(n[0]!.n)).toBe(1);
    await t0.app.close();
  });
});
