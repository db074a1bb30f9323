import { asc, desc, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { errors } from '../errors.ts';
import { MAX_INTEGER } from '../storable.ts';
import type { FilterField, FilterFields } from './fields.ts';
import { integerLimit, isDate, isDateTime, isUuid } from './literals.ts';
import { containsTextScanned } from './search.ts';

// The list query language of generic entities (DESIGN.md "Persistence"): `filter` and `orderby` of
// `GET .../entities/<e>`. A tokenizer, a recursive-descent parser to a small AST, and a compiler
// from that AST to drizzle SQL. Every literal becomes a bound parameter; column references come
// only from the declared fields, so no text of the expression ever reaches the SQL itself.

export const MAX_FILTER_LENGTH = 4000;
const MAX_DEPTH = 32;

type Argument = 'filter' | 'orderby';

function invalid(argument: Argument, detail: string, pos: number): never {
  throw errors.badRequest(`Invalid ${argument} argument: ${detail} at position ${pos}`);
}

// ---- Tokenizer ----

interface Token {
  kind: 'ident' | 'string' | 'number' | '(' | ')' | ',' | 'end';
  /** The source text of the token; for a string, its decoded value. */
  text: string;
  pos: number;
}

const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{N}_]/u;
const NUMBER = /-?\d+(?:\.\d+)?/y;

function tokenize(source: string, argument: Argument): Token[] {
  if (source.length > MAX_FILTER_LENGTH) {
    invalid(argument, `expression longer than ${MAX_FILTER_LENGTH} characters`, MAX_FILTER_LENGTH);
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const pos = i;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: c, text: c, pos });
      i++;
    } else if (c === "'") {
      // A quote inside a string is written twice: 'D''Avila'.
      let value = '';
      for (i++; ; i++) {
        if (i >= source.length) invalid(argument, 'unterminated string starting', pos);
        if (source[i] === "'") {
          if (source[i + 1] !== "'") break;
          i++;
        }
        value += source[i];
      }
      i++;
      tokens.push({ kind: 'string', text: value, pos });
    } else if (/[-\d]/.test(c)) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(source);
      if (!match) invalid(argument, `unexpected character '${c}'`, pos);
      i += match[0].length;
      tokens.push({ kind: 'number', text: match[0], pos });
    } else if (IDENT_START.test(c)) {
      while (i < source.length && IDENT_PART.test(source[i]!)) i++;
      tokens.push({ kind: 'ident', text: source.slice(pos, i), pos });
    } else {
      invalid(argument, `unexpected character '${c}'`, pos);
    }
  }
  tokens.push({ kind: 'end', text: '', pos: source.length });
  return tokens;
}

function describe(token: Token): string {
  if (token.kind === 'string') return 'a string';
  return `'${token.text}'`;
}

// ---- Parser ----

const OPERATORS = { eq: '=', ne: '<>', lt: '<', gt: '>', le: '<=', ge: '>=' } as const;
type Operator = keyof typeof OPERATORS;

interface Operand {
  field: string;
  lower: boolean;
  pos: number;
}
type Literal =
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'number'; value: number; text: string; pos: number }
  | { kind: 'boolean'; value: boolean; pos: number }
  | { kind: 'null'; pos: number };
