import type { Operation } from '../core/declarations.ts';
import { action } from '../core/registry.ts';
import { Enum, Record, Type } from '../core/schema.ts';
import { FORMATS } from './reader.ts';

// The `import<X>` actions of a service, generated from its import targets: each takes an
// importConfig and answers the id of the durable import job (spec 001 §4.8).

export const ImportConfig = Record(
  'importConfig',
  Type.Object({
    arquivo: Type.String({
      minLength: 1,
      maxLength: 400,
      description: 'key of the uploaded file (requestUploadUrl)',
    }),
    formato: Type.Optional(
      Enum(FORMATS, { description: 'CSV, JSON or JSONL; from the file extension when absent' }),
    ),
    separador: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1, description: "CSV delimiter, default ','" }),
    ),
    atualizarExistentes: Type.Optional(
      Type.Boolean({
        description: 'update records whose natural key exists (default true); false keeps them',
      }),
    ),
  }),
);

export const IMPORTS_SERVICE = 'platform/imports';

/** `import<Kind>` for every kind: PUBLIC actions, as the spec declares them. */
export function importActions(kinds: string[]): Record<string, Operation> {
  const ops: Record<string, Operation> = {};
  for (const kind of kinds) {
    ops[`import${kind}`] = action({
      description: `Imports ${kind} records from an uploaded CSV, JSON or JSONL file, as a durable job`,
      visibility: 'PUBLIC',
      enqueues: true,
      input: Type.Object({ config: ImportConfig }),
      output: Type.Object({ importJobId: Type.String({ format: 'uuid' }) }),
      handler: (ctx, input) =>
        ctx.call(`${IMPORTS_SERVICE}/actions/startImport`, {
          service: ctx.service.id,
          kind,
          config: input.config,
        }),
    });
  }
  return ops;
}
