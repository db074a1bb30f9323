import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { until } from '../events/fixtures.test-support.ts';
import { LeaseLost, Leases, Stopping } from './lease.ts';

// A lease is renewed every third of its length while held, and only while its claim stands: a
// renewal that finds the claim gone stops the holder and hands nothing back; a release runs once.

const SECONDS = 0.15; // a renewal every 50 ms
const log = pino({ level: 'silent' });

function counted(held: () => boolean) {
  const calls = { renew: 0, release: 0 };
  return {
    calls,
    options: {
      what: { test: true },
      renew: async () => {
        calls.renew++;
        return held();
      },
      release: async () => {
        calls.release++;
      },
    },
  };
}

describe('lease', () => {
  it('is renewed while held and handed back once when released', async () => {
    const leases = new Leases(SECONDS, log);
    const { calls, options } = counted(() => true);
    const lease = leases.hold(options);
    expect(leases.size).toBe(1);
    await until(() => calls.renew >= 3, 5_000);
    expect(lease.signal.aborted).toBe(false);
    await Promise.all([lease.release(), lease.release()]);
    expect(calls.release).toBe(1);
    expect(leases.size).toBe(0);
    // No renewal after the release.
    const renewals = calls.renew;
    await new Promise((r) => setTimeout(r, 200));
    expect(calls.renew).toBe(renewals);
  });

  it('stops its holder when a renewal finds the claim gone, and hands nothing back', async () => {
    const leases = new Leases(SECONDS, log);
    let ours = true;
    const { calls, options } = counted(() => ours);
    const lease = leases.hold(options);
    await until(() => calls.renew >= 1, 5_000);
    ours = false; // another node took it over
    await until(() => lease.signal.aborted, 5_000);
    expect(lease.lost).toBe(true);
    expect(lease.signal.reason).toBeInstanceOf(LeaseLost);
    await lease.release();
    expect(calls.release).toBe(0);
    expect(leases.size).toBe(0);
  });

  it('treats a lease it could not renew for its whole length as lost', async () => {
    const leases = new Leases(SECONDS, log);
    const lease = leases.hold({
      what: {},
      renew: async () => {
        throw new Error('database unreachable');
      },
      release: async () => {},
    });
    await until(() => lease.signal.aborted, 5_000);
    expect(lease.signal.reason).toBeInstanceOf(LeaseLost);
  });

  it('at a forced stop, tells every holder to stop and hands every lease back', async () => {
    const leases = new Leases(10, log);
    const a = counted(() => true);
    const b = counted(() => true);
    const first = leases.hold(a.options);
    const second = leases.hold(b.options);
    await second.release();
    await leases.releaseAll();
    expect(first.signal.reason).toBeInstanceOf(Stopping);
    expect([a.calls.release, b.calls.release]).toEqual([1, 1]);
    expect(leases.size).toBe(0);
  });
});
