import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { obterParcelasPedidoVenda } from './parcelas.ts';

// erp_mer/ped_pedidos 0.1.1 (spec 001 §2.7, §4.6): the installments of the sales orders that
// erp_isl/int_pedidovenda stores. docs/ped_pedidos.md.

export default defineService({
  domain: 'erp_mer',
  name: 'ped_pedidos',
  version: '0.1.1',
  title: 'Sales orders',
  description: 'Installments of sales orders',
  // spec 001 §5: the documents of this service list no 401 response.
  declares401: false,
  // It reads int_pedidovenda's orders and com_comum's conditions and holidays through their
  // contract.ts, in its own transaction.
  dependencies: ['erp_isl/int_pedidovenda', 'erp_agr/com_comum', 'erp_mer/ctr_contratos'],
  operations: {
    ...standardOperations({ dependenciesVisibility: 'PUBLIC' }),
    obterParcelasPedidoVenda,
  },
});
