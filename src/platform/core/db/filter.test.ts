import { PGlite } from '@electric-sql/pglite';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { type SQL, sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  integer,
  PgDialect,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import type { FilterFields } from './fields.ts';
import { compileFilter, compileOrderBy, MAX_FILTER_LENGTH } from './filter.ts';
import { FOLD_FUNCTION } from './search.ts';

const pessoa = pgTable('pessoa', {
  id: uuid('id').primaryKey(),
  nome: text('nome'),
  idade: integer('idade'),
  ativo: boolean('ativo'),
  altura: doublePrecision('altura'),
  nascimento: date('nascimento'),
  criado: timestamp('criado', { withTimezone: true }),
});

const fields: FilterFields = {
  id: { column: pessoa.id, type: 'uuid' },
  nome: { column: pessoa.nome, type: 'string' },
  idade: { column: pessoa.idade, type: 'integer' },
  ativo: { column: pessoa.ativo, type: 'boolean' },
  altura: { column: pessoa.altura, type: 'number' },
  nascimento: { column: pessoa.nascimento, type: 'date' },
  criado: { column: pessoa.criado, type: 'datetime' },
  // A field may be an expression rather than a column.
  meses: { column: sql`(${pessoa.idade} * 12)`, type: 'integer' },
};

const dialect = new PgDialect();
const render = (fragment: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  return { text, params };
};

const NOME = '"pessoa"."nome"';
const IDADE = '"pessoa"."idade"';
const ATIVO = '"pessoa"."ativo"';
const UUID = '0b7e4c1e-5d2a-4f7b-9c3e-1a2b3c4d5e6f';
const nested = (levels: number) => '('.repeat(levels) + 'idade eq 1' + ')'.repeat(levels);
const longest = `nome eq '${'a'.repeat(MAX_FILTER_LENGTH - 10)}'`;

/** A short test title for the generated rows of thousands of characters. */
const label = (input: string) =>
  input.length > 80 ? `${input.slice(0, 40)}… (${input.length} chars)` : input;
const titled = <Row extends [string, ...unknown[]]>(rows: Row[]) =>
  rows.map((row) => [label(row[0]), ...row] as const);

/** The error a call throws, checked to be the 400 of the platform's error contract. */
function rejection(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).reason).toBe('BAD_REQUEST');
    return error as ApiError;
  }
  throw new Error('expected a 400');
}

