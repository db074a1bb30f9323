// A cache's lookups against its forgets (docs/platform.md "Caches across nodes"): a lookup that
// missed reads the database; if an entry is forgotten while that read is on its way (a key revoked,
// a tenant changed), the read may hold what was just forgotten, and caching it would keep the old
// answer for the whole TTL. A forget comes after its change's commit, so a read begun after it sees
// the change: the read is done again. Shared by the credential store and the tenant directory.

export class Forgets {
  private count = 0;

  /** Called by every forget of the cache (one entry, or all of them). */
  forget(): void {
    this.count++;
  }

  /**
   * Reads until a read ran with no forget under it, at most 3 times. `settled` false: the last read
   * was interrupted too (it began after two forgets, so it is the one to answer), not to be cached.
   */
  async read<T>(read: () => Promise<T>): Promise<{ value: T; settled: boolean }> {
    for (let reads = 1; ; reads++) {
      const seen = this.count;
      const value = await read();
      if (seen === this.count) return { value, settled: true };
      if (reads === 3) return { value, settled: false };
    }
  }
}
