import { and, or, Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { containsPattern, likeFolded } from './search.ts';

// A WHERE clause whose text depends only on which conditions it has, not on their values: a
// search's filters. On a server it is built with placeholders and rendered once per shape
// (reads.ts); each later request only binds its values. drizzle's rendering of such a WHERE, and the
// building before it, were about a tenth of a filtrarAgenda request's CPU (docs/performance.md).

/** What a condition's builder gets for a value: the value itself, or its placeholder. */
type Bound<V> = V;

interface Part {
  key: string;
  build(bind: (name: string) => unknown): SQL | undefined;
}

/**
 * The conditions of a WHERE, joined with AND (or OR, `Where.any`). Each has a key, which, with the
 * number of items of a list, makes the shape's key: two shapes with one key render one text. Each
 * condition is one term of that AND (or OR): several ORed in one condition go through drizzle's `or`,
 * which brackets them (a bare `a or b` would bind to its neighbours).
 */
export class Where {
  private readonly parts: Part[] = [];

  private constructor(
    private readonly join: 'and' | 'or',
    /** Every value of the shape and of the shapes nested in it, by name. */
    readonly values: Record<string, unknown>,
  ) {}

  static all(): Where {
    return new Where('and', {});
  }

  /** A condition without values; its key stands for its text (one key, one text). */
  constant(key: string, condition: SQL | undefined): this {
    if (condition) this.parts.push({ key, build: () => condition });
    return this;
  }

  /**
   * A condition on one value, bound as `name`; nothing when the value is undefined. The name is the
   * condition's part of the key: one name, one text (a condition built another way takes another).
   */
  value<V>(name: string, value: V | undefined, build: (value: Bound<V>) => SQL | undefined): this {
    if (value === undefined) return this;
    this.name(name, value);
    this.parts.push({ key: name, build: (bind) => build(bind(name) as V) });
    return this;
  }

  /** The column contains the text, case and accents aside (search.ts), bound as `name`; nothing for no text. */
  contains(name: string, column: AnyPgColumn, text: string | undefined): this {
    return this.value(name, text ? containsPattern(text) : undefined, (v) => likeFolded(column, v));
  }

  /** A condition on several values, each bound as `key.field` (the fields are part of the key); nothing when undefined. */
  record<V extends Record<string, unknown>>(
    key: string,
    values: V | undefined,
    build: (values: V) => SQL,
  ): this {
    if (values === undefined) return this;
    const names = Object.keys(values).map((field) => [field, this.name(`${key}.${field}`, values[field])]);
    this.parts.push({
      key: `${key}{${Object.keys(values).join(',')}}`,
      build: (bind) => build(Object.fromEntries(names.map(([field, name]) => [field, bind(name!)])) as V),
    });
    return this;
  }

  /** A condition on a list, one parameter an item (`name.0`, `name.1`...); nothing when empty. */
  list<V>(
    name: string,
    items: readonly V[] | undefined,
    build: (items: Bound<V>[]) => SQL | undefined,
  ): this {
    if (!items?.length) return this;
    const names = items.map((item, i) => this.name(`${name}.${i}`, item));
    this.parts.push({
      key: `${name}[${items.length}]`,
      build: (bind) => build(names.map((n) => bind(n) as V)),
    });
    return this;
  }

  /** The conditions `fill` adds, joined with OR, as one condition of this shape; nothing if none. */
  any(key: string, fill: (any: Where) => void): this {
    const inner = new Where('or', this.values);
    fill(inner);
    if (inner.parts.length) this.parts.push({ key: `${key}(${inner.key})`, build: (b) => inner.build(b) });
    return this;
  }

  /**
   * This shape under one more condition, on `name`'s value, put first: `condition and (this)`, as
   * the store joins its tenant condition with a WHERE (store.ts `scope`). This shape is unchanged.
   */
  within<V>(name: string, value: V, build: (value: Bound<V>) => SQL): Where {
    const outer = new Where('and', { ...this.values });
    outer.value(name, value, build);
    outer.parts.push({ key: `(${this.key})`, build: (bind) => this.build(bind) });
    return outer;
  }

  /** Which conditions, in order: the text of two shapes with one key is the same. */
  get key(): string {
    return this.parts.map((p) => p.key).join(',');
  }

  /** The WHERE, each value bound by `bind` (default: the value itself, for drizzle to bind). */
  build(bind: (name: string) => unknown = (name) => this.values[name]): SQL | undefined {
    const built = this.parts.map((p) => p.build(bind));
    return this.join === 'and' ? and(...built) : or(...built);
  }

  private name(name: string, value: unknown): string {
    if (name in this.values) throw new Error(`shape: two values named ${name}`);
    this.values[name] = value;
    return name;
  }
}

/** The placeholder of a value (reads.ts renders a shape with these once). */
export const placeholder = (name: string) => sql.placeholder(name);

/**
 * The driver values of a rendered shape's parameters: each placeholder's value, a date as drizzle's
 * timestamp columns send it (ISO 8601, UTC), anything else as it is.
 */
export function fill(params: readonly unknown[], values: Record<string, unknown>): unknown[] {
  const out = new Array(params.length);
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    const value = p instanceof Placeholder ? values[p.name] : p;
    out[i] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}
