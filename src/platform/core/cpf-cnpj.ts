// Brazilian taxpayer numbers, one algorithm for every service: a CPF (a person, 11 digits) and a
// CNPJ (a company, 14 digits), each ending in two check digits computed modulo 11 from the digits
// before them (Receita Federal's rule). yms/agenda checks its partners' CPF or CNPJ with it, yms/patio
// a plant's CNPJ and a driver's CPF; tests make valid numbers with the same functions.

/** Only the digits: `12.345.678/0001-95` → `12345678000195`. */
export const digitos = (value: string): string => value.replace(/\D/g, '');

/** The check digit of `base`: the sum of its digits times `pesos`, modulo 11 (0 or 1 give 0). */
function digitoVerificador(base: string, pesos: number[]): number {
  const soma = pesos.reduce((s, p, i) => s + p * Number(base[i]), 0) % 11;
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

/** The CNPJ of the 12-digit base (8 of the company, 4 of the branch): the base and its two check digits. */
export function comDigitosCnpj(base: string): string {
  if (!/^\d{12}$/.test(base)) throw new Error(`A CNPJ base is 12 digits: ${base}`);
  return comDigitos(base, PESOS_CNPJ);
}

/** Repeated digits (000.000.000-00, 11.111.111/1111-11) pass the arithmetic but are no one's number. */
const repetido = (doc: string) => /^(\d)\1+$/.test(doc);

/** Whether `doc` is 11 digits with a CPF's check digits (punctuation is not accepted here: strip it first). */
export const cpfValido = (doc: string): boolean =>
  /^\d{11}$/.test(doc) && !repetido(doc) && comDigitosCpf(doc.slice(0, 9)) === doc;

/** Whether `doc` is 14 digits with a CNPJ's check digits (punctuation is not accepted here: strip it first). */
export const cnpjValido = (doc: string): boolean =>
  /^\d{14}$/.test(doc) && !repetido(doc) && comDigitosCnpj(doc.slice(0, 12)) === doc;

/** Whether `doc` is a valid CPF (11 digits) or CNPJ (14 digits). */
export const cpfOuCnpjValido = (doc: string): boolean => cpfValido(doc) || cnpjValido(doc);
