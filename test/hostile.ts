import type { EntityDeclaration, Operation, ServiceDeclaration } from '../src/platform/core/declarations.ts';
import { refusal } from '../src/platform/core/entity.ts';
import { ListQuery } from '../src/platform/http/entities.ts';
import { MAX_PARAM_LENGTH } from '../src/platform/http/errors.ts';
import { FORMATS, type Schema, sample } from './samples.ts';

// Hostile input generated from the declarations (inputs.test.ts): every route of every service,
// operations and entity routes alike, and for each the classes of input that once answered 500 or
// Fastify's own body (issue 10). Each probe is a valid request with one thing broken.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One route of the bridge as a client sees it. */
export interface Target {
  method: Method;
  /** The path under /t/<tenant>/bridge/1.0/rest/, with {parentId} and {id} as Swagger writes them. */
  template: string;
  body?: Schema;
  query?: Schema;
  /** The entity whose fields a list's filter names. */
  entity?: EntityDeclaration;
  /** Valid values of the path parameters. */
  ids: Record<string, string>;
}

export interface Probe {
  target: Target;
  label: string;
  /** The path, when not the template with valid ids. */
  path?: string;
  /** The raw query string (already percent-encoded), when not the valid sample. */
  query?: string;
  payload?: string | Buffer;
  headers?: Record<string, string>;
  /** The field the 400 must name, when the refusal is about one. */
  field?: string;
}

const idOf = (entity: EntityDeclaration) => (entity.idType === 'int64' ? '1' : FORMATS.uuid!);

/** The path of a template, each parameter given its valid value or the one in `values`. */
export const pathOf = (target: Target, values: Record<string, string> = {}) =>
  target.template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? target.ids[name]!);

/** The routes of spec 000 §2.3 that http/entities.ts serves for one entity (checked against Swagger). */
/** The routes an entity serves: a write it refuses (EntityOptions.refuses) has none. */
export const served = (entity: EntityDeclaration, routes: Target[]) =>
  routes.filter((r) => r.method === 'GET' || !refusal(entity, r.method === 'POST' ? 'create' : 'change'));

function entityTargets(base: string, entity: EntityDeclaration): Target[] {
  const ids = { id: idOf(entity) };
  const id = entity.schema.properties.id as Schema;
  const input = entity.input as Schema;
  const patch = entity.patch as Schema;
  const patchWithId: Schema = { ...patch, properties: { ...patch.properties, id }, required: ['id'] };
  const list = { query: ListQuery as Schema, entity };
  const out: Target[] = served(entity, [
    { method: 'POST', template: base, body: input, ids },
    { method: 'PATCH', template: base, body: patchWithId, ids },
    { method: 'GET', template: base, ...list, ids },
    { method: 'POST', template: `${base}/bulk`, body: { type: 'array', items: input, minItems: 1 }, ids },
    { method: 'GET', template: `${base}/{id}`, ids },
    { method: 'PUT', template: `${base}/{id}`, body: input, ids },
    { method: 'PATCH', template: `${base}/{id}`, body: patch, ids },
    { method: 'DELETE', template: `${base}/{id}`, ids },
  ]);
  for (const [name, { entity: child }] of Object.entries(entity.children)) {
    const url = `${base}/{parentId}/${name}`;
    const childIds = { parentId: idOf(entity), id: idOf(child) };
    const childPatch = child.patch as Schema;
    const childPatchWithId: Schema = {
      ...childPatch,
      properties: { ...childPatch.properties, id: child.schema.properties.id as Schema },
      required: ['id'],
    };
    const many = (items: Schema): Schema => ({ type: 'array', items, minItems: 1 });
    const children: Array<Omit<Target, 'ids'>> = [
      { method: 'POST', template: url, body: many(child.input as Schema) },
      { method: 'PATCH', template: url, body: many(childPatchWithId) },
      { method: 'GET', template: url, query: ListQuery as Schema, entity: child },
      { method: 'GET', template: `${url}/{id}` },
      { method: 'PUT', template: `${url}/{id}`, body: child.input as Schema },
      { method: 'PATCH', template: `${url}/{id}`, body: childPatch },
      { method: 'DELETE', template: `${url}/{id}` },
    ];
    out.push(
      ...served(
        child,
        children.map((target) => ({ ...target, ids: childIds })),
      ),
    );
  }
  return out;
}

/** Every route of `service`: its operations (each method) and its entities' routes. */
export function targets(service: ServiceDeclaration): Target[] {
  const out: Target[] = [];
  for (const [name, op] of Object.entries(service.operations as Record<string, Operation>)) {
    const template = `${service.domain}/${service.name}/${op.kind}/${name}`;
    for (const method of op.methods) {
      const schema = op.input as Schema;
      out.push({ method, template, ids: {}, ...(method === 'GET' ? { query: schema } : { body: schema }) });
    }
  }
  for (const entity of service.entities)
    out.push(...entityTargets(`${service.domain}/${service.name}/entities/${entity.name}`, entity));
  return out;
}

