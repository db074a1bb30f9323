import type { Ctx } from '../../../platform/core/declarations.ts';
import { ApiError } from '../../../platform/core/errors.ts';
import type { Alcance } from './rotinas-escopo.ts';

// What a routine is (docs/patio.md "Conditions and commands"): its kinds, a condition's operators
// and comparisons, how a built-in declares its parameters and its run, the parts of a tenant's own,
// and the outcome of a run.

export type TipoRotina = 'CONDICAO' | 'COMANDO';
export const TIPOS_ROTINA = ['CONDICAO', 'COMANDO'] as const;
export const OPERADORES = ['TODAS', 'ALGUMA'] as const;
export const COMPARACOES = [
  'IGUAL',
  'DIFERENTE',
  'MAIOR',
  'MAIOR_IGUAL',
  'MENOR',
  'MENOR_IGUAL',
  'CONTEM',
  'EXISTE',
  'NAO_EXISTE',
] as const;

export interface Parametro {
  nome: string;
  tipo: 'texto' | 'uuid' | 'url' | 'opcao';
  obrigatorio: boolean;
  descricao: string;
  valores?: string[];
}

export type Params = Record<string, string>;

export interface Builtin<R> {
  descricao: string;
  parametros: Parametro[];
  run: (ctx: Ctx, alcance: Alcance, params: Params) => Promise<R>;
}
export type Avaliacao = { resultado: boolean; mensagem: string };
export type Efeito = { mensagem: string };

export const p = (
  nome: string,
  tipo: Parametro['tipo'],
  obrigatorio: boolean,
  descricao: string,
  valores?: readonly string[],
): Parametro => ({ nome, tipo, obrigatorio, descricao, ...(valores ? { valores: [...valores] } : {}) });

export interface Parte {
  nome: string;
  parametros?: Params;
}

/** Whether the error is the refusal of a rule (4xx) rather than a failure of the system. */
export const recusa = (err: unknown): err is ApiError => err instanceof ApiError && err.status < 500;

export interface Execucao {
  tipo: TipoRotina;
  nome: string;
  parametros: Params;
  /** A condition's outcome (false when it could not be evaluated). */
  resultado?: boolean;
  sucesso: boolean;
  mensagem: string;
  detalhes?: Array<{ nome: string; resultado?: boolean; sucesso: boolean; mensagem: string }>;
  /** The refusal that made a run fail (the explicit events answer it). */
  erro?: ApiError;
}
