import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../core/config.ts';
import type { BlobBytes } from './bytes.ts';

// The S3 store: any S3-compatible bucket (AWS S3, MinIO, Ceph, s3rver in the tests) through the AWS
// SDK, each blob the object `<prefix><tenant>/<key>`. An upload is streamed as a multipart upload of
// PART_BYTES parts, one in flight (lib-storage), which S3 makes visible only when it completes; a
// failed one is aborted, so the key keeps its previous object. The SDK is loaded only by a node
// that uses this store.

/** S3's smallest part (but the last): the most an upload holds in memory, with the part it sends. */
export const PART_BYTES = 5 * 1024 * 1024;

export class S3Bytes implements BlobBytes {
  readonly kind = 's3';

  private constructor(
    private readonly client: S3Client,
    private readonly sdk: typeof import('@aws-sdk/client-s3'),
    private readonly storage: typeof import('@aws-sdk/lib-storage'),
    private readonly config: S3Config,
  ) {}

  static async open(config: S3Config): Promise<S3Bytes> {
    const [sdk, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
    const client = new sdk.S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.accessKeyId && config.secretAccessKey
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
        : {}),
      // Checksums only where S3 requires them: what S3-compatible stores other than AWS accept.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    // A bucket that is missing or refused stops the start, not the first upload.
    await client.send(new sdk.HeadBucketCommand({ Bucket: config.bucket })).catch((err: Error) => {
      client.destroy();
      throw new Error(`S3 bucket ${config.bucket} cannot be reached: ${err.name} ${err.message}`);
    });
    return new S3Bytes(client, sdk, storage, config);
  }

  private objectKey(tenant: string, key: string): string {
    return `${this.config.prefix}${tenant}/${key}`;
  }

  async put(tenant: string, key: string, body: Readable, contentType: string): Promise<undefined> {
    const upload = new this.storage.Upload({
      client: this.client,
      params: {
        Bucket: this.config.bucket,
        Key: this.objectKey(tenant, key),
        Body: body,
        ContentType: contentType,
      },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    await upload.done();
    return undefined;
  }

  async get(tenant: string, key: string): Promise<Readable | undefined> {
    try {
      const object = await this.client.send(
        new this.sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(tenant, key) }),
      );
      return object.Body as Readable;
    } catch (err) {
      if (err instanceof this.sdk.NoSuchKey) return undefined;
      throw err;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
