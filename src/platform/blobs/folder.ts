import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobBytes } from './bytes.ts';

// The folder store, the embedded default: `<root>/<tenant>/<key>`. An upload goes to a temporary
// file under `<root>/.incoming` and is renamed into place once whole (a rename is atomic). Several
// nodes see the same files only when they share the folder (one volume, docs/platform.md "Blobs").

export class FolderBytes implements BlobBytes {
  readonly kind = 'folder';

  private constructor(private readonly root: string) {}

  static async open(root: string): Promise<FolderBytes> {
    await mkdir(root, { recursive: true });
    return new FolderBytes(root);
  }

  private file(tenant: string, key: string): string {
    return join(this.root, tenant, key);
  }

  async put(tenant: string, key: string, body: Readable): Promise<undefined> {
    const target = this.file(tenant, key);
    const temp = join(this.root, '.incoming', randomUUID());
    await mkdir(dirname(temp), { recursive: true });
    try {
      await pipeline(body, createWriteStream(temp));
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
      return undefined;
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async get(tenant: string, key: string): Promise<Readable | undefined> {
    // Opened here, so that a file gone is undefined now rather than a stream error later; a file
    // replaced while it is read is still read whole (the open descriptor keeps the old one).
    const handle = await open(this.file(tenant, key), 'r').catch(() => undefined);
    return handle?.createReadStream();
  }

  async close(): Promise<void> {}
}
