import Type, { type TSchema, type TUnsafe } from 'typebox';

// Schema builders for the spec's Swagger 2.0 types, so every declaration reads like the spec
// (`int64`, `number double`, `date`, `date-time`, string enums) and documents itself the same way.

export type { Static, TSchema } from 'typebox';
export { Type };

export const Int64 = (
  options: { minimum?: number; maximum?: number; description?: string; default?: number } = {},
) => Type.Integer({ format: 'int64', ...options });

export const Double = (options: { minimum?: number; maximum?: number; description?: string } = {}) =>
  Type.Number({ format: 'double', ...options });

export const DateOnly = (options: { description?: string } = {}) =>
  Type.String({ format: 'date', ...options });

export const DateTime = (options: { description?: string } = {}) =>
  Type.String({ format: 'date-time', ...options });

/** A string enumeration, written `{type: string, enum}` as Swagger 2.0 expects. */
export function Enum<const V extends readonly string[]>(
  values: V,
  options: { description?: string; default?: V[number] } = {},
): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
}

/** The object schema of an operation without input fields (spec 000 §2.1: "none"). */
export const NoInput = () => Type.Object({});

/**
 * Where a record keeps its own description: a use may give the record a description of its own
 * (`{ ...StatusAgendamento, description: 'read-only: ...' }`), and the documents describe the named
 * definition by the record's, whichever use they meet first (http/records.ts). Validation ignores it.
 */
export const RECORD_DESCRIPTION = 'x-record-description';

/** Names a schema as a record of the spec, so Swagger lists it under `definitions` with that name. */
export function Record<T extends TSchema>(name: string, schema: T): T {
  const description = (schema as { description?: unknown }).description;
  return {
    ...schema,
    title: name,
    ...(description === undefined ? {} : { [RECORD_DESCRIPTION]: description }),
  } as T;
}

export const GENERIC_ERROR = Type.Object(
  {
    message: Type.String({ description: 'text describing the error' }),
    reason: Enum([
      'BAD_REQUEST',
      'UNAUTHORIZED',
      'PAYMENT_REQUIRED',
      'FORBIDDEN',
      'OBJECT_NOT_FOUND',
      'REQUEST_TIMEOUT',
      'GONE',
      'UNPROCESSABLE',
      'INTERNAL_ERROR',
      'NOT_IMPLEMENTED',
      'SERVICE_UNAVAILABLE',
      'INSUFFICIENT_STORAGE',
    ]),
    detail: Type.Optional(
      Type.String({
        description: 'on a 401: how credentials are sent; the same text whatever was wrong with them (Ponte)',
      }),
    ),
  },
  { title: 'genericError' },
);
