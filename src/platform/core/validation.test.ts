import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { DateOnly, DateTime, Double, Int64, Type } from './schema.ts';
import { compile, validate } from './validation.ts';

// The limits every schema gets from the validation layer (storable.ts), as a table: a value, and
// the message it is refused with (or null when it passes). Each row is one of the classes of input
// that reached PostgreSQL and failed there with a 500 before.

const Input = Type.Object({
  nome: Type.Optional(Type.String()),
  quantidade: Type.Optional(Type.Integer()),
  limitada: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
  codigo: Type.Optional(Int64()),
  peso: Type.Optional(Double()),
  dia: Type.Optional(DateOnly()),
  quando: Type.Optional(DateTime()),
  itens: Type.Optional(Type.Array(Type.Object({ n: Type.Integer() }))),
  extra: Type.Optional(Type.Unknown()),
});

function message(value: unknown, source: 'body' | 'query' = 'body'): string | null {
  try {
    validate(Input, structuredClone(value), source);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    return (err as ApiError).message;
  }
}

const MAX = Number.MAX_SAFE_INTEGER;

describe('the limits of what can be stored', () => {
  const rows: Array<[string, unknown, RegExp | null]> = [
    // text: NUL and unpaired surrogates anywhere, field names and undeclared fields included
    ['NUL in a string', { nome: 'a\u0000b' }, /field 'nome' must not contain the NUL character/],
    [
      'lone high surrogate',
      { nome: 'j\ud800' },
      /field 'nome' must not contain an unpaired UTF-16 surrogate/,
    ],
    ['lone low surrogate', { nome: '\udc00x' }, /field 'nome' must not contain an unpaired/],
    ['reversed pair', { nome: '\udc00\ud800' }, /field 'nome' must not contain an unpaired/],
    ['a paired surrogate (emoji)', { nome: 'caminhão 🚚' }, null],
    [
      'NUL in an undeclared field',
      { extra: { deep: ['ok', 'x\u0000'] } },
      /field 'extra.deep\[1\]' must not/,
    ],
    [
      'NUL in a field name',
      { extra: { 'a\u0000': 1 } },
      /field 'extra' must not have a field name containing/,
    ],
    ['surrogate in a field name', { 'x\ud800': 1 }, /field 'body' must not have a field name containing/],
    // integers: bounded by 2^53 - 1 whatever the schema says; a tighter bound stays
    ['largest integer', { quantidade: MAX }, null],
    ['integer beyond 2^53 - 1', { quantidade: MAX + 2 }, /field 'quantidade' must be <= 9007199254740991/],
    ['integer below -(2^53 - 1)', { quantidade: -1e20 }, /field 'quantidade' must be >= -9007199254740991/],
    ['a declared bound stays', { limitada: 11 }, /field 'limitada' must be <= 10/],
    ['an integer inside an array', { itens: [{ n: 1e300 }] }, /field 'itens\[0\]\.n' must be <= /],
    ['int64 beyond 2^53 - 1', { codigo: 2 ** 63 }, /field 'codigo' must be <= /],
    // Infinity (what JSON.parse makes of 1e400) is no number
    [
      'Infinity as an integer',
      { quantidade: Number.POSITIVE_INFINITY },
      /field 'quantidade' must be of type integer/,
    ],
    ['Infinity as a double', { peso: Number.NEGATIVE_INFINITY }, /field 'peso' must be of type number/],
    ['a large finite double', { peso: 1e300 }, null],
    // dates: years 0001 to 9999, the instant of a date-time included
    ['first date', { dia: '0001-01-01' }, null],
    ['last date', { dia: '9999-12-31' }, null],
    ['year 0', { dia: '0000-01-01' }, /field 'dia' must be a valid date \(YYYY-MM-DD, years 0001 to 9999\)/],
    ['first instant', { quando: '0001-01-01T00:00:00Z' }, null],
    ['first instant, with an offset', { quando: '0001-01-01T01:00:00+01:00' }, null],
    ['last instant, with an offset', { quando: '9999-12-31T20:59:59-03:00' }, null],
    ['year 0 date-time', { quando: '0000-06-01T00:00:00Z' }, /field 'quando' must be a valid date-time/],
    [
      'offset into year 0',
      { quando: '0001-01-01T00:30:00+01:00' },
      /field 'quando' must be a valid date-time/,
    ],
    [
      'offset into year 10000',
      { quando: '9999-12-31T23:00:00-03:00' },
      /field 'quando' must be a valid date-time/,
    ],
    [
      'leap second into 10000',
      { quando: '9999-12-31T23:59:60Z' },
      /field 'quando' must be a valid date-time/,
    ],
    ['a space for the T', { quando: '2026-01-31 08:00:00-03:00' }, null],
  ];

  it.each(rows)('%s', (_label, value, expected) => {
    const got = message(value);
    if (expected === null) expect(got).toBeNull();
    else expect(got).toMatch(expected);
  });

  // A query string is coerced: ajv turns "1e400" into Infinity after its own checks.
  const query: Array<[string, Record<string, string>, RegExp | null]> = [
    ['1e400', { quantidade: '1e400' }, /field 'quantidade' must be a finite number/],
    ['Infinity', { peso: 'Infinity' }, /field 'peso' must be a finite number/],
    ['-Infinity', { limitada: '-Infinity' }, /field 'limitada' must be a finite number/],
    ['beyond 2^53 - 1', { quantidade: '9223372036854775807' }, /field 'quantidade' must be <= /],
    ['a NUL', { nome: '\u0000' }, /field 'nome' must not contain the NUL character/],
    ['an ordinary value', { quantidade: '42', peso: '1.5' }, null],
  ];

  it.each(query)('query string: %s', (_label, value, expected) => {
    const got = message(value, 'query');
    if (expected === null) expect(got).toBeNull();
    else expect(got).toMatch(expected);
  });

  it('leaves the declared schema as it was (Swagger documents what the service wrote)', () => {
    const schema = Type.Object({ n: Type.Integer() });
    compile(schema, 'body');
    expect(schema.properties.n).not.toHaveProperty('maximum');
  });

  it('reports the text rule in ajv’s shape, for every reader of .errors (imports)', () => {
    const fn = compile(Input, 'body');
    expect(fn({ nome: 'a\u0000' })).toBe(false);
    expect(fn.errors?.[0]).toMatchObject({ instancePath: '/nome', keyword: 'storable' });
    expect(fn({ nome: 'a' })).toBe(true);
    expect(fn.errors).toBeNull();
  });
});
