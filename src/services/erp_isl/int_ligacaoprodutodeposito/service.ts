import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { acoes } from './acoes.ts';
import { consultas } from './consultas.ts';
import { ligacaoEntities } from './entities.ts';

// erp_isl/int_ligacaoprodutodeposito 0.1.1 (spec 001 §2.5, §4.4): the ERP's product-to-warehouse
// links, with every mask of §4.4 enforced. What the spec leaves open: docs/int_ligacaoprodutodeposito.md.

export default defineService({
  domain: 'erp_isl',
  name: 'int_ligacaoprodutodeposito',
  version: '0.1.1',
  title: 'Product-to-warehouse link integration',
  description: 'Product-to-warehouse link integration',
  // spec 001 §5: the int_* services' documents list no 401 response.
  declares401: false,
  operations: {
    ...standardOperations({ dependenciesVisibility: 'PUBLIC' }),
    ...acoes,
    ...consultas,
  },
  entities: ligacaoEntities,
});
