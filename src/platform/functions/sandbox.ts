import {
  newQuickJSWASMModule,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
  shouldInterruptAfterDeadline,
} from 'quickjs-emscripten';

// The sandbox of user functions (docs/functions.md "Running functions"): QuickJS compiled to
// WebAssembly (quickjs-emscripten), never node:vm. Each run gets a runtime of its own with a memory
// limit, a stack limit and a deadline checked by QuickJS's interrupt handler; the only things the
// code reaches are its event (a JSON copy) and a logger. Nothing of the host is exposed: no
// process, require, fs, timers or network. A run that breaks the WebAssembly module itself (some
// deep recursions abort QuickJS) discards the module: the next run loads a fresh one.

export interface SandboxLimits {
  timeoutMs: number;
  memoryLimitMb: number;
}

export type SandboxFailure = 'threw' | 'timeout' | 'memory' | 'invalid' | 'crashed';

export class SandboxError extends Error {
  constructor(
    readonly kind: SandboxFailure,
    message: string,
    readonly logs: string[],
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

export interface SandboxResult {
  /** What the handler answered (JSON), undefined when it answered nothing. */
  value: unknown;
  logs: string[];
  durationMs: number;
}

/** The stack QuickJS may use: small enough that a runaway recursion is its InternalError, not an abort. */
const STACK_BYTES = 256 * 1024;
const MAX_LOG_LINES = 50;
const MAX_LOG_CHARS = 500;
const MAX_MESSAGE_CHARS = 500;
const MAX_ANSWER_CHARS = 1024 * 1024;

let module: Promise<QuickJSWASMModule> | undefined;
const quickjs = () => {
  module ??= newQuickJSWASMModule();
  return module;
};

// Runs in the sandbox after the function's code: finds its handler (module.exports, exports.handler
// or a global `handler`), calls it with the event, and leaves the JSON of what it settled to in __out.
const INVOKE = `(function () {
  var m = globalThis.module.exports;
  var h = typeof m === 'function' ? m : (m && typeof m.handler === 'function' ? m.handler
    : (typeof globalThis.handler === 'function' ? globalThis.handler : undefined));
  if (!h) throw new TypeError('the code defines no handler: declare function handler(event) or set module.exports');
  var event = JSON.parse(globalThis.__event);
  Promise.resolve().then(function () { return h(event); }).then(function (v) {
    globalThis.__out = JSON.stringify({ ok: v === undefined ? null : v, none: v === undefined });
  }, function (e) {
    globalThis.__out = JSON.stringify({ error: e && e.message !== undefined ? String(e.message) : String(e) });
  });
})()`;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function failureOf(vm: QuickJSContext, handle: QuickJSHandle): { kind: SandboxFailure; message: string } {
  const error = vm.dump(handle) as { name?: string; message?: string } | string;
  const message = typeof error === 'object' && error ? String(error.message ?? error.name) : String(error);
  if (message === 'interrupted') return { kind: 'timeout', message };
  if (message === 'out of memory') return { kind: 'memory', message };
  const name = typeof error === 'object' && error?.name ? `${error.name}: ` : '';
  return { kind: 'threw', message: clip(`${name}${message}`, MAX_MESSAGE_CHARS) };
}

/**
 * Runs `code` with `event`: its handler's answer, or a SandboxError saying why it was stopped.
 * Synchronous inside (QuickJS runs on this thread, at most `timeoutMs`); async only to load the module.
 */
export async function runInSandbox(
  code: string,
  event: unknown,
  limits: SandboxLimits,
): Promise<SandboxResult> {
  const wasm = await quickjs();
  const logs: string[] = [];
  const started = performance.now();
  const runtime = wasm.newRuntime();
  let vm: QuickJSContext | undefined;
  try {
    runtime.setMemoryLimit(limits.memoryLimitMb * 1024 * 1024);
    runtime.setMaxStackSize(STACK_BYTES);
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeoutMs));
    vm = runtime.newContext();
    const context = vm;
    // The logger: console.log/info/warn/error and log(), each line clipped, the lines counted.
    const log = context.newFunction('log', (...args) => {
      if (logs.length >= MAX_LOG_LINES) return;
      const line = args
        .map((a) => {
          const v = context.dump(a);
          return typeof v === 'string' ? v : JSON.stringify(v);
        })
        .join(' ');
      logs.push(clip(line, MAX_LOG_CHARS));
    });
    const consoleObject = context.newObject();
    for (const level of ['log', 'info', 'warn', 'error', 'debug']) context.setProp(consoleObject, level, log);
    context.setProp(context.global, 'console', consoleObject);
    context.setProp(context.global, 'log', log);
    consoleObject.dispose();
    log.dispose();
    const eventJson = context.newString(JSON.stringify(event ?? null));
    context.setProp(context.global, '__event', eventJson);
    eventJson.dispose();
    const setup = context.evalCode(
      'globalThis.module = { exports: {} }; globalThis.exports = module.exports;',
    );
    if (setup.error) setup.error.dispose();
    else setup.value.dispose();

    for (const [source, file] of [
      [code, 'function.js'],
      [INVOKE, 'invoke.js'],
    ] as const) {
      const result = context.evalCode(source, file);
      if (result.error) {
        const failure = failureOf(context, result.error);
        result.error.dispose();
        throw new SandboxError(failure.kind, failure.message, logs);
      }
      result.value.dispose();
    }
    const jobs = runtime.executePendingJobs();
    if (jobs.error) {
      const failure = failureOf(context, jobs.error);
      jobs.error.dispose();
      throw new SandboxError(failure.kind, failure.message, logs);
    }
    const outHandle = context.getProp(context.global, '__out');
    const out = context.dump(outHandle) as string | undefined;
    outHandle.dispose();
    if (typeof out === 'string' && out.length > MAX_ANSWER_CHARS) {
      throw new SandboxError('invalid', `its answer is over ${MAX_ANSWER_CHARS} characters of JSON`, logs);
    }
    if (typeof out !== 'string') {
      throw new SandboxError('threw', 'the handler returned a promise that never settled', logs);
    }
    const parsed = JSON.parse(out) as { ok?: unknown; none?: boolean; error?: string };
    if (parsed.error !== undefined) {
      const kind =
        parsed.error === 'interrupted' ? 'timeout' : parsed.error === 'out of memory' ? 'memory' : 'threw';
      throw new SandboxError(kind, clip(parsed.error, MAX_MESSAGE_CHARS), logs);
    }
    return { value: parsed.none ? undefined : parsed.ok, logs, durationMs: performance.now() - started };
  } catch (err) {
    if (err instanceof SandboxError) throw err;
    // Not QuickJS's own error: the module aborted (or JSON of the answer failed). Start afresh.
    module = undefined;
    vm = undefined;
    throw new SandboxError('crashed', 'the sandbox stopped it (its engine failed and was restarted)', logs);
  } finally {
    try {
      vm?.dispose();
      runtime.dispose();
    } catch {
      // Freeing a runtime whose objects a failed run left behind aborts the module: drop the module.
      module = undefined;
    }
  }
}

/** Undefined when `code` compiles as a script; else the SyntaxError's text. Runs nothing. */
export async function syntaxError(code: string): Promise<string | undefined> {
  const wasm = await quickjs();
  const runtime = wasm.newRuntime();
  runtime.setMemoryLimit(64 * 1024 * 1024);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + 1000));
  const vm = runtime.newContext();
  try {
    const result = vm.evalCode(code, 'function.js', { compileOnly: true });
    if (!result.error) {
      result.value.dispose();
      return undefined;
    }
    const failure = failureOf(vm, result.error);
    result.error.dispose();
    return failure.message;
  } finally {
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      module = undefined;
    }
  }
}
