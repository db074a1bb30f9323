import { randomUUID } from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import { blobs } from '../../../platform/blobs/tables.ts';
import { defineErrors } from '../../../platform/core/errors.ts';
import { action, declaredKind, defineService, query } from '../../../platform/core/registry.ts';
import { DateTime, Int64, Type } from '../../../platform/core/schema.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { ImportConfig } from '../../../platform/imports/actions.ts';
import { formatOf } from '../../../platform/imports/reader.ts';
import { runImport } from '../../../platform/imports/runner.ts';
import { importErrors, imports } from '../../../platform/imports/tables.ts';
import { jobAbandonado } from '../../../platform/jobs/queue.ts';
import { jobs } from '../../../platform/jobs/tables.ts';

// platform/imports (the project's own service, docs/imports.md): upload a file through a signed
// URL, start an import of any service's importable kind, follow its progress and read its errors.

const E = defineErrors({
  unknownKind: { reason: 'OBJECT_NOT_FOUND', message: 'Service {service} has no import {kind} ({known})' },
  noFile: {
    reason: 'OBJECT_NOT_FOUND',
    message: 'File {arquivo} not found: upload it first with requestUploadUrl',
  },
  importNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Import {id} not found' },
});

const ImportJobId = Type.String({ format: 'uuid' });

const ImportStatus = Type.Object({
  importJobId: ImportJobId,
  service: Type.String(),
  kind: Type.String(),
  arquivo: Type.String(),
  formato: Type.String(),
  state: Type.String({ description: 'queued, running, done or failed' }),
  size: Int64({ description: 'bytes of the file' }),
  bytesRead: Int64(),
  processed: Int64({ description: 'rows read so far' }),
  succeeded: Int64(),
  failed: Int64(),
  lastError: Type.Optional(Type.String()),
  createdAt: DateTime(),
  startedAt: Type.Optional(DateTime()),
  finishedAt: Type.Optional(DateTime()),
});

/** A file name kept readable but safe as a blob key segment. */
const safeName = (name: string) => name.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 120) || 'file';

export default defineService({
  domain: 'platform',
  name: 'imports',
  version: '1.0.0',
  title: 'Imports',
  description: 'Uploads files and imports their rows into a service, as durable jobs',
  operations: {
    ...standardOperations({}),
    requestUploadUrl: action({
      description: 'A signed URL to PUT a file to (valid 1 hour); its key is the arquivo of importConfig',
      visibility: 'PUBLIC',
      transaction: 'none',
      input: Type.Object({ fileName: Type.String({ minLength: 1, maxLength: 200 }) }),
      output: Type.Object({ arquivo: Type.String(), uploadUrl: Type.String(), expiresAt: DateTime() }),
      handler: async (ctx, input) => {
        const arquivo = `imports/${randomUUID()}/${safeName(input.fileName)}`;
        const signed = ctx.platform.blobs.sign(ctx.tenant.name, arquivo, 'put', 3600, {
          baseUrl: ctx.baseUrl,
        });
        return { arquivo, uploadUrl: signed.url, expiresAt: signed.expiresAt };
      },
    }),
    startImport: action({
      description: 'Starts importing an uploaded file into an importable kind of a service',
      enqueues: true,
      input: Type.Object({
        service: Type.String({ minLength: 3, maxLength: 100, description: 'domain/service' }),
        kind: Type.String({ minLength: 1, maxLength: 100 }),
        config: ImportConfig,
      }),
      output: Type.Object({ importJobId: ImportJobId }),
      handler: async (ctx, input) => {
        const { target, known } = declaredKind(ctx.platform.registry, input.service, 'imports', input.kind);
        if (!target) throw E.unknownKind({ service: input.service, kind: input.kind, known });
        const { arquivo } = input.config;
        const format = formatOf(arquivo, input.config.formato);
        const [file] = await ctx.store.select(blobs, eq(blobs.key, arquivo));
        if (!file) throw E.noFile({ arquivo });
        const id = await ctx.enqueue('run');
        await ctx.store.insert(imports, [
          {
            id,
            service: input.service,
            kind: input.kind,
            fileKey: arquivo,
            format,
            size: file.size,
            options: {
              separador: input.config.separador,
              atualizarExistentes: input.config.atualizarExistentes,
            },
          },
        ]);
        await ctx.tx
          .update(jobs)
          .set({ payload: { importId: id } })
          .where(eq(jobs.id, id));
        return { importJobId: id };
      },
    }),
    getImport: query({
      description: 'Progress and outcome of an import',
      visibility: 'PUBLIC',
      get: true,
      input: Type.Object({ importJobId: ImportJobId }),
      output: ImportStatus,
      handler: async (ctx, input) => {
        const [row] = await ctx.store.select(imports, eq(imports.id, input.importJobId));
        if (!row) throw E.importNotFound({ id: input.importJobId });
        // A job that gave up for good (the database kept failing) ends the import too.
        const abandonado = await jobAbandonado(ctx, row.id, row.state);
        return {
          importJobId: row.id,
          service: row.service,
          kind: row.kind,
          arquivo: row.fileKey,
          formato: row.format,
          state: abandonado ? 'failed' : row.state,
          size: row.size,
          bytesRead: row.state === 'done' ? row.size : row.bytesRead,
          processed: row.processed,
          succeeded: row.succeeded,
          failed: row.failed,
          ...((row.lastError ?? abandonado?.lastError)
            ? { lastError: (row.lastError ?? abandonado?.lastError)! }
            : {}),
          createdAt: row.createdAt.toISOString(),
          ...(row.startedAt ? { startedAt: row.startedAt.toISOString() } : {}),
          ...(row.finishedAt ? { finishedAt: row.finishedAt.toISOString() } : {}),
        };
      },
    }),
    listImportErrors: query({
      description: 'The rows an import could not take: row number (1 = first data row), field and reason',
      visibility: 'PUBLIC',
      get: true,
      input: Type.Object({
        importJobId: ImportJobId,
        page: Type.Optional(Int64({ minimum: 0, default: 0 })),
        size: Type.Optional(Int64({ minimum: 1, maximum: 1000, default: 100 })),
      }),
      output: Type.Object({
        errors: Type.Array(
          Type.Object({ row: Int64(), field: Type.Optional(Type.String()), message: Type.String() }),
        ),
        totalElements: Int64(),
        totalPages: Int64(),
      }),
      handler: async (ctx, input) => {
        const [found] = await ctx.store.select(imports, eq(imports.id, input.importJobId));
        if (!found) throw E.importNotFound({ id: input.importJobId });
        const page = input.page ?? 0;
        const size = input.size ?? 100;
        const where = ctx.store.scope(importErrors, eq(importErrors.importId, input.importJobId));
        const rows = await ctx.tx
          .select()
          .from(importErrors)
          .where(where)
          .orderBy(asc(importErrors.row), asc(importErrors.seq))
          .limit(size)
          .offset(page * size);
        const [total] = await ctx.tx.select({ n: count() }).from(importErrors).where(and(where));
        const totalElements = total?.n ?? 0;
        return {
          errors: rows.map((r) => ({
            row: r.row,
            ...(r.field ? { field: r.field } : {}),
            message: r.message,
          })),
          totalElements,
          totalPages: Math.ceil(totalElements / size),
        };
      },
    }),
  },
  jobs: {
    run: {
      transaction: 'none',
      maxAttempts: 10,
      handler: (ctx, payload) =>
        runImport({
          platform: ctx.platform,
          tenant: ctx.tenant.name,
          importId: (payload as { importId: string }).importId,
          signal: ctx.signal,
        }),
    },
  },
});
