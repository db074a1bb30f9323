import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BlobAt, type BlobBytes, type BlobGone, pathAt, pathGone, versionPath } from './bytes.ts';

// The folder store, the embedded default: each upload is the file `<root>/.versions/<tenant>/<version>`
// (bytes.ts), written once and never changed; the key's facts row names the version that is its
// content. A file is read through a descriptor opened when the download starts, so even a prune that
// deletes it then does not cut the download short. Files of keys written before versions stay at
// `<root>/<tenant>/<key>` until their key is replaced or deleted. Several nodes see the same files
// only when they share the folder (one volume, docs/platform.md "Blobs").

/** Where the code before versions wrote an upload until it renamed it into place; swept by the prune. */
const INCOMING = '.incoming';

export class FolderBytes implements BlobBytes {
  readonly kind = 'folder';

  private constructor(private readonly root: string) {}

  static async open(root: string): Promise<FolderBytes> {
    await mkdir(root, { recursive: true });
    return new FolderBytes(root);
  }

  async put(tenant: string, version: string, body: Readable): Promise<void> {
    const file = join(this.root, versionPath(tenant, version));
    await mkdir(dirname(file), { recursive: true });
    // `wx`: a version is written once; what a failed upload wrote goes with its discard (store.ts).
    await pipeline(body, createWriteStream(file, { flags: 'wx' }));
  }

  async get(tenant: string, key: string, at: BlobAt): Promise<Readable | undefined> {
    // Opened here, so that a file gone is undefined now rather than a stream error later.
    const handle = await open(join(this.root, pathAt(tenant, key, at)), 'r').catch(() => undefined);
    return handle?.createReadStream();
  }

  async remove(gone: BlobGone[]): Promise<void> {
    for (const g of gone) {
      const file = join(this.root, pathGone(g));
      await rm(file, { force: true });
      // A legacy key's folders, once empty, go too, up to the tenant's (never the root).
      if (g.legacyKey) await this.removeEmpty(dirname(file), join(this.root, g.tenant));
    }
  }

  private async removeEmpty(folder: string, last: string): Promise<void> {
    for (let dir = folder; dir.startsWith(last); dir = dirname(dir)) {
      const removed = await rmdir(dir).then(
        () => true,
        () => false,
      );
      if (!removed) return;
    }
  }

  /** Temporary files left in `.incoming` by uploads of the code before versions, cut off by a killed process. */
  async sweep(before: Date): Promise<number> {
    const folder = join(this.root, INCOMING);
    const names = await readdir(folder).catch(() => [] as string[]);
    let swept = 0;
    for (const name of names) {
      const file = join(folder, name);
      const info = await stat(file).catch(() => undefined);
      if (!info || info.mtime >= before) continue;
      await rm(file, { force: true });
      swept++;
    }
    return swept;
  }

  async close(): Promise<void> {}
}
