import { connect, type JetStreamClient, type NatsConnection } from 'nats';
import type { Platform } from '../core/declarations.ts';
import type { EventRecord } from '../core/outbox.ts';
import type { EventConsumer } from './dispatcher.ts';

// NATS JetStream, when NATS_URL is set (docs/events.md): the `nats` consumer publishes every outbox
// record, in order per tenant, to `ponte.<tenant>.<domain>.<service>.<operation>` on one stream,
// with the event id as `Nats-Msg-Id`, so JetStream drops the repeat of an at-least-once retry.

/** NATS tokens cannot hold `.`; tenant names can, and never hold `~`, so the mapping stays one-to-one. */
export const natsSubject = (e: Pick<EventRecord, 'tenant' | 'topic'>) =>
  `ponte.${e.tenant.replaceAll('.', '~')}.${e.topic.replaceAll('/', '.')}`;

export class NatsPublisher {
  private connection: NatsConnection | undefined;
  private js: JetStreamClient | undefined;
  private connecting: Promise<JetStreamClient> | undefined;

  constructor(private readonly platform: Platform) {}

  consumer(): EventConsumer {
    return {
      name: 'nats',
      handle: async (record) => {
        const js = await this.client();
        const body = JSON.stringify({
          id: record.id,
          topic: record.topic,
          tenant: record.tenant,
          occurredAt: record.occurredAt,
          payload: record.payload,
        });
        await js.publish(natsSubject(record), body, { msgID: String(record.id) });
      },
    };
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    this.js = undefined;
    this.connecting = undefined;
    await connection?.drain().catch(() => undefined);
  }

  /** Connects once and makes sure the stream exists; a failure is retried on the next record. */
  private client(): Promise<JetStreamClient> {
    if (this.js) return Promise.resolve(this.js);
    this.connecting ??= (async () => {
      const { natsUrl, natsStream } = this.platform.config;
      const nc = await connect({ servers: natsUrl!.split(','), name: 'ponte', maxReconnectAttempts: -1 });
      try {
        const jsm = await nc.jetstreamManager();
        try {
          await jsm.streams.info(natsStream);
        } catch {
          await jsm.streams.add({ name: natsStream, subjects: ['ponte.>'] });
        }
      } catch (err) {
        await nc.close();
        throw err;
      }
      this.connection = nc;
      this.js = nc.jetstream();
      return this.js;
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }
}