// ---- values ----

type Path = Array<string | number>;

/** The field as validation names it: `eventpl.importJobId`, `[0].codigo`, `body` for the root. */
export const fieldName = (path: Path) =>
  path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '') ||
  'body';

/** Every scalar slot of a schema: object properties, and the first element of arrays. */
function slots(schema: Schema, path: Path = []): Array<{ path: Path; schema: Schema }> {
  if (schema.type === 'object')
    return Object.entries(schema.properties ?? {}).flatMap(([k, s]) => slots(s, [...path, k]));
  if (schema.type === 'array') return schema.items ? slots(schema.items, [...path, 0]) : [];
  return [{ path, schema }];
}

/** `root` (a valid sample) with `value` at `path`; absent objects and elements are filled in valid. */
function put(root: unknown, schema: Schema, path: Path, value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (typeof head === 'number') {
    const items = Array.isArray(root) ? root : [];
    items[0] = put(items[0] ?? sample(schema.items ?? {}), schema.items ?? {}, rest, value);
    return items;
  }
  const object = (root ?? sample(schema)) as Record<string, unknown>;
  const prop = schema.properties?.[head] ?? {};
  object[head] = put(object[head] ?? sample(prop), prop, rest, value);
  return object;
}

// A number JSON.stringify cannot write (1e400 is Infinity once parsed): spliced into the text.
const RAW = '@@raw@@';
const json = (value: unknown, raw?: string) =>
  raw === undefined ? JSON.stringify(value) : JSON.stringify(value).replace(`"${RAW}"`, raw);

const BAD_DATES = ['0000-01-01', '10000-01-01'];
const BAD_DATE_TIMES = [
  '0000-01-01T00:00:00Z',
  '10000-01-01T00:00:00Z',
  '0001-01-01T00:30:00+01:00', // year 0 in UTC
  '9999-12-31T23:00:00-03:00', // year 10000 in UTC
];
const BAD_INTEGERS = ['9223372036854775807', '1e20', '1e400', '-1e400'];
const BAD_NUMBERS = ['1e400', '-1e400'];

/** The bad values of one scalar slot: [label, JSON value or raw number text]. */
function badValues(schema: Schema): Array<[string, { value?: string; raw?: string }]> {
  const out: Array<[string, { value?: string; raw?: string }]> = [];
  if (schema.type === 'string' || schema.type === undefined) {
    out.push(
      ['NUL', { value: 'x\u0000' }],
      ['lone high surrogate', { value: 'j\ud800' }],
      ['lone low surrogate', { value: '\udc00j' }],
    );
    if (schema.format === 'date') for (const d of BAD_DATES) out.push([`date ${d}`, { value: d }]);
    if (schema.format === 'date-time')
      for (const d of BAD_DATE_TIMES) out.push([`date-time ${d}`, { value: d }]);
  }
  if (schema.type === 'integer') for (const n of BAD_INTEGERS) out.push([`integer ${n}`, { raw: n }]);
  if (schema.type === 'number') for (const n of BAD_NUMBERS) out.push([`number ${n}`, { raw: n }]);
  return out;
}

// ---- probes ----

