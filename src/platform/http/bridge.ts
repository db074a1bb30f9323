import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Caller } from '../core/caller.ts';
import { execute } from '../core/context.ts';
import type { Operation, Platform, ResolvedOperation, ServiceDeclaration } from '../core/declarations.ts';
import { errors } from '../core/errors.ts';
import { GENERIC_ERROR } from '../core/schema.ts';
import type { TenantInfo } from '../core/tenants.ts';
import { anonymousAccess, authenticator, BRIDGE, methodNotAllowed, type Parts } from './access.ts';
import { registerEntities } from './entities.ts';

// The bridge (DESIGN.md "The bridge contract"): every declared operation becomes its routes at
// /t/<tenant>/bridge/1.0/rest/<domain>/<service>/<kind>/<operation> (and the anonymous variant), with
// its credentials check, validation, serialization and its own Swagger 2.0 / OpenAPI 3 document.

const ALL_METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
declare module 'fastify' {
  interface FastifyRequest {
    ponte?: { tenant: TenantInfo; caller: Caller };
  }
  interface FastifyInstance {
    swagger2?: () => Record<string, unknown>;
    openapi3?: () => Record<string, unknown>;
  }
}

export type MetadataFormat = 'swagger' | 'openapi';
export type MetadataProvider = (serviceId: string, format: MetadataFormat) => Record<string, unknown>;

function handler(platform: Platform, target: ResolvedOperation) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { tenant, caller } = request.ponte!;
    const input = (request.method === 'GET' ? request.query : request.body) ?? {};
    const jobs: string[] = [];
    const invocation = {
      tenant,
      caller,
      requestId: request.id,
      log: request.log,
      onJob: (id: string) => jobs.push(id),
    };
    const result = await execute(platform, target, invocation, input);
    // A signal's effect runs later: the job id lets the caller follow it (platform/jobs getJob).
    if (jobs.length) reply.header('x-job-id', jobs.join(','));
    if (!target.op.hasBody) return reply.code(target.op.successStatus).send();
    return reply.code(200).send(result ?? {});
  };
}

function operationSchema(target: ResolvedOperation, method: 'GET' | 'POST') {
  const { op, name } = target;
  return {
    operationId: method === 'GET' ? `${name}_GET` : name,
    summary: op.description ?? name,
    ...(op.description ? { description: op.description } : {}),
    tags: [target.service.name],
    deprecated: op.deprecated || undefined,
    ...(method === 'GET' ? { querystring: op.input } : { body: op.input }),
    response: {
      [op.successStatus]: op.hasBody && op.output ? op.output : { type: 'null', description: 'no body' },
      default: GENERIC_ERROR,
    },
  };
}

function registerOperation(app: FastifyInstance, parts: Parts, target: ResolvedOperation): void {
  const { service, name, op } = target;
  const path = `${service.domain}/${service.name}/${op.kind}/${name}`;
  for (const method of op.methods) {
    app.route({
      method,
      url: `${BRIDGE}/rest/${path}`,
      schema: operationSchema(target, method),
      onRequest: authenticator(parts, service, op.visibility, name, op.subjects),
      handler: handler(parts.platform, target),
    });
    app.route({
      method,
      url: `${BRIDGE}/anonymous/rest/${path}`,
      schema: { ...operationSchema(target, method), hide: true },
      onRequest: anonymousAccess(parts, target),
      handler: handler(parts.platform, target),
    });
  }
  const others = ALL_METHODS.filter((m) => !op.methods.includes(m as 'GET' | 'POST'));
  for (const prefix of ['rest', 'anonymous/rest']) {
    app.route({
      method: others,
      url: `${BRIDGE}/${prefix}/${path}`,
      schema: { hide: true },
      handler: methodNotAllowed(op.methods),
    });
  }
}

function visibilityExtensions(service: ServiceDeclaration) {
  // The original platform marks each operation's visibility with an `x-senior-visibility` extension.
  return (doc: Record<string, unknown>) => {
    const paths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
    for (const [url, methods] of Object.entries(paths)) {
      const [, , kind, name = ''] = url.split('/');
      const op: Operation | undefined = kind === 'entities' ? undefined : service.operations[name];
      const visibility = op?.visibility ?? service.entities.find((e) => e.name === name)?.visibility;
      if (!visibility) continue;
      for (const operation of Object.values(methods)) {
        operation['x-senior-visibility'] = visibility;
        if (op?.anonymous) operation['x-senior-anonymous'] = true;
      }
    }
    doc['x-senior-domain'] = service.domain;
    doc['x-senior-service'] = service.name;
    return doc;
  };
}

async function registerService(
  app: FastifyInstance,
  parts: Parts,
  service: ServiceDeclaration,
): Promise<void> {
  const prefix = `${BRIDGE}/rest/${service.domain}`;
  const info = {
    title: service.title,
    version: service.version,
    description: service.description ?? service.title,
  };
  const transform = ({ schema, url }: { schema: Record<string, unknown>; url: string }) => ({
    schema,
    url: url.startsWith(`/t/:tenant/bridge/1.0/rest/${service.domain}`) ? url.slice(prefix.length) : url,
  });
  const withExtensions = visibilityExtensions(service);
  await app.register(fastifySwagger, {
    decorator: 'swagger2',
    swagger: {
      info,
      basePath: `/t/{tenant}/bridge/1.0/rest/${service.domain}`,
      consumes: ['application/json'],
      produces: ['application/json'],
      securityDefinitions: { APIKeyHeader: { type: 'apiKey', in: 'header', name: 'Authorization' } },
      security: [{ APIKeyHeader: [] }],
    },
    transform,
    transformObject: ({ swaggerObject }: { swaggerObject?: unknown }) =>
      withExtensions(swaggerObject as Record<string, unknown>) as never,
  } as never);
  await app.register(fastifySwagger, {
    decorator: 'openapi3',
    openapi: {
      info,
      servers: [
        { url: `/t/{tenant}/bridge/1.0/rest/${service.domain}`, variables: { tenant: { default: 'demo' } } },
      ],
      components: {
        securitySchemes: { APIKeyHeader: { type: 'apiKey', in: 'header', name: 'Authorization' } },
      },
      security: [{ APIKeyHeader: [] }],
    },
    transform,
    transformObject: ({ openapiObject }: { openapiObject?: unknown }) =>
      withExtensions(openapiObject as Record<string, unknown>) as never,
  } as never);
  for (const [name, op] of Object.entries(service.operations))
    registerOperation(app, parts, { service, name, op });
  for (const entity of service.entities) registerEntities(app, parts, service, entity);
}

/** Registers every service's routes; returns how to read each service's generated document. */
export async function registerBridge(app: FastifyInstance, parts: Parts): Promise<MetadataProvider> {
  const scopes = new Map<string, FastifyInstance>();
  for (const service of parts.platform.registry.all()) {
    await app.register(async (scope) => {
      await registerService(scope, parts, service);
      scopes.set(service.id, scope);
    });
  }
  return (serviceId, format) => {
    const scope = scopes.get(serviceId);
    if (!scope) throw errors.notFound(`Service ${serviceId} not found`);
    return format === 'openapi' ? scope.openapi3!() : scope.swagger2!();
  };
}
