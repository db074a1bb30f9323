// The loop behind the job queue and the event dispatcher: `wake()` runs the work now, or once more
// right after the run in progress (never two at once); a poll every `pollMs` covers what other
// nodes committed and what waits for a retry time. `stop()` lets the run in progress finish.

export class Pump {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private again = false;
  private started = false;
  private stoppingFlag = false;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly pollMs: number,
  ) {}

  /** True once stop() was called: long work checks it between steps. */
  get stopping(): boolean {
    return this.stoppingFlag;
  }

  start(): void {
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stoppingFlag = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  wake(): void {
    if (!this.started || this.stoppingFlag) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.work().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }
}
