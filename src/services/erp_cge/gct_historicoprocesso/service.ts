import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { finalizarProcesso, iniciarProcesso, interromperProcesso } from './execucoes.ts';
import { obterHistorico } from './historico.ts';

// erp_cge/gct_historicoprocesso 0.1.1 (spec 001 §2.8, §4.6): the execution history of processes,
// the runs an ERP reports (iniciarProcesso, finalizarProcesso, interromperProcesso: the project's
// design) and Ponte's own jobs. docs/gct_historicoprocesso.md.

export default defineService({
  domain: 'erp_cge',
  name: 'gct_historicoprocesso',
  version: '0.1.1',
  title: 'Process history',
  description: 'Execution history of processes',
  // spec 001 §5: the documents of this service list no 401 response.
  declares401: false,
  operations: {
    ...standardOperations({ dependenciesVisibility: 'PUBLIC' }),
    obterHistorico,
    iniciarProcesso,
    finalizarProcesso,
    interromperProcesso,
  },
});
