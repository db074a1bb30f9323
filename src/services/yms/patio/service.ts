import { defineService } from '../../../platform/registry.ts';
import { standardOperations } from '../../../platform/standard.ts';
import { autocomplete } from './autocomplete.ts';
import { bloqueios } from './bloqueios.ts';
import { patioEntities } from './entities.ts';
import { turnos } from './turnos.ts';
import { vagas } from './vagas.ts';

// yms/patio 8.10.0 (spec 000 §1, §4.1-4.3): a plant's yard — plants, areas, spots, vehicles,
// drivers, compositions, shifts — and, in the next parts of issue 4, circuits and their executions,
// arrival control and the yard events. The model and what the spec leaves open: docs/patio.md.

export default defineService({
  domain: 'yms',
  name: 'patio',
  version: '8.10.0',
  title: 'Yard control',
  description: 'Yard control: plants, areas, parking spots, vehicles, drivers, compositions and shifts',
  operations: {
    ...standardOperations({ health: 'healthcheck', healthShape: 'checkData' }),
    ...autocomplete,
    ...vagas,
    ...bloqueios,
    ...turnos,
  },
  entities: patioEntities,
});
