import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Config } from '../core/config.ts';
import type { Platform, ServiceDeclaration, Visibility } from '../core/declarations.ts';
import type { DocumentAddress, MetadataFormat } from '../core/ports.ts';
import { GENERIC_ERROR } from '../core/schema.ts';
import { SHARED_RECORDS } from '../core/shared-records.ts';
import { inDialect, OPENAPI_SCHEMAS, Records, SWAGGER_DEFINITIONS } from './records.ts';

// Each service's Swagger 2.0 and OpenAPI 3 documents (docs/platform.md "Metadata and docs"), generated
// by @fastify/swagger from the routes the bridge registers: what a client generator needs, addressed
// to the tenant and host a client reached (so it calls what it was generated from).

declare module 'fastify' {
  interface FastifyContextConfig {
    doc?: RouteDoc;
  }
  interface FastifyInstance {
    swagger2?: () => Record<string, unknown>;
    openapi3?: () => Record<string, unknown>;
  }
}

/** What the document says of a route beyond its schemas (`config.doc` of the route). */
export interface RouteDoc {
  visibility: Visibility;
  /** Described at its anonymous address, without security. */
  anonymous?: boolean;
  /** An operation of kind events (spec 000 §2.1: "Event operations carry an event flag"). */
  event?: boolean;
  /** Lists the 401 `Invalid Credentials` response (spec 000 §5, spec 001 §5). */
  declares401: boolean;
  /** Headers of the success response. */
  headers?: ReadonlyArray<keyof typeof HEADERS>;
}

export const HEADERS = {
  'x-total-count': {
    type: 'integer',
    description: 'how many records the filter selects, over all pages',
  },
  'x-job-id': {
    type: 'string',
    description:
      'ids (comma-separated) of the durable jobs the operation enqueued; follow one with platform/jobs getJob',
  },
} as const;

/** A 401 of the bridge says how credentials go (core/errors.ts BRIDGE_CREDENTIALS). */
const UNAUTHORIZED_HEADERS = {
  'WWW-Authenticate': {
    type: 'string',
    description: 'the scheme that takes credentials: Bearer realm="ponte"',
  },
};

export const SECURITY_SCHEME = 'APIKeyHeader';
const SCHEME = {
  type: 'apiKey',
  in: 'header',
  name: 'Authorization',
  description:
    'An API key of the tenant (`ponte key create <tenant>`), as it is or as `Bearer <apiKey>`, or `Bearer <access_token>` from platform/authentication loginWithKey',
};

const INVALID_CREDENTIALS = 'Invalid Credentials';
/** @fastify/swagger reads a response's description from this key of its schema. */
const DESCRIPTION = 'x-response-description';

/**
 * Where a service's paths start, below `/t/<tenant>`: `/bridge/1.0/rest/<domain>` (spec 000 §4:
 * "paths relative to .../rest/yms"), or `/bridge/1.0` when it has anonymous operations, which are
 * described at their anonymous address (Swagger 2.0 has one basePath per document).
 */
export function documentRoot(service: ServiceDeclaration): string {
  const anonymous = Object.values(service.operations).some((op) => op.anonymous);
  return anonymous ? '/bridge/1.0' : `/bridge/1.0/rest/${service.domain}`;
}

/** The base URL a request reached the platform at: PUBLIC_URL when configured (a reverse proxy's). */
export function requestBaseUrl(request: FastifyRequest, config: Config): string {
  const configured = config.publicUrl.replace(/\/+$/, '');
  if (config.publicUrlConfigured || !request.host) return configured;
  const reached = `${request.protocol}://${request.host}`;
  const url = URL.canParse(reached) ? new URL(reached) : undefined;
  // A Host header that is no host (`a b`, `x/y`, `u@h`) gets the configured address, not a broken document.
  return url && url.pathname === '/' && !url.search && !url.hash && !url.username ? url.origin : configured;
}

type Doc = Record<string, unknown>;
type Operation = Record<string, unknown>;
type Schema = Record<string, unknown>;

function operations(doc: Doc): Operation[] {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  return Object.values(paths).flatMap((methods) => Object.values(methods));
}

/**
 * What the generator cannot be told through a route's schema, by operationId: whether the body is
 * required, and each response's description (OpenAPI 3 loses it on a `$ref`); `complete` applies it.
 */
interface Notes {
  bodyRequired: Map<string, boolean>;
  descriptions: Map<string, Record<string, string>>;
}

