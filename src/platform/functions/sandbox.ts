import { Worker } from 'node:worker_threads';

// The sandbox of user functions (docs/functions.md "Running functions"): QuickJS in WebAssembly
// (worker.mjs) in worker threads, so that no function holds this thread. QuickJS's interrupt
// handler stops a run at its deadline, but native work (a huge Array.fill) runs between its checks:
// the watchdog here terminates the worker itself GRACE_MS past the deadline, which stops any
// WebAssembly mid-instruction and frees its memory; a fresh worker takes its place.

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
  value: unknown;
  logs: string[];
  durationMs: number;
}

const WORKERS = 2;
const GRACE_MS = 250;
const COLD_START_MS = 1500;
/** A worker whose V8 heap outgrows this is stopped (the engine's own memory is WebAssembly's). */
const WORKER_HEAP_MB = 64;
const WORKER_URL = new URL('./worker.mjs', import.meta.url);

interface Job {
  message: Record<string, unknown>;
  deadlineMs: number;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

class Slot {
  private worker: Worker | undefined;
  private job: (Job & { id: number; timer: NodeJS.Timeout }) | undefined;
  private ids = 0;

  constructor(private readonly onIdle: () => void) {}

  get idle(): boolean {
    return this.job === undefined;
  }

  private start(): Worker {
    const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.unref();
    worker.on(
      'message',
      (answer: {
        id: number;
        ok?: unknown;
        failure?: { kind: SandboxFailure; message: string; logs: string[] };
      }) => {
        const job = this.job;
        if (!job || job.id !== answer.id) return;
        this.finish();
        if (answer.failure)
          job.reject(new SandboxError(answer.failure.kind, answer.failure.message, answer.failure.logs));
        else job.resolve(answer.ok);
      },
    );
    const lost = (why: SandboxFailure, message: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const job = this.job;
      if (job) {
        this.finish();
        job.reject(new SandboxError(why, message, []));
      }
    };
    worker.on('error', () => lost('crashed', 'its engine failed and was restarted'));
    worker.on('exit', () => lost('crashed', 'its engine stopped and was restarted'));
    return worker;
  }

  private finish(): void {
    if (this.job) clearTimeout(this.job.timer);
    this.job = undefined;
    this.onIdle();
  }

  take(job: Job): void {
    // A thread just started loads QuickJS first: its first run gets that time on top.
    const grace = this.worker ? GRACE_MS : COLD_START_MS;
    this.worker ??= this.start();
    const worker = this.worker;
    const id = ++this.ids;
    const timer = setTimeout(() => {
      // Past the deadline and its grace: the engine is stuck in native work. Stop the thread.
      if (this.job?.id !== id) return;
      this.worker = undefined;
      void worker.terminate();
      const stuck = this.job;
      this.finish();
      stuck.reject(new SandboxError('timeout', 'interrupted', []));
    }, job.deadlineMs + grace);
    this.job = { ...job, id, timer };
    worker.postMessage({ ...job.message, id });
  }

  stop(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }
}

/** A few worker threads that run functions one at a time each; jobs wait in order for a free one. */
class Pool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];

  constructor(size: number) {
    this.slots = Array.from({ length: size }, () => new Slot(() => this.next()));
  }

  private next(): void {
    const slot = this.slots.find((s) => s.idle);
    const job = slot && this.queue.shift();
    if (slot && job) slot.take(job);
  }

  submit<T>(message: Record<string, unknown>, deadlineMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ message, deadlineMs, resolve: resolve as (v: unknown) => void, reject });
      this.next();
    });
  }

  stop(): void {
    for (const slot of this.slots) slot.stop();
  }
}

let pool: Pool | undefined;
const thePool = () => {
  pool ??= new Pool(WORKERS);
  return pool;
};

/** Runs `code`'s handler on `event` within `limits`: its answer, or a SandboxError saying why it was stopped. */
export function runInSandbox(code: string, event: unknown, limits: SandboxLimits): Promise<SandboxResult> {
  return thePool().submit<SandboxResult>(
    { kind: 'run', code, event, timeoutMs: limits.timeoutMs, memoryLimitMb: limits.memoryLimitMb },
    limits.timeoutMs,
  );
}

/** Undefined when `code` compiles as a script; else the SyntaxError's text. Runs nothing. */
export async function syntaxError(code: string): Promise<string | undefined> {
  const answer = await thePool().submit<{ error?: string }>({ kind: 'check', code }, 2000);
  return answer.error;
}

/** Stops the worker threads (the next run starts them again). */
export function stopSandbox(): void {
  pool?.stop();
  pool = undefined;
}
