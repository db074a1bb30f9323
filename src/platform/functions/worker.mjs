// The engine of user functions, in a worker thread of its own (sandbox.ts starts it and stops it;
// docs/functions.md "Running functions"). QuickJS compiled to WebAssembly (quickjs-emscripten),
// never node:vm: each run gets a runtime of its own with QuickJS's memory and stack limits and an
// interrupt handler that stops it at its deadline or when its allocations grew the module's memory
// past its limit; the code reaches only its event (a JSON copy) and a logger: no process, require,
// fs, timers or network. Plain JavaScript, so that the worker starts without a TypeScript loader.
import { parentPort } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';

/** The stack QuickJS may use: small enough that a runaway recursion is its InternalError, not an abort. */
const STACK_BYTES = 256 * 1024;
const MAX_LOG_LINES = 50;
const MAX_LOG_CHARS = 500;
const MAX_MESSAGE_CHARS = 500;
const MAX_ANSWER_CHARS = 1024 * 1024;

/**
 * The engine's WebAssembly memory, in 64 KiB pages: the 16 MiB the module needs to start, and at most
 * room for the largest limit a function may have (64 MiB) plus 16 MiB for the engine's own. A hard
 * ceiling: past it the engine's allocations fail inside QuickJS (its "out of memory"), however fast
 * a function allocates; below it the interrupt handler holds each run to its own limit. Without it,
 * a bomb grew the host process by about 1.5 GiB before its deadline stopped it.
 */
const INITIAL_PAGES = 256;
const MAX_PAGES = INITIAL_PAGES + (64 + 16) * 16;

let module;
const quickjs = () => {
  module ??= newQuickJSWASMModuleFromVariant(
    newVariant(RELEASE_SYNC, {
      wasmMemory: new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAX_PAGES }),
    }),
  );
  return module;
};

class Failure extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

// Runs after the function's code: finds its handler (module.exports, exports.handler or a global
// `handler`), calls it with the event, and leaves the JSON of what it answered in __out (a promise
// is followed through the runtime's job queue).
const INVOKE = `(function () {
  var m = globalThis.module.exports;
  var h = typeof m === 'function' ? m : (m && typeof m.handler === 'function' ? m.handler
    : (typeof globalThis.handler === 'function' ? globalThis.handler : undefined));
  if (!h) throw new TypeError('the code defines no handler: declare function handler(event) or set module.exports');
  var settle = function (v) {
    globalThis.__out = JSON.stringify({ ok: v === undefined ? null : v, none: v === undefined });
  };
  var r = h(JSON.parse(globalThis.__event));
  if (!r || typeof r.then !== 'function') return settle(r);
  r.then(settle, function (e) {
    var text = e && e.message !== undefined ? String(e.message) : String(e);
    if (text === 'interrupted' || text === 'out of memory') globalThis.__out = JSON.stringify({ error: text });
    else globalThis.__out = JSON.stringify({ error: (e && e.name ? String(e.name) + ': ' : '') + text });
  });
})()`;

const clip = (text, max) => (text.length > max ? `${text.slice(0, max)}…` : text);

function kindOf(message) {
  if (message === 'interrupted') return 'timeout';
  if (message === 'out of memory') return 'memory';
  return 'threw';
}

function failureOf(vm, handle) {
  const error = vm.dump(handle);
  const message = typeof error === 'object' && error ? String(error.message ?? error.name) : String(error);
  const kind = kindOf(message);
  if (kind !== 'threw') return new Failure(kind, message);
  const name = typeof error === 'object' && error?.name ? `${error.name}: ` : '';
  return new Failure('threw', clip(`${name}${message}`, MAX_MESSAGE_CHARS));
}

