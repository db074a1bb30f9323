import { DateTime, Enum, Int64, Record, Type } from '../../../platform/core/schema.ts';
import { FUNCTION_STAGES } from '../../../platform/functions/tables.ts';

// The records of spec 001 §2.12, whose fields the spec does not show: the fields are this
// project's design (docs/functions.md "Records").

const opt = Type.Optional;
const Audit = {
  createdBy: opt(Type.String()),
  createdDate: opt(DateTime()),
  lastModifiedBy: opt(Type.String()),
  lastModifiedDate: opt(DateTime()),
};

/** A name of a domain, service or primitive: what the bridge address holds. */
export const Segment = (description: string) =>
  Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description });

export const FunctionStage = Enum(FUNCTION_STAGES, {
  description:
    'DRAFT (the default): stored, invoked only directly; ACTIVE: also run on every call of its primitive; DISABLED',
});

export const functionVersion = Record(
  'functionVersion',
  Type.Object({
    version: Int64({ description: 'from 1, in upload order' }),
    uploadId: Type.String({ description: 'the id requestFunctionUpload answered, or the upload’s own' }),
    fileName: Type.String(),
    state: Enum(['PENDING', 'UPLOADED'], { description: 'PENDING until the signed upload arrives' }),
    size: opt(Int64({ description: 'bytes' })),
    sha256: opt(Type.String()),
    createdBy: Type.String(),
    createdDate: DateTime(),
    uploadedDate: opt(DateTime()),
  }),
);

export const persistedFunction = Record(
  'persistedFunction',
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String({ description: 'the function’s own name, unique in the tenant' }),
    domainName: Type.String(),
    serviceName: Type.String(),
    primitiveName: Type.String({ description: 'the operation it customises' }),
    stage: FunctionStage,
    description: opt(Type.String()),
    timeoutMs: Int64({ description: 'time limit of one run' }),
    memoryLimitMb: Int64({ description: 'memory limit of one run' }),
    currentVersion: opt(Int64({ description: 'the version that runs: the latest uploaded' })),
    versions: Type.Array(functionVersion),
    codeUrl: opt(Type.String({ description: 'signed, expiring download URL of the current version’s code' })),
    ...Audit,
  }),
);

export const persistedDeveloper = Record(
  'persistedDeveloper',
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    email: Type.String(),
    login: opt(Type.String()),
    phone: opt(Type.String()),
    active: Type.Boolean(),
    ...Audit,
  }),
);

export const persistedConsultant = Record(
  'persistedConsultant',
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    email: Type.String(),
    company: opt(Type.String()),
    phone: opt(Type.String()),
    active: Type.Boolean(),
    ...Audit,
  }),
);

/** The input of listDevelopers (spec) and listConsultants (design, the same). */
export const ListInput = Type.Object({
  filter: Type.String({
    maxLength: 200,
    description:
      'search term: part of the name, e-mail or login (company), case-insensitive; empty lists all',
  }),
  offset: opt(Int64({ minimum: 0, maximum: 1_000_000, description: 'page index, from 0' })),
  size: opt(Int64({ minimum: 1, maximum: 1000, description: 'page size (default 10)' })),
});

export const listOutput = <T extends ReturnType<typeof Record>>(item: T) =>
  Type.Object({
    totalElements: Int64(),
    totalPages: Int64(),
    contents: Type.Array(item),
  });

export const endpointStage = Record(
  'endpointStage',
  Type.Object({
    order: Int64(),
    name: Type.String(),
    description: Type.String(),
    functions: Int64({ description: 'how many of the tenant’s functions are at this step now' }),
  }),
);

export const StageStatus = Enum(['DONE', 'FAILED'], {});

export const stages = Record(
  'stages',
  Type.Object({
    status: StageStatus,
    steps: Type.Array(
      Type.Object({
        name: Type.String(),
        status: StageStatus,
        detail: Type.String(),
        finishedAt: opt(DateTime()),
      }),
    ),
  }),
);

export const environmentInformation = Record(
  'environmentInformation',
  Type.Object({
    tenant: Type.String(),
    edition: Type.String(),
    timeZone: Type.String(),
    createdAt: opt(DateTime()),
    baseUrl: Type.String({ description: 'where this tenant’s bridge answers' }),
    serviceVersion: Type.String(),
    runtime: Type.String({ description: 'the sandbox functions run in' }),
    language: Type.String(),
    limits: Type.Object({
      defaultTimeoutMs: Int64(),
      maxTimeoutMs: Int64(),
      defaultMemoryLimitMb: Int64(),
      maxMemoryLimitMb: Int64(),
      maxCodeBytes: Int64(),
    }),
    functions: Int64(),
    activeFunctions: Int64(),
    developers: Int64(),
    consultants: Int64(),
  }),
);

export const functionsAccess = Record(
  'functionsAccess',
  Type.Object({
    invokeUrl: Type.String({ description: 'POST here to run a function (invokeFunction)' }),
    method: Type.String(),
    contentType: Type.String(),
    authorizationHeader: Type.String({ description: 'the header that carries the credential' }),
    credential: Type.String({ description: 'which credential to send in it' }),
    scope: Type.String({ description: 'the least key scope that may invoke: public' }),
    loginUrl: Type.String({ description: 'where an API key is exchanged for a bearer token' }),
    bodyExample: Type.String({ description: 'a request body, as JSON' }),
  }),
);

/** healthCheckStatus (spec 001 §2.1): the service's status and each check's, one named definition. */
export const HealthCheckStatus = Record('healthCheckStatus', Enum(['UP', 'DOWN']));

export const healthcheckOutput = Type.Object({
  status: HealthCheckStatus,
  checks: Type.Array(
    Record(
      'checkDTO',
      Type.Object({
        name: Type.String(),
        status: HealthCheckStatus,
        detail: opt(Type.String()),
      }),
    ),
  ),
});
