import { createHash } from 'node:crypto';
import {
  Column,
  count,
  getTableColumns,
  getTableName,
  getViewName,
  getViewSelectedFields,
  is,
  type SQL,
  sql,
  Table,
} from 'drizzle-orm';
import { NodePgSession } from 'drizzle-orm/node-postgres';
import { type PgColumn, PgDialect, type PgTable, type PgView } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { GENERIC_PLAN } from './session.ts';
import type { Tx } from './types.ts';
import { fill, placeholder, Where } from './where.ts';

// Reads whose WHERE changes with each request (a search's filters, an entity list's filter), made
// cheap (docs/performance.md): drizzle's select builder, its view proxies and its row mapping were
// most of such a request's CPU (filtrarAgenda: about half). Here the select list, the FROM and a row
// mapper are made once per table or view; per request only the WHERE and ORDER BY are rendered
// (drizzle's dialect, the same SQL), and the statement, whose text depends only on the shape of the
// filters, is named after that text: PostgreSQL parses and plans each shape once per connection.
// On the embedded database the same reads go through drizzle's builder.

export type Source = PgTable | PgView;
type Row = Record<string, unknown>;

interface Shape {
  /** `"t"."a", "t"."b", ...` */
  list: string;
  from: string;
  keys: string[];
  /** Each column's decoder, or undefined where the driver's value is the answer (text, uuid, boolean). */
  decoders: Array<Decode | undefined>;
  fields: Record<string, PgColumn>;
}
type Decode = (value: unknown) => unknown;

const identity = Column.prototype.mapFromDriverValue;

/**
 * A column's decoder, called on a plain copy of the column: a view's columns are proxies (drizzle's
 * alias handler), and going through the proxy for every value of every row was a visible part of a
 * page's CPU. Columns whose decoder returns the value as it is get none.
 */
function decoderOf(column: PgColumn): Decode | undefined {
  const decode = column.mapFromDriverValue;
  if (decode === identity) return undefined;
  const plain = Object.create(Object.getPrototypeOf(column)) as Record<PropertyKey, unknown>;
  for (const key of Reflect.ownKeys(column))
    plain[key] = (column as unknown as Record<PropertyKey, unknown>)[key];
  return decode.bind(plain) as Decode;
}

const shapes = new WeakMap<Source, Shape>();
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function shapeOf(source: Source): Shape {
  let shape = shapes.get(source);
  if (!shape) {
    const table = is(source, Table);
    const name = table ? getTableName(source as PgTable) : getViewName(source as PgView);
    const fields = (
      table ? getTableColumns(source as PgTable) : getViewSelectedFields(source as PgView)
    ) as Record<string, PgColumn>;
    const keys = Object.keys(fields);
    const columns = keys.map((k) => fields[k]!);
    shape = {
      list: columns.map((c) => `${quote(name)}.${quote(c.name)}`).join(', '),
      from: quote(name),
      keys,
      decoders: columns.map(decoderOf),
      fields,
    };
    shapes.set(source, shape);
  }
  return shape;
}

/**
 * Type parsers as drizzle's node-postgres driver sets them: dates, times and intervals stay text,
 * for the columns' own decoders (drizzle-orm/node-postgres/session.js).
 */
const KEEP_TEXT = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231,
  1115,
  1185,
  1187,
  1182,
]);
const asText = (value: string) => value;
const TYPES = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    KEEP_TEXT.has(oid) ? asText : pg.types.getTypeParser(oid, format ?? 'text'),
};

const dialect = new PgDialect();

