import type { Operation } from '../core/declarations.ts';
import { action } from '../core/registry.ts';
import { Enum, Record, Type } from '../core/schema.ts';

// The `export<X>` actions of a service, generated from its export targets: each takes an
// exportConfig and answers the id of the durable export job (docs/exports.md).

export const EXPORT_FORMATS = ['CSV', 'JSON', 'JSONL'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const ExportConfig = Record(
  'exportConfig',
  Type.Object({
    formato: Type.Optional(Enum(EXPORT_FORMATS, { description: 'CSV (default), JSON or JSONL' })),
    filtro: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4000,
        description:
          "rows to export, in the entity filter language over the file's fields (e.g. ativo eq true and codigo ne 'X')",
      }),
    ),
    campos: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        description: "the fields to write, in this order (default: all the kind's fields)",
      }),
    ),
    separador: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1, description: "CSV delimiter, default ','" }),
    ),
  }),
);

export const EXPORTS_SERVICE = 'platform/exports';

/** `export<Kind>` for every kind: PUBLIC actions, the counterpart of `import<Kind>`. */
export function exportActions(kinds: string[]): Record<string, Operation> {
  const ops: Record<string, Operation> = {};
  for (const kind of kinds) {
    ops[`export${kind}`] = action({
      description: `Exports ${kind} records to a CSV, JSON or JSONL file, as a durable job; getExport gives its download URL`,
      visibility: 'PUBLIC',
      enqueues: true,
      input: Type.Object({ config: Type.Optional(ExportConfig) }),
      output: Type.Object({ exportJobId: Type.String({ format: 'uuid' }) }),
      handler: (ctx, input) =>
        ctx.call(`${EXPORTS_SERVICE}/actions/startExport`, {
          service: ctx.service.id,
          kind,
          config: input.config ?? {},
        }),
    });
  }
  return ops;
}
