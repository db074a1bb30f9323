import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Caller } from '../core/caller.ts';
import { execute } from '../core/context.ts';
import type { ResolvedOperation, ServiceDeclaration } from '../core/declarations.ts';
import { errors } from '../core/errors.ts';
import type { DocumentAddress, MetadataFormat, MetadataProvider } from '../core/ports.ts';
import { GENERIC_ERROR } from '../core/schema.ts';
import type { TenantInfo } from '../core/tenants.ts';
import { validate } from '../core/validation.ts';
import { anonymousAccess, authenticator, BRIDGE, methodNotAllowed, type Parts } from './access.ts';
import { type RouteDoc, registerDocuments, requestBaseUrl } from './documents.ts';
import { registerEntities } from './entities.ts';

// The bridge (DESIGN.md "The bridge contract"): every declared operation becomes its routes at
// /t/<tenant>/bridge/1.0/rest/<domain>/<service>/<kind>/<operation> (and the anonymous variant), with
// its credentials check, validation, serialization and its own Swagger 2.0 / OpenAPI 3 document.

// Every method a client may send; HEAD is served wherever GET is (Fastify's own HEAD routes).
const ALL_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
declare module 'fastify' {
  interface FastifyRequest {
    ponte?: { tenant: TenantInfo; caller: Caller };
  }
}

function handler(parts: Parts, target: ResolvedOperation) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { tenant, caller } = request.ponte!;
    const input =
      request.method === 'GET' || request.method === 'HEAD'
        ? fromQuery(target.op.input, (request.query ?? {}) as Record<string, unknown>)
        : (request.body ?? {});
    const jobs: string[] = [];
    const invocation = {
      tenant,
      caller,
      requestId: request.id,
      log: request.log,
      baseUrl: requestBaseUrl(request, parts.platform.config),
      onJob: (id: string) => jobs.push(id),
    };
    const result = await execute(parts.platform, target, invocation, input);
    // A signal's effect runs later: the job id lets the caller follow it (platform/jobs getJob).
    if (jobs.length) reply.header('x-job-id', jobs.join(','));
    if (!target.op.hasBody) return reply.code(target.op.successStatus).send();
    return reply.code(200).send(result ?? {});
  };
}

/**
 * The operationId of an operation's method: its name for POST, `<name>_GET` for GET; entities'
 * are `<entity>_<verb>` (entities.ts). Stable: clients generated from a document keep their names.
 */
export const operationId = (name: string, method: 'GET' | 'POST') =>
  method === 'GET' ? `${name}_GET` : name;

type InputSchema = ResolvedOperation['op']['input'];
const isRecord = (s: { type?: unknown; items?: { type?: unknown } }) =>
  s.type === 'object' || (s.type === 'array' && s.items?.type === 'object');

/**
 * An input as a query string carries it: its scalar fields and arrays of scalars as they are, and a
 * field that is a record or an array of records (spec 001 §4.6's `parametros`, recPageRequest's
 * `orderBy`) as the JSON text of its value, which the bridge parses and validates against the
 * record's schema (`recordFieldsOf`, `fromQuery`): a GET can ask what a POST can.
 */
