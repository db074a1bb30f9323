/** enumSituacaoLigacaoProdutoDeposito (spec 001 §2.5). */
export const SITUACOES_LIGACAO = ['Inativo', 'Ativo'] as const;
export type SituacaoLigacao = (typeof SITUACOES_LIGACAO)[number];
