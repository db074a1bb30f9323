import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import type { Operation } from '../core/declarations.ts';

// getMetadata returns each service's Swagger 2.0 document, generated from its declarations.

let t: TestApp;
let key: string;

type Doc = {
  swagger?: string;
  openapi?: string;
  info: { title: string; version: string };
  basePath?: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

async function metadata(service: string, metadataFormat?: string): Promise<Doc> {
  const res = await t.call(
    'acme',
    `${service}/queries/getMetadata`,
    metadataFormat ? { metadataFormat } : {},
    { auth: key },
  );
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.json().metadata);
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
      expect(doc.basePath).toBe(`/t/{tenant}/bridge/1.0/rest/${service.domain}`);
      const expected = Object.entries(service.operations as Record<string, Operation>).map(
        ([name, op]) => `/${service.name}/${op.kind}/${name}`,
      );
      // Entity routes are checked by the entity engine's own test; here the declared operations.
      const operationPaths = Object.keys(doc.paths).filter((p) => !p.includes('/entities/'));
      expect(operationPaths.sort()).toEqual(expected.sort());
      for (const [name, op] of Object.entries(service.operations as Record<string, Operation>)) {
        const path = doc.paths[`/${service.name}/${op.kind}/${name}`]!;
        expect(Object.keys(path).sort()).toEqual(op.methods.map((m) => m.toLowerCase()).sort());
        for (const method of Object.values(path)) expect(method['x-senior-visibility']).toBe(op.visibility);
      }
    }
  });

  it('carries the request schema with its required list and bounds', async () => {
    const doc = await metadata('hcm/managementpanel');
    const post = doc.paths['/managementpanel/actions/updateLicense']!.post as {
      parameters: Array<{
        in: string;
        schema: { required: string[]; properties: Record<string, { type: string }> };
      }>;
      responses: Record<string, unknown>;
    };
    const body = post.parameters.find((p) => p.in === 'body')!;
    expect(body.schema.required).toEqual(['tenant', 'isStatusLocked']);
    expect(body.schema.properties.isStatusLocked!.type).toBe('boolean');
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', 'default']));
    const signal = doc.paths['/managementpanel/signals/updateLicenses']!.post as {
      responses: Record<string, unknown>;
    };
    expect(Object.keys(signal.responses)).toContain('202');
  });

  it('marks anonymous public operations', async () => {
    const doc = await metadata('hcm/platform_integration');
    expect(doc.paths['/platform_integration/queries/getMetadata']!.get).toBeDefined();
    const res = await t.app.inject({
      method: 'GET',
      url: '/docs/services/platform/authentication/swagger.json',
    });
    const auth = res.json() as Doc;
    expect(auth.paths['/authentication/actions/loginWithKey']!.post!['x-senior-visibility']).toBe('PUBLIC');
    expect(auth.paths['/authentication/actions/loginWithKey']!.post!['x-senior-anonymous']).toBe(true);
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

describe('docs UI', () => {
  it('serves the UI and each service document without credentials', async () => {
    const ui = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect([200, 302]).toContain(ui.statusCode);
    const doc = await t.app.inject({ method: 'GET', url: '/docs/services/hcm/managementpanel/swagger.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().info.title).toBe('Management panel');
    const all = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(Object.keys(all.json().paths)).toContain(
      '/t/{tenant}/bridge/1.0/rest/hcm/managementpanel/actions/updateLicense',
    );
    const missing = await t.app.inject({ method: 'GET', url: '/docs/services/hcm/nope/swagger.json' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().reason).toBe('OBJECT_NOT_FOUND');
  });
});
