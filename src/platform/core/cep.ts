import { Type } from './schema.ts';

// The Brazilian postal code (CEP), shared by every service that stores an address (yms/patio's
// endereco, erp_agr/com_comum's pessoaEndereco). People write it `13140-000`, `13140000` or
// `13.140-000`; it is stored as its 8 digits, so one CEP is one value whatever way it came in
// (an equality, a search and an import's natural key all see the same text).

/** The written forms accepted: 8 digits, with the dot after the second and the dash before the last three optional. */
export const CEP_PATTERN = '^\\d{2}\\.?\\d{3}-?\\d{3}$';

/** A CEP field: what the pattern accepts, stored as the 8 digits (normalise with `cepDigits`). */
export const Cep = (
  description = 'CEP, 8 digits; written 13140000, 13140-000 or 13.140-000; stored as digits',
) => Type.String({ pattern: CEP_PATTERN, description });

/** The 8 digits of a CEP as written (the schema has already refused one that is not a CEP). */
export const cepDigits = (cep: string): string => cep.replace(/\D/g, '');

/**
 * The digits to look a CEP up by, when a search text is written like (part of) a CEP: only digits,
 * dots, dashes and spaces, at least one digit (`13140-000`, `13.140`). Undefined for any other text.
 */
export function cepOfSearch(text: string): string | undefined {
  if (!/^[\d.\-\s]+$/.test(text)) return undefined;
  const digits = text.replace(/\D/g, '');
  return digits || undefined;
}
