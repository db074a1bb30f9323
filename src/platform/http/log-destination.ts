import { closeSync, openSync, writeSync } from 'node:fs';

// Where the logger's lines go (docs/performance.md "Request logging"): standard output or a file,
// in batches. pino's asynchronous destination (sonic-boom) cost about 5 µs a line: it measured the
// byte length of its whole pending buffer again for every line, and each write went through libuv's
// thread pool, about 60 µs of CPU a write on this machine against 7 µs for the same write made
// directly. Here a line costs its push onto a list, and a batch one direct write.
//
// - A batch is whole lines, at most PIPE_BUF bytes unless a line alone is longer: the workers of one
//   server share its standard output, and a pipe keeps a write of up to PIPE_BUF bytes whole, so
//   their lines never cut into each other.
// - Written once BATCH_BYTES wait, every FLUSH_MS, on flush() and on exit.
// - A full non-blocking pipe (EAGAIN) keeps what waits for the next try; a reader that stops
//   reading never makes this process hold more than MAX_PENDING_BYTES: lines past it are dropped
//   and counted, and a line in their place says how many. At exit, a full pipe is waited for
//   EXIT_WAIT_MS at most.
// - A closed output (EPIPE, EBADF...) ends the logging, nothing else.

/** The most a pipe writes whole (Linux): no write of several lines is longer. */
const PIPE_BUF = 4096;
/** Pending bytes (UTF-16 units: at most the bytes of ASCII) that make a batch. */
const BATCH_BYTES = PIPE_BUF;
const FLUSH_MS = 250;
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

/** Destinations alive in this process, written out when it exits. */
const open = new Set<LogDestination>();
let exitHook = false;

/** Where lines were dropped, in the list, and how many: written as a line of its own. */
interface Dropped {
  dropped: number;
}

/** How long the exit waits for a full pipe to take what is left. */
const EXIT_WAIT_MS = 2000;

export class LogDestination {
  private lines: Array<string | Dropped> = [];
  /** The first line of `lines` not yet taken. */
  private head = 0;
  private pendingBytes = 0;
  /** What a write left unwritten (a partial write, or EAGAIN): written before any other line. */
  private rest: Buffer | undefined;
  private ended = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly fd: number,
    private readonly ownsFd = false,
  ) {
    this.timer = setInterval(() => this.drain(), FLUSH_MS).unref();
    open.add(this);
    if (!exitHook) {
      exitHook = true;
      process.on('exit', () => {
        for (const destination of open) destination.drain(EXIT_WAIT_MS);
      });
    }
  }

  /** A file (appended to) or a file descriptor (1, standard output, by default). */
  static to(dest: number | string = 1): LogDestination {
    if (typeof dest === 'string') return new LogDestination(openSync(dest, 'a'), true);
    // Standard output as Node opens it: a pipe is made non-blocking, so a reader that stops makes
    // lines wait (then drop), never the server.
    return new LogDestination(dest === 1 ? process.stdout.fd : dest);
  }

  /** One line (pino hands each whole, with its newline). */
  write(line: string): boolean {
    if (this.ended) return false;
    if (this.pendingBytes + line.length > MAX_PENDING_BYTES) {
      const last = this.lines[this.lines.length - 1];
      if (typeof last === 'object') last.dropped++;
      else this.lines.push({ dropped: 1 });
      return false;
    }
    this.lines.push(line);
    this.pendingBytes += line.length;
    if (this.pendingBytes >= BATCH_BYTES && !this.rest) this.drain();
    return true;
  }

  /** Writes what waits now, then calls `done` (pino's logger.flush). */
  flush(done?: () => void): void {
    this.drain();
    done?.();
  }

  /** Stops logging; a file this opened is closed. What waits is written first. */
  end(): void {
    if (this.ended) return;
    this.drain();
    this.stop();
  }

  private stop(): void {
    this.ended = true;
    clearInterval(this.timer);
    open.delete(this);
    this.lines = [];
    this.head = 0;
    this.pendingBytes = 0;
    this.rest = undefined;
    if (this.ownsFd) closeSync(this.fd);
  }

  /**
   * Writes batches until none waits or the output takes no more (EAGAIN): the next try goes on, or,
   * given `waitMs` (at exit), tries again every millisecond for that long.
   */
  private drain(waitMs = 0): void {
    const until = Date.now() + waitMs;
    for (let batch = this.rest ?? this.cut(); batch && !this.ended; batch = this.rest ?? this.cut()) {
      this.rest = undefined;
      let written = 0;
      try {
        written = writeSync(this.fd, batch);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') {
          this.stop();
          return;
        }
      }
      if (written < batch.length) {
        this.rest = batch.subarray(written);
        if (Date.now() >= until) return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      }
    }
  }

  /**
   * Whole lines from the front, up to PIPE_BUF bytes (or one longer line), as one buffer; where lines
   * were dropped, a line that says how many, in their place.
   */
  private cut(): Buffer | undefined {
    if (this.head === this.lines.length) return undefined;
    const first = this.lines[this.head]!;
    if (typeof first === 'object') {
      this.take(this.head + 1);
      const notice = { level: 40, time: Date.now(), pid: process.pid, dropped: first.dropped };
      return Buffer.from(
        `${JSON.stringify({ ...notice, msg: 'log lines dropped: the output did not keep up' })}\n`,
      );
    }
    let bytes = 0;
    let end = this.head;
    for (; end < this.lines.length; end++) {
      const line = this.lines[end]!;
      if (typeof line === 'object') break;
      const size = Buffer.byteLength(line);
      if (end > this.head && bytes + size > PIPE_BUF) break;
      bytes += size;
    }
    const taken = this.take(end) as string[];
    for (const line of taken) this.pendingBytes -= line.length;
    return Buffer.from(taken.length === 1 ? taken[0]! : taken.join(''));
  }

  /** The entries from `head` to `end`, cut from the front. */
  private take(end: number): Array<string | Dropped> {
    const taken = this.lines.slice(this.head, end);
    this.head = end;
    // Cut from the front by moving `head`; emptied once all of it is taken.
    if (this.head === this.lines.length) {
      this.lines = [];
      this.head = 0;
    }
    return taken;
  }
}
