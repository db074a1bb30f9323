import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { acoes } from './acoes.ts';
import { consultas } from './consultas.ts';
import { preFaturaEntities } from './entities.ts';

// erp_isl/int_prefatura 0.1.1 (spec 001 §2.6, §4.5): the ERP's pre-invoices for a warehouse
// management system, kept consistent with the orders of erp_isl/int_pedidovenda they attend.
// What the spec leaves open: docs/int_prefatura.md.

export default defineService({
  domain: 'erp_isl',
  name: 'int_prefatura',
  version: '0.1.1',
  title: 'Pre-invoice integration',
  description: 'Pre-invoice integration',
  // spec 001 §5: the int_* services' documents list no 401 response.
  declares401: false,
  // A pre-invoice's items attend sales orders: it reads and locks them (int_pedidovenda's contract).
  dependencies: ['erp_isl/int_pedidovenda'],
  operations: {
    ...standardOperations({ dependenciesVisibility: 'PUBLIC' }),
    ...acoes,
    ...consultas,
  },
  entities: preFaturaEntities,
});
