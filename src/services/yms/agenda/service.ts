import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { transferEvents } from '../../../platform/core/transfer-events.ts';
import { exportActions } from '../../../platform/exports/actions.ts';
import { importActions } from '../../../platform/imports/actions.ts';
import { agendas } from './agendas.ts';
import { anexoEnviado, anexos, PREFIXO_BLOB } from './anexos.ts';
import { configuracaoAprovacaoAgendaEntity } from './aprovacao.ts';
import { busca } from './busca.ts';
import { composicoes } from './composicoes.ts';
import { customTableEntity } from './custom.ts';
import { agendaEntities } from './entities.ts';
import { agendaSubscriptions, estados } from './estados.ts';
import { horariosOperacao } from './horarios.ts';
import { agendaJobs, integracao } from './integracao.ts';
import { ocupacao } from './ocupacao.ts';
import { parceiros } from './parceiros.ts';
import { preAgendaEntity, preAgendas } from './preagendas.ts';
import { tipos } from './tipos.ts';
import { agendaExports, agendaImports, TRANSFER_KINDS } from './transferencias.ts';

// yms/agenda 7.63.0 (spec 000 §2.5, §3, §4.4-4.6): appointments (agendas) with their states and
// history, appointment types, operating hours and slot capacity, the hand-over to the yard and the
// reactions to it, pre-agendas and their approval, partners and their users, attachments, custom
// fields, searches, and the imports and exports of §4.6. The design: docs/agenda.md.

export default defineService({
  domain: 'yms',
  name: 'agenda',
  version: '7.63.0',
  title: 'Scheduling',
  description: 'Scheduling: appointments (agendas) of vehicles at a plant and their states',
  // The yard starts the circuit execution of an agenda whose integration succeeded.
  dependencies: ['yms/patio', 'platform/imports', 'platform/exports'],
  operations: {
    ...standardOperations({ health: 'healthcheck', healthShape: 'checkData' }),
    ...agendas,
    ...integracao,
    ...parceiros,
    ...anexos,
    ...composicoes,
    ...tipos,
    ...horariosOperacao,
    ...estados,
    ...ocupacao,
    ...busca,
    ...preAgendas,
    // spec 000 §4.6: import<X> / export<X> and their status events (docs/agenda.md "Imports and exports").
    ...importActions(Object.keys(agendaImports)),
    ...exportActions(Object.keys(agendaExports)),
    ...transferEvents(TRANSFER_KINDS),
  },
  entities: [...agendaEntities, preAgendaEntity, configuracaoAprovacaoAgendaEntity, customTableEntity],
  jobs: agendaJobs,
  imports: agendaImports,
  exports: agendaExports,
  blobUploads: { [PREFIXO_BLOB]: anexoEnviado },
  // yms/patio cancelled an execution: its agenda is cancelled (docs/agenda.md).
  subscriptions: agendaSubscriptions,
});
