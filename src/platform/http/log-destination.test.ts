import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LogDestination } from './log-destination.ts';

// The log's destination (log-destination.ts): every line whole and in order; processes sharing one
// pipe (a server's workers) never cut into each other's lines; a reader that stops reading holds
// neither the process nor more than a bounded backlog, and is told how many lines were dropped; what
// waits is written at exit.

const dir = mkdtempSync(join(tmpdir(), 'ponte-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MODULE = fileURLToPath(new URL('./log-destination.ts', import.meta.url));

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const WRITER = join(dir, 'writer.mjs');
writeFileSync(
  WRITER,
  `import { LogDestination } from ${JSON.stringify(MODULE)};
const [name, lines, bytes] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const out = LogDestination.to(1);
const started = Date.now();
for (let i = 0; i < lines; i++) {
  const line = JSON.stringify({ w: name, i, pad: '' });
  out.write(line.replace('"pad":""', '"pad":"' + 'x'.repeat(Math.max(0, bytes - line.length - 1)) + '"') + '\\n');
}
process.stderr.write(JSON.stringify({ w: name, loopMs: Date.now() - started }) + '\\n');
process.exit(0);
`,
);

/**
 * Runs writers (name, lines, bytes a line) at once, all into ONE pipe (a shell's standard output,
 * which they inherit), read here from `readAfterMs` on; answers what came out and what they said.
 */
async function shared(writers: Array<[string, number, number]>, readAfterMs = 0) {
  const node = JSON.stringify(process.execPath);
  const commands = writers.map(
    ([w, n, b]) => `${node} --import tsx ${JSON.stringify(WRITER)} ${w} ${n} ${b} &`,
  );
  const child = spawn('sh', ['-c', `${commands.join(' ')} wait`], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pause();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stderr.on('data', (c: Buffer) => err.push(c));
  await new Promise((resolve) => setTimeout(resolve, readAfterMs));
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stdout.resume();
  await new Promise((resolve) => child.on('close', resolve));
  const said = Buffer.concat(err)
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const lines = Buffer.concat(out)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { w?: string; i?: number; dropped?: number; msg?: string });
  return { lines, said: said as Array<{ w: string; loopMs: number }> };
}

describe('LogDestination', () => {
  it('writes every line whole and in order, any length, any text, by the end of a flush', async () => {
    const file = join(dir, 'order.log');
    const out = LogDestination.to(file);
    const lines = Array.from(
      { length: 20_000 },
      (_, i) => `${JSON.stringify({ i, text: i % 7 === 0 ? 'ação ✓ 日本' : 'x'.repeat(i % 500) })}\n`,
    );
    lines.splice(777, 0, `${JSON.stringify({ long: 'y'.repeat(10_000) })}\n`);
    for (const line of lines) out.write(line);
    await new Promise<void>((resolve) => out.flush(resolve));
    expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
    out.end();
    expect(out.write('after the end\n')).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
  });

  it('keeps the lines of processes sharing one pipe whole, and writes what waits when they exit', async () => {
    const { lines } = await shared([
      ['a', 20_000, 300],
      ['b', 20_000, 300],
      ['c', 20_000, 300],
    ]);
    // Every line parsed (none cut into by another's), each writer's in order, none lost at exit.
    for (const w of ['a', 'b', 'c'])
      expect(lines.filter((l) => l.w === w).map((l) => l.i)).toEqual(
        Array.from({ length: 20_000 }, (_, i) => i),
      );
  }, 60_000);

  it('goes on without a word when its reader goes away (EPIPE)', async () => {
    const node = JSON.stringify(process.execPath);
    const child = spawn(
      'sh',
      ['-c', `${node} --import tsx ${JSON.stringify(WRITER)} a 50000 300 | head -c 100 > /dev/null`],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const err: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => err.push(c));
    await new Promise((resolve) => child.on('close', resolve));
    // The writer's last word, after all its lines: nothing thrown, nothing else said.
    expect(Buffer.concat(err).toString()).toMatch(/^\{"w":"a","loopMs":\d+\}\n$/);
  }, 60_000);

  it('never waits for a reader that stops: past its backlog it drops lines and says how many, in their place', async () => {
    // 120,000 lines of 300 bytes (36 MB, over the 16 MB backlog), read only after 1 s (the exit waits 2 s for a full pipe).
    const total = 120_000;
    const { lines, said } = await shared([['a', total, 300]], 1000);
    expect(said[0]!.loopMs).toBeLessThan(1000);
    const notices = lines.filter((l) => l.msg !== undefined);
    expect(notices).toHaveLength(1);
    const dropped = notices[0]!.dropped!;
    expect(dropped).toBeGreaterThan(0);
    const kept = lines.filter((l) => l.w === 'a').map((l) => l.i!);
    expect(kept.length + dropped).toBe(total);
    // The lines kept are the first ones, in order; the notice stands where the others would.
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => i));
    expect(lines.indexOf(notices[0]!)).toBe(kept.length);
  }, 60_000);
});
