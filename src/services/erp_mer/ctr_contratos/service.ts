import { importTargetOf } from '../../../platform/core/entity.ts';
import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { importActions } from '../../../platform/imports/actions.ts';
import { contratoVenda } from './entities.ts';
import { obterParcelasContratoVenda } from './parcelas.ts';

// erp_mer/ctr_contratos 0.1.1 (spec 001 §2.7, §4.6): the installments of sales contracts. The spec
// shows only the query; the contract itself (entity contratoVenda and importContratoVenda) is the
// project's design: docs/ctr_contratos.md.

export default defineService({
  domain: 'erp_mer',
  name: 'ctr_contratos',
  version: '0.1.1',
  title: 'Sales contracts',
  description: 'Installments of sales contracts',
  // spec 001 §5: the documents of this service list no 401 response.
  declares401: false,
  // The installment engine and the holidays are com_comum's (its contract.ts, in this transaction).
  dependencies: ['platform/imports', 'erp_agr/com_comum'],
  operations: {
    ...standardOperations({ dependenciesVisibility: 'PUBLIC' }),
    obterParcelasContratoVenda,
    ...importActions(['ContratoVenda']),
  },
  entities: [contratoVenda],
  imports: { ContratoVenda: importTargetOf(contratoVenda) },
});