describe('compileFilter', () => {
  // input, SQL text, parameters
  const accepted: Array<[string, string, unknown[]]> = [
    // every operator
    ["nome eq 'Ana'", `${NOME} = $1`, ['Ana']],
    ["nome ne 'Ana'", `${NOME} <> $1`, ['Ana']],
    ['idade lt 18', `${IDADE} < $1`, [18]],
    ['idade gt 18', `${IDADE} > $1`, [18]],
    ['idade le 18', `${IDADE} <= $1`, [18]],
    ['idade ge 18', `${IDADE} >= $1`, [18]],
    ["nome lt 'M'", `${NOME} < $1`, ['M']],
    ['ativo eq true', `${ATIVO} = $1`, [true]],
    ['ativo ne false', `${ATIVO} <> $1`, [false]],
    ["nascimento ge '2000-02-29'", '"pessoa"."nascimento" >= $1', ['2000-02-29']],
    ["criado lt '2024-01-31T12:00:00Z'", '"pessoa"."criado" < $1', ['2024-01-31T12:00:00Z']],
    [
      "criado ge '2024-01-31T12:00:00.123-03:00'",
      '"pessoa"."criado" >= $1',
      ['2024-01-31T12:00:00.123-03:00'],
    ],
    ["criado le '2024-01-31T12:00'", '"pessoa"."criado" <= $1', ['2024-01-31T12:00']],
    [`id eq '${UUID}'`, '"pessoa"."id" = $1', [UUID]],
    [`id ne '${UUID.toUpperCase()}'`, '"pessoa"."id" <> $1', [UUID.toUpperCase()]],
    ['meses ge 12', `(${IDADE} * 12) >= $1`, [12]],
    // the limits of what the columns hold: int4, and the years 0001 to 9999
    ['idade le 2147483647', `${IDADE} <= $1`, [2147483647]],
    ['idade ge -2147483648', `${IDADE} >= $1`, [-2147483648]],
    ["nascimento ge '0001-01-01'", '"pessoa"."nascimento" >= $1', ['0001-01-01']],
    ["criado le '9999-12-31T23:59:59Z'", '"pessoa"."criado" <= $1', ['9999-12-31T23:59:59Z']],
    ["criado ge '0001-01-01T01:00:00+01:00'", '"pessoa"."criado" >= $1', ['0001-01-01T01:00:00+01:00']],
    // is null, is not null
    ['nome is null', `${NOME} is null`, []],
    ['nome is not null', `${NOME} is not null`, []],
    ['idade is null', `${IDADE} is null`, []],
    // containing: wildcards and the escape character match literally
    [
      "containing(nome, 'Ana')",
      `lower(public.unaccent(${NOME})) like (select lower(public.unaccent($1::text)))`,
      ['%Ana%'],
    ],
    [
      "containing(nome, '50%_off')",
      `lower(public.unaccent(${NOME})) like (select lower(public.unaccent($1::text)))`,
      ['%50\\%\\_off%'],
    ],
    [
      "containing(nome, 'C:\\temp')",
      `lower(public.unaccent(${NOME})) like (select lower(public.unaccent($1::text)))`,
      ['%C:\\\\temp%'],
    ],
    [
      "containing(nome, '')",
      `lower(public.unaccent(${NOME})) like (select lower(public.unaccent($1::text)))`,
      ['%%'],
    ],
    // lower
    ["lower(nome) eq 'ana'", `lower(${NOME}) = $1`, ['ana']],
    ["lower(nome) ge 'b'", `lower(${NOME}) >= $1`, ['b']],
    ['lower(nome) is not null', `lower(${NOME}) is not null`, []],
    [
      "containing(lower(nome), 'ana')",
      `lower(public.unaccent(lower(${NOME}))) like (select lower(public.unaccent($1::text)))`,
      ['%ana%'],
    ],
    // and binds tighter than or; or groups are parenthesized
    [
      "nome eq 'a' or idade gt 1 and ativo eq true",
      `(${NOME} = $1 or ${IDADE} > $2 and ${ATIVO} = $3)`,
      ['a', 1, true],
    ],
    [
      "nome eq 'a' and idade gt 1 or ativo eq true",
      `(${NOME} = $1 and ${IDADE} > $2 or ${ATIVO} = $3)`,
      ['a', 1, true],
    ],
    [
      'idade eq 1 and idade eq 2 and idade eq 3',
      `${IDADE} = $1 and ${IDADE} = $2 and ${IDADE} = $3`,
      [1, 2, 3],
    ],
    // parentheses
    [
      "(nome eq 'a' or idade gt 1) and ativo eq true",
      `(${NOME} = $1 or ${IDADE} > $2) and ${ATIVO} = $3`,
      ['a', 1, true],
    ],
    [
      "nome eq 'a' and (idade lt 1 or (idade gt 9 and ativo eq false))",
      `${NOME} = $1 and (${IDADE} < $2 or ${IDADE} > $3 and ${ATIVO} = $4)`,
      ['a', 1, 9, false],
    ],
    ['((idade eq 1))', `${IDADE} = $1`, [1]],
    [nested(32), `${IDADE} = $1`, [1]],
    // strings: doubled quotes, keywords and unicode inside
    ["nome eq 'D''Avila'", `${NOME} = $1`, ["D'Avila"]],
    ["nome eq ''''", `${NOME} = $1`, ["'"]],
    ["nome eq ''", `${NOME} = $1`, ['']],
    ["nome eq 'a or b and c eq 1'", `${NOME} = $1`, ['a or b and c eq 1']],
    ["nome eq 'João Conceição'", `${NOME} = $1`, ['João Conceição']],
    // numbers: negative and decimal
    ['idade gt -5', `${IDADE} > $1`, [-5]],
    ['idade eq 0', `${IDADE} = $1`, [0]],
    ['altura lt 1.75', '"pessoa"."altura" < $1', [1.75]],
    ['altura gt -0.5', '"pessoa"."altura" > $1', [-0.5]],
    ['altura eq 2', '"pessoa"."altura" = $1', [2]],
    // keywords are case-insensitive
    [
      "nome EQ 'Ana' AND idade Ge 1 Or ativo eQ TRUE",
      `(${NOME} = $1 and ${IDADE} >= $2 or ${ATIVO} = $3)`,
      ['Ana', 1, true],
    ],
    ['nome IS NOT NULL', `${NOME} is not null`, []],
    ['nome Is Null', `${NOME} is null`, []],
    [
      "CONTAINING(nome, 'x')",
      `lower(public.unaccent(${NOME})) like (select lower(public.unaccent($1::text)))`,
      ['%x%'],
    ],
    ["LOWER(nome) NE 'x'", `lower(${NOME}) <> $1`, ['x']],
    ['ativo eq False', `${ATIVO} = $1`, [false]],
    // whitespace
    ["  nome   eq\t'Ana'\n", `${NOME} = $1`, ['Ana']],
    ["nome eq'Ana'", `${NOME} = $1`, ['Ana']],
    ['(idade eq 1)or(idade eq 2)', `(${IDADE} = $1 or ${IDADE} = $2)`, [1, 2]],
    [
      "containing( nome ,'x' )",
      `lower(public.unaccent(${NOME})) like (select lower(public.unaccent($1::text)))`,
      ['%x%'],
    ],
    ["lower ( nome ) eq 'x'", `lower(${NOME}) = $1`, ['x']],
    ['\r\nnome\r\nis\r\nnot\r\nnull\r\n', `${NOME} is not null`, []],
    [longest, `${NOME} = $1`, ['a'.repeat(MAX_FILTER_LENGTH - 10)]],
  ];

  it.each(titled(accepted))('%s', (_, input, text, params) => {
    expect(render(compileFilter(input, fields))).toEqual({ text, params });
  });

  // input, message substring, position
  const rejected: Array<[string, string, number]> = [
    // unknown fields (names are case-sensitive, own declared fields only)
    ['foo eq 1', "unknown field 'foo'", 0],
    ["nome eq 'a' and Nome eq 'b'", "unknown field 'Nome'", 16],
    ["lower(apelido) eq 'a'", "unknown field 'apelido'", 6],
    ["containing(apelido, 'a')", "unknown field 'apelido'", 11],
    ['apelido is null', "unknown field 'apelido'", 0],
    ['constructor eq 1', "unknown field 'constructor'", 0],
    ['__proto__ eq 1', "unknown field '__proto__'", 0],
    // bad operators
    ["nome like 'a'", 'expected an operator', 5],
    ["nome == 'a'", "unexpected character '='", 5],
    ["nome != 'a'", "unexpected character '!'", 5],
    ['nome', 'unexpected end of expression, expected an operator', 4],
    ["nome is 'x'", "expected 'null' or 'not null' but found a string", 8],
    ['nome is not', "unexpected end of expression, expected 'null'", 11],
    // missing literals
    ['nome eq', 'unexpected end of expression, expected a literal', 7],
    ['nome eq and idade eq 1', "expected a literal but found 'and'", 8],
    ['nome eq nome', "expected a literal but found 'nome'", 8],
    ['idade eq -', "unexpected character '-'", 9],
    ['nome eq null', "null is compared with 'is null'", 8],
    // unterminated strings
    ["nome eq 'abc", 'unterminated string starting', 8],
    ["nome eq 'it''s", 'unterminated string starting', 8],
    ["nome eq '", 'unterminated string starting', 8],
    // trailing garbage, empty expression
    ["nome eq 'a' idade", "unexpected 'idade'", 12],
    ["nome eq 'a' and", 'unexpected end of expression, expected a field', 15],
    ['idade eq 1e5', "unexpected 'e5'", 10],
    ['idade eq 1.', "unexpected character '.'", 10],
    ['', 'unexpected end of expression', 0],
    ['   ', 'unexpected end of expression', 3],
    // unbalanced parentheses
    ["(nome eq 'a'", "unexpected end of expression, expected ')'", 12],
    ["((nome eq 'a')", "unexpected end of expression, expected ')'", 14],
    ["nome eq 'a')", "unexpected ')'", 11],
    ['()', "expected a field but found ')'", 1],
    ["containing(nome, 'a'", "unexpected end of expression, expected ')'", 20],
    ["containing(nome 'a')", "expected ',' but found a string", 16],
    ["lower(nome, 'x') eq 'a'", "expected ')' but found ','", 10],
    // type mismatches
    ["idade eq '18'", "field 'idade' expects an integer", 9],
    ['idade eq 1.5', "field 'idade' expects an integer", 9],
    ['idade eq 99999999999999999999', "field 'idade' expects an integer", 9],
    // an int4 column: PostgreSQL would fail the query rather than match nothing
    ['idade eq 2147483648', "field 'idade' expects an integer from -2147483648 to 2147483647", 9],
    ['idade gt -2147483649', "field 'idade' expects an integer from -2147483648 to 2147483647", 9],
    ['idade eq true', "field 'idade' expects an integer", 9],
    ["altura eq '1.5'", "field 'altura' expects a number", 10],
    ['nome eq 18', "field 'nome' expects a string", 8],
    ["ativo eq 'true'", "field 'ativo' expects true or false", 9],
    ['ativo eq 1', "field 'ativo' expects true or false", 9],
    ['ativo lt true', "operator 'lt' does not apply to boolean field 'ativo'", 6],
    ['ativo gt true', "operator 'gt' does not apply to boolean field 'ativo'", 6],
    ['ativo le false', "operator 'le' does not apply to boolean field 'ativo'", 6],
    ['ativo ge false', "operator 'ge' does not apply to boolean field 'ativo'", 6],
    ["nascimento eq '2023-02-29'", "field 'nascimento' expects a date", 14],
    ["nascimento eq '01/02/2024'", "field 'nascimento' expects a date", 14],
    ["nascimento eq '2024-01-01T00:00:00Z'", "field 'nascimento' expects a date", 14],
    ['nascimento eq 20240101', "field 'nascimento' expects a date", 14],
    // year 0 is no date PostgreSQL reads, nor is a date-time whose offset moves it out of 0001-9999
    ["nascimento eq '0000-01-01'", "field 'nascimento' expects a date", 14],
    ["criado gt '0000-12-31T23:00:00Z'", "field 'criado' expects an ISO 8601 date-time", 10],
    ["criado gt '0001-01-01T00:30:00+01:00'", "field 'criado' expects an ISO 8601 date-time", 10],
    ["criado gt '9999-12-31T23:00:00-03:00'", "field 'criado' expects an ISO 8601 date-time", 10],
    ["criado gt '2024-01-01 10:00'", "field 'criado' expects an ISO 8601 date-time", 10],
    ["criado gt '2024-13-01T10:00:00Z'", "field 'criado' expects an ISO 8601 date-time", 10],
    ["criado gt '2024-01-01T24:00:00Z'", "field 'criado' expects an ISO 8601 date-time", 10],
    ["criado gt '2024-01-01'", "field 'criado' expects an ISO 8601 date-time", 10],
    ["id eq 'not-a-uuid'", "field 'id' expects a uuid", 6],
    [`id eq '${UUID}x'`, "field 'id' expects a uuid", 6],
    ["containing(idade, '1')", "containing applies only to text fields, not 'idade'", 11],
    ["containing(id, '0b7e')", "containing applies only to text fields, not 'id'", 11],
    ['containing(nome, 1)', 'containing expects a string literal', 17],
    ['lower(idade) eq 1', "lower applies only to text fields, not 'idade'", 6],
    ['lower(ativo) is null', "lower applies only to text fields, not 'ativo'", 6],
    // limits
    [`${longest} `, `expression longer than ${MAX_FILTER_LENGTH} characters`, MAX_FILTER_LENGTH],
    [nested(33), 'nesting deeper than 32 levels', 32],
    [nested(10_000).slice(0, MAX_FILTER_LENGTH), 'nesting deeper than 32 levels', 32],
  ];

  it.each(titled(rejected))('rejects %s', (_, input, message, position) => {
    const error = rejection(() => compileFilter(input, fields));
    expect(error.message.startsWith('Invalid filter argument: ')).toBe(true);
    expect(error.message).toContain(message);
    expect(error.message.endsWith(` at position ${position}`)).toBe(true);
  });
});

