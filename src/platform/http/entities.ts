import { eq } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { run } from '../core/context.ts';
import { MAX_FILTER_LENGTH } from '../core/db/filter.ts';
import type { Ctx, EntityDeclaration, ServiceDeclaration } from '../core/declarations.ts';
import { DEFAULT_PAGE_SIZE, MAX_BULK, MAX_PAGE_INDEX, MAX_PAGE_SIZE, refusal } from '../core/entity.ts';
import { GENERIC_ERROR, Type } from '../core/schema.ts';
import { authenticator, BRIDGE, methodNotAllowed, type Parts } from './access.ts';
import { type RouteDoc, requestBaseUrl } from './documents.ts';

// The routes of spec 000 §2.3 for one entity and its child collections, all served by the engine.

export const TOTAL_COUNT_HEADER = 'x-total-count' as const;

export const ListQuery = Type.Object({
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_PAGE_INDEX, description: 'page index, from 0' }),
  ),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
  filter: Type.Optional(
    Type.String({ maxLength: MAX_FILTER_LENGTH, description: "e.g. codigo eq 'BRL' and ativo eq true" }),
  ),
  orderby: Type.Optional(Type.String({ maxLength: 200, description: 'e.g. nome asc, codigo desc' })),
});
const IdParams = Type.Object({ id: Type.String() });
const ParentParams = Type.Object({ parentId: Type.String() });
const ChildParams = Type.Object({ parentId: Type.String(), id: Type.String() });

type Reply = { body?: unknown; total?: number };

/** The body of a PATCH that names its record by id: the fields to change, and the id. */
const withId = (entity: EntityDeclaration) =>
  Type.Object(
    { ...entity.patch.properties, id: entity.schema.properties.id! },
    { title: `${entity.name}PatchWithId` },
  );
type Work = (ctx: Ctx, request: FastifyRequest) => Promise<Reply>;

