import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';

// Signed, expiring blob URLs served by the bridge: bytes round-trip exactly, and a URL grants
// only what it names, for as long as it says.

let t: TestApp;
let clock = new Date('2026-03-01T12:00:00Z');

beforeAll(async () => {
  t = await testApp({ now: () => clock, config: { blobMaxBytes: 2 * 1024 * 1024 } });
  await t.tenant('acme');
  await t.tenant('globex');
});

const path = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

const put = (url: string, payload: Buffer, contentType = 'application/octet-stream') =>
  t.app.inject({ method: 'PUT', url: path(url), headers: { 'content-type': contentType }, payload });

describe('blob store', () => {
  it('round-trips a binary file byte for byte', async () => {
    const bytes = randomBytes(1024 * 1024 + 17);
    const up = t.platform.blobs.sign('acme', 'anexos/nota fiscal.pdf', 'put');
    expect(up.url.startsWith(t.platform.config.publicUrl)).toBe(true);
    const res = await put(up.url, bytes, 'application/pdf');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      key: 'anexos/nota fiscal.pdf',
      size: bytes.length,
      contentType: 'application/pdf',
    });
    const down = await t.app.inject({
      method: 'GET',
      url: path(t.platform.blobs.sign('acme', 'anexos/nota fiscal.pdf', 'get').url),
    });
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(down.rawPayload, bytes)).toBe(0);
  });

  it('refuses a tampered signature, another operation, and another tenant', async () => {
    const up = t.platform.blobs.sign('acme', 'x.bin', 'put');
    const tampered = up.url.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await put(tampered, Buffer.from('x'))).statusCode).toBe(403);
    const asGet = await t.app.inject({ method: 'GET', url: path(up.url) });
    expect(asGet.statusCode).toBe(403);
    const otherTenant = await put(up.url.replace('/blobs/acme/', '/blobs/globex/'), Buffer.from('x'));
    expect(otherTenant.statusCode).toBe(403);
    expect(otherTenant.json().reason).toBe('FORBIDDEN');
  });

  it('refuses an expired URL with 410 GONE', async () => {
    const up = t.platform.blobs.sign('acme', 'late.bin', 'put', 60);
    clock = new Date(clock.getTime() + 61_000);
    const res = await put(up.url, Buffer.from('late'));
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ message: 'This blob URL has expired; ask for a new one', reason: 'GONE' });
  });

  it('stops an upload over the limit of its URL, keeping nothing', async () => {
    const up = t.platform.blobs.sign('acme', 'big.bin', 'put', 900, { maxBytes: 1000 });
    const res = await put(up.url, randomBytes(1001));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/larger than the limit of 1000 bytes/);
    expect(await t.platform.blobs.stat('acme', 'big.bin')).toBeUndefined();
    const down = await t.app.inject({
      method: 'GET',
      url: path(t.platform.blobs.sign('acme', 'big.bin', 'get').url),
    });
    expect(down.statusCode).toBe(404);
  });

  it('keeps each tenant’s blobs apart', async () => {
    await put(t.platform.blobs.sign('globex', 'same.txt', 'put').url, Buffer.from('globex'), 'text/plain');
    await put(t.platform.blobs.sign('acme', 'same.txt', 'put').url, Buffer.from('acme'), 'text/plain');
    const g = await t.app.inject({
      method: 'GET',
      url: path(t.platform.blobs.sign('globex', 'same.txt', 'get').url),
    });
    expect(g.body).toBe('globex');
  });

  it('rejects keys that could escape the store', () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', '.hidden/..', '']) {
      expect(() => t.platform.blobs.sign('acme', key, 'put'), key).toThrow(/Invalid blob key/);
    }
  });
});