describe('compileOrderBy', () => {
  const accepted: Array<[string, string[]]> = [
    ['nome', [`${NOME} asc`]],
    ['nome desc', [`${NOME} desc`]],
    ['nome asc, idade desc', [`${NOME} asc`, `${IDADE} desc`]],
    ['idade DESC ,nome  ', [`${IDADE} desc`, `${NOME} asc`]],
    ['ativo ASC,idade,nome Desc', [`${ATIVO} asc`, `${IDADE} asc`, `${NOME} desc`]],
    ['meses desc', [`(${IDADE} * 12) desc`]],
  ];

  it.each(accepted)('%s', (input, terms) => {
    const compiled = compileOrderBy(input, fields).map(render);
    expect(compiled).toEqual(terms.map((text) => ({ text, params: [] })));
  });

  const rejected: Array<[string, string, number]> = [
    ['foo', "unknown field 'foo'", 0],
    ['nome, Idade', "unknown field 'Idade'", 6],
    ['nome up', "unexpected 'up'", 5],
    ['nome desc desc', "unexpected 'desc'", 10],
    ['nome,', 'unexpected end of expression, expected a field', 5],
    [',nome', "expected a field but found ','", 0],
    ['', 'unexpected end of expression, expected a field', 0],
    ["'nome'", 'expected a field but found a string', 0],
    ['lower(nome)', "unknown field 'lower'", 0],
    ['nome (', "unexpected '('", 5],
    [`nome${' '.repeat(MAX_FILTER_LENGTH)}`, `expression longer than ${MAX_FILTER_LENGTH} characters`, 4000],
  ];

  it.each(titled(rejected))('rejects %s', (_, input, message, position) => {
    const error = rejection(() => compileOrderBy(input, fields));
    expect(error.message.startsWith('Invalid orderby argument: ')).toBe(true);
    expect(error.message).toContain(message);
    expect(error.message.endsWith(` at position ${position}`)).toBe(true);
  });
});

