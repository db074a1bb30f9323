import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { until, yard } from '../../../platform/events/fixtures.test-support.ts';
import { verify } from '../../../platform/events/signature.ts';
import { allServices } from '../../index.ts';

// Webhooks against a real local receiver: retried while it fails, signed, in order, none lost when
// the app restarts in the middle; dead-lettered after the configured attempts and redeliverable.

const config = {
  runJobs: true,
  eventPollMs: 20,
  webhookBackoffMs: 20,
  webhookBackoffMaxMs: 100,
  webhookMaxAttempts: 3,
};
const services = [...allServices, yard];

interface Received {
  path: string;
  id: number;
  body: { id: number; topic: string; tenant: string; payload: { placa?: string } };
  valid: boolean;
}

const received: Received[] = [];
const failures: Record<string, number> = { '/ok': 0, '/dead': 0 };
const secrets: Record<string, string> = {};
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = req.url ?? '';
      if ((failures[path] ?? 0) !== 0) {
        failures[path]!--;
        res.writeHead(500).end('down');
        return;
      }
      const valid = verify(
        secrets[path] ?? '',
        {
          signature: req.headers['x-ponte-signature'] as string,
          timestamp: req.headers['x-ponte-timestamp'] as string,
        },
        raw,
      );
      const body = JSON.parse(raw);
      expect(req.headers['x-ponte-event-id']).toBe(String(body.id));
      expect(req.headers['x-ponte-topic']).toBe(body.topic);
      received.push({ path, id: body.id, body, valid });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

let t: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  t = await testApp({ services, config });
  key = await t.tenant('acme');
  otherKey = await t.tenant('other');
});

const subscribe = async (app: TestApp, path: string, topics: string[]) => {
  const res = await app.call(
    'acme',
    'platform/webhooks/actions/createSubscription',
    { url: `${base}${path}`, topics },
    { auth: key },
  );
  expect(res.statusCode).toBe(200);
  const sub = res.json();
  secrets[path] = sub.secret;
  return sub as { id: string; secret: string };
};
const enter = (app: TestApp, placa: string) =>
  app
    .call('acme', 'test/yard/events/vehicleEnteredYard', { placa }, { auth: key })
    .then((r) => expect(r.statusCode).toBe(200));
const deliveries = async (app: TestApp, subscriptionId: string) =>
  (
    await app.call('acme', 'platform/webhooks/queries/listDeliveries', { subscriptionId }, { auth: key })
  ).json().deliveries as Array<{
    id: string;
    state: string;
    attempts: number;
    responseCode?: number;
    lastError?: string;
  }>;

describe('webhook deliveries', () => {
  it('arrive signed, in order, none lost, while the receiver fails at first and across a restart', async () => {
    failures['/ok'] = 2;
    const sub = await subscribe(t, '/ok', ['test/yard/*']);
    for (const p of ['A1', 'A2', 'A3']) await enter(t, p);
    await until(() => received.filter((r) => r.path === '/ok').length >= 1);
    await t.app.close(); // a restart in the middle: some delivered, some pending

    const t2 = await testApp({ db: t.db, services, config });
    for (const p of ['B1', 'B2', 'B3']) await enter(t2, p);
    await until(() => new Set(received.filter((r) => r.path === '/ok').map((r) => r.id)).size >= 6);

    const got = received.filter((r) => r.path === '/ok');
    expect(got.every((r) => r.valid)).toBe(true);
    const ids = got.map((r) => r.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids); // in order (a repeat, if any, stays in place)
    const placas = [...new Map(got.map((r) => [r.id, r.body.payload.placa])).values()];
    expect(placas).toEqual(['A1', 'A2', 'A3', 'B1', 'B2', 'B3']);
    expect(got[0]!.body).toMatchObject({ topic: 'test/yard/vehicleEnteredYard', tenant: 'acme' });
    const list = await deliveries(t2, sub.id);
    expect(list.map((d) => d.state)).toEqual(Array(6).fill('delivered'));
    expect(list[0]!.attempts).toBe(3);
    t = t2;
  });

  it('dead-letters after the configured attempts, and redelivers on request', async () => {
    failures['/dead'] = -1; // always fails
    const sub = await subscribe(t, '/dead', ['test/dock/*']);
    await t.call(
      'acme',
      'test/yard/actions/emit',
      { topic: 'test/dock/opened', payload: { dock: 1 } },
      { auth: key },
    );
    await until(async () => (await deliveries(t, sub.id))[0]?.state === 'dead');
    const [dead] = await deliveries(t, sub.id);
    expect(dead).toMatchObject({ state: 'dead', attempts: 3, responseCode: 500, lastError: 'HTTP 500' });

    const notDead = await t.call(
      'acme',
      'platform/webhooks/actions/redeliver',
      { deliveryId: dead!.id },
      { auth: key },
    );
    expect(notDead.statusCode).toBe(200);
    failures['/dead'] = 0;
    await until(async () => (await deliveries(t, sub.id))[0]?.state === 'delivered');
    expect(received.filter((r) => r.path === '/dead').map((r) => r.body.payload)).toEqual([{ dock: 1 }]);
    const again = await t.call(
      'acme',
      'platform/webhooks/actions/redeliver',
      { deliveryId: dead!.id },
      { auth: key },
    );
    expect(again.statusCode).toBe(409);
  });

  it('manages subscriptions per tenant: another tenant sees none of them', async () => {
    const sub = await subscribe(t, '/ok', ['*']);
    const call = (op: string, body: unknown, auth: string) =>
      t.call(auth === key ? 'acme' : 'other', `platform/webhooks/${op}`, body, { auth });
    expect((await call('queries/getSubscription', { id: sub.id }, otherKey)).statusCode).toBe(404);
    expect((await call('actions/deleteSubscription', { id: sub.id }, otherKey)).statusCode).toBe(404);
    expect((await call('queries/listDeliveries', { subscriptionId: sub.id }, otherKey)).statusCode).toBe(404);
    expect((await call('queries/listSubscriptions', {}, otherKey)).json().subscriptions).toEqual([]);

    const got = (await call('queries/getSubscription', { id: sub.id }, key)).json();
    expect(got).toMatchObject({ id: sub.id, topics: ['*'], active: true });
    expect(got.secret).toBeUndefined(); // shown once, at creation
    const off = await call('actions/updateSubscription', { id: sub.id, active: false }, key);
    expect(off.json().active).toBe(false);
    expect((await call('actions/deleteSubscription', { id: sub.id }, key)).statusCode).toBe(200);
    expect((await call('queries/getSubscription', { id: sub.id }, key)).statusCode).toBe(404);
  });

  it('rejects a URL that is not http(s) and a malformed topic pattern', async () => {
    const bad = await t.call(
      'acme',
      'platform/webhooks/actions/createSubscription',
      { url: 'ftp://x/y', topics: ['*'] },
      { auth: key },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('url');
    const topic = await t.call(
      'acme',
      'platform/webhooks/actions/createSubscription',
      { url: base, topics: ['a b'] },
      { auth: key },
    );
    expect(topic.statusCode).toBe(400);
  });
});
