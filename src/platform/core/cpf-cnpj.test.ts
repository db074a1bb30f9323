import { describe, expect, it } from 'vitest';
import {
  cnpjValido,
  comDigitosCnpj,
  comDigitosCpf,
  cpfOuCnpjValido,
  cpfValido,
  semPontuacao,
} from './cpf-cnpj.ts';

// The check digits of a CPF and a CNPJ as a table: number, CPF?, CNPJ?. The valid ones are numbers
// published as examples (Receita Federal's CPF 529.982.247-25, the CNPJ 11.222.333/0001-81 of
// every validator's tests); each invalid one differs from a valid one by a check digit, or is made
// of one repeated digit (which the arithmetic alone would take). The alphanumeric CNPJ (new numbers
// since July 2026) is the Receita's published example 12.ABC.345/01DE-35.
const rows: Array<[string, boolean, boolean]> = [
  ['52998224725', true, false],
  ['12345678909', true, false],
  ['11144477735', true, false],
  ['98765432100', true, false],
  ['52998224724', false, false],
  ['12345678901', false, false],
  ['00000000000', false, false],
  ['11111111111', false, false],
  ['11222333000181', false, true],
  ['11444777000161', false, true],
  ['12345678000195', false, true],
  ['11222333000182', false, false],
  ['11222333000191', false, false],
  ['12345678000190', false, false],
  ['00000000000000', false, false],
  ['99999999999999', false, false],
  ['5299822472', false, false],
  ['112223330001811', false, false],
  ['529.982.247-25', false, false], // punctuation is stripped by the caller (semPontuacao), not accepted here
  ['12ABC34501DE35', false, true],
  ['12ABC34501DE36', false, false],
  ['12abc34501de35', false, false], // upper case is the caller's too
  ['12ABC34501DEA5', false, false], // the check digits are digits
  ['52998224A25', false, false],
  ['AAAAAAAAAAAAAA', false, false],
  ['', false, false],
];

describe('CPF and CNPJ check digits', () => {
  it.each(rows)('%s: CPF %s, CNPJ %s', (doc, cpf, cnpj) => {
    expect(cpfValido(doc)).toBe(cpf);
    expect(cnpjValido(doc)).toBe(cnpj);
    expect(cpfOuCnpjValido(doc)).toBe(cpf || cnpj);
  });

  it('makes the check digits of a base, and every number it makes is valid', () => {
    expect(comDigitosCpf('529982247')).toBe('52998224725');
    expect(comDigitosCnpj('112223330001')).toBe('11222333000181');
    expect(comDigitosCnpj('12ABC34501DE')).toBe('12ABC34501DE35');
    for (let i = 0; i < 1000; i++) {
      const base = String(100_000_000 + i * 899_123).slice(-9);
      expect(cpfValido(comDigitosCpf(base)) || /^(\d)\1+$/.test(base)).toBe(true);
      expect(cnpjValido(comDigitosCnpj(`${base.slice(0, 8)}0001`))).toBe(true);
    }
    expect(() => comDigitosCpf('12345678')).toThrow(/9 digits/);
    expect(() => comDigitosCnpj('1234567800019')).toThrow(/12 digits or letters/);
  });

  it('semPontuacao strips the punctuation and raises the letters, and keeps anything else', () => {
    expect(semPontuacao('11.222.333/0001-81')).toBe('11222333000181');
    expect(semPontuacao('529.982.247-25')).toBe('52998224725');
    expect(semPontuacao('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(semPontuacao('529.982.247-25x')).toBe('52998224725X');
  });
});
