import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { acoes } from './acoes.ts';
import { consultas } from './consultas.ts';
import { pedidoVendaEntities } from './entities.ts';

// erp_isl/int_pedidovenda 0.1.1 (spec 001 §2.4, §4.3): sales orders sent by the ERP for a warehouse
// management system. What the spec leaves open (situation rules, reading, events): docs/int_pedidovenda.md.

export default defineService({
  domain: 'erp_isl',
  name: 'int_pedidovenda',
  version: '0.1.1',
  title: 'Sales order integration',
  description: 'Sales order integration between the ERP and a warehouse management system',
  // spec 001 §5: the int_* services' documents list no 401 response.
  declares401: false,
  operations: {
    ...standardOperations({ dependenciesVisibility: 'PUBLIC' }),
    ...acoes,
    ...consultas,
  },
  entities: pedidoVendaEntities,
});
