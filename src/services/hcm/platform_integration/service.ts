import { sql } from 'drizzle-orm';
import { action, defineService } from '../../../platform/core/registry.ts';
import { Record, Type } from '../../../platform/core/schema.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { parseEntities, parseIds, planBatch } from './batch.ts';
import { integrationEntities } from './tables.ts';

// hcm/platform_integration 2.0.6 (spec 001 §2.3, §4.2): saves batches of payroll-domain entities.

const Name = (description: string) => Type.String({ minLength: 1, maxLength: 255, description });

export default defineService({
  domain: 'hcm',
  name: 'platform_integration',
  version: '2.0.6',
  title: 'Payroll integration',
  description: 'Saves batches of entities for the payroll domain',
  operations: {
    ...standardOperations({ health: 'healthcheck', healthShape: 'checkDTO' }),
    integrationSaveBatch: action({
      description: 'Saves each entity of jsonText under its identifier; reports one result per identifier',
      input: Type.Object({
        className: Name('entity class'),
        jsonText: Type.String({ minLength: 1, description: 'JSON array of entities (or one entity object)' }),
        serviceName: Name('service that owns the collection'),
        collectionName: Name('collection in the metadata'),
        ids: Type.String({
          minLength: 1,
          description: 'identifiers, in the order of jsonText: JSON array or comma-separated',
        }),
      }),
      output: Type.Object({
        results: Type.Array(
          Record(
            'integrationSaveBatchData',
            Type.Object({ id: Type.String(), success: Type.Boolean(), errorMessage: Type.String() }),
          ),
        ),
      }),
      handler: async (ctx, input) => {
        const { save, results } = planBatch(parseIds(input.ids), parseEntities(input.jsonText));
        if (save.length > 0) {
          const now = ctx.now();
          // Written in id order, so two batches naming the same ids in other orders take turns on
          // their rows instead of deadlocking.
          const inOrder = [...save].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
          await ctx.store
            .insert(
              integrationEntities,
              inOrder.map((e) => ({
                serviceName: input.serviceName,
                collectionName: input.collectionName,
                entityId: e.id,
                className: input.className,
                data: e.data,
                createdAt: now,
                updatedAt: now,
              })),
            )
            .onConflictDoUpdate({
              target: [
                integrationEntities.tenant,
                integrationEntities.serviceName,
                integrationEntities.collectionName,
                integrationEntities.entityId,
              ],
              set: {
                data: sql`excluded.data`,
                className: sql`excluded.class_name`,
                version: sql`${integrationEntities.version} + 1`,
                updatedAt: sql`excluded.updated_at`,
              },
            });
        }
        return { results };
      },
    }),
  },
});
