import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineErrors } from '../../../platform/core/errors.ts';
import { action, defineService, signal } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { licenseChanges } from './tables.ts';

// hcm/managementpanel 3.8.0 (spec 001 §4.2): locks and unlocks the licenses of tenants, and
// recomputes the permission state of light-panel tenants. Managing licenses is the platform
// operator's job: only full keys of OPERATOR_TENANT may call these operations.

const E = defineErrors({
  notOperator: {
    reason: 'FORBIDDEN',
    message: 'Only the platform operator tenant {operator} manages licenses',
  },
  tenantNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Tenant {tenant} not found' },
  lockOperator: {
    reason: 'UNPROCESSABLE',
    message: 'The licenses of the operator tenant {tenant} cannot be locked: nobody could unlock them',
  },
});

function requireOperator(ctx: Ctx): void {
  const operator = ctx.platform.config.operatorTenant;
  if (ctx.tenant.name !== operator || ctx.caller.scope !== 'full') throw E.notOperator({ operator });
}

export default defineService({
  domain: 'hcm',
  name: 'managementpanel',
  version: '3.8.0',
  title: 'Management panel',
  description: 'Locks or unlocks licenses of light-panel customers',
  operations: {
    ...standardOperations({ health: 'healthcheck', healthShape: 'checkDTO' }),
    updateLicense: action({
      description:
        'Locks (true) or unlocks (false) the licenses of a tenant; a locked tenant is answered 402',
      transaction: 'system',
      input: Type.Object({
        tenant: Type.String({ minLength: 1, maxLength: 63 }),
        isStatusLocked: Type.Boolean({ description: 'true locks, false unlocks the licenses' }),
      }),
      output: Type.Object({}),
      handler: async (ctx, input) => {
        requireOperator(ctx);
        if (input.isStatusLocked && input.tenant === ctx.platform.config.operatorTenant) {
          throw E.lockOperator({ tenant: input.tenant });
        }
        const changedBy = `${ctx.tenant.name}:${ctx.caller.keyId ?? ctx.caller.kind}`;
        const updated = await ctx.platform.tenants.setLicenseLocked(
          ctx.tx,
          input.tenant,
          input.isStatusLocked,
          changedBy,
          ctx.now(),
        );
        if (!updated) throw E.tenantNotFound({ tenant: input.tenant });
        await ctx.tx.insert(licenseChanges).values({
          tenant: input.tenant,
          locked: input.isStatusLocked,
          changedBy,
          requestId: ctx.requestId,
          changedAt: ctx.now(),
        });
        ctx.afterCommit(() => ctx.platform.tenants.evict(input.tenant));
        return {};
      },
    }),
    updateLicenses: signal({
      description: 'Recomputes the permission resources of every light-panel tenant, as a durable job',
      // spec 001 §5: the signal updateLicenses lists no 401 response.
      declares401: false,
      input: Type.Object({}),
      handler: async (ctx) => {
        requireOperator(ctx);
        await ctx.enqueue('recomputeLightPanelPermissions');
        return undefined;
      },
    }),
  },
  jobs: {
    recomputeLightPanelPermissions: {
      transaction: 'system',
      handler: async (ctx) => {
        const changed = await ctx.platform.tenants.recomputeLightPanelPermissions(ctx.tx, ctx.now());
        ctx.afterCommit(() => Promise.all(changed.map((name) => ctx.platform.tenants.evict(name))));
        return { tenants: changed.length };
      },
    },
  },
});