type Node =
  | { kind: 'and' | 'or'; items: Node[] }
  | { kind: 'compare'; operand: Operand; op: Operator; opPos: number; literal: Literal }
  | { kind: 'isNull'; operand: Operand; negated: boolean }
  | { kind: 'containing'; operand: Operand; literal: Literal; pos: number };

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly argument: Argument,
  ) {}

  peek(): Token {
    return this.tokens[this.index]!;
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index++;
    return token;
  }

  /** Consumes the next token when it is the keyword `word` (keywords are case-insensitive). */
  keyword(word: string): boolean {
    const token = this.peek();
    if (token.kind !== 'ident' || token.text.toLowerCase() !== word) return false;
    this.index++;
    return true;
  }

  /** A token followed by `(`: the start of a function call such as `lower(`. */
  call(name: string): boolean {
    const token = this.peek();
    if (token.kind !== 'ident' || token.text.toLowerCase() !== name) return false;
    if (this.tokens[this.index + 1]?.kind !== '(') return false;
    this.index += 2;
    return true;
  }

  fail(expected: string, token = this.peek()): never {
    if (token.kind === 'end')
      invalid(this.argument, `unexpected end of expression, expected ${expected}`, token.pos);
    invalid(this.argument, `expected ${expected} but found ${describe(token)}`, token.pos);
  }

  expect(kind: Token['kind'], expected: string): Token {
    if (this.peek().kind !== kind) this.fail(expected);
    return this.next();
  }

  finish(): void {
    const token = this.peek();
    if (token.kind !== 'end') invalid(this.argument, `unexpected ${describe(token)}`, token.pos);
  }

  /** expression := conjunction ('or' conjunction)* — `and` binds tighter than `or`. */
  expression(): Node {
    const items = [this.conjunction()];
    while (this.keyword('or')) items.push(this.conjunction());
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  }

  conjunction(): Node {
    const items = [this.primary()];
    while (this.keyword('and')) items.push(this.primary());
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  primary(): Node {
    const token = this.peek();
    if (token.kind === '(') {
      if (++this.depth > MAX_DEPTH)
        invalid(this.argument, `nesting deeper than ${MAX_DEPTH} levels`, token.pos);
      this.next();
      const inner = this.expression();
      this.expect(')', "')'");
      this.depth--;
      return inner;
    }
    if (this.call('containing')) {
      const operand = this.operand();
      this.expect(',', "','");
      const literal = this.literal();
      this.expect(')', "')'");
      return { kind: 'containing', operand, literal, pos: token.pos };
    }
    const operand = this.operand();
    if (this.keyword('is')) {
      const negated = this.keyword('not');
      if (!this.keyword('null')) this.fail(negated ? "'null'" : "'null' or 'not null'");
      return { kind: 'isNull', operand, negated };
    }
    const opToken = this.peek();
    const op = opToken.kind === 'ident' ? opToken.text.toLowerCase() : '';
    if (!Object.hasOwn(OPERATORS, op)) this.fail('an operator (eq, ne, lt, gt, le, ge, is)');
    this.next();
    return { kind: 'compare', operand, op: op as Operator, opPos: opToken.pos, literal: this.literal() };
  }

  /** operand := field | lower '(' field ')' */
  operand(): Operand {
    if (this.call('lower')) {
      const field = this.expect('ident', 'a field');
      this.expect(')', "')'");
      return { field: field.text, lower: true, pos: field.pos };
    }
    const field = this.expect('ident', 'a field');
    return { field: field.text, lower: false, pos: field.pos };
  }

  literal(): Literal {
    const token = this.peek();
    const word = token.kind === 'ident' ? token.text.toLowerCase() : '';
    if (token.kind === 'string') {
      this.next();
      return { kind: 'string', value: token.text, pos: token.pos };
    }
    if (token.kind === 'number') {
      this.next();
      return { kind: 'number', value: Number(token.text), text: token.text, pos: token.pos };
    }
    if (word === 'true' || word === 'false' || word === 'null') {
      this.next();
      return word === 'null'
        ? { kind: 'null', pos: token.pos }
        : { kind: 'boolean', value: word === 'true', pos: token.pos };
    }
    this.fail('a literal');
  }
}

// ---- Compiler ----

class Compiler {
  constructor(private readonly fields: FilterFields) {}

  fail(detail: string, pos: number): never {
    invalid('filter', detail, pos);
  }

  node(node: Node): SQL {
    switch (node.kind) {
      case 'and':
        return sql.join(
          node.items.map((item) => this.node(item)),
          sql` and `,
        );
      case 'or':
        // Parenthesized so that an `or` group keeps its precedence wherever it is embedded.
        return sql`(${sql.join(
          node.items.map((item) => this.node(item)),
          sql` or `,
        )})`;
      case 'isNull':
        return node.negated
          ? sql`${this.operand(node.operand)} is not null`
          : sql`${this.operand(node.operand)} is null`;
      case 'containing': {
        const column = this.operand(node.operand, 'containing');
        if (node.literal.kind !== 'string') {
          this.fail('containing expects a string literal', node.literal.pos);
        }
        // Entity lists read their table under the tenant policy: no trigram index can serve this.
        return containsTextScanned(column, node.literal.value);
      }
      case 'compare':
        return this.compare(node);
    }
  }

