import { type ClientRequest, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import { until, yard } from '../events/fixtures.test-support.ts';

// The live stream over a real HTTP connection: live events, resume from Last-Event-ID, topic and
// ws_users filters, tenant isolation and its credentials check.

let t: TestApp;
let key: string;
let otherKey: string;
let base: string;
const open: ClientRequest[] = [];

beforeAll(async () => {
  t = await testApp({ services: [...allServices, yard], config: { eventPollMs: 20, liveRecheckMs: 50 } });
  key = await t.tenant('acme');
  otherKey = await t.tenant('other');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const r of open) r.destroy();
});

interface Sse {
  status: number;
  /** The `error` event the server ended the stream with, and whether it ended. */
  error?: { reason: string; message: string };
  ended: boolean;
  events: Array<{ id: number; data: { id: number; topic: string; payload: { placa?: string } } }>;
}

function connect(tenant: string, auth: string, query = '', lastEventId?: number): Promise<Sse> {
  return new Promise((resolve, reject) => {
    const sse: Sse = { status: 0, events: [], ended: false };
    const req = request(`${base}/t/${tenant}/bridge/1.0/events/stream${query}`, {
      headers: {
        authorization: auth,
        ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
      },
    });
    open.push(req);
    req.on('response', (res) => {
      sse.status = res.statusCode ?? 0;
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        // The first chunk (a comment) tells the headers are through and the connection is live.
        if (buffer.startsWith(':')) resolve(sse);
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (id && data) sse.events.push({ id: Number(id), data: JSON.parse(data) });
          if (/^event: error$/m.test(block) && data) sse.error = JSON.parse(data);
          end = buffer.indexOf('\n\n');
        }
      });
      res.on('end', () => {
        sse.ended = true;
        resolve(sse);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const enter = async (placa: string, extra: Record<string, string> = {}, tenant = 'acme') => {
  const res = await t.call(
    tenant,
    'test/yard/events/vehicleEnteredYard',
    { placa, ...extra },
    { auth: tenant === 'acme' ? key : otherKey },
  );
  expect(res.statusCode).toBe(200);
};
const placas = (s: Sse) => s.events.map((e) => e.data.payload.placa);

describe('live stream', () => {
  it('needs valid credentials of the tenant', async () => {
    expect((await connect('acme', 'nope')).status).toBe(401);
    expect((await connect('acme', otherKey)).status).toBe(401);
    expect((await connect('acme', key, '?topics=a%20b')).status).toBe(400);
    for (const id of ['-1', 'abc', '1e30', '9223372036854775808', '0x10'])
      expect((await connect('acme', key, '', id as unknown as number)).status, id).toBe(400);
  });

  it('streams live events, filtered by topic, and never another tenant’s', async () => {
    const all = await connect('acme', key);
    const yardOnly = await connect('acme', key, '?topics=test/yard/*');
    const other = await connect('other', otherKey);
    await enter('L1');
    await t.call(
      'acme',
      'test/yard/actions/emit',
      { topic: 'test/dock/opened', payload: { placa: 'D1' } },
      { auth: key },
    );
    await enter('L2');
    await enter('O1', {}, 'other');
    await until(() => all.events.length >= 3 && other.events.length >= 1);
    expect(placas(all)).toEqual(['L1', 'D1', 'L2']);
    await until(() => yardOnly.events.length >= 2);
    expect(placas(yardOnly)).toEqual(['L1', 'L2']);
    expect(placas(other)).toEqual(['O1']);
    const ids = all.events.map((e) => e.id);
    expect(ids).toEqual(all.events.map((e) => e.data.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('resumes after Last-Event-ID: replays from the outbox, then continues live', async () => {
    const first = await connect('acme', key);
    await enter('R1');
    await enter('R2');
    await until(() => first.events.length >= 2);
    const resumeFrom = first.events[0]!.id; // as if the client saw only R1
    await enter('R3');
    const resumed = await connect('acme', key, '', resumeFrom);
    await enter('R4');
    await until(() => resumed.events.length >= 3);
    expect(placas(resumed)).toEqual(['R2', 'R3', 'R4']);
  });

  it('delivers a ws_users event only to the users it names', async () => {
    const ana = await connect('acme', key, '?user=ana');
    const bia = await connect('acme', key, '?user=bia');
    const nobody = await connect('acme', key);
    await enter('W1', { ws_users: 'ana, carla' });
    await enter('W2');
    await until(() => ana.events.length >= 2 && bia.events.length >= 1 && nobody.events.length >= 1);
    expect(placas(ana)).toEqual(['W1', 'W2']);
    expect(placas(bia)).toEqual(['W2']);
    expect(placas(nobody)).toEqual(['W2']);
  });

  it('ends when its key is revoked or its session logged out, with an error event; a new one is 401', async () => {
    const revogada = await t.key('acme');
    const porChave = await connect('acme', revogada.apiKey, '?topics=test/*');
    const outra = await t.key('acme');
    const login = await t.call(
      'acme',
      'platform/authentication/actions/loginWithKey',
      { accessKey: outra.accessKey, secret: outra.secret, tenantName: 'acme' },
      { anonymous: true },
    );
    const bearer = `Bearer ${JSON.parse(login.json().jsonToken).access_token}`;
    const porSessao = await connect('acme', bearer, '?topics=test/*');
    const vigente = await connect('acme', key, '?topics=test/*');
    await enter('ANT1A11');
    await until(() => porChave.events.length === 1 && porSessao.events.length === 1);

    expect((await t.admin('DELETE', `/tenants/acme/keys/${revogada.accessKey}`)).statusCode).toBe(200);
    const logout = await t.call('acme', 'platform/authentication/actions/logout', {}, { auth: bearer });
    expect(logout.statusCode, logout.body).toBe(200);
    await until(() => porChave.ended && porSessao.ended);
    for (const s of [porChave, porSessao])
      expect(s.error).toEqual({
        reason: 'UNAUTHORIZED',
        message: 'The credential of this stream was revoked, logged out or has expired',
      });
    await enter('DEP1A11');
    await until(() => vigente.events.length === 2);
    expect(placas(porChave)).toEqual(['ANT1A11']);
    expect(placas(porSessao)).toEqual(['ANT1A11']);
    expect(vigente.ended).toBe(false);
    expect((await connect('acme', revogada.apiKey)).status).toBe(401);
    expect((await connect('acme', bearer)).status).toBe(401);
  });
});
