import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import type { Operation, ServiceDeclaration } from '../core/declarations.ts';
import type { MetadataFormat } from '../core/ports.ts';
import { documentRoot } from './documents.ts';

// getMetadata returns each service's Swagger 2.0 document (OpenAPI 3 on request), generated from its
// declarations and addressed to the tenant as the caller reached it. These tests check what a
// client author relies on, for every service and both formats; test/clients.test.ts then generates
// clients from the served documents and calls the app through them.

let t: TestApp;
let key: string;

type Op = Record<string, unknown> & {
  operationId?: string;
  responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
  security?: unknown[];
  requestBody?: { required: boolean };
  parameters?: Array<Record<string, unknown>>;
};
type Doc = {
  swagger?: string;
  openapi?: string;
  info: { title: string; version: string };
  host?: string;
  basePath?: string;
  schemes?: string[];
  servers?: Array<{ url: string }>;
  securityDefinitions?: Record<string, unknown>;
  components?: { securitySchemes?: Record<string, unknown>; schemas?: Record<string, { title?: string }> };
  definitions?: Record<string, { title?: string }>;
  security?: unknown[];
  paths: Record<string, Record<string, Op>>;
};

async function metadata(service: string, metadataFormat?: string, host?: string): Promise<Doc> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/t/acme/bridge/1.0/rest/${service}/queries/getMetadata`,
    headers: { authorization: key, 'content-type': 'application/json', ...(host ? { host } : {}) },
    payload: JSON.stringify(metadataFormat ? { metadataFormat } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.json().metadata);
}

const ADDRESS = { baseUrl: 'http://ponte.test', tenant: 'acme' };
const documentOf = (service: ServiceDeclaration, format: MetadataFormat) =>
  t.platform.metadata(service.id, format, ADDRESS) as unknown as Doc;
const cases = allServices.flatMap((service) =>
  (['swagger', 'openapi'] as const).map((format) => ({ id: service.id, format, service })),
);

/** Where the document describes an operation: its anonymous address when it is anonymous. */
function pathOf(service: ServiceDeclaration, name: string, op: Operation): string {
  const address = `${service.domain}/${service.name}/${op.kind}/${name}`;
  if (documentRoot(service) === `/bridge/1.0/rest/${service.domain}`)
    return `/${service.name}/${op.kind}/${name}`;
  return op.anonymous ? `/anonymous/rest/${address}` : `/rest/${address}`;
}

const operationsOf = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );

/** Every value of every `key` in a document. */
function valuesOf(node: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) for (const item of node) valuesOf(item, key, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push(v);
      valuesOf(v, key, out);
    }
  }
  return out;
}

beforeAll(async () => {
  t = await testApp();
  key = await t.tenant('acme');
});

describe('getMetadata', () => {
  it('describes every operation of every service with its kind, methods and visibility', async () => {
    for (const service of allServices) {
      if (!service.operations.getMetadata) continue;
      const doc = await metadata(`${service.domain}/${service.name}`);
      expect(doc.swagger).toBe('2.0');
      expect(doc.info.version).toBe(service.version);
      const expected = Object.entries(service.operations as Record<string, Operation>).map(([name, op]) =>
        pathOf(service, name, op),
      );
      const operationPaths = Object.keys(doc.paths).filter((p) => !p.includes('/entities/'));
      expect(operationPaths.sort()).toEqual(expected.sort());
      for (const [name, op] of Object.entries(service.operations as Record<string, Operation>)) {
        const path = doc.paths[pathOf(service, name, op)]!;
        expect(Object.keys(path).sort()).toEqual(op.methods.map((m) => m.toLowerCase()).sort());
        for (const method of Object.values(path)) {
          expect(method['x-senior-visibility']).toBe(op.visibility);
          // spec 000 §2.1: "Event operations carry an event flag".
          expect(method['x-senior-event']).toBe(op.kind === 'events' ? true : undefined);
          expect(method.deprecated).toBe(op.deprecated ? true : undefined);
        }
      }
    }
  });

  it('addresses the tenant at the host the request reached: host, basePath and schemes; servers', async () => {
    const doc = await metadata('hcm/managementpanel', undefined, 'api.example.com:8443');
    expect(doc.host).toBe('api.example.com:8443');
    expect(doc.basePath).toBe('/t/acme/bridge/1.0/rest/hcm');
    expect(doc.schemes).toEqual(['http']);
    const openapi = await metadata('hcm/managementpanel', 'openapi', 'api.example.com:8443');
    expect(openapi.servers).toEqual([{ url: 'http://api.example.com:8443/t/acme/bridge/1.0/rest/hcm' }]);
    // A Host that is no host gives the configured address (PUBLIC_URL's default), not a broken document.
    const odd = await metadata('hcm/managementpanel', undefined, 'not a host');
    expect(odd.host).toBe(new URL(t.platform.config.publicUrl).host);
  });

  it('gives a configured PUBLIC_URL (a reverse proxy, with its path) over the request host', async () => {
    const proxied = await testApp({ config: { publicUrl: 'https://ponte.example.com/api/' } });
    const proxiedKey = await proxied.tenant('acme');
    const res = await proxied.call('acme', 'yms/patio/queries/getMetadata', {}, { auth: proxiedKey });
    const doc = JSON.parse(res.json().metadata) as Doc;
    expect([doc.host, doc.basePath, doc.schemes]).toEqual([
      'ponte.example.com',
      '/api/t/acme/bridge/1.0/rest/yms',
      ['https'],
    ]);
  });

  it('answers OpenAPI 3 when metadataFormat asks for it, and 400 for an unknown format', async () => {
    const doc = await metadata('hcm/platform_integration', 'OpenAPI');
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/platform_integration/actions/integrationSaveBatch');
    const bad = await t.call(
      'acme',
      'hcm/platform_integration/queries/getMetadata',
      { metadataFormat: 'wsdl' },
      { auth: key },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/metadataFormat/);
  });

  it('answers by GET with the query string too', async () => {
    const res = await t.call('acme', 'hcm/platform_integration/queries/getMetadata', undefined, {
      auth: key,
      method: 'GET',
      query: { metadataFormat: 'swagger' },
    });
    expect(JSON.parse(res.json().metadata).swagger).toBe('2.0');
  });
});

describe.each(cases)('the $format document of $id', ({ service, format }) => {
  let doc: Doc;
  beforeAll(() => {
    doc = documentOf(service, format);
  });

  it('names every operation, entity routes included, with a unique stable operationId', () => {
    const ids = operationsOf(doc).map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    // Unique even as generators fold them (case and punctuation dropped).
    const folded = ids.map((id) =>
      String(id)
        .toLowerCase()
        .replace(/[^a-z0-9]/g, ''),
    );
    expect(folded.length - new Set(folded).size).toBe(0);
    for (const { path, method, op } of operationsOf(doc)) {
      if (!path.includes('/entities/')) continue;
      expect(op.operationId, `${method} ${path}`).toMatch(
        /^[A-Za-z]\w*_(\w+_)?(create|patchByBody|list|bulk|get|put|patch|delete)$/,
      );
    }
  });

  it('secures every operation with the API key in Authorization; anonymous ones at their address, without', () => {
    const schemes = format === 'swagger' ? doc.securityDefinitions : doc.components?.securitySchemes;
    expect(schemes).toEqual({
      APIKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }),
    });
    expect(doc.security).toEqual([{ APIKeyHeader: [] }]);
    for (const { path, op } of operationsOf(doc)) {
      const anonymous = path.startsWith('/anonymous/rest/');
      expect(op.security, path).toEqual(anonymous ? [] : undefined);
      expect(op['x-senior-anonymous'], path).toBe(anonymous ? true : undefined);
    }
  });

  it('declares the 401 Invalid Credentials response where the spec lists it', () => {
    const names = new Map(Object.entries(service.operations as Record<string, Operation>));
    for (const { path, op } of operationsOf(doc)) {
      const declared = names.get(path.split('/').pop()!);
      const lists = path.includes('/entities/')
        ? service.declares401
        : (declared?.declares401 ?? service.declares401);
      if (lists) {
        expect(op.responses['401']?.description, path).toBe('Invalid Credentials');
        expect(Object.keys(op.responses['401']?.headers ?? {}), path).toEqual(['WWW-Authenticate']);
      } else expect(op.responses['401'], path).toBeUndefined();
    }
  });

  it('declares the x-total-count of entity lists and the x-job-id of operations that enqueue', () => {
    for (const { path, method, op } of operationsOf(doc)) {
      const success = op.responses['200'] ?? op.responses['202']!;
      const headers = Object.keys(success.headers ?? {});
      const list = method === 'get' && path.includes('/entities/') && !path.endsWith('/{id}');
      const declared = (service.operations as Record<string, Operation>)[path.split('/').pop()!];
      const enqueues = !path.includes('/entities/') && declared?.enqueues;
      expect(headers, `${method} ${path}`).toEqual([
        ...(list ? ['x-total-count'] : []),
        ...(enqueues ? ['x-job-id'] : []),
      ]);
    }
  });

  it('names each record once, by its title, and refers to it by $ref; no draft 07 left', () => {
    const definitions = (format === 'swagger' ? doc.definitions : doc.components?.schemas) ?? {};
    expect(Object.keys(definitions)).toContain('genericError');
    // One name per shape: a second shape under one title would be named `<title>2`.
    for (const [name, schema] of Object.entries(definitions)) expect(schema.title, name).toBe(name);
    const prefix = format === 'swagger' ? '#/definitions/' : '#/components/schemas/';
    const refs = valuesOf(doc, '$ref') as string[];
    for (const ref of refs) expect(definitions[ref.slice(prefix.length)], ref).toBeDefined();
    for (const entity of service.entities) expect(refs).toContain(`${prefix}${entity.name}`);
    // Swagger 2.0 and OpenAPI 3.0 write exclusive bounds as booleans beside minimum/maximum.
    for (const bound of [...valuesOf(doc, 'exclusiveMinimum'), ...valuesOf(doc, 'exclusiveMaximum')])
      expect(typeof bound).toBe('boolean');
    expect(valuesOf(doc, 'const')).toEqual([]);
  });

  it('requires a body only of operations that have required fields', () => {
    for (const { path, op } of operationsOf(doc)) {
      const body = format === 'openapi' ? op.requestBody : op.parameters?.find((p) => p.in === 'body');
      if (!body) continue;
      const name = path.split('/').pop()!;
      const declared = (service.operations as Record<string, Operation>)[name];
      if (!declared) continue;
      const required = ((declared.input as { required?: string[] }).required ?? []).length > 0;
      expect(body.required, path).toBe(required);
    }
  });
});

describe('docs page', () => {
  it("is a tenant's: /t/<tenant>/docs/ (the address without the slash leads there)", async () => {
    const bare = await t.app.inject({ method: 'GET', url: '/t/acme/docs' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('docs/');
    const page = await t.app.inject({ method: 'GET', url: '/t/acme/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const init = await t.app.inject({ method: 'GET', url: '/t/acme/docs/static/swagger-initializer.js' });
    expect(init.body).toContain('"urls.primaryName":"yms/patio 8.10.0"');
    expect(init.body).toContain('./services/yms/patio/swagger.json');
    // Any well-formed tenant name gets the page and documents: tenant names are not to be probed.
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/t/nobody/docs/services/yms/patio/swagger.json',
    });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().basePath).toBe('/t/nobody/bridge/1.0/rest/yms');
    const malformed = await t.app.inject({ method: 'GET', url: '/t/No%20Body/docs/' });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json().reason).toBe('OBJECT_NOT_FOUND');
  });

  it('serves each service document, addressed to the tenant, without credentials', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/t/acme/docs/services/hcm/managementpanel/swagger.json',
      headers: { host: 'yard.example.com' },
    });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as Doc;
    expect([doc.info.title, doc.host, doc.basePath]).toEqual([
      'Management panel',
      'yard.example.com',
      '/t/acme/bridge/1.0/rest/hcm',
    ]);
    const openapi = await t.app.inject({
      method: 'GET',
      url: '/t/acme/docs/services/yms/agenda/openapi.json',
    });
    expect(openapi.json().openapi).toMatch(/^3\./);
    const missing = await t.app.inject({ method: 'GET', url: '/t/acme/docs/services/hcm/nope/swagger.json' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().reason).toBe('OBJECT_NOT_FOUND');
  });

  it('lists every service in one OpenAPI 3 document too, with unique operationIds and one security scheme', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/t/acme/docs/json', headers: { host: 'h.test' } });
    const doc = res.json() as Doc;
    expect(doc.servers).toEqual([{ url: 'http://h.test/t/acme/bridge/1.0' }]);
    expect(Object.keys(doc.components?.securitySchemes ?? {})).toEqual(['APIKeyHeader']);
    const ids = operationsOf(doc).map(({ op }) => op.operationId);
    expect(ids.length - new Set(ids).size).toBe(0);
    const paths = Object.keys(doc.paths);
    expect(paths).toContain('/rest/yms/patio/entities/vaga/{id}');
    expect(paths).toContain('/anonymous/rest/platform/authentication/actions/loginWithKey');
    expect(paths.filter((p) => p.includes('{tenant}') || p.startsWith('/admin'))).toEqual([]);
    const total = allServices.reduce((n, s) => n + operationsOf(documentOf(s, 'openapi')).length, 0);
    expect(ids.length).toBe(total);
  });

  it('asks for a tenant at /docs', async () => {
    const landing = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(landing.body).toContain('action="docs/tenant"');
    const go = await t.app.inject({ method: 'GET', url: '/docs/tenant?tenant=acme' });
    expect(go.headers.location).toBe('../t/acme/docs/');
  });
});
