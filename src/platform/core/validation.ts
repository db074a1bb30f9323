import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';
import { ApiError } from './errors.ts';
import { fitsMask, maskRule } from './masks.ts';
import { dateInRange, dateTimeInRange, type InputProblem, MAX_INTEGER, unstorable } from './storable.ts';

// Validation of every operation's input, from its declared schema (DESIGN.md "The bridge contract").
// JSON bodies are validated as sent (a string is never a number); GET query strings are coerced to
// the declared types. One compiled validator per schema serves HTTP (bodies, query strings, path
// parameters), in-process `ctx.call`, and import rows. Every schema also gets the limits of what
// the database can store (storable.ts, docs/platform.md "Refused input"): no integer beyond
// 2^53 - 1, no Infinity, no date outside years 0001-9999, no NUL or unpaired surrogate in any text.

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    strict: false,
    removeAdditional: false,
    // NaN and Infinity are not numbers: JSON.parse turns 1e400 into Infinity, and a query string can
    // say "Infinity"; neither fits a column, and JSON cannot carry them back.
    strictNumbers: true,
  });
  addFormats(ajv);
  narrowFormat(ajv, 'date', dateInRange);
  narrowFormat(ajv, 'date-time', dateTimeInRange);
  // An ERP edit mask (masks.ts): a value outside it is refused naming the field and the mask.
  ajv.addKeyword({
    keyword: 'x-mask',
    schemaType: 'string',
    errors: true,
    validate: function check(mask: string, data: unknown) {
      if (fitsMask(mask, data)) return true;
      (check as unknown as { errors: Partial<ErrorObject>[] }).errors = [
        { keyword: 'x-mask', params: { mask, rule: maskRule(mask) } },
      ];
      return false;
    },
  });
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

/** Keeps a format of ajv-formats and adds a check to it (the date formats' year range). */
function narrowFormat(ajv: Ajv, name: string, check: (text: string) => boolean): void {
  const base = ajv.formats[name] as { validate: (text: string) => boolean; compare?: never };
  ajv.addFormat(name, {
    type: 'string',
    validate: (text: string) => base.validate(text) && check(text),
    ...(base.compare ? { compare: base.compare } : {}),
  });
}

// The keywords whose values are schemas (maps of them, or lists of them): where integers may be.
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_VALUES = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'prefixItems',
];

/**
 * A copy of `schema` where every integer is bounded by ±MAX_INTEGER (a declared bound that is
 * tighter stays): an `Integer()` without bounds would otherwise let 1e20 reach an int64 column or an
 * OFFSET. The declared schema is left as it is, so Swagger documents what the service wrote.
 */
function withIntegerBounds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withIntegerBounds);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  for (const key of SCHEMA_VALUES) if (key in out) out[key] = withIntegerBounds(out[key]);
  for (const key of SCHEMA_MAPS) {
    const map = out[key];
    if (map && typeof map === 'object')
      out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, withIntegerBounds(v)]));
  }
  const type = out.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    out.minimum = Math.max(typeof out.minimum === 'number' ? out.minimum : -MAX_INTEGER, -MAX_INTEGER);
    out.maximum = Math.min(typeof out.maximum === 'number' ? out.maximum : MAX_INTEGER, MAX_INTEGER);
  }
  return out;
}

const asAjvErrors = (problems: InputProblem[]): ErrorObject[] =>
  problems.map(({ path, rule }) => ({
    instancePath: path.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''),
    schemaPath: '#',
    keyword: 'storable',
    params: { rule },
    message: rule,
  }));

/**
 * The compiled schema between the rules of what can be stored: before it, a string anywhere in the
 * value (declared or not, field names too) that PostgreSQL cannot store; after a coercing one, a
 * number that is not finite. The errors take ajv's shape, so every reader of `.errors` (HTTP,
 * ctx.call, imports) names the field the same way.
 */
function withStorableRules(fn: ValidateFunction, coerced: boolean): ValidateFunction {
  const wrapped = ((data: unknown, context?: never) => {
    const text = unstorable(data);
    if (text.length) {
      wrapped.errors = asAjvErrors(text);
      return false;
    }
    const valid = fn(data, context);
    wrapped.errors = fn.errors;
    if (!valid || !coerced) return valid;
    const numbers = unstorable(data, { numbers: true });
    wrapped.errors = numbers.length ? asAjvErrors(numbers) : null;
    return numbers.length === 0;
  }) as ValidateFunction;
  // Fastify passes the parent of the value only to an ajv function (so defaults reach the root).
  return Object.assign(wrapped, { schema: fn.schema, schemaEnv: fn.schemaEnv });
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
    const ajv = source === 'body' ? bodyAjv : queryAjv;
    fn = withStorableRules(ajv.compile(withIntegerBounds(schema) as object), source === 'query');
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
    case 'storable':
      return p.rule as string;
    case 'x-mask':
      return `must follow the mask ${p.mask} (${p.rule})`;
    case 'additionalProperties':
      return `must not have the field ${p.additionalProperty}`;
    default:
      return error.message ?? `breaks the rule ${error.keyword}`;
  }
}

const FORMAT_HINT: Record<string, string> = {
  date: ' (YYYY-MM-DD, years 0001 to 9999)',
  'date-time': ' (ISO 8601 with offset, e.g. 2026-01-31T08:00:00-03:00, years 0001 to 9999 in UTC)',
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
