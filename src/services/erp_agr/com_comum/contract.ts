// What erp_agr/com_comum publishes to the other services: the only file of it another one may
// import. The installment engine (parcelamento.ts, docs/com_comum.md "Installments"): ped_pedidos
// and ctr_contratos split the items of an order or a contract by a payment condition's plan, in
// their own transaction, with due dates moved past weekends and the tenant's holidays.
export {
  calcularParcelas,
  dividir,
  type ItemParcelavel,
  type Parcela,
  type Parcelamento,
} from './parcelamento.ts';
