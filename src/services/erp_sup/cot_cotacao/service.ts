import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { cotacoes } from './cotacoes.ts';
import { cotEntities } from './entities.ts';
import { skus } from './sku.ts';

// erp_sup/cot_cotacao 5.0.2 (spec 001 §2.2, §4.1): quotations of purchase needs, created and
// cancelled by the purchasing ERP (events on the outbox for the suppliers' systems), and the SKUs of
// the tenant's catalogue. What the spec leaves open: docs/cot_cotacao.md.

export default defineService({
  domain: 'erp_sup',
  name: 'cot_cotacao',
  version: '5.0.2',
  title: 'Quotation',
  description: 'Creates and cancels quotations from purchase needs; looks up SKUs',
  // The SKU catalogue (through com_comum's contract.ts).
  dependencies: ['erp_agr/com_comum'],
  operations: {
    ...standardOperations({}),
    ...skus,
    ...cotacoes,
  },
  entities: cotEntities,
});
