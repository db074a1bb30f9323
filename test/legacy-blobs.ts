import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { BlobStoreKind, S3Config } from '../src/platform/core/config.ts';

// Bytes as the folder and S3 stores wrote them before versions (drizzle/0039): at the key's own path,
// `<root>/<tenant>/<key>` or the object `<prefix><tenant>/<key>` (docs/platform.md "Blobs").

export interface LegacyBytes {
  write(tenant: string, key: string, content: string): Promise<void>;
  /** Whether anything is at `<tenant>/<path>`: a file, a folder or an object. */
  exists(tenant: string, path: string): Promise<boolean>;
  close(): void;
}

export function legacyBytes(kind: BlobStoreKind, root: string, s3?: S3Config): LegacyBytes {
  if (kind === 'folder')
    return {
      async write(tenant, key, content) {
        mkdirSync(dirname(join(root, tenant, key)), { recursive: true });
        writeFileSync(join(root, tenant, key), content);
      },
      exists: async (tenant, path) => existsSync(join(root, tenant, path)),
      close() {},
    };
  if (kind === 's3' && s3) {
    const client = new S3Client({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId!, secretAccessKey: s3.secretAccessKey! },
    });
    const Key = (tenant: string, key: string) => `${s3.prefix}${tenant}/${key}`;
    return {
      async write(tenant, key, content) {
        await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: Key(tenant, key), Body: content }));
      },
      exists: (tenant, path) =>
        client
          .send(new HeadObjectCommand({ Bucket: s3.bucket, Key: Key(tenant, path) }))
          .then(() => true)
          .catch((err: Error) => {
            if (err.name === 'NotFound') return false;
            throw err;
          }),
      close: () => client.destroy(),
    };
  }
  const none = () => Promise.reject(new Error(`the ${kind} store never kept bytes at a key's path`));
  return { write: none, exists: none, close() {} };
}
