import type { Parcela } from '../../erp_agr/com_comum/contract.ts';

/**
 * calcularFluxoCaixa (design, docs/ctr_contratos.md): only what is still to receive, the
 * installments due (vencimentoUtil) today or later in the tenant's time zone. ped_pedidos takes the
 * same rule.
 */
export function fluxoDeCaixa(parcelas: Parcela[], hoje: string): Parcela[] {
  return parcelas.filter((p) => p.vencimentoUtil >= hoje);
}
