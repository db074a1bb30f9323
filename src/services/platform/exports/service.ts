import { eq } from 'drizzle-orm';
import { defineErrors } from '../../../platform/core/errors.ts';
import { action, declaredKind, defineService, query } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { ExportEventStatus } from '../../../platform/core/transfer-events.ts';
import { ExportConfig } from '../../../platform/exports/actions.ts';
import { checkExportFilter, exportEventStatus, runExport } from '../../../platform/exports/runner.ts';
import { exports } from '../../../platform/exports/tables.ts';
import { jobAbandonado } from '../../../platform/jobs/queue.ts';
import { jobs } from '../../../platform/jobs/tables.ts';

// platform/exports (the project's own service, docs/exports.md): start an export of any service's
// exportable kind, follow it, and download the file through a signed URL. The counterpart of
// platform/imports: what one exports, the other imports back.

const E = defineErrors({
  unknownKind: { reason: 'OBJECT_NOT_FOUND', message: 'Service {service} has no export {kind} ({known})' },
  unknownField: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'campos': {kind} has no field '{field}' (fields: {fields})",
  },
  exportNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Export {id} not found' },
});

const ExportJobId = Type.String({ format: 'uuid' });
/** getExport signs a download URL valid this long. */
const URL_SECONDS = 3600;

export default defineService({
  domain: 'platform',
  name: 'exports',
  version: '1.0.0',
  title: 'Exports',
  description: "Exports a service's records to CSV, JSON or JSONL files in the blob store, as durable jobs",
  operations: {
    ...standardOperations({}),
    startExport: action({
      description: 'Starts exporting an exportable kind of a service',
      enqueues: true,
      input: Type.Object({
        service: Type.String({ minLength: 3, maxLength: 100, description: 'domain/service' }),
        kind: Type.String({ minLength: 1, maxLength: 100 }),
        config: ExportConfig,
      }),
      output: Type.Object({ exportJobId: ExportJobId }),
      handler: async (ctx, input) => {
        const { target, known } = declaredKind(ctx.platform.registry, input.service, 'exports', input.kind);
        if (!target) throw E.unknownKind({ service: input.service, kind: input.kind, known });
        const all = Object.keys(target.fields);
        const fields = input.config.campos ?? all;
        const unknown = fields.find((f) => !all.includes(f));
        if (unknown) throw E.unknownField({ kind: input.kind, field: unknown, fields: all.join(', ') });
        // A filter the export could not run is 400 now, not a failed job later.
        if (input.config.filtro) await checkExportFilter(ctx, target, input.config.filtro);
        const id = await ctx.enqueue('run');
        await ctx.store.insert(exports, [
          {
            id,
            service: input.service,
            kind: input.kind,
            format: input.config.formato ?? 'CSV',
            filter: input.config.filtro ?? null,
            fields,
            delimiter: input.config.separador ?? ',',
          },
        ]);
        await ctx.tx
          .update(jobs)
          .set({ payload: { exportId: id } })
          .where(eq(jobs.id, id));
        return { exportJobId: id };
      },
    }),
    getExport: query({
      description: 'Progress and outcome of an export; once done, a signed download URL valid 1 hour',
      visibility: 'PUBLIC',
      get: true,
      input: Type.Object({ exportJobId: ExportJobId }),
      output: ExportEventStatus,
      handler: async (ctx, input) => {
        const [row] = await ctx.store.select(exports, eq(exports.id, input.exportJobId));
        if (!row) throw E.exportNotFound({ id: input.exportJobId });
        const status = await exportEventStatus(ctx.platform, ctx.tx, ctx.tenant.name, row.id, URL_SECONDS);
        // A job that gave up for good (the database kept failing) ends the export too.
        const abandonado = await jobAbandonado(ctx, row.id, row.state);
        if (abandonado) {
          status.state = 'failed';
          status.lastError ??= abandonado.lastError;
        }
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(status)) if (v !== null && v !== undefined) out[k] = v;
        return out as never;
      },
    }),
  },
  jobs: {
    run: {
      transaction: 'none',
      maxAttempts: 5,
      handler: (ctx, payload) =>
        runExport({
          platform: ctx.platform,
          tenant: ctx.tenant.name,
          exportId: (payload as { exportId: string }).exportId,
          signal: ctx.signal,
        }),
    },
  },
});
