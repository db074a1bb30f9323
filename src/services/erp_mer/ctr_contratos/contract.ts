// What erp_mer/ctr_contratos publishes to the other services: the only file of it another one may
// import. ped_pedidos answers its installments in the same six fields (spec 001 §2.7 "same six
// fields as recParcelaContratoVenda") and takes calcularFluxoCaixa and _discriminator alike.

export { fluxoDeCaixa } from './fluxo.ts';
export { CalcularFluxoCaixa, Discriminator, parcelaFields } from './schemas.ts';
