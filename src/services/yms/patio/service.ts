import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { transferEvents } from '../../../platform/core/transfer-events.ts';
import { exportActions } from '../../../platform/exports/actions.ts';
import { importActions } from '../../../platform/imports/actions.ts';
import { agendas } from './agendas.ts';
import { autocomplete } from './autocomplete.ts';
import { automacao } from './automacao.ts';
import { automacaoJobs } from './automacao-jobs.ts';
import { bloqueios } from './bloqueios.ts';
import { cadastroEntities } from './cadastros.ts';
import { circuito } from './circuitos.ts';
import { patioEntities } from './entities.ts';
import { etapas } from './etapas.ts';
import { eventos } from './eventos.ts';
import { execucoes } from './execucoes.ts';
import { filas } from './fila.ts';
import { patioExports, patioImports, TRANSFER_KINDS } from './importacoes.ts';
import { numeros } from './numeros.ts';
import { referencias } from './referencias.ts';
import { rotina } from './rotinas-tenant.ts';
import { turnos } from './turnos.ts';
import { vagas } from './vagas.ts';
import { veiculos } from './veiculos.ts';

// yms/patio 8.10.0 (spec 000 §1, §4.1-4.3): a plant's yard — plants, areas, spots, vehicles,
// drivers, compositions, shifts, circuits and their executions, yard presence, arrival control and
// the yard events. The model and what the spec leaves open: docs/patio.md.

export default defineService({
  domain: 'yms',
  name: 'patio',
  version: '8.10.0',
  title: 'Yard control',
  description: 'Yard control: plants, areas, parking spots, vehicles, drivers, compositions and shifts',
  dependencies: ['yms/agenda', 'platform/imports', 'platform/exports'],
  operations: {
    ...standardOperations({ health: 'healthcheck', healthShape: 'checkData' }),
    ...autocomplete,
    ...vagas,
    ...bloqueios,
    ...turnos,
    ...agendas,
    ...execucoes,
    ...eventos,
    ...filas,
    ...numeros,
    ...automacao,
    ...etapas,
    ...veiculos,
    ...referencias,
    // spec 000 §4.3: import<X> / export<X> and their status events (docs/patio.md "Imports and exports").
    ...importActions(Object.keys(patioImports)),
    ...exportActions(Object.keys(patioExports)),
    ...transferEvents(TRANSFER_KINDS),
  },
  entities: [...patioEntities, circuito, rotina, ...cadastroEntities],
  jobs: automacaoJobs,
  imports: patioImports,
  exports: patioExports,
});
