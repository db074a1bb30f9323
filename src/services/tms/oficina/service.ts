import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { importActions } from '../../../platform/imports/actions.ts';
import { cadastros } from './cadastros.ts';
import { oficinaEntities, oficinaImports } from './entities.ts';
import { painelJobs } from './painel.ts';
import { itens } from './queries.ts';
import { salvar } from './salvar.ts';
import { veiculos } from './veiculos.ts';
import { visao } from './visao.ts';

// tms/oficina 4.0.0 (spec 001 §2.9, §4.7): the dashboard of a truck fleet's workshop: which
// vehicles are running or in the garage, their pending items, due reviews and maintenances, by
// branch, sector and cost centre. The records' behaviour the spec leaves open: docs/oficina.md.

export default defineService({
  domain: 'tms',
  name: 'oficina',
  version: '4.0.0',
  title: 'Workshop dashboard',
  description:
    'Workshop dashboard data: branches, pending items, reviews, maintenances, cost centers, sectors',
  // import<X> (PUBLIC, config importConfig → importJobId) are generated from the import targets.
  dependencies: ['platform/imports'],
  operations: {
    ...standardOperations({ health: 'healthcheck', healthShape: 'checkData' }),
    ...cadastros,
    ...itens,
    ...visao,
    ...salvar,
    ...veiculos,
    ...importActions(Object.keys(oficinaImports)),
  },
  entities: oficinaEntities,
  imports: oficinaImports,
  jobs: painelJobs,
});
