// Schemas as a service's documents show them. Validation reads the declarations' JSON Schema
// (draft 07, as TypeBox writes it); Swagger 2.0 and OpenAPI 3.0 speak an older dialect, and name the
// records they reuse. `Records` turns one into the other:
// - every record (a schema with a `title`: `Record(...)`, an entity) becomes a `$ref` to a named
//   definition, written once; one name per shape: a second shape under a taken title is named
//   `<title>2`, `<title>3`... (the document tests fail on that, so declarations name their variants);
//   the definition is described by the record's own description (`RECORD_DESCRIPTION`), else by the
//   first use's; a use described otherwise wraps the `$ref`;
// - `exclusiveMinimum: n` becomes `minimum: n, exclusiveMinimum: true` (and the same for maximum),
//   `const` an enum of one value, `patternProperties` (a map's values) `additionalProperties`;
//   `$id` and `$schema` are dropped;
// - a record's `discriminator` (declared `{ propertyName }`, as OpenAPI 3 writes it) is the property
//   name alone in Swagger 2.0; in OpenAPI 3 it maps each record that extends it (`allOf` with its
//   `$ref` first) to that record, the value of the property being the record's name in both.

import { RECORD_DESCRIPTION } from '../core/schema.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose value is one schema, or an array of schemas. */
const SUBSCHEMA = new Set(['items', 'additionalProperties', 'not', 'allOf', 'anyOf', 'oneOf']);

/** One schema node in the documents' dialect (its subschemas already converted). */
function dialect(node: Json): Json {
  const out: Json = { ...node };
  delete out.$id;
  delete out.$schema;
  for (const [bound, inclusive] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = out[bound];
    if (typeof value !== 'number') continue;
    const other = out[inclusive];
    const stricter =
      typeof other !== 'number' || (bound === 'exclusiveMinimum' ? value >= other : value <= other);
    if (stricter) {
      out[inclusive] = value;
      out[bound] = true;
    } else delete out[bound];
  }
  if ('const' in out) {
    out.enum = [out.const];
    delete out.const;
  }
  if (isObject(out.patternProperties)) {
    // The declarations use one pattern (`^.*$`, a map); more would be described as any value.
    const values = Object.values(out.patternProperties);
    out.additionalProperties = values.length === 1 ? values[0] : {};
    delete out.patternProperties;
  }
  return out;
}

/** A schema in the documents' dialect, without naming its records (query and path parameters). */
export function inDialect(schema: unknown): unknown {
  return convert(schema, ({ [RECORD_DESCRIPTION]: _, ...node }) => node);
}

function convert(schema: unknown, onNode: (node: Json) => Json): unknown {
  if (Array.isArray(schema)) return schema.map((s) => convert(s, onNode));
  if (!isObject(schema)) return schema;
  const node: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'properties' || key === 'patternProperties') && isObject(value)) {
      node[key] = Object.fromEntries(
        Object.entries(value).map(([name, prop]) => [name, convert(prop, onNode)]),
      );
    } else if (SUBSCHEMA.has(key) && typeof value === 'object') {
      node[key] = convert(value, onNode);
    } else node[key] = value;
  }
  return onNode(dialect(node));
}

/** Where a document's definitions are, and so its dialect: Swagger 2.0, OpenAPI 3. */
export const SWAGGER_DEFINITIONS = '#/definitions/';
export const OPENAPI_SCHEMAS = '#/components/schemas/';

/** The records of one document: `show` a schema, then list the `definitions` it referred to. */
export class Records {
  private readonly byName = new Map<string, Json>();
  private readonly byShape = new Map<string, string>();

  constructor(private readonly prefix: typeof SWAGGER_DEFINITIONS | typeof OPENAPI_SCHEMAS) {}

  /** `schema` as the document shows it: each record a `$ref` to its definition. */
  show(schema: unknown): unknown {
    return convert(schema, (node) => {
      const { discriminator } = node;
      const shown =
        this.prefix === SWAGGER_DEFINITIONS && isObject(discriminator)
          ? { ...node, discriminator: discriminator.propertyName }
          : node;
      return typeof shown.title === 'string' ? this.reference(shown) : shown;
    });
  }

  /** name → schema of every record shown so far. */
  definitions(): Record<string, Json> {
    const definitions = Object.fromEntries(this.byName);
    if (this.prefix === OPENAPI_SCHEMAS) {
      for (const [name, definition] of Object.entries(definitions)) {
        if (!isObject(definition.discriminator)) continue;
        const ref = `${this.prefix}${name}`;
        const extending = Object.entries(definitions).filter(
          ([, other]) =>
            Array.isArray(other.allOf) && isObject(other.allOf[0]) && other.allOf[0].$ref === ref,
        );
        if (!extending.length) continue;
        const mapping = Object.fromEntries(extending.map(([other]) => [other, `${this.prefix}${other}`]));
        definitions[name] = { ...definition, discriminator: { ...definition.discriminator, mapping } };
      }
    }
    return definitions;
  }

  private reference(record: Json): Json {
    // A description or a default at the root is the use's ("the agenda to start"), not the record's shape.
    const { description, default: byDefault, [RECORD_DESCRIPTION]: declared, ...shape } = record;
    const key = JSON.stringify(shape);
    let name = this.byShape.get(key);
    if (name === undefined) {
      const title = String(record.title);
      name = title;
      for (let n = 2; this.byName.has(name); n++) name = `${title}${n}`;
      this.byShape.set(key, name);
      const own = declared ?? description;
      this.byName.set(name, own === undefined ? shape : { ...shape, description: own });
    }
    const ref = { $ref: `${this.prefix}${name}` };
    // A $ref has no siblings in these dialects: a use that describes the record its own way wraps it.
    const own = this.byName.get(name)!.description;
    const use = {
      ...(description !== undefined && description !== own ? { description } : {}),
      ...(byDefault !== undefined ? { default: byDefault } : {}),
    };
    return Object.keys(use).length ? { allOf: [ref], ...use } : ref;
  }
}