/** Statement names by text, so that each shape is parsed once per connection (a bounded number). */
const names = new Map<string, string>();
const MAX_NAMES = 2000;

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) {
    name = `ponte_r_${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/** The connection of a server transaction (session.ts), or undefined on the embedded database. */
function serverOf(
  tx: Tx,
): { query(config: pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> } | undefined {
  const session = (tx as unknown as { session: unknown }).session;
  return is(session, NodePgSession) ? (session as unknown as { client: never }).client : undefined;
}

async function run(tx: Tx, query: SQL, plan?: 'generic'): Promise<unknown[][]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return runText(tx, text, params, plan);
}

async function runText(tx: Tx, text: string, params: unknown[], plan?: 'generic'): Promise<unknown[][]> {
  const server = serverOf(tx)!;
  const name = nameOf(text);
  const config = { text, rowMode: 'array', types: TYPES, ...(name ? { name } : {}) } as pg.QueryConfig;
  // Only a named statement keeps a plan: an unnamed one is planned at every run anyway.
  if (plan === 'generic' && name) (config as { [GENERIC_PLAN]?: true })[GENERIC_PLAN] = true;
  return (await server.query(config, params)).rows as unknown[][];
}

export interface RowsOptions {
  /**
   * `generic`: the statement runs the plan PostgreSQL made once for its shape, not one made for
   * each request's values (session.ts GENERIC_PLAN), in reads. For shapes whose generic plan is the
   * right one for any value: each caller says why (yms/agenda busca.ts).
   */
  plan?: 'generic' | undefined;
  orderBy?: SQL[];
  limit?: number;
  offset?: number;
  /** Lock the rows selected until the transaction ends (`for update`). */
  forUpdate?: boolean;
}

/** The rows of `source` that `where` selects (every column, keyed as drizzle keys them). */
export async function selectRows<T extends Row = Row>(
  tx: Tx,
  source: Source,
  where: SQL | undefined,
  options: RowsOptions = {},
): Promise<T[]> {
  const shape = shapeOf(source);
  if (!serverOf(tx)) {
    interface Builder extends Promise<T[]> {
      where(w?: SQL): Builder;
      orderBy(...o: SQL[]): Builder;
      limit(n: number): Builder;
      offset(n: number): Builder;
      for(strength: 'update'): Builder;
    }
    let query = (tx.select(shape.fields).from(source as PgTable) as unknown as Builder).where(where);
    if (options.orderBy?.length) query = query.orderBy(...options.orderBy);
    if (options.limit !== undefined) query = query.limit(options.limit);
    if (options.offset) query = query.offset(options.offset);
    if (options.forUpdate) query = query.for('update');
    return await query;
  }
  const parts: SQL[] = [sql.raw(`select ${shape.list} from ${shape.from}`)];
  if (where) parts.push(sql` where ${where}`);
  if (options.orderBy?.length) parts.push(sql` order by ${sql.join(options.orderBy, sql`, `)}`);
  if (options.limit !== undefined) parts.push(sql` limit ${options.limit}`);
  if (options.offset) parts.push(sql` offset ${options.offset}`);
  if (options.forUpdate) parts.push(sql.raw(' for update'));
  return mapRows<T>(shape, await run(tx, sql.join(parts), options.plan));
}

function mapRows<T>(shape: Shape, rows: unknown[][]): T[] {
  const { keys, decoders } = shape;
  const out: T[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const values = rows[r]!;
    const row: Row = {};
    for (let i = 0; i < keys.length; i++) {
      const value = values[i];
      const decode = decoders[i];
      row[keys[i]!] = value === null || value === undefined ? null : decode ? decode(value) : value;
    }
    out[r] = row as T;
  }
  return out;
}

/** How many rows of `source` `where` selects. */
export async function countRows(tx: Tx, source: Source, where: SQL | undefined): Promise<number> {
  if (!serverOf(tx)) {
    const [row] = await (
      tx.select({ n: count() }).from(source as PgTable) as unknown as {
        where(w?: SQL): Promise<Array<{ n: number }>>;
      }
    ).where(where);
    return row?.n ?? 0;
  }
  const { from } = shapeOf(source);
  const rows = await run(
    tx,
    where
      ? sql`${sql.raw(`select count(*) from ${from}`)} where ${where}`
      : sql.raw(`select count(*) from ${from}`),
  );
  return Number(rows[0]?.[0] ?? 0);
}

export interface PageOptions extends RowsOptions {
  limit: number;
  /**
   * The matches are read once, for the page and the count: for filters whose every match costs a
   * visit to the row whatever the index (a text matched with ILIKE through a trigram index is
   * rechecked on the row), where two statements would find and visit them twice. Not for filters
   * an index answers alone, whose count is an index-only scan. `key`: a column that names a row
   * of the source; `columns`: those `orderBy` reads. Only these are kept of each match.
   */
  oneScan?: { key: PgColumn; columns: PgColumn[] } | undefined;
}

/** A page's statements (the page, or the page with its count: `oneScan`; the count) and their values. */
interface PageTexts {
  page: string;
  count: string;
  /** The WHERE's parameters: a shape's are placeholders (where.ts `fill`). */
  params: unknown[];
}

/** Each shape's statements, by source, shape key, order and kind of page (where.ts). */
const shapeTexts = new Map<string, PageTexts>();
const MAX_SHAPES = 2000;
/** An ORDER BY rendered, by its terms' array (callers keep one array an order: busca.ts). */
const orderTexts = new WeakMap<SQL[], string>();

function orderText(orderBy: SQL[] | undefined): string {
  if (!orderBy?.length) return '';
  let text = orderTexts.get(orderBy);
  if (text === undefined) {
    text = ` order by ${dialect.sqlToQuery(sql.join(orderBy, sql`, `)).sql}`;
    orderTexts.set(orderBy, text);
  }
  return text;
}

function pageTexts(source: Source, where: SQL | undefined, order: string, options: PageOptions): PageTexts {
  const shape = shapeOf(source);
  const rendered = where ? dialect.sqlToQuery(where) : { sql: '', params: [] as unknown[] };
  const filter = where ? ` where ${rendered.sql}` : '';
  const n = rendered.params.length;
  const count = `select count(*) from ${shape.from}${filter}`;
  if (!options.oneScan)
    return {
      page: `select ${shape.list} from ${shape.from}${filter}${order} limit $${n + 1} offset $${n + 2}`,
      count,
      params: rendered.params,
    };
  // The matches' keys and sort columns, materialized once: the page's keys are sorted from them and
  // the count read from them (an InitPlan, run once, its value after the columns of every row); the
  // page's rows are then read by key. The CTE takes the source's name, so `order` reads the same there.
  const { key, columns } = options.oneScan;
  const [keyName, ...names] = [key, ...columns].map((c) => `${shape.from}.${quote(c.name)}`);
  const kept = [...new Set([keyName, ...names])].join(', ');
  return {
    page:
      `with "m" as materialized (select ${kept} from ${shape.from}${filter}), ` +
      `"p" as (select ${keyName} from "m" as ${shape.from}${order} limit $${n + 1} offset $${n + 2}) ` +
      `select ${shape.list}, (select count(*) from "m") from ${shape.from} ` +
      `where ${keyName} in (select * from "p")${order}`,
    count,
    params: rendered.params,
  };
}

/**
 * A page's statements: a shape's are made once (its WHERE rendered with placeholders) and then
 * only filled with each request's values; any other WHERE is rendered for the request.
 */
function statementsOf(source: Source, where: SQL | Where | undefined, options: PageOptions): PageTexts {
  const order = orderText(options.orderBy);
  if (!(where instanceof Where)) return pageTexts(source, where, order, options);
  const oneScan = options.oneScan ? [options.oneScan.key, ...options.oneScan.columns].map((c) => c.name) : '';
  const key = `${shapeOf(source).from}|${where.key}|${order}|${oneScan}`;
  let texts = shapeTexts.get(key);
  if (!texts) {
    texts = pageTexts(source, where.build(placeholder), order, options);
    if (shapeTexts.size < MAX_SHAPES) shapeTexts.set(key, texts);
  }
  return { ...texts, params: fill(texts.params, where.values) };
}

/**
 * A page of `source`'s rows that `where` selects, and how many there are in all: the WHERE is
 * rendered once for both statements, which go out together (one write, session.ts `hold`; one
 * round trip in pg's pipeline mode), or, with `oneScan`, one statement that reads the matches once.
 */
export async function selectPage<T extends Row = Row>(
  tx: Tx,
  source: Source,
  where: SQL | Where | undefined,
  options: PageOptions,
): Promise<{ rows: T[]; total: number }> {
  if (!serverOf(tx)) {
    const condition = where instanceof Where ? where.build() : where;
    const [rows, total] = await Promise.all([
      selectRows<T>(tx, source, condition, options),
      countRows(tx, source, condition),
    ]);
    return { rows, total };
  }
  const shape = shapeOf(source);
  const { page, count, params } = statementsOf(source, where, options);
  const offset = options.offset ?? 0;
  if (options.oneScan) {
    const rows = await runText(tx, page, [...params, options.limit, offset], options.plan);
    // A page past the end has no row to carry the count: asked apart (a rare request).
    const total =
      rows.length > 0
        ? Number(rows[0]![shape.keys.length])
        : offset > 0
          ? Number((await runText(tx, count, params, options.plan))[0]?.[0] ?? 0)
          : 0;
    return { rows: mapRows<T>(shape, rows), total };
  }
  const [rows, counted] = await Promise.all([
    runText(tx, page, [...params, options.limit, offset], options.plan),
    runText(tx, count, params, options.plan),
  ]);
  return { rows: mapRows<T>(shape, rows), total: Number(counted[0]?.[0] ?? 0) };
}
