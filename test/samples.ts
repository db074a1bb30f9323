// Minimal valid values of declared schemas, for the tests generated from the declarations
// (declarations.test.ts, inputs.test.ts): a bad input is a valid one with one thing broken.

export type Schema = {
  type?: string;
  format?: string;
  enum?: unknown[];
  default?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
};

export const FORMATS: Record<string, string> = {
  date: '2026-01-31',
  'date-time': '2026-01-31T08:00:00-03:00',
  email: 'ana@example.com',
  uuid: '00000000-0000-4000-8000-000000000001',
  byte: 'eyJhIjoxfQ==',
};

/** A minimal valid value of a schema: required fields only, bounds respected. */
export function sample(schema: Schema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key] ?? {});
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}));
    case 'string':
      return FORMATS[schema.format ?? ''] ?? 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'integer':
      return schema.minimum ?? Math.min(1, schema.maximum ?? 1);
    case 'number':
      return schema.minimum ?? 1.5;
    case 'boolean':
      return true;
    default:
      return 'x';
  }
}
