/** enumSituacaoPreFatura (spec 001 §2.6), in the spec's order. */
export const SITUACOES_PRE_FATURA = [
  'EmAnalise',
  'EmPreparacao',
  'ParaFaturar',
  'Faturada',
  'EmConferencia',
  'AguardandoIntWMS',
  'SemEstoqueReq',
  'Cancelada',
] as const;
export type SituacaoPreFatura = (typeof SITUACOES_PRE_FATURA)[number];