async function run({ code, event, timeoutMs, memoryLimitMb }) {
  const wasm = await quickjs();
  const memory = wasm.getWasmMemory();
  const baseline = memory.buffer.byteLength;
  const limitBytes = memoryLimitMb * 1024 * 1024;
  const logs = [];
  const started = performance.now();
  let overMemory = false;
  const runtime = wasm.newRuntime();
  let vm;
  try {
    // QuickJS refuses any one allocation past the limit; its running total is not kept in this
    // WebAssembly build, so the interrupt handler also stops a run that grew the module's memory
    // past it (and the module is dropped afterwards, its memory with it).
    runtime.setMemoryLimit(limitBytes);
    runtime.setMaxStackSize(STACK_BYTES);
    const deadline = Date.now() + timeoutMs;
    runtime.setInterruptHandler(() => {
      if (memory.buffer.byteLength - baseline > limitBytes) {
        overMemory = true;
        return true;
      }
      return Date.now() > deadline;
    });
    vm = runtime.newContext();
    const context = vm;
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
    for (const [source, file] of [
      ['globalThis.module = { exports: {} }; globalThis.exports = module.exports;', 'setup.js'],
      [code, 'function.js'],
      [INVOKE, 'invoke.js'],
    ]) {
      const result = context.evalCode(source, file);
      if (result.error) {
        const failure = failureOf(context, result.error);
        result.error.dispose();
        throw failure;
      }
      result.value.dispose();
    }
    const jobs = runtime.executePendingJobs();
    if (jobs.error) {
      const failure = failureOf(context, jobs.error);
      jobs.error.dispose();
      throw failure;
    }
    const outHandle = context.getProp(context.global, '__out');
    const out = context.dump(outHandle);
    outHandle.dispose();
    if (typeof out !== 'string')
      throw new Failure('threw', 'the handler returned a promise that never settled');
    if (out.length > MAX_ANSWER_CHARS) {
      throw new Failure('invalid', `its answer is over ${MAX_ANSWER_CHARS} characters of JSON`);
    }
    const parsed = JSON.parse(out);
    if (parsed.error !== undefined)
      throw new Failure(kindOf(parsed.error), clip(parsed.error, MAX_MESSAGE_CHARS));
    return { value: parsed.none ? undefined : parsed.ok, logs, durationMs: performance.now() - started };
  } catch (err) {
    const failure =
      err instanceof Failure
        ? err
        : // Not QuickJS's own error: the module aborted. Start afresh.
          new Failure('crashed', 'its engine failed and was restarted');
    if (!(err instanceof Failure)) {
      module = undefined;
      vm = undefined;
    }
    if (failure.kind === 'timeout' && overMemory)
      throw Object.assign(new Failure('memory', 'over'), { logs });
    throw Object.assign(failure, { logs });
  } finally {
    try {
      vm?.dispose();
      runtime.dispose();
    } catch {
      // Freeing a runtime whose objects a stopped run left behind aborts the module: drop it.
      module = undefined;
    }
    if (memory.buffer.byteLength - baseline > limitBytes) module = undefined;
  }
}

/** Undefined when `code` compiles as a script; else the SyntaxError's text. Runs nothing. */
async function check({ code }) {
  const wasm = await quickjs();
  const runtime = wasm.newRuntime();
  runtime.setMemoryLimit(64 * 1024 * 1024);
  runtime.setMaxStackSize(STACK_BYTES);
  const vm = runtime.newContext();
  try {
    let result;
    try {
      result = vm.evalCode(code, 'function.js', { compileOnly: true });
    } catch (err) {
      // The compiler overran the thread's own stack: this engine is not to be trusted again.
      module = undefined;
      return { error: `it is nested too deeply to compile (${err.message})` };
    }
    if (!result.error) {
      result.value.dispose();
      return { error: undefined };
    }
    const failure = failureOf(vm, result.error);
    result.error.dispose();
    return { error: failure.message };
  } finally {
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      module = undefined;
    }
  }
}

parentPort.on('message', async (message) => {
  try {
    const answer = message.kind === 'check' ? await check(message) : await run(message);
    parentPort.postMessage({ id: message.id, ok: answer });
  } catch (err) {
    parentPort.postMessage({
      id: message.id,
      failure: { kind: err.kind ?? 'crashed', message: String(err.message), logs: err.logs ?? [] },
    });
  }
});
