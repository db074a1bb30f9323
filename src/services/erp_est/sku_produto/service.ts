import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { skuEntities } from './entities.ts';
import { geracao } from './gerar.ts';
import { skuImports } from './imports.ts';
import { buscas } from './queries.ts';

// erp_est/sku_produto 3.0.2 (spec 001 §2.11, §4.9): the SKU coding masks of a company and product
// family, their components, and the generation of SKU codes and descriptions from them into the
// tenant's SKU catalogue (erp_agr/com_comum's). What the spec leaves open: docs/sku_produto.md.

export default defineService({
  domain: 'erp_est',
  name: 'sku_produto',
  version: '3.0.2',
  title: 'SKU products',
  description: 'Product SKU coding masks and SKU generation',
  // The catalogue the generated SKUs go into (reached through com_comum's contract.ts).
  dependencies: ['erp_agr/com_comum', 'platform/imports'],
  operations: {
    ...standardOperations({ health: 'healthcheck', healthShape: 'checkData' }),
    ...buscas,
    ...geracao,
  },
  entities: skuEntities,
  imports: skuImports,
});
