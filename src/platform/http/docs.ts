import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Platform, ServiceDeclaration } from '../core/declarations.ts';
import { errors } from '../core/errors.ts';
import type { DocumentAddress, MetadataFormat } from '../core/ports.ts';
import { TENANT_NAME } from '../core/tenants.ts';
import { combinedDocument, requestBaseUrl } from './documents.ts';

// The docs page of a tenant (docs/platform.md "Metadata and docs"): Swagger UI at `/t/<tenant>/docs/`,
// listing each service's Swagger 2.0 document and one OpenAPI 3 document of every service, all
// addressed to that tenant at the address the browser reached, so that "Try it out" calls the API.
// Authorize takes an API key or `Bearer <token>`. Documents and page are public, as the spec's
// documents are; every operation they call checks its credentials.

export const DOCS_PREFIX = '/t/:tenant/docs';
const ALL_SERVICES = 'All services (OpenAPI 3)';
/** The service the page opens on: the yard. */
const FIRST = 'yms/patio';

const FILES: Record<string, MetadataFormat> = { 'swagger.json': 'swagger', 'openapi.json': 'openapi' };

/**
 * The page loads only its own scripts and calls only this origin ("Try it out"), and no other site
 * may frame it: it holds the key Authorize was given. Swagger UI sets inline styles and shows data:
 * images.
 */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

const label = (service: ServiceDeclaration) => `${service.id} ${service.version}`;

const LANDING = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Ponte: API docs</title></head>
<body>
<h1>Ponte: API docs</h1>
<p>Each tenant has its docs page, at <code>/t/&lt;tenant&gt;/docs/</code>: its documents address that
tenant, so that "Try it out" calls it. Authorize there with an API key of the tenant or with
<code>Bearer &lt;access_token&gt;</code>.</p>
<form action="docs/tenant" method="get">
<label>Tenant <input name="tenant" value="demo" required pattern="[a-z0-9][a-z0-9._-]*"></label>
<button type="submit">Open its docs page</button>
</form>
</body>
</html>
`;

export async function registerDocs(app: FastifyInstance, platform: Platform): Promise<void> {
  const address = (request: FastifyRequest): DocumentAddress => ({
    baseUrl: requestBaseUrl(request, platform.config),
    tenant: (request.params as { tenant: string }).tenant,
  });
  // Any well-formed tenant name gets the page and the documents (the same for every tenant but for
  // the address): whether a tenant exists is told to its credentials only (docs/platform.md).
  const wellFormed = async (request: FastifyRequest) => {
    const { tenant } = request.params as { tenant: string };
    if (!TENANT_NAME.test(tenant)) throw errors.notFound(`No tenant can be named ${tenant}`);
  };

  await app.register(async (scope) => {
    // Swagger UI needs a @fastify/swagger beside it; this one sees only the page's own (hidden) routes.
    await scope.register(fastifySwagger, { openapi: { info: { title: ALL_SERVICES, version: '1.0' } } });
    const services = platform.registry.all();
    const first = services.find((s) => s.id === FIRST) ?? services[0];
    await scope.register(fastifySwaggerUi, {
      routePrefix: DOCS_PREFIX,
      uiConfig: {
        // Relative to the page (which always ends in a slash): the same page serves every tenant.
        urls: [
          ...services.map((s) => ({ url: `./services/${s.id}/swagger.json`, name: label(s) })),
          { url: './json', name: ALL_SERVICES },
        ],
        ...(first ? { 'urls.primaryName': label(first) } : {}),
        // Authorized once, still authorized on another service's document and after a reload.
        persistAuthorization: true,
        displayOperationId: true,
        displayRequestDuration: true,
        // No badge fetched from validator.swagger.io: the page calls nothing but this origin.
        validatorUrl: null,
      } as never,
      uiHooks: {
        onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
          await wellFormed(request);
          // The page's assets are relative to it: `/t/acme/docs` becomes `/t/acme/docs/`.
          const [path = '', query] = request.url.split('?');
          if (path.endsWith('/docs')) {
            return reply.redirect(`docs/${query === undefined ? '' : `?${query}`}`);
          }
          // Swagger UI writes the assets' addresses relative only when the URL ends in a slash, and
          // with the route's pattern (`/t/:tenant/…`) otherwise: its query (`?urls.primaryName=…`, a
          // shared link) is the browser's to read, so the page is made from the path alone.
          if (path.endsWith('/docs/') && query !== undefined) request.raw.url = path;
          reply
            .header('content-security-policy', DOCS_CSP)
            .header('x-content-type-options', 'nosniff')
            .header('referrer-policy', 'no-referrer');
        },
      },
      // `./json`: every service in one OpenAPI 3 document, for this tenant.
      transformSpecificationClone: false,
      transformSpecification: (_unused: unknown, request: FastifyRequest) =>
        combinedDocument(platform, address(request)),
    });
    scope.get(
      `${DOCS_PREFIX}/services/:domain/:service/:file`,
      { schema: { hide: true }, onRequest: wellFormed },
      async (request) => {
        const { domain, service, file } = request.params as Record<string, string>;
        const format = FILES[file ?? ''];
        if (!format) throw errors.notFound(`No document ${file}: swagger.json or openapi.json`);
        return platform.metadata(`${domain}/${service}`, format, address(request));
      },
    );
  });

  // Without a tenant, the page asks for one.
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(LANDING),
  );
  app.get('/docs/tenant', { schema: { hide: true } }, async (request, reply) => {
    const tenant = String((request.query as { tenant?: unknown }).tenant ?? '').trim();
    if (!tenant) return reply.redirect('../docs');
    return reply.redirect(`../t/${encodeURIComponent(tenant)}/docs/`);
  });
}
