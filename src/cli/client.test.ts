import { describe, expect, it } from 'vitest';
import { runClient, valuesLast } from './client.ts';

// The CLI's arguments (client.ts valuesLast): an access key that begins with `-` (one in 64 of
// those made before 27 November 2026) is read as the positional it is, options stay options, and
// what parseArgs does not know is still refused.

describe('valuesLast', () => {
  it('reads a word that begins with one dash as a positional, in its place among the others', () => {
    expect(valuesLast(['key', 'revoke', 'acme', '-iX3_kq9aZ0bLm2Yt7Qw'])).toEqual([
      '--',
      'key',
      'revoke',
      'acme',
      '-iX3_kq9aZ0bLm2Yt7Qw',
    ]);
  });

  it('keeps options with their values in front, the positionals after --, in order', () => {
    expect(
      valuesLast(['key', 'create', 'acme', '--scope', 'public', '--json', '--subject=externalUser:7', '-h']),
    ).toEqual([
      '--scope',
      'public',
      '--json',
      '--subject=externalUser:7',
      '-h',
      '--',
      'key',
      'create',
      'acme',
    ]);
    expect(valuesLast(['key', 'revoke', '--', 'acme', '--json'])).toEqual([
      '--',
      'key',
      'revoke',
      'acme',
      '--json',
    ]);
    expect(valuesLast(['tenant', 'create', 'acme', '--description', '-odd-'])).toEqual([
      '--description',
      '-odd-',
      '--',
      'tenant',
      'create',
      'acme',
    ]);
  });
});

describe('runClient', () => {
  it('still refuses an unknown option (exit 2) and a missing value', async () => {
    const written: string[] = [];
    const sink = { write: (s: string) => written.push(s) } as unknown as NodeJS.WritableStream;
    expect(await runClient(['tenant', 'list', '--bogus'], {}, sink, sink)).toBe(2);
    expect(written.join('')).toMatch(/Unknown option '--bogus'/);
    expect(await runClient(['key', 'create', 'acme', '--scope'], {}, sink, sink)).toBe(2);
  });

  it('sends an access key that begins with a dash to the server as it is', async () => {
    const { createServer } = await import('node:http');
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ accessKey: '-iX3_kq9aZ0bLm2Yt7Qw', revokedAt: new Date().toISOString() }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const written: string[] = [];
      const sink = { write: (s: string) => written.push(s) } as unknown as NodeJS.WritableStream;
      const env = { PONTE_URL: `http://127.0.0.1:${port}`, ADMIN_TOKEN: 'x' };
      const code = await runClient(['key', 'revoke', 'acme', '-iX3_kq9aZ0bLm2Yt7Qw'], env, sink, sink);
      expect(code, written.join('')).toBe(0);
      expect(seen).toEqual(['DELETE /admin/tenants/acme/keys/-iX3_kq9aZ0bLm2Yt7Qw']);
    } finally {
      server.close();
    }
  });
});