describe('injection', () => {
  // One row per operator: the dangerous text reaches the database only as a bound parameter.
  const throughLiterals: Array<[string, string]> = [
    ["nome eq 'x'' or 1=1 --'", "x' or 1=1 --"],
    ["nome ne '''; drop table pessoa; --'", "'; drop table pessoa; --"],
    ["nome lt 'a'') or (''1''=''1'", "a') or ('1'='1"],
    ["nome gt '$1; select pg_sleep(10); --'", '$1; select pg_sleep(10); --'],
    ["nome le 'x\\'' or true --'", "x\\' or true --"],
    ["nome ge 'a''/**/union select * from pg_user--'", "a'/**/union select * from pg_user--"],
    ["containing(nome, ''';drop table pessoa;--')", "';drop table pessoa;--"],
    ["lower(nome) eq 'a'' or lower(nome) = lower(nome) --'", "a' or lower(nome) = lower(nome) --"],
    ["nome is null or nome eq 'x'' is null; delete from pessoa; --'", "x' is null; delete from pessoa; --"],
  ];

  it.each(throughLiterals)('%s', (input, dangerous) => {
    const { text, params } = render(compileFilter(input, fields));
    expect(text).not.toContain(dangerous);
    expect(text).not.toMatch(/['\\;]|--|\/\*/);
    expect(params.some((p) => typeof p === 'string' && p.includes(dangerous))).toBe(true);
  });

  const throughNames: Array<['filter' | 'orderby', string]> = [
    ['filter', 'nome; drop table x'],
    ['filter', "nome eq 'a'; drop table pessoa"],
    ['filter', "nome eq 'a' -- comment"],
    ['filter', '"nome" eq \'a\''],
    ['filter', "nome/**/eq 'a'"],
    ['filter', "pessoa.nome eq 'a'"],
    ['filter', '1=1'],
    ['filter', "(select nome from pessoa) eq 'a'"],
    ['filter', 'idade eq 1 or 1 eq 1'],
    ['filter', 'nome is null; drop table pessoa'],
    ['filter', "containing(nome || 'x', 'a')"],
    ['orderby', 'nome; drop table x'],
    ['orderby', 'nome desc, (select 1)'],
    ['orderby', 'nome desc; drop table pessoa'],
    ['orderby', 'idade desc, 1'],
    ['orderby', 'nome collate "C"'],
    ['orderby', 'nome desc nulls first'],
    ['orderby', '(case when 1=1 then nome end)'],
  ];

  it.each(throughNames)('%s %s is a 400', (argument, input) => {
    const compile = argument === 'filter' ? compileFilter : compileOrderBy;
    const error = rejection(() => compile(input, fields));
    expect(error.message).toMatch(new RegExp(`^Invalid ${argument} argument: .* at position \\d+$`));
  });
});

describe('against PostgreSQL (PGlite)', () => {
  let client: PGlite;
  let db: ReturnType<typeof drizzle>;
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const number = (row: { id: string }) => Number(row.id.slice(-12));

  beforeAll(async () => {
    client = await PGlite.create({ extensions: { unaccent } });
    db = drizzle({ client });
    await client.exec(`create extension unaccent; ${FOLD_FUNCTION}`);
    await client.exec(`create table pessoa (
      id uuid primary key, nome text, idade integer, ativo boolean, altura double precision,
      nascimento date, criado timestamptz)`);
    await db.insert(pessoa).values([
      {
        id: id(1),
        nome: 'Ana',
        idade: 30,
        ativo: true,
        altura: 1.62,
        nascimento: '1994-05-01',
        criado: new Date('2024-01-10T10:00:00Z'),
      },
      {
        id: id(2),
        nome: "D'Avila",
        idade: 17,
        ativo: false,
        altura: 1.8,
        nascimento: '2007-02-10',
        criado: new Date('2024-03-01T00:00:00Z'),
      },
      { id: id(3), nome: '50% de desconto', idade: 45, ativo: true },
      { id: id(4), nome: '500 reais', idade: 50, ativo: false },
      { id: id(5), nome: 'a_b', idade: 20, ativo: true },
      { id: id(6), nome: 'axb', idade: 21 },
      { id: id(7), nome: 'C:\\temp', idade: 22 },
      { id: id(8) },
      { id: id(9), nome: 'Conceição', ativo: false },
    ]);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
  });

  // filter, the rows it selects
  const cases: Array<[string, number[]]> = [
    ["containing(nome, '50%')", [3]],
    ["containing(nome, '50')", [3, 4]],
    ["containing(nome, 'a_b')", [5]],
    ["containing(nome, ':\\')", [7]],
    ["containing(nome, 'ANA')", [1]],
    // case and accents aside, on both sides (search.ts)
    ["containing(nome, 'conceicao')", [9]],
    ["containing(nome, 'ÇÃO')", [9]],
    ["containing(nome, 'Conceição')", [9]],
    ["nome eq 'D''Avila'", [2]],
    ["lower(nome) eq 'ana' or idade lt 18", [1, 2]],
    ["ativo eq true and (idade ge 40 or nome eq 'Ana')", [1, 3]],
    ['idade gt 20 and idade le 22', [6, 7]],
    ['idade ne 30', [2, 3, 4, 5, 6, 7]],
    ['nome is null', [8]],
    ['ativo is null', [6, 7, 8]],
    ['altura gt 1.7', [2]],
    ["nascimento lt '2000-01-01'", [1]],
    ["criado ge '2024-02-01T00:00:00-03:00'", [2]],
    [`id eq '${id(4)}'`, [4]],
    ['meses ge 600', [4]],
    // the limits the compiler lets through are values PostgreSQL takes
    ['idade lt 2147483647 and idade gt -2147483648', [1, 2, 3, 4, 5, 6, 7]],
    ["nascimento gt '0001-01-01' and nascimento lt '9999-12-31'", [1, 2]],
    ["criado gt '0001-01-01T01:00:00+01:00' and criado lt '9999-12-31T20:59:59-03:00'", [1, 2]],
    ["nome eq 'x'' or 1=1 --'", []],
  ];

  it.each(cases)('%s', async (filter, expected) => {
    const rows = await db.select().from(pessoa).where(compileFilter(filter, fields));
    expect(rows.map(number).sort((a, b) => a - b)).toEqual(expected);
  });

  it('orders by the compiled terms', async () => {
    const rows = await db
      .select()
      .from(pessoa)
      .where(compileFilter('ativo is not null', fields))
      .orderBy(...compileOrderBy('ativo desc, idade', fields));
    expect(rows.map(number)).toEqual([5, 1, 3, 2, 4, 9]);
  });
});