function queryStringOf(input: InputSchema): InputSchema {
  const properties = (input as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  if (!properties || recordFieldsOf(input).length === 0) return input;
  const carried = Object.fromEntries(
    Object.entries(properties).map(([k, s]) =>
      isRecord(s)
        ? [
            k,
            {
              type: 'string',
              description: `${k}, as JSON (${s.type === 'array' ? 'an array of records' : 'a record'})`,
            },
          ]
        : [k, s],
    ),
  );
  return { ...input, properties: carried } as InputSchema;
}

const recordFields = new WeakMap<object, string[]>();
/** The fields of an input that are records or arrays of records. */
function recordFieldsOf(input: InputSchema): string[] {
  let fields = recordFields.get(input);
  if (!fields) {
    const properties = (input as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
    fields = Object.entries(properties)
      .filter(([, s]) => isRecord(s))
      .map(([k]) => k);
    recordFields.set(input, fields);
  }
  return fields;
}

/** A GET's input: its JSON-carried record fields parsed, then the whole checked as a body is. */
function fromQuery(input: InputSchema, query: Record<string, unknown>): unknown {
  const fields = recordFieldsOf(input);
  if (fields.length === 0) return query;
  const value: Record<string, unknown> = { ...query };
  for (const field of fields) {
    if (typeof value[field] !== 'string') continue;
    try {
      value[field] = JSON.parse(value[field] as string);
    } catch {
      throw errors.badRequest(
        `Invalid request: field '${field}' must be JSON (a GET carries records as JSON text)`,
      );
    }
  }
  return validate(input, value);
}

function operationSchema(target: ResolvedOperation, method: 'GET' | 'POST') {
  const { op, name } = target;
  return {
    operationId: operationId(name, method),
    summary: op.description ?? name,
    ...(op.description ? { description: op.description } : {}),
    tags: [target.service.name],
    deprecated: op.deprecated || undefined,
    ...(method === 'GET' ? { querystring: queryStringOf(op.input) } : { body: op.input }),
    response: {
      [op.successStatus]: op.hasBody && op.output ? op.output : { type: 'null', description: 'no body' },
      default: GENERIC_ERROR,
    },
  };
}

function registerOperation(app: FastifyInstance, parts: Parts, target: ResolvedOperation): void {
  const { service, name, op } = target;
  const path = `${service.domain}/${service.name}/${op.kind}/${name}`;
  const doc: RouteDoc = {
    visibility: op.visibility,
    anonymous: op.anonymous,
    event: op.kind === 'events',
    declares401: op.declares401 ?? service.declares401,
    headers: op.enqueues ? ['x-job-id'] : [],
  };
  for (const method of op.methods) {
    // An anonymous operation is documented at its anonymous address, every other at /rest.
    app.route({
      method,
      url: `${BRIDGE}/rest/${path}`,
      schema: { ...operationSchema(target, method), hide: op.anonymous },
      config: { doc },
      onRequest: authenticator(parts, service, op.visibility, name, op.subjects),
      handler: handler(parts, target),
    });
    app.route({
      method,
      url: `${BRIDGE}/anonymous/rest/${path}`,
      schema: { ...operationSchema(target, method), hide: !op.anonymous },
      config: { doc },
      onRequest: anonymousAccess(parts, target),
      handler: handler(parts, target),
    });
  }
  const others = ALL_METHODS.filter(
    (m) => !op.methods.includes(m as 'GET' | 'POST') && !(m === 'HEAD' && op.methods.includes('GET')),
  );
  for (const prefix of ['rest', 'anonymous/rest']) {
    app.route({
      method: others,
      url: `${BRIDGE}/${prefix}/${path}`,
      schema: { hide: true },
      handler: methodNotAllowed(op.methods),
    });
  }
}

async function registerService(
  app: FastifyInstance,
  parts: Parts,
  service: ServiceDeclaration,
): Promise<(format: MetadataFormat, address: DocumentAddress) => Record<string, unknown>> {
  const documents = await registerDocuments(app, service);
  for (const [name, op] of Object.entries(service.operations))
    registerOperation(app, parts, { service, name, op });
  for (const entity of service.entities) registerEntities(app, parts, service, entity);
  return documents;
}

/** Registers every service's routes; returns how to read each service's generated document. */
export async function registerBridge(app: FastifyInstance, parts: Parts): Promise<MetadataProvider> {
  const documents = new Map<string, Awaited<ReturnType<typeof registerService>>>();
  for (const service of parts.platform.registry.all()) {
    // Each service in a scope of its own, so that its documents list only its routes.
    await app.register(async (scope) => {
      documents.set(service.id, await registerService(scope, parts, service));
    });
  }
  return (serviceId, format, address) => {
    const document = documents.get(serviceId);
    if (!document) throw errors.notFound(`Service ${serviceId} not found`);
    return document(format, address);
  };
}
