import { describe, expect, it } from 'vitest';
import { CEP_PATTERN, cepDigits, cepOfSearch } from './cep.ts';

describe('CEP', () => {
  const pattern = new RegExp(CEP_PATTERN);

  it.each(['13140-000', '13140000', '13.140-000', '13.140000'])('accepts %s, stored as 13140000', (cep) => {
    expect(pattern.test(cep)).toBe(true);
    expect(cepDigits(cep)).toBe('13140000');
  });

  it.each(['1314-0000', '13140-00', '131400000', '13140 000', '1.3140-000', '13140-000 ', 'ABCDE-FGH', ''])(
    'refuses %j',
    (cep) => expect(pattern.test(cep)).toBe(false),
  );

  it('looks a search text written like part of a CEP up by its digits; other text is no CEP', () => {
    expect(cepOfSearch('13140-000')).toBe('13140000');
    expect(cepOfSearch('13.140')).toBe('13140');
    expect(cepOfSearch('140-0')).toBe('1400');
    expect(cepOfSearch('Rua 13')).toBeUndefined();
    expect(cepOfSearch('50%')).toBeUndefined();
    expect(cepOfSearch('-')).toBeUndefined();
  });
});
