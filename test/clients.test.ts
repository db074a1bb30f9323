import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import openapiTS from 'openapi-typescript';
import SwaggerClient, { type SwaggerResponse } from 'swagger-client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServiceDeclaration } from '../src/platform/core/declarations.ts';
import { allServices } from '../src/services/index.ts';
import { type TestApp, testApp } from './harness.ts';
import { ROOT, tempDir } from './processes.ts';

// Issue #12: clients generated from every served document, as client authors make them. Each
// service's documents, as getMetadata serves them on a real port, are validated with swagger-parser;
// openapi-typescript generates types from each OpenAPI 3 document, which compile under `strict`; the
// official swagger-client calls each service's reads (and logs in) against the running app, and the
// answers match the documents' response schemas. Then the worked example of docs/clients.md runs.
// A service added later is covered without a line here.

type Doc = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };
type Operation = {
  operationId: string;
  parameters?: Array<{ in: string; required?: boolean; name: string }>;
  requestBody?: { required?: boolean };
  responses: Record<string, { schema?: unknown; content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
};
type Format = 'swagger' | 'openapi';

// Asynchronous: the server these children call runs in this process.
const run = promisify(execFile);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const TSC = join(ROOT, 'node_modules/.bin/tsc');
const OPENAPI_TYPESCRIPT = join(ROOT, 'node_modules/.bin/openapi-typescript');

let t: TestApp;
let base: string;
let apiKey: string;
let accessKey: string;
let secret: string;
const served = new Map<string, Doc>();
const fileOf = (service: ServiceDeclaration) => `${service.domain}_${service.name}`;

/** The document as a client fetches it: getMetadata over HTTP, with the key. */
async function fetchDocument(service: ServiceDeclaration, format: Format): Promise<Doc> {
  const url = `${base}/t/acme/bridge/1.0/rest/${service.id}/queries/getMetadata?metadataFormat=${format}`;
  const res = await fetch(url, { headers: { authorization: apiKey } });
  expect(res.status, url).toBe(200);
  return JSON.parse(((await res.json()) as { metadata: string }).metadata);
}

/** A document's schema as draft 07 (ajv): exclusive bounds as numbers again. */
function draft07(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(draft07);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = key === 'enum' ? value : draft07(value);
  for (const [bound, inclusive] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[bound] === true) {
      out[bound] = out[inclusive];
      delete out[inclusive];
    } else if (out[bound] === false) delete out[bound];
  }
  if (out.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  delete out.nullable;
  return out;
}

const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
ajv.addFormat('int64', true);
ajv.addFormat('double', true);

/** The success answer's body must match the response schema of the (dereferenced) document. */
function checkAnswer(
  doc: Doc,
  format: Format,
  operationId: string,
  status: number | 'default',
  body: unknown,
): void {
  const op = Object.values(doc.paths)
    .flatMap((methods) => Object.values(methods))
    .find((o) => o.operationId === operationId)!;
  const response = op.responses[String(status)];
  expect(response, `${operationId} documents ${status}`).toBeDefined();
  const schema = format === 'swagger' ? response!.schema : response!.content?.['application/json']?.schema;
  if (schema === undefined) return;
  // The document's records beside the schema, where its `$ref`s point.
  const records =
    format === 'swagger'
      ? { definitions: doc.definitions }
      : { components: { schemas: (doc.components as Doc).schemas } };
  const validate = ajv.compile({ ...(draft07(schema) as object), ...(draft07(records) as object) });
  expect(validate(body), `${operationId}: ${JSON.stringify(validate.errors)?.slice(0, 500)}`).toBe(true);
}

/**
 * The reads of a document a client may call with nothing but a key: GET operations without a
 * required parameter (the standard queries, entity lists...).
 */
function reads(doc: Doc): Array<{ operationId: string; list: boolean }> {
  return Object.entries(doc.paths).flatMap(([path, methods]) => {
    const op = methods.get;
    if (!op || op.security?.length === 0) return [];
    if ((op.parameters ?? []).some((p) => p.required)) return [];
    return [{ operationId: op.operationId, list: path.includes('/entities/') }];
  });
}

beforeAll(async () => {
  // acme is the operator tenant: managementpanel's reads answer it.
  t = await testApp({ config: { operatorTenant: 'acme' } });
  apiKey = await t.tenant('acme');
  ({ accessKey, secret } = await t.key('acme'));
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  for (const service of allServices)
    for (const format of ['swagger', 'openapi'] as const)
      served.set(`${service.id} ${format}`, await fetchDocument(service, format));
});

describe.each(allServices.map((s) => [s.id, s] as const))('%s', (_id, service) => {
  it.each(['swagger', 'openapi'] as const)('its %s document is valid (swagger-parser)', async (format) => {
    const doc = served.get(`${service.id} ${format}`)!;
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it.each(['swagger', 'openapi'] as const)(
    'swagger-client calls its reads from the %s document; the answers match the documented schemas',
    async (format) => {
      const doc = served.get(`${service.id} ${format}`)!;
      const client = await SwaggerClient({
        spec: structuredClone(doc),
        authorizations: { APIKeyHeader: apiKey },
      });
      const calls = reads(doc);
      let succeeded = 0;
      for (const { operationId, list } of calls) {
        const res = await client
          .execute({ operationId, parameters: list ? { size: 5 } : {} })
          .catch((err: { response?: SwaggerResponse }) => err.response ?? Promise.reject(err));
        const answer = `${operationId}: ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
        // The document's address is the one the client called: the tenant and the real port.
        expect(res.url.startsWith(`${base}/t/acme/bridge/1.0/`), res.url).toBe(true);
        // A query may refuse what its schema cannot say ("execucaoCircuitoId or agendaId"): a 4xx
        // genericError, as its `default` response documents; never a failure of credentials or a 5xx.
        if (list || res.status !== 400) expect(res.status, answer).toBe(200);
        checkAnswer(doc, format, operationId, res.status === 200 ? 200 : 'default', res.body);
        if (list) expect(res.headers['x-total-count'], operationId).toMatch(/^\d+$/);
        if (res.status === 200) succeeded++;
      }
      expect(succeeded, 'reads answered').toBeGreaterThan(0);
    },
  );
});

describe('clients generated from the documents', () => {
  it('log in through the anonymous loginWithKey, then call with the bearer token (swagger-client)', async () => {
    const auth = served.get('platform/authentication swagger')!;
    const anonymous = await SwaggerClient({ spec: structuredClone(auth) });
    const login = await anonymous.execute({
      operationId: 'loginWithKey',
      parameters: { body: { accessKey, secret, tenantName: 'acme' } },
    });
    expect(login.status).toBe(200);
    expect(login.url).toBe(
      `${base}/t/acme/bridge/1.0/anonymous/rest/platform/authentication/actions/loginWithKey`,
    );
    const token = JSON.parse(login.body.jsonToken).access_token as string;
    const patio = await SwaggerClient({
      spec: structuredClone(served.get('yms/patio openapi')!),
      authorizations: { APIKeyHeader: `Bearer ${token}` },
    });
    const res = await patio.execute({ operationId: 'vaga_list', parameters: { size: 1 } });
    expect(res.status).toBe(200);
    const wrong = await SwaggerClient({
      spec: structuredClone(served.get('yms/patio swagger')!),
      authorizations: { APIKeyHeader: 'Bearer not-a-token' },
    });
    const refused = await wrong
      .execute({ operationId: 'vaga_list' })
      .catch((err: { response: unknown }) => err.response);
    expect(refused).toMatchObject({
      status: 401,
      body: { message: 'Invalid Credentials', reason: 'UNAUTHORIZED' },
    });
  });

  it('openapi-typescript types every OpenAPI 3 document (and the combined one); they compile under strict', async () => {
    const dir = tempDir('ponte-clients-');
    const files: string[] = [];
    for (const service of allServices) {
      const file = join(dir, `${fileOf(service)}.ts`);
      writeFileSync(file, await openapiTS(structuredClone(served.get(`${service.id} openapi`)!) as never));
      files.push(file);
    }
    const combined = await (await fetch(`${base}/t/acme/docs/json`)).json();
    await SwaggerParser.validate(structuredClone(combined));
    writeFileSync(join(dir, 'all.ts'), await openapiTS(combined));
    files.push(join(dir, 'all.ts'));
    await compile(dir, files);
  });

  it('runs the worked example of docs/clients.md', async () => {
    // Three active spots in a yard, and one inactive, for the example to page through.
    const planta = await t.call(
      'acme',
      'yms/patio/entities/planta',
      { codigo: 'EX', nome: 'Exemplo' },
      { auth: apiKey },
    );
    expect(planta.statusCode, planta.body).toBe(200);
    const area = await t.call(
      'acme',
      'yms/patio/entities/area',
      { plantaId: planta.json().id, codigo: 'EXA', descricao: 'Pátio', tipo: 'ESTACIONAMENTO' },
      { auth: apiKey },
    );
    expect(area.statusCode, area.body).toBe(200);
    const vagas = await t.call(
      'acme',
      'yms/patio/entities/vaga/bulk',
      [1, 2, 3, 4].map((numero) => ({ areaId: area.json().id, rua: 1, numero, ativo: numero !== 4 })),
      { auth: apiKey },
    );
    expect(vagas.statusCode, vagas.body).toBe(200);

    const dir = tempDir('ponte-example-');
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
    // The generation commands of docs/clients.md, on this server.
    const docs = `${base}/t/acme/docs/services`;
    for (const [name, id] of [
      ['authentication', 'platform/authentication'],
      ['patio', 'yms/patio'],
    ]) {
      await run(OPENAPI_TYPESCRIPT, [`${docs}/${id}/openapi.json`, '--output', join(dir, `${name}.ts`)]);
    }
    const markdown = readFileSync(join(ROOT, 'docs/clients.md'), 'utf8');
    const example = markdown.match(/```ts\n(\/\/ example\.ts\n[\s\S]*?)```/)?.[1];
    expect(example, 'the worked example in docs/clients.md').toBeDefined();
    writeFileSync(join(dir, 'example.ts'), example!);
    await compile(dir, [join(dir, 'example.ts')]);
    const { stdout: output } = await run(process.execPath, ['--import', 'tsx', join(dir, 'example.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        PONTE_URL: base,
        PONTE_TENANT: 'acme',
        PONTE_ACCESS_KEY: accessKey,
        PONTE_SECRET: secret,
      },
      encoding: 'utf8',
    });
    expect(output).toMatch(/^3 of 3 active spots: 1-1 1-2 1-3\n/);
    expect(output).toMatch(/export job ([0-9a-f-]{36}), x-job-id \1\n$/);
  });
});

/** Typechecks `files` as a client's project would: strict, ES modules, Node 20's types. */
async function compile(dir: string, files: string[]): Promise<void> {
  try {
    await run(
      TSC,
      [
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--allowImportingTsExtensions',
        '--typeRoots',
        join(ROOT, 'node_modules/@types'),
        '--types',
        'node',
        ...files,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`tsc failed:\n${stdout ?? ''}${stderr ?? ''}`.slice(0, 4000));
  }
}