function complete(document: Doc, notes: Notes): void {
  for (const op of operations(document)) {
    const id = String(op.operationId);
    // A POST without a body is the empty object (docs/platform.md): only required fields require one.
    const body =
      (op.requestBody as Schema | undefined) ??
      (op.parameters as Schema[] | undefined)?.find((p) => p.in === 'body');
    if (body) body.required = notes.bodyRequired.get(id) ?? false;
    const responses = op.responses as Record<string, Schema>;
    for (const [status, description] of Object.entries(notes.descriptions.get(id) ?? {}))
      if (responses[status]) responses[status].description = description;
  }
}

/** The route's schema as the document shows it: records by reference, the responses complete. */
function documented(schema: Schema, doc: RouteDoc, records: Records, notes: Notes) {
  const headers = Object.fromEntries((doc.headers ?? []).map((name) => [name, HEADERS[name]]));
  const genericError = records.show(GENERIC_ERROR) as Schema;
  const response: Record<string, Schema> = {};
  for (const [status, declared] of Object.entries((schema.response ?? {}) as Record<string, Schema>)) {
    if (status === 'default') continue;
    response[status] = {
      ...(declared.type === 'null' ? { type: 'null' } : (records.show(declared) as Schema)),
      [DESCRIPTION]: declared.description ?? (declared.type === 'null' ? 'no body' : 'success'),
      ...(doc.headers?.length ? { headers } : {}),
    };
  }
  if (doc.declares401) {
    response['401'] = { ...genericError, [DESCRIPTION]: INVALID_CREDENTIALS, headers: UNAUTHORIZED_HEADERS };
  }
  response.default = { ...genericError, [DESCRIPTION]: 'genericError: the failure and its reason' };
  const id = String(schema.operationId);
  notes.descriptions.set(
    id,
    Object.fromEntries(Object.entries(response).map(([status, r]) => [status, String(r[DESCRIPTION])])),
  );
  const body = schema.body as Schema | undefined;
  if (body) {
    const required = body.type === 'array' || ((body.required as string[] | undefined)?.length ?? 0) > 0;
    notes.bodyRequired.set(id, required);
  }
  return {
    operationId: schema.operationId,
    summary: schema.summary,
    description: schema.description,
    tags: schema.tags,
    deprecated: schema.deprecated,
    ...(doc.anonymous ? { security: [] } : {}),
    'x-senior-visibility': doc.visibility,
    ...(doc.anonymous ? { 'x-senior-anonymous': true } : {}),
    ...(doc.event ? { 'x-senior-event': true } : {}),
    ...(body ? { body: records.show(body) } : {}),
    ...(schema.querystring ? { querystring: inDialect(schema.querystring) } : {}),
    ...(schema.params ? { params: schema.params } : {}),
    response,
  };
}

/**
 * Registers the service's two @fastify/swagger instances on its scope (before its routes, whose
 * `onRoute` they listen to); answers the document of a format addressed to a tenant.
 */
