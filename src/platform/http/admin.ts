import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SCOPES, SUBJECT_PATTERN } from '../core/caller.ts';
import type { Platform } from '../core/declarations.ts';
import { type CredentialsHelp, errors } from '../core/errors.ts';
import { Enum, Type } from '../core/schema.ts';
import type { Edition } from '../core/tenants.ts';

// The operator's API (DESIGN.md "Administration"): tenants and their keys, authenticated by
// ADMIN_TOKEN. The `ponte` CLI goes through it, so it works the same on PGlite and PostgreSQL.

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The 401 of the admin API: one answer whether the token was missing or wrong. */
const ADMIN_CREDENTIALS: CredentialsHelp = {
  detail:
    'Send "Authorization: Bearer <ADMIN_TOKEN>": the ADMIN_TOKEN of the server, or the admin-token ' +
    'file of its data folder when that variable is unset.',
  challenge: 'Bearer realm="ponte-admin"',
};

const TenantParams = Type.Object({ name: Type.String({ maxLength: 63 }) });
const Editions = ['standard', 'light'] as const;

export async function registerAdmin(app: FastifyInstance, platform: Platform): Promise<void> {
  const { tenants, credentials, jobs } = platform;

  await app.register(
    async (admin) => {
      admin.addHook('onRequest', async (request: FastifyRequest) => {
        const header = request.headers.authorization ?? '';
        const token = header.startsWith('Bearer ') ? header.slice(7) : header;
        if (!token || !sameSecret(token, platform.config.adminToken))
          throw errors.unauthorized(ADMIN_CREDENTIALS);
      });

      const mustFind = async (name: string) => {
        const tenant = await tenants.find(name);
        if (!tenant) throw errors.notFound(`Tenant ${name} not found`);
        return tenant;
      };

      admin.get('/tenants', async () => ({ tenants: await tenants.list() }));

      admin.post(
        '/tenants',
        {
          schema: {
            body: Type.Object({
              name: Type.String({ minLength: 1, maxLength: 63 }),
              edition: Type.Optional(Enum(Editions)),
              timeZone: Type.Optional(Type.String({ maxLength: 64 })),
            }),
          },
        },
        async (request, reply) => {
          const body = request.body as { name: string; edition?: Edition; timeZone?: string };
          const tenant = await tenants.create(body.name, {
            ...(body.edition ? { edition: body.edition } : {}),
            ...(body.timeZone ? { timeZone: body.timeZone } : {}),
          });
          return reply.code(201).send(tenant);
        },
      );

      admin.get('/tenants/:name', { schema: { params: TenantParams } }, async (request) =>
        mustFind((request.params as { name: string }).name),
      );

      admin.patch(
        '/tenants/:name',
        {
          schema: {
            params: TenantParams,
            body: Type.Object({ licenseLocked: Type.Boolean() }),
          },
        },
        async (request) => {
          const { name } = request.params as { name: string };
          const { licenseLocked } = request.body as { licenseLocked: boolean };
          await mustFind(name);
          const updated = await platform.db.system((tx) =>
            tenants.setLicenseLocked(tx, name, licenseLocked, 'admin', platform.now()),
          );
          await tenants.evict(name);
          return updated;
        },
      );

      admin.post(
        '/tenants/:name/keys',
        {
          schema: {
            params: TenantParams,
            body: Type.Object({
              scope: Type.Optional(Enum(SCOPES, { default: 'full' })),
              description: Type.Optional(Type.String({ maxLength: 200 })),
              // Whom a public key acts for, `<kind>:<id>` (docs/authentication.md).
              subject: Type.Optional(Type.String({ pattern: SUBJECT_PATTERN, maxLength: 200 })),
            }),
          },
        },
        async (request, reply) => {
          const { name } = request.params as { name: string };
          const body = (request.body ?? {}) as {
            scope?: 'full' | 'public';
            description?: string;
            subject?: string;
          };
          await mustFind(name);
          const key = await credentials.createKey(name, body.scope ?? 'full', body.description, body.subject);
          return reply.code(201).send(key);
        },
      );

      admin.get('/tenants/:name/keys', { schema: { params: TenantParams } }, async (request) => {
        const { name } = request.params as { name: string };
        await mustFind(name);
        return { keys: await credentials.listKeys(name) };
      });

      // Validated like every input, so an id the database cannot store (a NUL) is a 400, not a 500.
      const KeyParams = Type.Object({ name: Type.String({ maxLength: 63 }), accessKey: Type.String() });
      admin.delete('/tenants/:name/keys/:accessKey', { schema: { params: KeyParams } }, async (request) => {
        const { name, accessKey } = request.params as { name: string; accessKey: string };
        await credentials.revokeKey(name, accessKey);
        return {};
      });

      admin.get('/tenants/:name/jobs/:id', async (request) => {
        const { name, id } = request.params as { name: string; id: string };
        const status = /^[0-9a-f-]{36}$/i.test(id) ? await jobs.status(name, id) : undefined;
        if (!status) throw errors.notFound(`Job ${id} not found in tenant ${name}`);
        return status;
      });
    },
    { prefix: '/admin' },
  );
}
