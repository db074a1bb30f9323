import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../core/config.ts';
import { type BlobAt, type BlobBytes, type BlobGone, pathAt, pathGone, versionPath } from './bytes.ts';

// The S3 store: any S3-compatible bucket (AWS S3, MinIO, Ceph, s3rver in the tests) through the AWS
// SDK, each upload the object `<prefix>.versions/<tenant>/<version>` (bytes.ts), written once and
// never changed; the key's facts row names the version that is its content. Objects of keys written
// before versions stay at `<prefix><tenant>/<key>` until their key is replaced or deleted. An upload
// is streamed as a multipart upload of PART_BYTES parts, one in flight (lib-storage), which S3 makes
// visible only when it completes; a failed one is aborted. A replaced object is deleted an hour after
// the switch (prune.ts), not at once: S3 does not promise that a GET already streaming outlives a
// DELETE. The SDK is loaded only by a node that uses this store.

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

  async put(tenant: string, version: string, body: Readable, contentType: string): Promise<void> {
    const upload = new this.storage.Upload({
      client: this.client,
      params: {
        Bucket: this.config.bucket,
        Key: this.config.prefix + versionPath(tenant, version),
        Body: body,
        ContentType: contentType,
      },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async get(tenant: string, key: string, at: BlobAt): Promise<Readable | undefined> {
    try {
      const object = await this.client.send(
        new this.sdk.GetObjectCommand({
          Bucket: this.config.bucket,
          Key: this.config.prefix + pathAt(tenant, key, at),
        }),
      );
      return object.Body as Readable;
    } catch (err) {
      if (err instanceof this.sdk.NoSuchKey) return undefined;
      throw err;
    }
  }

  async remove(gone: BlobGone[]): Promise<void> {
    // One request for a prune's batch (at most 1,000 keys); deleting a missing object is no error.
    for (let i = 0; i < gone.length; i += 1000) {
      const objects = gone.slice(i, i + 1000).map((g) => ({ Key: this.config.prefix + pathGone(g) }));
      const { Errors } = await this.client.send(
        new this.sdk.DeleteObjectsCommand({
          Bucket: this.config.bucket,
          Delete: { Objects: objects, Quiet: true },
        }),
      );
      if (Errors?.length)
        throw new Error(`S3 kept ${Errors.length} objects: ${Errors[0]!.Key} ${Errors[0]!.Code}`);
    }
  }

  /**
   * Aborts the multipart uploads under `.versions/` begun before `before`: those of a process killed
   * half-way, whose parts S3 keeps (and bills) but never shows as an object. A store that cannot list
   * them (s3rver) answers 0: a bucket lifecycle rule (AbortIncompleteMultipartUpload) does it there.
   */
  async sweep(before: Date): Promise<number> {
    const Prefix = `${this.config.prefix}.versions/`;
    let swept = 0;
    let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
    for (;;) {
      const page = await this.client
        .send(new this.sdk.ListMultipartUploadsCommand({ Bucket: this.config.bucket, Prefix, ...markers }))
        .catch((err: Error) => {
          if (err.name === 'NotImplemented') return undefined;
          throw err;
        });
      for (const upload of page?.Uploads ?? []) {
        if (!upload.Initiated || upload.Initiated >= before) continue;
        await this.client.send(
          new this.sdk.AbortMultipartUploadCommand({
            Bucket: this.config.bucket,
            Key: upload.Key,
            UploadId: upload.UploadId,
          }),
        );
        swept++;
      }
      if (!page?.IsTruncated) return swept;
      markers = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
