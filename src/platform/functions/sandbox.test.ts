import { afterAll, describe, expect, it } from 'vitest';
import { runInSandbox, SandboxError, stopSandbox, syntaxError } from './sandbox.ts';

// The sandbox on its own (docs/functions.md "Running functions"): real hostile code is stopped with
// the reason, within its limits plus the watchdog's grace, and the sandbox runs the next function.

afterAll(() => stopSandbox());

const limits = { timeoutMs: 200, memoryLimitMb: 8 };
const fails = async (code: string) => {
  const started = Date.now();
  const err = await runInSandbox(code, {}, limits).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SandboxError);
  return { err: err as SandboxError, ms: Date.now() - started };
};
const works = async () =>
  expect((await runInSandbox('function handler(e) { return e.a * 2 }', { a: 21 }, limits)).value).toBe(42);

describe('runInSandbox', () => {
  it('runs a handler with its event and collects its logs', async () => {
    const ran = await runInSandbox(
      'function handler(e) { console.log("oi", e); return [e.a] }',
      { a: 1 },
      limits,
    );
    expect(ran.value).toEqual([1]);
    expect(ran.logs).toEqual(['oi {"a":1}']);
  });

  it.each([
    ['an endless loop', 'function handler() { for (;;) {} }', ['timeout']],
    [
      'an endless loop of native work',
      'function handler() { const a = []; for (;;) a.push(new Array(100000).fill(1.5)) }',
      // Stopped by the engine's ceiling ("memory") or, when the machine is busy and the ceiling's
      // garbage collection outlasts deadline + grace, by the watchdog ("timeout"): stopped either way.
      ['memory', 'timeout'],
    ],
    [
      'an allocation bomb of buffers',
      'function handler() { const a = []; for (;;) a.push(new ArrayBuffer(4e6)) }',
      // The same two ways as the array bomb above (CI on 27 November: "timeout" once, under load).
      ['memory', 'timeout'],
    ],
    [
      'one allocation past the limit',
      'function handler() { return new ArrayBuffer(64 * 1024 * 1024).byteLength }',
      ['memory', 'threw'],
    ],
    [
      'a runaway recursion',
      'function handler() { function f() { return f() + 1 } return f() }',
      ['threw', 'crashed'],
    ],
    ['a deep JSON', 'function handler() { return JSON.parse("[".repeat(100000)) }', ['threw', 'crashed']],
    ['reaching for process', 'function handler() { return process.pid }', ['threw']],
    ['reaching for require', 'function handler() { return require("child_process") }', ['threw']],
  ])('stops %s, then runs the next function', async (_what, code, kinds) => {
    const { err, ms } = await fails(code);
    expect(kinds).toContain(err.kind);
    expect(ms).toBeLessThan(4000);
    await works();
  });

  it('keeps the host process small through bombs', async () => {
    // What the bombs add, not the whole process: the test worker also holds what the test files
    // it ran before allocated (a PGlite's memory is never handed back).
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 3; i++)
      await fails('function handler() { const a = []; for (;;) a.push(new ArrayBuffer(4e6)) }');
    // The engine's memory has a ceiling (worker.mjs MAX_PAGES, 96 MiB): without it, 1.5 GiB.
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 ** 2);
    await works();
  });

  it('checks syntax without running anything', async () => {
    expect(await syntaxError('function handler() { for (;;) {} }')).toBeUndefined();
    expect(await syntaxError('function (')).toMatch(/SyntaxError/);
    // Nested past what the compiler's stack holds: refused, and the sandbox goes on.
    expect(await syntaxError(`x = ${'['.repeat(100000)}`)).toMatch(/nested too deeply/);
    await works();
  });
});
