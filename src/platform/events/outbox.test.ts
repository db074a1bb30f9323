import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import { rowsOf } from '../core/db/database.ts';
import type { EventRecord } from '../core/outbox.ts';
import { topicMatches } from '../core/outbox.ts';
import { yard } from './fixtures.test-support.ts';

// The outbox: an event exists exactly when its operation committed; event operations publish
// themselves; in-process subscribers get each tenant's events in order, at least once; a node whose
// lease on a cursor was taken over moves nothing.

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await testApp({ services: [...allServices, yard] });
  key = await t.tenant('acme');
  await t.tenant('other');
});

const outbox = (tenant: string) =>
  t.db.system(async (tx) =>
    rowsOf<{ id: string; topic: string; payload: { placa?: string } }>(
      await tx.execute(sql`select id, topic, payload from outbox where tenant = ${tenant} order by id`),
    ),
  );

describe('outbox', () => {
  it('writes nothing when the operation rolls back', async () => {
    const before = (await outbox('acme')).length;
    const res = await t.call(
      'acme',
      'test/yard/actions/emit',
      { topic: 'test/yard/x', fail: true },
      { auth: key },
    );
    expect(res.statusCode).toBe(422);
    const rejected = await t.call(
      'acme',
      'test/yard/events/vehicleEnteredYard',
      { placa: 'REJECT' },
      { auth: key },
    );
    expect(rejected.statusCode).toBe(422);
    expect((await outbox('acme')).length).toBe(before);
  });

  it('publishes an event operation under its own address, and what a handler emits', async () => {
    const res = await t.call(
      'acme',
      'test/yard/events/vehicleEnteredYard',
      { placa: 'ABC1D23' },
      { auth: key },
    );
    expect(res.statusCode).toBe(200);
    const emitted = await t.call(
      'acme',
      'test/yard/actions/emit',
      { topic: 'test/dock/opened', payload: { n: 1 } },
      { auth: key },
    );
    expect(emitted.statusCode).toBe(200);
    const rows = await outbox('acme');
    expect(rows.slice(-2).map((r) => [r.topic, r.payload])).toEqual([
      ['test/yard/vehicleEnteredYard', { placa: 'ABC1D23' }],
      ['test/dock/opened', { n: 1 }],
    ]);
    expect(Number(rows.at(-1)!.id)).toBe(emitted.json().id);
  });

  it('rejects a malformed topic', async () => {
    const res = await t.call('acme', 'test/yard/actions/emit', { topic: 'bad topic' }, { auth: key });
    expect(res.statusCode).toBe(500);
  });

  it('matches topic patterns', () => {
    expect(topicMatches('yms/patio/*', 'yms/patio/vehicleEnteredYard')).toBe(true);
    expect(topicMatches('yms/*', 'yms/patio/vehicleEnteredYard')).toBe(true);
    expect(topicMatches('*', 'yms/patio/vehicleEnteredYard')).toBe(true);
    expect(topicMatches('*/patio/*', 'yms/patio/x')).toBe(true);
    expect(topicMatches('yms/agenda/*', 'yms/patio/x')).toBe(false);
    expect(topicMatches('yms/patio/x', 'yms/patio/x')).toBe(true);
    expect(topicMatches('yms/patio/x', 'yms/patio/xy')).toBe(false);
  });
});

describe('in-process subscribers', () => {
  it('get every event in order per tenant, again after a failure, and only matching topics', async () => {
    const seen: EventRecord[] = [];
    let failOnce = true;
    t.platform.events.subscribe(
      'test/yard/*',
      (e) => {
        if (e.tenant === 'acme' && (e.payload as { placa: string }).placa === 'P5' && failOnce) {
          failOnce = false;
          throw new Error('subscriber busy');
        }
        seen.push(e);
      },
      { name: 'test-ordered' },
    );
    for (let i = 0; i < 10; i++) {
      const tenant = i % 3 === 0 ? 'other' : 'acme';
      const auth = tenant === 'acme' ? key : await t.key('other').then((k) => k.apiKey);
      await t.call(tenant, 'test/yard/events/vehicleEnteredYard', { placa: `P${i}` }, { auth });
      await t.call(tenant, 'test/yard/actions/emit', { topic: 'test/dock/ignored' }, { auth });
    }
    await t.platform.events.drain(); // stops at P5 for acme
    await t.platform.events.drain(); // P5 again, then the rest
    const acme = seen.filter((e) => e.tenant === 'acme');
    const placas = acme.map((e) => (e.payload as { placa: string }).placa);
    expect(placas.slice(-6)).toEqual(['P1', 'P2', 'P4', 'P5', 'P7', 'P8']);
    expect(seen.every((e) => e.topic === 'test/yard/vehicleEnteredYard')).toBe(true);
    const ids = acme.map((e) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(
      seen.filter((e) => e.tenant === 'other').map((e) => (e.payload as { placa: string }).placa),
    ).toEqual(['P0', 'P3', 'P6', 'P9']);
    // Nothing left: a further drain delivers nothing twice.
    const count = seen.length;
    await t.platform.events.drain();
    expect(seen.length).toBe(count);
  });
});

describe('cursor leases', () => {
  const cursor = async () =>
    (
      await t.db.system(async (tx) =>
        rowsOf<{ last_id: string; lease_token: string | null }>(
          await tx.execute(sql`
            select last_id, lease_token from event_cursors where consumer = 'test-lease' and tenant = 'acme'`),
        ),
      )
    )[0];

  it('a node whose cursor was taken over mid-batch leaves the cursor where the new holder has it', async () => {
    const seen: number[] = [];
    const theirs = randomUUID();
    t.platform.events.subscribe(
      'test/lease/*',
      async (e) => {
        seen.push(e.id);
        // Meanwhile another node took the cursor over (this node's lease had run out).
        if (seen.length === 1)
          await t.db.system((tx) =>
            tx.execute(sql`
              update event_cursors set lease_token = ${theirs}, lease_until = now() + interval '1 minute'
              where consumer = 'test-lease' and tenant = 'acme'`),
          );
      },
      { name: 'test-lease' },
    );
    for (let i = 0; i < 3; i++)
      await t.call('acme', 'test/yard/actions/emit', { topic: `test/lease/e${i}` }, { auth: key });
    await t.platform.events.drain();
    expect(seen).toHaveLength(3);
    const during = await cursor();
    expect(during!.lease_token).toBe(theirs);
    expect(Number(during!.last_id)).toBe(0);
    expect(t.platform.leases.size).toBe(0);
    // Once that holder is gone and its lease has run out, the records are delivered again.
    await t.db.system((tx) =>
      tx.execute(sql`
        update event_cursors set lease_until = now() - interval '1 second'
        where consumer = 'test-lease' and tenant = 'acme'`),
    );
    await t.platform.events.drain();
    expect(seen).toHaveLength(6);
    const after = await cursor();
    expect(Number(after!.last_id)).toBe(seen.at(-1));
    expect(after!.lease_token).toBeNull();
  });
});