export function registerEntities(
  app: FastifyInstance,
  parts: Parts,
  service: ServiceDeclaration,
  entity: EntityDeclaration,
): void {
  const engine = parts.engineFor(entity);
  const creates = refusal(entity, 'create');
  const changes = refusal(entity, 'change');
  const base = `${BRIDGE}/rest/${service.domain}/${service.name}/entities/${entity.name}`;
  const onRequest = authenticator(parts, service, entity.visibility, entity.name, entity.subjects);

  // operationIds (stable, unique in the service's document): `<entity>_<verb>`, and for a child
  // collection `<entity>_<children>_<verb>`; verbs: create, patchByBody (PATCH with the id in the
  // body), list, bulk, get, put, patch, delete.
  const route = (
    method: HTTPMethods,
    url: string,
    schema: Record<string, unknown>,
    work: Work,
    summary: string,
    operationId: string,
    /** Why this entity does not serve the route (EntityOptions.refuses): then it is not registered. */
    refused?: string,
  ) => {
    if (refused) return;
    const lists = method === 'GET' && !url.endsWith('/:id');
    const doc: RouteDoc = {
      visibility: entity.visibility,
      declares401: service.declares401,
      headers: lists ? [TOTAL_COUNT_HEADER] : [],
    };
    app.route({
      method,
      url,
      schema: { operationId, tags: [service.name], summary, ...schema },
      config: { doc },
      onRequest,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { tenant, caller } = request.ponte!;
        const invocation = {
          tenant,
          caller,
          requestId: request.id,
          log: request.log,
          baseUrl: requestBaseUrl(request, parts.platform.config),
        };
        // A GET only reads: no BEGIN or COMMIT on a server (docs/platform.md, "Storage and tenant isolation").
        const mode = method === 'GET' ? 'reads' : 'tenant';
        const result = await run(parts.platform, service, mode, invocation, (ctx) => work(ctx, request));
        if (result.total !== undefined) reply.header(TOTAL_COUNT_HEADER, String(result.total));
        return result.body === undefined ? reply.code(200).send() : reply.code(200).send(result.body);
      },
    });
  };
  const ok = (schema: unknown) => ({ response: { 200: schema, default: GENERIC_ERROR } });
  const noBody = { response: { 200: { type: 'null', description: 'deleted' }, default: GENERIC_ERROR } };
  const one = entity.schema;
  const many = Type.Array(entity.schema);
  const body = <T>(r: FastifyRequest) => r.body as T;
  const param = (r: FastifyRequest, name: string) => (r.params as Record<string, string>)[name]!;

  route(
    'POST',
    base,
    { body: entity.input, ...ok(one) },
    async (ctx, r) => ({ body: await engine.create(ctx, body(r)) }),
    `Creates a ${entity.name}`,
    `${entity.name}_create`,
    creates,
  );
  route(
    'PATCH',
    base,
    { body: withId(entity), ...ok(one) },
    async (ctx, r) => {
      const input = body<Record<string, unknown>>(r);
      return { body: await engine.update(ctx, engine.parseId(String(input.id)), input, 'patch') };
    },
    `Changes the fields sent of the ${entity.name} named by id`,
    `${entity.name}_patchByBody`,
    changes,
  );
  route(
    'GET',
    base,
    { querystring: ListQuery, ...ok(many) },
    async (ctx, r) => {
      const { rows, total } = await engine.list(ctx, r.query as never);
      return { body: rows, total };
    },
    `Lists ${entity.name} records (page offset, size, filter, orderby); the total is in ${TOTAL_COUNT_HEADER}`,
    `${entity.name}_list`,
  );
  route(
    'POST',
    `${base}/bulk`,
    { body: Type.Array(entity.input, { maxItems: MAX_BULK }), ...ok(many) },
    async (ctx, r) => ({ body: await engine.bulk(ctx, body(r)) }),
    `Creates many ${entity.name} records, all or none`,
    `${entity.name}_bulk`,
    creates,
  );
  route(
    'GET',
    `${base}/:id`,
    { params: IdParams, ...ok(one) },
    async (ctx, r) => ({ body: await engine.get(ctx, engine.parseId(param(r, 'id'))) }),
    `Reads a ${entity.name}`,
    `${entity.name}_get`,
  );
  route(
    'PUT',
    `${base}/:id`,
    { params: IdParams, body: entity.input, ...ok(one) },
    async (ctx, r) => ({ body: await engine.update(ctx, engine.parseId(param(r, 'id')), body(r), 'put') }),
    `Replaces a ${entity.name}`,
    `${entity.name}_put`,
    changes,
  );
  route(
    'PATCH',
    `${base}/:id`,
    { params: IdParams, body: entity.patch, ...ok(one) },
    async (ctx, r) => ({ body: await engine.update(ctx, engine.parseId(param(r, 'id')), body(r), 'patch') }),
    `Changes the fields sent of a ${entity.name}`,
    `${entity.name}_patch`,
    changes,
  );
  route(
    'DELETE',
    `${base}/:id`,
    { params: IdParams, ...noBody },
    async (ctx, r) => {
      await engine.remove(ctx, engine.parseId(param(r, 'id')));
      return {};
    },
    `Deletes a ${entity.name}`,
    `${entity.name}_delete`,
    changes,
  );
  notAllowed(app, base, { POST: creates, PATCH: changes, GET: undefined });
  // Without its route, `bulk` would be taken for an id.
  if (creates) notAllowed(app, `${base}/bulk`, { POST: creates, GET: undefined });
  notAllowed(app, `${base}/:id`, { GET: undefined, PUT: changes, PATCH: changes, DELETE: changes });

  for (const [childName, { entity: childEntity, parentField }] of Object.entries(entity.children)) {
    const child = parts.engineFor(childEntity);
    const link = (childEntity.table as unknown as Record<string, AnyPgColumn>)[parentField]!;
    const url = `${base}/:parentId/${childName}`;
    const prefix = `${entity.name}_${childName}`;
    const childCreates = refusal(childEntity, 'create');
    const childChanges = refusal(childEntity, 'change');
    // The parent must exist in the tenant; a child is only ever reached, and kept, under it.
    const parentOf = async (ctx: Ctx, r: FastifyRequest) => {
      const parent = await engine.get(ctx, engine.parseId(param(r, 'parentId')));
      return { parentId: parent.id, where: eq(link, parent.id), links: { [parentField]: parent.id } };
    };
    const childMany = Type.Array(childEntity.schema);
    route(
      'POST',
      url,
      {
        params: ParentParams,
        body: Type.Array(childEntity.input, { maxItems: MAX_BULK }),
        ...ok(childMany),
      },
      async (ctx, r) => {
        const { parentId } = await parentOf(ctx, r);
        return { body: await child.bulk(ctx, body(r), { [parentField]: parentId }) };
      },
      `Adds ${childName} to a ${entity.name}`,
      `${prefix}_create`,
      childCreates,
    );
    route(
      'PATCH',
      url,
      {
        params: ParentParams,
        body: Type.Array(withId(childEntity), { maxItems: MAX_BULK }),
        ...ok(childMany),
      },
      async (ctx, r) => {
        const { where, links } = await parentOf(ctx, r);
        const out = [];
        for (const item of body<Record<string, unknown>[]>(r)) {
          out.push(await child.update(ctx, child.parseId(String(item.id)), item, 'patch', where, links));
        }
        return { body: out };
      },
      `Changes ${childName} of a ${entity.name}`,
      `${prefix}_patchByBody`,
      childChanges,
    );
    route(
      'GET',
      url,
      { params: ParentParams, querystring: ListQuery, ...ok(childMany) },
      async (ctx, r) => {
        const parent = async () => (await parentOf(ctx, r)).where;
        const { rows, total } = await child.list(ctx, r.query as never, parent);
        return { body: rows, total };
      },
      `Lists ${childName} of a ${entity.name}`,
      `${prefix}_list`,
    );
    const itemUrl = `${url}/:id`;
    route(
      'GET',
      itemUrl,
      { params: ChildParams, ...ok(childEntity.schema) },
      async (ctx, r) => {
        const { where } = await parentOf(ctx, r);
        return { body: await child.get(ctx, child.parseId(param(r, 'id')), where) };
      },
      `Reads one of the ${childName} of a ${entity.name}`,
      `${prefix}_get`,
    );
    for (const [method, mode] of [
      ['PUT', 'put'],
      ['PATCH', 'patch'],
    ] as const) {
      route(
        method,
        itemUrl,
        {
          params: ChildParams,
          body: mode === 'put' ? childEntity.input : childEntity.patch,
          ...ok(childEntity.schema),
        },
        async (ctx, r) => {
          const { where, links } = await parentOf(ctx, r);
          return {
            body: await child.update(ctx, child.parseId(param(r, 'id')), body(r), mode, where, links),
          };
        },
        `${mode === 'put' ? 'Replaces' : 'Changes'} one of the ${childName} of a ${entity.name}`,
        `${prefix}_${mode}`,
        childChanges,
      );
    }
    route(
      'DELETE',
      itemUrl,
      { params: ChildParams, ...noBody },
      async (ctx, r) => {
        const { where } = await parentOf(ctx, r);
        await child.remove(ctx, child.parseId(param(r, 'id')), where);
        return {};
      },
      `Removes one of the ${childName} of a ${entity.name}`,
      `${prefix}_delete`,
      childChanges,
    );
    notAllowed(app, url, { POST: childCreates, PATCH: childChanges, GET: undefined });
    notAllowed(app, itemUrl, {
      GET: undefined,
      PUT: childChanges,
      PATCH: childChanges,
      DELETE: childChanges,
    });
  }
}

// Every method a client may send; HEAD is served wherever GET is (Fastify's own HEAD routes).
const ALL: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * 405, with `Allow`, for the methods a URL does not serve: those it never has, and those the entity
 * refuses (`routes`: a method → why it is refused, or undefined when served), whose 405 says why.
 */
function notAllowed(
  app: FastifyInstance,
  url: string,
  routes: Partial<Record<HTTPMethods, string | undefined>>,
): void {
  const served = Object.keys(routes).filter((m) => !routes[m as HTTPMethods]) as HTTPMethods[];
  const others = ALL.filter((m) => !served.includes(m) && !(m === 'HEAD' && served.includes('GET')));
  if (others.length) {
    app.route({
      method: others,
      url,
      schema: { hide: true },
      handler: methodNotAllowed(served, routes as Record<string, string | undefined>),
    });
  }
}
