import { describe, expect, it } from 'vitest';
import { fitsMask, isoDate, maskBounds, maskRule } from './masks.ts';
import { Type } from './schema.ts';
import { validate } from './validation.ts';

// The ERP edit masks as a table: mask, value, fits.
const rows: Array<[string, unknown, boolean]> = [
  ['U[14]', 'ABC-123', true],
  ['U[14]', '', true],
  ['U[14]', 'ABCDEFGHIJKLMN', true],
  ['U[14]', 'ABCDEFGHIJKLMNO', false],
  ['U[14]', 'Abc', false],
  ['U[14]', 'ÇÃO', true],
  ['U[14]', 'ção', false],
  ['U[14]', 14, true], // another type: the schema's type refuses it
  ['ZZZ9', 0, true],
  ['ZZZ9', 9999, true],
  ['ZZZ9', 10000, false],
  ['ZZZ9', -1, false],
  ['ZZZ9', 1.5, false],
  ['ZZZ.ZZ9', 999999, true],
  ['ZZZ.ZZ9', 1000000, false],
  ['ZZZ.ZZZ.ZZ9,9[5]', 999999999.99999, true],
  ['ZZZ.ZZZ.ZZ9,9[5]', 1000000000, false],
  ['ZZZ.ZZZ.ZZ9,9[5]', 1.123456, false],
  ['ZZZ.ZZZ.ZZ9,9[5]', 0.1, true],
  ['DD/MM/YYYY', '29/02/2024', true],
  ['DD/MM/YYYY', '29/02/2025', false],
  ['DD/MM/YYYY', '31/04/2026', false],
  ['DD/MM/YYYY', '2026-12-31', true],
  ['DD/MM/YYYY', '2026-13-01', false],
  ['DD/MM/YYYY', '1/2/2026', false],
  ['#(40,2)#', `${'a'.repeat(40)}\n${'b'.repeat(40)}`, true],
  ['#(40,2)#', 'a'.repeat(41), false],
  ['#(40,2)#', 'a\nb\nc', false],
];

describe('masks', () => {
  it.each(rows)('%s %j → %s', (mask, value, fits) => {
    expect(fitsMask(mask, value)).toBe(fits);
  });
  it('reads DD/MM/YYYY as ISO', () => {
    expect(isoDate('05/11/2026')).toBe('2026-11-05');
    expect(isoDate('2026-11-05')).toBe('2026-11-05');
  });
  it('says each rule in words', () => {
    expect(maskRule('ZZZ9')).toBe('an integer from 0 to 9999');
    expect(maskRule('ZZZ.ZZZ.ZZ9,9[5]')).toBe('a number >= 0 with at most 9 integer and 5 decimal digits');
    expect(maskRule('U[7]')).toBe('upper-case text of at most 7 characters');
  });
  it('is a schema keyword: the message names the field and the mask', () => {
    const schema = Type.Object({ codigoProduto: Type.String({ 'x-mask': 'U[14]' }) });
    expect(() => validate(schema, { codigoProduto: 'abc' })).toThrow(
      "field 'codigoProduto' must follow the mask U[14] (upper-case text of at most 14 characters)",
    );
    expect(validate(schema, { codigoProduto: 'ABC' })).toEqual({ codigoProduto: 'ABC' });
  });
});

describe('maskBounds', () => {
  it('states what JSON Schema can say of a mask, for the documents', () => {
    expect(maskBounds('U[14]')).toEqual({ maxLength: 14 });
    expect(maskBounds('ZZZ9')).toEqual({ minimum: 0, maximum: 9999 });
    expect(maskBounds('ZZZ.ZZZ.ZZ9,9[5]')).toEqual({ minimum: 0, maximum: 999999999.99999 });
    for (const mask of ['DD/MM/YYYY', '#(40,2)#', 'unknown']) expect(maskBounds(mask)).toEqual({});
    // Every value the bounds let through the mask may still refuse; none they refuse fits it.
    expect(fitsMask('ZZZ9', 10000)).toBe(false);
    expect(fitsMask('U[14]', 'A'.repeat(15))).toBe(false);
  });
});
