// Brazilian taxpayer numbers, one algorithm for every service: a CPF (a person, 11 digits) and a
// CNPJ (a company, 14 characters), each ending in two check digits computed modulo 11 from the
// characters before them (Receita Federal's rule). Since July 2026 new CNPJs are alphanumeric: the
// first 12 characters may be letters (A-Z), each worth its ASCII code minus 48 in the sum (a digit
// is worth itself, so the numeric CNPJs keep their check digits), the last two still digits
// (Instrução Normativa RFB 2.229/2024). yms/agenda checks its partners' CPF or CNPJ with it,
// yms/patio a plant's CNPJ and a driver's CPF; tests make valid numbers with the same functions.

/**
 * The number as stored: without its punctuation, letters upper case (`12.ABC.345/01DE-35` →
 * `12ABC34501DE35`, `529.982.247-25` → `52998224725`). Anything else it holds stays, so the check
 * refuses it (a stray letter in a CPF is not silently dropped).
 */
export const semPontuacao = (value: string): string => value.replace(/[.\-/\s]/g, '').toUpperCase();

/** A CPF as people write it: 11 digits, punctuation optional. */
export const CPF_ESCRITO = '\\d{3}\\.?\\d{3}\\.?\\d{3}-?\\d{2}';
/** A CNPJ as people write it, numeric or alphanumeric: 12 digits or letters and 2 digits, punctuation optional. */
export const CNPJ_ESCRITO = '[0-9A-Za-z]{2}\\.?[0-9A-Za-z]{3}\\.?[0-9A-Za-z]{3}/?[0-9A-Za-z]{4}-?\\d{2}';

/** What a character counts in the sum: its ASCII code minus 48 (0-9 → 0-9, A-Z → 17-42). */
const valor = (c: string) => c.charCodeAt(0) - 48;

/** The check digit of `base`: the sum of its characters' values times `pesos`, modulo 11 (0 or 1 give 0). */
function digitoVerificador(base: string, pesos: number[]): number {
  const soma = pesos.reduce((s, p, i) => s + p * valor(base[i] as string), 0) % 11;
  return soma < 2 ? 0 : 11 - soma;
}

const PESOS_CPF = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const PESOS_CNPJ = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** The base and its two check digits: each from the digits before it, with the weights' last as many. */
function comDigitos(base: string, pesos: number[]): string {
  const com = `${base}${digitoVerificador(base, pesos.slice(pesos.length - base.length))}`;
  return `${com}${digitoVerificador(com, pesos.slice(pesos.length - com.length))}`;
}

/** The CPF of the 9-digit base: the base and its two check digits. */
export function comDigitosCpf(base: string): string {
  if (!/^\d{9}$/.test(base)) throw new Error(`A CPF base is 9 digits: ${base}`);
  return comDigitos(base, PESOS_CPF);
}

/** The CNPJ of the 12-character base (8 of the company, 4 of the branch; digits or A-Z): the base and its two check digits. */
export function comDigitosCnpj(base: string): string {
  if (!/^[0-9A-Z]{12}$/.test(base)) throw new Error(`A CNPJ base is 12 digits or letters: ${base}`);
  return comDigitos(base, PESOS_CNPJ);
}

/** Repeated digits (000.000.000-00, 11.111.111/1111-11) pass the arithmetic but are no one's number. */
const repetido = (doc: string) => /^(\d)\1+$/.test(doc);

/** Whether `doc` is 11 digits with a CPF's check digits (punctuation is not accepted here: strip it first). */
export const cpfValido = (doc: string): boolean =>
  /^\d{11}$/.test(doc) && !repetido(doc) && comDigitosCpf(doc.slice(0, 9)) === doc;

/**
 * Whether `doc` is a CNPJ with its check digits: 12 digits or upper-case letters, then 2 digits
 * (punctuation is not accepted here: semPontuacao first).
 */
export const cnpjValido = (doc: string): boolean =>
  /^[0-9A-Z]{12}\d{2}$/.test(doc) && !repetido(doc) && comDigitosCnpj(doc.slice(0, 12)) === doc;

/** Whether `doc` is a valid CPF (11 digits) or CNPJ (14 characters). */
export const cpfOuCnpjValido = (doc: string): boolean => cpfValido(doc) || cnpjValido(doc);
