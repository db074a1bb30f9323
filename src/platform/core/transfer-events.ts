import type { Tx } from './db/database.ts';
import type { Operation, Platform } from './declarations.ts';
import { appendEvent } from './outbox.ts';
import { event } from './registry.ts';
import { DateTime, Enum, Int64, Record, Type } from './schema.ts';

// The status events of imports and exports (spec 000 §4.3, §4.6, §6.3: `import<X>Event` with
// eventpl importEventStatus, `export<X>Event` with eventpl exportEventStatus). A service that
// declares them (`transferEvents(kinds)`) gets them published by the platform's import and export
// jobs when one starts and when it ends, and an outside system may POST them too, to report the
// status of an import or export it ran itself (docs/events.md "Import and export status").

export const TRANSFER_STATES = ['queued', 'running', 'done', 'failed'] as const;

const JobId = (what: string) => Type.String({ minLength: 1, maxLength: 100, description: what });
const Text = (max: number, description?: string) =>
  Type.String({ maxLength: max, ...(description ? { description } : {}) });
const Count = (description: string) => Type.Optional(Int64({ minimum: 0, description }));
const When = (description: string) => Type.Optional(DateTime({ description }));

export const ImportEventStatus = Record(
  'importEventStatus',
  Type.Object({
    importJobId: JobId('the import job (getImport), or the reporting system’s own job id'),
    state: Enum(TRANSFER_STATES, { description: 'queued, running, done or failed' }),
    service: Type.Optional(Text(100, 'domain/service imported into')),
    kind: Type.Optional(Text(100, 'the kind imported (the <X> of import<X>)')),
    arquivo: Type.Optional(Text(400, 'the file imported (its blob key)')),
    formato: Type.Optional(Text(10, 'CSV, JSON or JSONL')),
    size: Count('bytes of the file'),
    processed: Count('rows read'),
    succeeded: Count('rows written'),
    failed: Count('rows refused'),
    lastError: Type.Optional(Text(2000, 'why the import failed, when it did')),
    firstErrors: Type.Optional(
      Type.Array(
        Type.Object({
          row: Int64({ minimum: 0 }),
          field: Type.Optional(Text(200)),
          message: Text(2000),
        }),
        { maxItems: 10, description: 'the first rows refused (all of them: listImportErrors)' },
      ),
    ),
    createdAt: When('when the import was asked for'),
    startedAt: When('when its job started'),
    finishedAt: When('when it ended'),
  }),
);

export const ExportEventStatus = Record(
  'exportEventStatus',
  Type.Object({
    exportJobId: JobId('the export job (getExport), or the reporting system’s own job id'),
    state: Enum(TRANSFER_STATES, { description: 'queued, running, done or failed' }),
    service: Type.Optional(Text(100, 'domain/service exported from')),
    kind: Type.Optional(Text(100, 'the kind exported (the <X> of export<X>)')),
    formato: Type.Optional(Text(10, 'CSV, JSON or JSONL')),
    filtro: Type.Optional(Text(4000, 'the filter the rows were chosen by')),
    rows: Count('rows written'),
    size: Count('bytes of the file'),
    arquivo: Type.Optional(Text(400, 'the file (its blob key)')),
    downloadUrl: Type.Optional(Text(4000, 'a signed URL to GET the file')),
    downloadExpiresAt: When('when downloadUrl expires (getExport signs a new one)'),
    lastError: Type.Optional(Text(2000, 'why the export failed, when it did')),
    createdAt: When('when the export was asked for'),
    startedAt: When('when its job started'),
    finishedAt: When('when it ended'),
  }),
);

/** `import<Kind>Event` and `export<Kind>Event` for every kind (spec 000 §4.3). */
export function transferEvents(
  kinds: string[],
  which: { imports?: boolean; exports?: boolean } = { imports: true, exports: true },
): Record<string, Operation> {
  const ops: Record<string, Operation> = {};
  for (const kind of kinds) {
    if (which.imports !== false)
      ops[`import${kind}Event`] = event({
        description: `Status of an import of ${kind} records: published when one starts and when it ends`,
        input: Type.Object({ eventpl: ImportEventStatus }),
        handler: async () => undefined,
      });
    if (which.exports !== false)
      ops[`export${kind}Event`] = event({
        description: `Status of an export of ${kind} records: published when one starts and when it ends`,
        input: Type.Object({ eventpl: ExportEventStatus }),
        handler: async () => undefined,
      });
  }
  return ops;
}

/**
 * Appends `{eventpl}` under `<service>/<operation>` in `tx`, when the service declares that event
 * operation (a service without it publishes nothing). The caller wakes the dispatcher after commit.
 */
export async function appendStatusEvent(
  platform: Platform,
  tx: Tx,
  tenant: string,
  serviceId: string,
  operation: string,
  eventpl: Record<string, unknown>,
): Promise<boolean> {
  const declared = platform.registry.service(serviceId)?.operations[operation];
  if (declared?.kind !== 'events') return false;
  const payload: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(eventpl)) if (v !== null && v !== undefined) payload[k] = v;
  await appendEvent(tx, tenant, `${serviceId}/${operation}`, { eventpl: payload });
  return true;
}
