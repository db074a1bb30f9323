import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { importActions } from '../../../platform/imports/actions.ts';
import { acoes } from './actions.ts';
import { comumEntities } from './entities.ts';
import { comumImports } from './imports.ts';
import { pessoas } from './pessoas.ts';
import { lugares } from './queries.ts';

// erp_agr/com_comum 2.1.8 (spec 001 §2.10, §4.8): the agribusiness ERP's common data (companies,
// branches, places, people, producers, currencies, SKUs) for the other services, searchable and
// importable. The records' fields and the behaviour the spec leaves open: docs/com_comum.md.

export default defineService({
  domain: 'erp_agr',
  name: 'com_comum',
  version: '2.1.8',
  title: 'Agribusiness common data',
  description:
    'Common agribusiness data: companies, places, people, producers, currencies, SKUs and their imports',
  // import<X> (PUBLIC, config importConfig → importJobId) are generated from the import targets.
  dependencies: ['platform/imports'],
  operations: {
    ...standardOperations({ health: 'healthCheck', healthShape: 'checkData' }),
    ...lugares,
    ...pessoas,
    ...acoes,
    ...importActions(Object.keys(comumImports)),
  },
  entities: comumEntities,
  imports: comumImports,
});
