import { vi } from 'vitest';

/**
 * Holds the first call of `object[method]` after it read, until `release()`: the read of a lookup on
 * its way while something else happens (a revocation, an eviction). `reads` counts the calls;
 * `started()` waits for the first; `restore()` puts the method back.
 */
export function holdFirstRead<K extends string>(
  object: unknown,
  method: K,
): { reads: () => number; started: () => Promise<void>; release: () => void; restore: () => void } {
  const target = object as Record<K, (...args: unknown[]) => Promise<unknown>>;
  const original = target[method];
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let reads = 0;
  target[method] = async (...args: unknown[]) => {
    const found = await original.apply(object, args);
    if (reads++ === 0) await gate;
    return found;
  };
  return {
    reads: () => reads,
    started: () =>
      vi.waitFor(() => (reads > 0 ? undefined : Promise.reject(new Error('not read yet'))), {
        timeout: 5000,
        interval: 10,
      }),
    release,
    restore: () => {
      target[method] = original;
    },
  };
}
