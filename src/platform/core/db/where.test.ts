import { eq, gte, inArray, sql } from 'drizzle-orm';
import { bigint, boolean, PgDialect, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { fill, placeholder, Where } from './where.ts';

const t = pgTable('t', {
  tenant: text('tenant').notNull(),
  id: uuid('id').notNull(),
  quando: timestamp('quando', { withTimezone: true, mode: 'date' }),
  codigo: bigint('codigo', { mode: 'number' }),
  nome: text('nome'),
  ativo: boolean('ativo'),
});
const dialect = new PgDialect();

interface Filtros {
  id?: string;
  desde?: Date;
  codigos?: number[];
  nome?: string;
  ativo?: boolean;
  dia?: { data: string; fuso: string };
  texto?: string;
}

const where = (f: Filtros) =>
  Where.all()
    .value('id', f.id, (v) => eq(t.id, v))
    .value('desde', f.desde, (v) => gte(t.quando, v))
    .list('codigos', f.codigos, (vs) => inArray(t.codigo, vs))
    .value('nome', f.nome, (v) => sql`${t.nome} ilike ${v}`)
    .value('ativo', f.ativo, (v) => eq(t.ativo, v))
    .record(
      'dia',
      f.dia,
      ({ data, fuso }) => sql`${t.quando} >= (${data}::date::timestamp at time zone ${fuso})`,
    )
    .any('texto', (any) => {
      if (f.texto === undefined) return;
      any.value('texto', `%${f.texto}%`, (v) => sql`${t.nome} like ${v}`);
      if (/^\d+$/.test(f.texto)) any.value('codigoTexto', Number(f.texto), (v) => eq(t.codigo, v));
    });

const cases: Filtros[] = [
  {},
  { id: '0b6c3f3e-2f4e-4a53-9d59-6d1f6d8a1a11' },
  { desde: new Date('2026-11-27T10:00:00.123Z'), codigos: [3, 1, 2] },
  { nome: '%ab\\_%', ativo: false, dia: { data: '2026-11-27', fuso: 'America/Sao_Paulo' } },
  { texto: '42', codigos: [7] },
  { texto: 'abc', ativo: true, desde: new Date(0) },
];

describe('Where: a WHERE rendered once per shape', () => {
  it.each(cases)('renders the text and values drizzle renders with the values in place (%o)', (f) => {
    const direct = where(f).build();
    const w = where(f);
    const shaped = w.build(placeholder);
    if (!direct) return expect(shaped).toBeUndefined();
    const expected = dialect.sqlToQuery(direct);
    const rendered = dialect.sqlToQuery(shaped!);
    expect(rendered.sql).toBe(expected.sql);
    expect(fill(rendered.params, w.values)).toEqual(expected.params);
  });

  it('keys the shape by its conditions and list lengths, never by the values', () => {
    const key = (f: Filtros) => where(f).key;
    expect(key({ id: 'a', codigos: [1, 2] })).toBe(key({ id: 'b', codigos: [5, 6] }));
    expect(key({ id: 'a', codigos: [1, 2] })).not.toBe(key({ id: 'a', codigos: [1] }));
    expect(key({ id: 'a' })).not.toBe(key({ nome: 'a' }));
    expect(key({ texto: 'abc' })).not.toBe(key({ texto: '123' }));
    expect(key({ codigos: [] })).toBe(key({}));
    expect(key({ dia: { data: 'a', fuso: 'b' } })).toBe(key({ dia: { data: 'c', fuso: 'd' } }));
    expect(Where.all().record('r', { a: 1 }, () => sql`true`).key).not.toBe(
      Where.all().record('r', { b: 1 }, () => sql`true`).key,
    );
    // One shape, one text: the text a first request rendered serves every later one.
    const a = where({ texto: '12', desde: new Date(1) });
    const b = where({ texto: '99', desde: new Date(2) });
    expect(a.key).toBe(b.key);
    expect(dialect.sqlToQuery(a.build(placeholder)!).sql).toBe(dialect.sqlToQuery(b.build(placeholder)!).sql);
    expect(fill(dialect.sqlToQuery(a.build(placeholder)!).params, b.values)).toEqual(
      dialect.sqlToQuery(b.build()!).params,
    );
  });

  it('puts a condition first with within, leaving the shape as it was', () => {
    const inner = where({ id: 'x' });
    const outer = inner.within('tenant', 'acme', (v) => eq(t.tenant, v));
    expect(outer.values).toEqual({ tenant: 'acme', id: 'x' });
    expect(inner.values).toEqual({ id: 'x' });
    expect(outer.key).toBe(`tenant,(${inner.key})`);
    expect(dialect.sqlToQuery(outer.build()!).sql).toBe('("t"."tenant" = $1 and "t"."id" = $2)');
    expect(
      dialect.sqlToQuery(
        Where.all()
          .within('tenant', 'acme', (v) => eq(t.tenant, v))
          .build()!,
      ).sql,
    ).toBe('"t"."tenant" = $1');
  });

  it('refuses two values of one name', () => {
    expect(() =>
      Where.all()
        .value('a', 1, (v) => eq(t.codigo, v))
        .value('a', 2, (v) => eq(t.codigo, v)),
    ).toThrow(/two values named a/);
  });

  it('a constant condition is part of the key; an absent one is not', () => {
    expect(Where.all().constant('nada', sql`false`).key).toBe('nada');
    expect(Where.all().constant('nada', undefined).key).toBe('');
  });
});