function bodyProbes(target: Target, body: Schema): Probe[] {
  const valid = sample(body);
  const out: Probe[] = [];
  for (const slot of slots(body)) {
    for (const [label, { value, raw }] of badValues(slot.schema)) {
      const broken = put(structuredClone(valid), body, slot.path, value ?? RAW);
      out.push({
        target,
        label: `body ${fieldName(slot.path)}: ${label}`,
        payload: json(broken, raw),
        field: fieldName(slot.path),
      });
    }
  }
  // Undeclared fields are kept (event payloads are stored whole): text rules apply to them too.
  const at: Path = body.type === 'array' ? [0] : [];
  const element = (extra: Record<string, unknown>) =>
    body.type === 'array'
      ? [{ ...(sample(body.items ?? {}) as object), ...extra }]
      : { ...(valid as object), ...extra };
  out.push(
    {
      target,
      label: 'undeclared field with a NUL',
      payload: json(element({ zzNul: 'a\u0000' })),
      field: fieldName([...at, 'zzNul']),
    },
    {
      target,
      label: 'field name with a NUL',
      payload: json(element({ 'a\u0000': 1 })),
      field: fieldName(at),
    },
  );
  const shape =
    body.type === 'array' ? ['null', '{}', '3', '"x"'] : ['null', '[]', '[{}]', '3', '"x"', 'true'];
  for (const payload of shape) out.push({ target, label: `body ${payload}`, payload, field: 'body' });
  const text = json(valid);
  out.push(
    { target, label: 'text/plain', payload: text, headers: { 'content-type': 'text/plain' } },
    {
      target,
      label: 'form',
      payload: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
    { target, label: 'gzip', payload: text, headers: { 'content-encoding': 'gzip' } },
    {
      target,
      label: 'invalid UTF-8',
      payload: Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
    },
    { target, label: 'malformed JSON', payload: `${text.slice(0, -1)},` },
  );
  return out;
}

const encode = (value: unknown) => encodeURIComponent(String(value));

function queryProbes(target: Target, query: Schema): Probe[] {
  const valid = Object.entries(sample(query) as Record<string, unknown>);
  const with_ = (key: string, raw: string) =>
    [...valid.filter(([k]) => k !== key).map(([k, v]) => `${k}=${encode(v)}`), `${key}=${raw}`].join('&');
  const out: Probe[] = [];
  for (const [key, schema] of Object.entries(query.properties ?? {})) {
    const values: Array<[string, string]> = [
      ['NUL', '%00'],
      ['bad percent-encoding', '%zz'],
      ['encoded lone surrogate', '%ED%A0%80'],
    ];
    if (schema.type === 'integer') for (const n of [...BAD_INTEGERS, 'Infinity']) values.push([n, n]);
    if (schema.type === 'number') for (const n of ['1e400', 'Infinity']) values.push([n, n]);
    if (schema.format === 'date') for (const d of BAD_DATES) values.push([d, d]);
    if (schema.format === 'date-time') for (const d of BAD_DATE_TIMES) values.push([d, encode(d)]);
    for (const [label, raw] of values)
      out.push({ target, label: `query ${key}: ${label}`, query: with_(key, raw), field: key });
  }
  if (target.entity) out.push(...filterProbes(target, target.entity));
  return out;
}

/** The filter language gets the same limits, naming the field of the expression. */
function filterProbes(target: Target, entity: EntityDeclaration): Probe[] {
  const fields = Object.entries(entity.filterFields);
  const text = fields.find(([, f]) => f.type === 'string')?.[0];
  const out: Probe[] = [];
  const filter = (label: string, expression: string, field: string) =>
    out.push({ target, label: `filter ${label}`, query: `filter=${expression}`, field });
  if (text) {
    filter('NUL', `${text}%20eq%20'%00'`, 'filter');
    filter('encoded lone surrogate', `${text}%20eq%20'%ED%A0%80'`, 'filter');
  }
  for (const [name, f] of fields) {
    if (f.type === 'date') filter(`${name} year 0`, encode(`${name} eq '0000-01-01'`), name);
    if (f.type === 'datetime') {
      for (const d of BAD_DATE_TIMES) filter(`${name} ${d}`, encode(`${name} gt '${d}'`), name);
    }
    if (f.type === 'integer') {
      filter(`${name} beyond int64`, encode(`${name} eq 99999999999999999999`), name);
      if ((f.column as { columnType?: string }).columnType === 'PgInteger')
        filter(`${name} beyond int4`, encode(`${name} eq 2147483648`), name);
    }
  }
  out.push({ target, label: 'orderby NUL', query: 'orderby=%00', field: 'orderby' });
  return out;
}

function pathProbes(target: Target): Probe[] {
  // What the router refuses before any route is known: on operations as much as on entities.
  const out: Probe[] = [{ target, label: 'path %zz', path: `${pathOf(target)}%zz` }];
  for (const param of Object.keys(target.ids).filter((p) => target.template.includes(`{${p}}`))) {
    const at = (value: string) => pathOf(target, { [param]: value });
    out.push(
      { target, label: `${param} NUL`, path: at('%00'), field: param },
      { target, label: `${param} %zz`, path: at('%zz') },
      { target, label: `${param} encoded lone surrogate`, path: at('%ED%A0%80') },
      {
        target,
        label: `${param} over ${MAX_PARAM_LENGTH} characters`,
        path: at('a'.repeat(MAX_PARAM_LENGTH + 1)),
      },
    );
  }
  return out;
}

/** Every probe of one route. */
export function probes(target: Target): Probe[] {
  return [
    ...pathProbes(target),
    // A NUL in an undeclared query parameter: the same rule on every route, GET or not.
    { target, label: 'undeclared query parameter with a NUL', query: 'zz=%00', field: 'zz' },
    ...(target.body ? bodyProbes(target, target.body) : []),
    ...(target.query ? queryProbes(target, target.query) : []),
  ];
}
