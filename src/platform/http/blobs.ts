import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { run } from '../core/context.ts';
import type { Platform } from '../core/declarations.ts';
import { errors } from '../core/errors.ts';

// The bridge serves the folder store's signed URLs itself (DESIGN.md "Blobs"): a PUT streams the
// body into the store (never buffered whole), a GET streams it back. The signature is the
// credential: it names one operation on one key of one tenant until it expires.

function target(request: FastifyRequest) {
  const params = request.params as { tenant: string; '*': string };
  return { tenant: params.tenant, key: decodeURIComponent(params['*'] ?? '') };
}

export async function registerBlobRoutes(app: FastifyInstance, platform: Platform): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Any content type: hand the request stream to the handler untouched.
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    scope.put('/blobs/:tenant/*', { schema: { hide: true } }, async (request) => {
      const { tenant, key } = target(request);
      const max = platform.blobs.verify(tenant, key, 'put', request.query as Record<string, string>);
      if (!(await platform.tenants.find(tenant))) throw errors.notFound(`Tenant ${tenant} not found`);
      const stream = (request.body as Readable | undefined) ?? request.raw;
      const contentType = request.headers['content-type'] ?? 'application/octet-stream';
      const info = await platform.blobs.write(tenant, key, stream, contentType, max);
      // The service that owns the key's prefix records the upload (e.g. an attachment's size).
      const owner = platform.registry.blobUpload(key);
      const tenantInfo = owner ? await platform.tenants.find(tenant) : undefined;
      if (owner && tenantInfo) {
        const invocation = {
          tenant: tenantInfo,
          caller: { kind: 'system' as const, scope: 'full' as const },
          requestId: request.id,
          log: request.log,
        };
        await run(platform, owner.service, 'tenant', invocation, (ctx) => owner.handler(ctx, info));
      }
      return info;
    });

    scope.get('/blobs/:tenant/*', { schema: { hide: true } }, async (request, reply) => {
      const { tenant, key } = target(request);
      platform.blobs.verify(tenant, key, 'get', request.query as Record<string, string>);
      const { info, stream } = await platform.blobs.open(tenant, key);
      reply.header('content-type', info.contentType);
      reply.header('content-length', String(info.size));
      reply.header('etag', `"${info.sha256}"`);
      return reply.send(stream);
    });
  });
}