export async function registerDocuments(
  scope: FastifyInstance,
  service: ServiceDeclaration,
): Promise<(format: MetadataFormat, address: DocumentAddress) => Doc> {
  const root = documentRoot(service);
  const info = {
    title: service.title,
    version: service.version,
    description: service.description ?? service.title,
  };
  const extensions = { 'x-senior-domain': service.domain, 'x-senior-service': service.name };
  const generator = (prefix: typeof SWAGGER_DEFINITIONS | typeof OPENAPI_SCHEMAS) => {
    const records = new Records(prefix);
    const notes: Notes = { bodyRequired: new Map(), descriptions: new Map() };
    const transform = ({ schema, url, route }: { schema: Schema; url: string; route: RouteOptions }) => {
      const doc = route.config?.doc;
      if (!doc || schema.hide) return { schema: { ...schema, hide: true }, url };
      return {
        schema: documented(schema, doc, records, notes),
        url: url.slice(`/t/:tenant${root}`.length),
      };
    };
    // The records of spec 000 §2.2 are every service's, whether its operations use them or not.
    const definitions = () => {
      for (const record of SHARED_RECORDS) records.show(record);
      return records.definitions();
    };
    return { definitions, notes, transform };
  };

  const swagger = generator(SWAGGER_DEFINITIONS);
  await scope.register(fastifySwagger, {
    decorator: 'swagger2',
    swagger: {
      info,
      consumes: ['application/json'],
      produces: ['application/json'],
      securityDefinitions: { [SECURITY_SCHEME]: SCHEME },
      security: [{ [SECURITY_SCHEME]: [] }],
      ...extensions,
    },
    transform: swagger.transform,
    transformObject: ({ swaggerObject }: { swaggerObject: Doc }) => {
      swaggerObject.definitions = swagger.definitions();
      complete(swaggerObject, swagger.notes);
      return swaggerObject;
    },
  } as never);

  const openapi = generator(OPENAPI_SCHEMAS);
  await scope.register(fastifySwagger, {
    decorator: 'openapi3',
    openapi: {
      info,
      components: { securitySchemes: { [SECURITY_SCHEME]: SCHEME } },
      security: [{ [SECURITY_SCHEME]: [] }],
      ...extensions,
    },
    transform: openapi.transform,
    transformObject: ({ openapiObject }: { openapiObject: Doc }) => {
      (openapiObject.components as Doc).schemas = openapi.definitions();
      complete(openapiObject, openapi.notes);
      return openapiObject;
    },
  } as never);

  return (format, { baseUrl, tenant }) => {
    const base = new URL(baseUrl);
    const path = `${base.pathname.replace(/\/+$/, '')}/t/${encodeURIComponent(tenant)}${root}`;
    if (format === 'openapi') {
      const { openapi: version, info: described, ...rest } = scope.openapi3!();
      return { openapi: version, info: described, servers: [{ url: `${base.origin}${path}` }], ...rest };
    }
    const { swagger: version, info: described, ...rest } = scope.swagger2!();
    return {
      swagger: version,
      info: described,
      host: base.host,
      basePath: path,
      schemes: [base.protocol.replace(':', '')],
      ...rest,
    };
  };
}

type OpenApi = {
  servers: Array<{ url: string }>;
  components: { schemas: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
};

/** Rewrites the `$ref`s to renamed components. */
function renamed(node: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((n) => renamed(n, names));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const target = key === '$ref' && typeof value === 'string' ? value.split('/').pop()! : undefined;
    out[key] =
      target !== undefined && names.has(target)
        ? `#/components/schemas/${names.get(target)}`
        : renamed(value, names);
  }
  return out;
}

/**
 * Every service's OpenAPI 3 document as one, addressed to a tenant (the docs page's "All
 * services"): paths below the tenant's `/bridge/1.0`; operationIds `<service>_<operationId>`;
 * a record name that another service gives a different shape becomes `<service>_<name>`.
 */
export function combinedDocument(
  platform: Pick<Platform, 'registry' | 'metadata'>,
  address: DocumentAddress,
): Doc {
  const base = new URL(address.baseUrl);
  const server = `${base.origin}${base.pathname.replace(/\/+$/, '')}/t/${encodeURIComponent(address.tenant)}/bridge/1.0`;
  const schemas: Record<string, unknown> = {};
  const paths: Record<string, Record<string, Operation>> = {};
  for (const service of platform.registry.all()) {
    const doc = platform.metadata(service.id, 'openapi', address) as unknown as OpenApi;
    const prefix = doc.servers[0]!.url.slice(server.length);
    // Renaming a record changes the records that refer to it: repeat until nothing else clashes.
    const names = new Map<string, string>();
    for (let changed = true; changed; ) {
      changed = false;
      for (const [name, schema] of Object.entries(doc.components.schemas)) {
        if (names.has(name) || schemas[name] === undefined) continue;
        if (JSON.stringify(schemas[name]) === JSON.stringify(renamed(schema, names))) continue;
        names.set(name, `${service.name}_${name}`);
        changed = true;
      }
    }
    for (const [name, schema] of Object.entries(doc.components.schemas))
      schemas[names.get(name) ?? name] = renamed(schema, names);
    for (const [path, methods] of Object.entries(doc.paths)) {
      paths[`${prefix}${path}`] = Object.fromEntries(
        Object.entries(methods).map(([method, op]) => [
          method,
          { ...(renamed(op, names) as Operation), operationId: `${service.name}_${op.operationId}` },
        ]),
      );
    }
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Ponte: every service',
      version: '1.0',
      description: 'Every service of this node in one document, for one tenant',
    },
    servers: [{ url: server }],
    components: { securitySchemes: { [SECURITY_SCHEME]: SCHEME }, schemas },
    security: [{ [SECURITY_SCHEME]: [] }],
    paths,
  };
}
