import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  EntityDeclaration,
  Platform,
  ResolvedOperation,
  ServiceDeclaration,
  Visibility,
} from '../core/declarations.ts';
import type { EntityOperations } from '../core/entity.ts';
import { errors } from '../core/errors.ts';
import type { TenantInfo } from '../core/tenants.ts';

// Who may call what: the tenant of the path, the credential, the license and the key's scope.
// Every authenticated route (operations and entities) runs `authenticator` on request.

export const BRIDGE = '/t/:tenant/bridge/1.0';

/** Domains every tenant may call whatever its edition (authentication and the like). */
const ALWAYS_ALLOWED_DOMAINS = new Set(['platform']);

/** What the HTTP routes are built from: the platform, and the entity engine (entities/) behind each entity. */
export interface Parts {
  platform: Platform;
  engineFor: (entity: EntityDeclaration) => EntityOperations;
}

async function resolveTenant(platform: Platform, request: FastifyRequest): Promise<TenantInfo> {
  const { tenant: name } = request.params as { tenant: string };
  const tenant = await platform.tenants.find(name);
  if (!tenant) throw errors.unauthorized();
  return tenant;
}

function checkLicense(tenant: TenantInfo, service: ServiceDeclaration): void {
  if (tenant.licenseLocked) {
    throw errors.paymentRequired(
      `The licenses of tenant ${tenant.name} are locked; contact the platform operator`,
    );
  }
  if (tenant.edition === 'light' && !ALWAYS_ALLOWED_DOMAINS.has(service.domain)) {
    if (!tenant.permissions.includes(service.id)) {
      throw errors.forbidden(`Tenant ${tenant.name} (light panel) has no permission for ${service.id}`);
    }
  }
}

/** The onRequest check of every authenticated route: tenant, credential, license, scope. */
export function authenticator(
  { platform }: Parts,
  service: ServiceDeclaration,
  visibility: Visibility,
  name: string,
  subjects: readonly string[] = [],
) {
  return async (request: FastifyRequest) => {
    const tenant = await resolveTenant(platform, request);
    const header = request.headers.authorization;
    if (!header) throw errors.unauthorized();
    const verified = await platform.credentials.verify(header);
    if (!verified || verified.tenant !== tenant.name) throw errors.unauthorized();
    checkLicense(tenant, service);
    const { scope, subject } = verified.caller;
    // A public key bound to a subject also reaches the PRIVATE operations declared for its kind.
    const forSubject = subject !== undefined && subjects.includes(subject.kind);
    if (scope === 'public' && visibility !== 'PUBLIC' && !forSubject) {
      throw errors.forbidden(`Operation ${name} is not public; a key of scope public cannot call it`);
    }
    request.ponte = { tenant, caller: verified.caller };
  };
}

export function anonymousAccess({ platform }: Parts, target: ResolvedOperation) {
  return async (request: FastifyRequest) => {
    if (!target.op.anonymous) throw errors.unauthorized();
    const tenant = await resolveTenant(platform, request);
    checkLicense(tenant, target.service);
    request.ponte = { tenant, caller: { kind: 'anonymous', scope: 'public' } };
  };
}

/** 405 with `Allow`; `why`, by method, says why this resource does not serve one it might. */
export function methodNotAllowed(allowed: readonly string[], why: Record<string, string | undefined> = {}) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('allow', allowed.join(', '));
    const told = `Method ${request.method} is not allowed here; use ${allowed.join(' or ')}`;
    const reason = why[request.method];
    throw errors.methodNotAllowed(reason ? `${told}: ${reason}` : told);
  };
}
