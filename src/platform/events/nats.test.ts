import { sql } from 'drizzle-orm';
import { AckPolicy, connect, DeliverPolicy, StringCodec } from 'nats';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import { until, yard } from './fixtures.test-support.ts';
import { natsSubject } from './nats.ts';

// NATS JetStream delivery against a real server; runs only where NATS_URL names one (CI sets it).

const url = process.env.NATS_URL;

describe('NATS JetStream (runs only when NATS_URL is set; skipped otherwise)', () => {
  let t: TestApp;
  let key: string;
  // The shared stream (one stream owns `ponte.>`); a tenant name of its own per run keeps repeated
  // runs from seeing each other's messages.
  const stream = process.env.NATS_STREAM ?? 'PONTE_EVENTS';
  const tenantName = `acme.t${Date.now().toString(36)}`;

  beforeAll(async () => {
    if (!url) return;
    t = await testApp({ services: [...allServices, yard], config: { natsUrl: url, natsStream: stream } });
    // JetStream de-duplicates by msg id for two minutes, and each test database counts ids from 1:
    // start this run's ids past every earlier run's.
    await t.db.db.execute(sql.raw(`alter table outbox alter column id restart with ${Date.now()}`));
    key = await t.tenant(tenantName); // a dot in the name, mapped to `~` in the subject
  });

  it.skipIf(!url)(
    'publishes each event to ponte.<tenant>.<domain>.<service>.<operation> with its id',
    async () => {
      const ids: number[] = [];
      for (const placa of ['N1', 'N2', 'N3']) {
        const res = await t.call(
          tenantName,
          'test/yard/actions/emit',
          { topic: 'test/yard/vehicleEnteredYard', payload: { placa } },
          { auth: key },
        );
        ids.push(res.json().id);
      }
      await t.platform.events.drain();

      const nc = await connect({ servers: url!.split(',') });
      try {
        const jsm = await nc.jetstreamManager();
        const subject = natsSubject({ tenant: tenantName, topic: 'test/yard/vehicleEnteredYard' });
        await jsm.consumers.add(stream, {
          durable_name: `test_${Date.now()}`,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          filter_subject: subject,
        });
        const durable = (await jsm.consumers.list(stream).next()).find(
          (c) => c.config.filter_subject === subject,
        )!;
        const consumer = await nc.jetstream().consumers.get(stream, durable.name);
        const got: Array<{ id: number; msgId: string | undefined; placa: string }> = [];
        await until(async () => {
          const m = await consumer.next({ expires: 1000 });
          if (m) {
            const body = JSON.parse(StringCodec().decode(m.data));
            got.push({ id: body.id, msgId: m.headers?.get('Nats-Msg-Id'), placa: body.payload.placa });
            m.ack();
          }
          return got.length >= 3;
        });
        expect(got.map((g) => g.id)).toEqual(ids);
        expect(got.map((g) => g.msgId)).toEqual(ids.map(String));
        expect(got.map((g) => g.placa)).toEqual(['N1', 'N2', 'N3']);
        await jsm.consumers.delete(stream, durable.name);
      } finally {
        await nc.close();
      }
    },
  );
});
