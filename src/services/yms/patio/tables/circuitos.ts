import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entity, ref } from './columns.ts';
import { area, planta } from './plantas.ts';

// A plant's circuits and their sequences, the steps an execution goes through (docs/patio.md
// "Circuits"). The conventions of every table: columns.ts.

export const circuito = pgTable(
  'patio_circuito',
  {
    ...entity(),
    plantaId: ref('planta_id').notNull(),
    /** The appointment type (yms/agenda tipoAgendamento) the circuit serves: a string until that service settles its ids. */
    tipoAgendamentoId: text('tipo_agendamento_id'),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    descricao: text('descricao'),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_circuito_planta_fk', t, t.plantaId, planta),
    uniqueIndex('patio_circuito_codigo').on(t.tenant, t.plantaId, t.codigo),
    index('patio_circuito_tipo').on(t.tenant, t.plantaId, t.tipoAgendamentoId),
    tenantIsolation(t.tenant),
  ],
);

export const sequenciaCircuito = pgTable(
  'patio_sequencia_circuito',
  {
    ...entity(),
    circuitoId: ref('circuito_id').notNull(),
    ordem: integer('ordem').notNull(),
    areaId: ref('area_id').notNull(),
    nome: text('nome').notNull(),
    descricao: text('descricao'),
    /** The condition (listCondicoes) that must hold to enter this step, by name. */
    nomeCondicao: text('nome_condicao'),
    /** The command (listComandos) in charge of this step, by name (buscaControladorAtivo). */
    nomeComando: text('nome_comando'),
    /** A sub-circuit this step branches into (ramoExecucao), returning here when it ends. */
    subCircuitoId: ref('sub_circuito_id'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_sequencia_circuito_circuito_fk', t, t.circuitoId, circuito).onDelete('cascade'),
    tenantReference('patio_sequencia_circuito_area_fk', t, t.areaId, area),
    tenantReference('patio_sequencia_circuito_sub_circuito_fk', t, t.subCircuitoId, circuito),
    uniqueIndex('patio_sequencia_circuito_ordem').on(t.tenant, t.circuitoId, t.ordem),
    tenantIsolation(t.tenant),
  ],
);