  field(operand: Operand): FilterField {
    // Own properties only: `constructor` or `__proto__` are not fields.
    const field = Object.hasOwn(this.fields, operand.field) ? this.fields[operand.field] : undefined;
    if (!field) this.fail(`unknown field '${operand.field}'`, operand.pos);
    return field;
  }

  operand(operand: Operand, use?: string): SQL | AnyPgColumn {
    const field = this.field(operand);
    if ((operand.lower || use) && field.type !== 'string') {
      this.fail(
        `${operand.lower ? 'lower' : use} applies only to text fields, not '${operand.field}'`,
        operand.pos,
      );
    }
    return operand.lower ? sql`lower(${field.column})` : field.column;
  }

  compare(node: Extract<Node, { kind: 'compare' }>): SQL {
    const { operand, op, literal } = node;
    const field = this.field(operand);
    const column = this.operand(operand);
    if (field.type === 'boolean' && op !== 'eq' && op !== 'ne') {
      this.fail(`operator '${op}' does not apply to boolean field '${operand.field}'`, node.opPos);
    }
    const value = this.value(operand.field, field, literal);
    return sql`${column} ${sql.raw(OPERATORS[op])} ${value}`;
  }

  /** The literal checked against the field's type, as the value to bind. */
  value(name: string, { type, column }: FilterField, literal: Literal): string | number | boolean {
    const mismatch = (expected: string): never =>
      this.fail(`field '${name}' expects ${expected}`, literal.pos);
    if (literal.kind === 'null') this.fail("null is compared with 'is null' or 'is not null'", literal.pos);
    switch (type) {
      case 'string':
        return literal.kind === 'string' ? literal.value : mismatch('a string');
      case 'boolean':
        return literal.kind === 'boolean' ? literal.value : mismatch('true or false');
      case 'number':
        return literal.kind === 'number' && Number.isFinite(literal.value)
          ? literal.value
          : mismatch('a number');
      case 'integer': {
        const max = integerLimit(column);
        // Beyond the column's width PostgreSQL fails the query (22003) instead of matching nothing.
        return literal.kind === 'number' &&
          Number.isSafeInteger(literal.value) &&
          !literal.text.includes('.') &&
          literal.value >= -max - 1 &&
          literal.value <= max
          ? literal.value
          : mismatch(max === MAX_INTEGER ? 'an integer' : `an integer from ${-max - 1} to ${max}`);
      }
      case 'date':
        return literal.kind === 'string' && isDate(literal.value)
          ? literal.value
          : mismatch("a date 'YYYY-MM-DD' of the years 0001 to 9999");
      case 'datetime':
        return literal.kind === 'string' && isDateTime(literal.value)
          ? literal.value
          : mismatch('an ISO 8601 date-time string of the years 0001 to 9999');
      case 'uuid':
        return literal.kind === 'string' && isUuid(literal.value) ? literal.value : mismatch('a uuid string');
    }
  }
}

/** Compiles a `filter` expression to a WHERE fragment; a 400 names what is wrong and where. */
export function compileFilter(expression: string, fields: FilterFields): SQL {
  const parser = new Parser(tokenize(expression, 'filter'), 'filter');
  const tree = parser.expression();
  parser.finish();
  return new Compiler(fields).node(tree);
}

/** Compiles `orderby` (`nome asc, idade desc`; ascending by default) to ORDER BY terms. */
export function compileOrderBy(expression: string, fields: FilterFields): SQL[] {
  const parser = new Parser(tokenize(expression, 'orderby'), 'orderby');
  const terms: SQL[] = [];
  for (;;) {
    const token = parser.expect('ident', 'a field');
    const field = Object.hasOwn(fields, token.text) ? fields[token.text] : undefined;
    if (!field) invalid('orderby', `unknown field '${token.text}'`, token.pos);
    const descending = parser.keyword('desc');
    if (!descending) parser.keyword('asc');
    terms.push(descending ? desc(field.column) : asc(field.column));
    if (parser.peek().kind !== ',') break;
    parser.next();
  }
  parser.finish();
  return terms;
}
