import type { FastifyBaseLogger } from 'fastify';

// Leases (docs/platform.md "Shutdown and leases"). A node holds a job, an outbox cursor or a webhook
// subscription for LEASE_SECONDS and, while it works on it, renews it every third of that: a node
// that dies frees its work within one lease, a slow one keeps it. A renewal, and every write that
// moves the work forward, matches the node's own claim (a token), so a node whose lease ran out and
// was taken over changes nothing: its next renewal finds the lease gone, and it stops.

/** The reason a holder is told to stop: its lease is no longer its own. */
export class LeaseLost extends Error {
  constructor(what: string) {
    super(`lease lost: ${what}`);
    this.name = 'LeaseLost';
  }
}

/** The reason a holder is told to stop: the node is going away. */
export class Stopping extends Error {
  constructor() {
    super('the node is shutting down');
    this.name = 'Stopping';
  }
}

export interface LeaseOptions {
  /** What is held, for the logs. */
  what: Record<string, unknown>;
  /** Extends the lease under the claim; false when the claim is gone (taken over, or released). */
  renew(): Promise<boolean>;
  /** Gives the work back at once, under the claim, so another node takes it without waiting. */
  release(): Promise<void>;
}

export class Lease {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private renewing = false;
  private lastRenewed = Date.now();
  private over = false;
  private released: Promise<void> | undefined;
  private lostFlag = false;

  constructor(
    private readonly owner: Leases,
    private readonly options: LeaseOptions,
  ) {
    this.timer = setInterval(() => this.beat(), (owner.seconds * 1000) / 3);
    this.timer.unref();
  }

  /** Aborted when the lease is lost or the node halts: the holder stops at its next step. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get lost(): boolean {
    return this.lostFlag;
  }

  private beat(): void {
    if (this.renewing || this.over) return;
    this.renewing = true;
    this.options
      .renew()
      .then(
        (held) => {
          if (this.over) return;
          if (held) this.lastRenewed = Date.now();
          else this.lose('taken over or released');
        },
        (err: unknown) => {
          this.owner.log.warn({ err, ...this.options.what }, 'lease renewal failed');
          // Past one lease without a renewal, the database may already have given the work away.
          if (!this.over && Date.now() - this.lastRenewed >= this.owner.seconds * 1000)
            this.lose('not renewed in time');
        },
      )
      .finally(() => {
        this.renewing = false;
      });
  }

  /** The claim is gone (a renewal or a write under it found nothing): stop renewing, stop the holder. */
  lose(why: string): void {
    if (this.lostFlag) return;
    this.lostFlag = true;
    this.end();
    this.owner.log.warn({ ...this.options.what, why }, 'lease lost; another node has the work');
    this.controller.abort(new LeaseLost(why));
  }

  /** The work ended and its last write cleared the lease: stop renewing. */
  end(): void {
    this.over = true;
    clearInterval(this.timer);
    this.owner.forget(this);
  }

  /** Stops renewing and hands the work back (once; nothing to hand back when it was lost). */
  release(): Promise<void> {
    this.end();
    this.released ??= this.lostFlag ? Promise.resolve() : this.options.release();
    return this.released;
  }

  /** The node must go now: the holder is told to stop, and the work is handed back. */
  halt(): Promise<void> {
    this.controller.abort(new Stopping());
    return this.release();
  }
}

/** The leases a node holds right now, all of LEASE_SECONDS. */
export class Leases {
  private readonly held = new Set<Lease>();

  constructor(
    readonly seconds: number,
    readonly log: FastifyBaseLogger,
  ) {}

  /** Starts renewing a lease that was just claimed. */
  hold(options: LeaseOptions): Lease {
    const lease = new Lease(this, options);
    this.held.add(lease);
    return lease;
  }

  forget(lease: Lease): void {
    this.held.delete(lease);
  }

  get size(): number {
    return this.held.size;
  }

  /** At the shutdown deadline: every holder is told to stop and every lease still held is handed back. */
  async releaseAll(): Promise<void> {
    await Promise.allSettled([...this.held].map((lease) => lease.halt()));
  }
}
