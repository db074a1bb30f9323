import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';
import { ApiError } from './errors.ts';

// Validation of every operation's input, from its declared schema (DESIGN.md "The bridge contract").
// JSON bodies are validated as sent (a string is never a number); GET query strings are coerced to
// the declared types. One compiled validator per schema serves HTTP and in-process `ctx.call`.

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    strict: false,
    removeAdditional: false,
  });
  addFormats(ajv);
  // Swagger 2.0 numeric formats of the spec: int64 must be an exact integer; double any number.
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31,
  });
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  return ajv;
}

const bodyAjv = makeAjv(false);
const queryAjv = makeAjv(true);
const cache = {
  body: new WeakMap<object, ValidateFunction>(),
  query: new WeakMap<object, ValidateFunction>(),
};

export type InputSource = 'body' | 'query';

export function compile(schema: TSchema, source: InputSource): ValidateFunction {
  const map = cache[source];
  let fn = map.get(schema);
  if (!fn) {
    fn = (source === 'body' ? bodyAjv : queryAjv).compile(schema as object);
    map.set(schema, fn);
  }
  return fn;
}

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return path ? `${path}.${missing}` : missing;
  }
  return path;
}

function ruleOf(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type':
      return `must be of type ${p.type}`;
    case 'maxLength':
      return `must have at most ${p.limit} characters`;
    case 'minLength':
      return `must have at least ${p.limit} characters`;
    case 'maximum':
      return `must be <= ${p.limit}`;
    case 'minimum':
      return `must be >= ${p.limit}`;
    case 'exclusiveMaximum':
      return `must be < ${p.limit}`;
    case 'exclusiveMinimum':
      return `must be > ${p.limit}`;
    case 'minItems':
      return `must have at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${p.limit} items`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'format':
      return `must be a valid ${p.format}${FORMAT_HINT[p.format as string] ?? ''}`;
    case 'pattern':
      return `must match ${p.pattern}`;
    case 'additionalProperties':
      return `must not have the field ${p.additionalProperty}`;
    default:
      return error.message ?? `breaks the rule ${error.keyword}`;
  }
}

const FORMAT_HINT: Record<string, string> = {
  date: ' (YYYY-MM-DD)',
  'date-time': ' (ISO 8601 with offset, e.g. 2026-01-31T08:00:00-03:00)',
  int64: ' integer',
};

/** Each broken field (the first rule it broke), at most `limit` of them. */
export function fieldErrors(
  errors: readonly ErrorObject[],
  limit = 10,
): Array<{ field: string; rule: string }> {
  // anyOf/oneOf report each branch; keep the first concrete error per field.
  const seen = new Set<string>();
  const out: Array<{ field: string; rule: string }> = [];
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    const field = fieldOf(error) || 'body';
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, rule: ruleOf(error) });
    if (out.length === limit) break;
  }
  return out;
}

/** The user-facing message of a failed validation: every broken field with the rule it broke. */
export function validationMessage(errors: readonly ErrorObject[]): string {
  const parts = fieldErrors(errors).map(({ field, rule }) => `field '${field}' ${rule}`);
  return `Invalid request: ${parts.join('; ') || 'body does not match the schema'}`;
}

/** Validates (and fills defaults into) `value`, throwing the 400 error body on failure. */
export function validate<T>(schema: TSchema, value: unknown, source: InputSource = 'body'): T {
  const fn = compile(schema, source);
  if (!fn(value)) throw new ApiError('BAD_REQUEST', validationMessage(fn.errors ?? []));
  return value as T;
}
