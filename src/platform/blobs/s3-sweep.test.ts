import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { S3Bytes } from './s3.ts';

// The S3 store's sweep of multipart uploads that a killed process left (docs/platform.md "Blobs"):
// parts S3 keeps but never shows as an object. s3rver cannot list multipart uploads (the sweep then
// answers 0, versions.test.ts), so the S3 endpoint here is a local HTTP server that answers the
// three requests the sweep makes: HeadBucket at start, ListMultipartUploads (in two pages) and
// AbortMultipartUpload.

const OLD = '2020-01-01T00:00:00.000Z';
const RECENT = new Date(Date.now() + 60_000).toISOString();

const page = (uploads: Array<[key: string, id: string, initiated: string]>, next?: [string, string]) =>
  `
<?xml version="1.0" encoding="UTF-8"?>
<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Bucket>files</Bucket><MaxUploads>2</MaxUploads><IsTruncated>${next ? 'true' : 'false'}</IsTruncated>
  ${next ? `<NextKeyMarker>${next[0]}</NextKeyMarker><NextUploadIdMarker>${next[1]}</NextUploadIdMarker>` : ''}
  ${uploads.map(([key, id, at]) => `<Upload><Key>${key}</Key><UploadId>${id}</UploadId><Initiated>${at}</Initiated></Upload>`).join('')}
</ListMultipartUploadsResult>`.trim();

const requests: string[] = [];
let server: Server;
let endpoint: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://s3');
    requests.push(
      `${req.method} ${url.pathname} ${[...url.searchParams].map(([k, v]) => `${k}=${v}`).join('&')}`,
    );
    if (req.method === 'GET' && url.searchParams.has('uploads')) {
      res.setHeader('content-type', 'application/xml');
      return res.end(
        url.searchParams.get('key-marker')
          ? page([['p/.versions/globex/v3', 'u3', OLD]])
          : page(
              [
                ['p/.versions/acme/v1', 'u1', OLD],
                ['p/.versions/acme/v2', 'u2', RECENT],
              ],
              ['p/.versions/acme/v2', 'u2'],
            ),
      );
    }
    res.statusCode = req.method === 'DELETE' ? 204 : 200;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it('aborts the multipart uploads under the versions begun before the limit, page after page', async () => {
  const store = await S3Bytes.open({
    bucket: 'files',
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'k',
    secretAccessKey: 's',
    forcePathStyle: true,
    prefix: 'p/',
  });
  try {
    expect(await store.sweep(new Date())).toBe(2);
  } finally {
    await store.close();
  }
  const lists = requests.filter((r) => r.startsWith('GET'));
  expect(lists).toHaveLength(2);
  for (const list of lists) expect(list).toContain('prefix=p/.versions/');
  expect(lists[1]).toMatch(/key-marker=p\/.versions\/acme\/v2&.*upload-id-marker=u2/);
  expect(requests.filter((r) => r.startsWith('DELETE'))).toEqual([
    'DELETE /files/p/.versions/acme/v1 uploadId=u1&x-id=AbortMultipartUpload',
    'DELETE /files/p/.versions/globex/v3 uploadId=u3&x-id=AbortMultipartUpload',
  ]);
});
