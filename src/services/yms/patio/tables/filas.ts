import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../../platform/core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { int64, ref } from './columns.ts';
import { execucaoCircuito } from './execucoes.ts';
import { area } from './plantas.ts';
import { motorista, veiculo } from './veiculos.ts';

// The queues of the yard (docs/patio.md "Queues"): a vehicle reported into an area whose spots are
// all taken waits there, first come first served, until a spot of the area frees. One queue per
// area (its id is the area's). The conventions of every table: columns.ts.

/** A vehicle waiting for a spot of an area (the spec's filaItem). */
export const filaItem = pgTable(
  'patio_fila_item',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    /** The queue: the area whose spot the vehicle waits for. */
    areaId: ref('area_id').notNull(),
    /**
     * The ticket: numbered under the area's row lock (fila.ts), so the order of the queue is the
     * order in which the reports were decided; the position is the rank of n in the area.
     */
    n: int64('n').notNull(),
    veiculoId: ref('veiculo_id').notNull(),
    placa: text('placa').notNull(),
    motoristaId: ref('motorista_id'),
    execucaoCircuitoId: ref('execucao_circuito_id'),
    agendaId: uuid('agenda_id'),
    /** The device or person that reported the arrival (yardInput.origem). */
    origem: text('origem'),
    /** Since when it waits: the report's time (yardInput.dataHora). */
    desde: timestamp('desde', { withTimezone: true }).notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_fila_item_area_fk', t, t.areaId, area),
    tenantReference('patio_fila_item_veiculo_fk', t, t.veiculoId, veiculo),
    tenantReference('patio_fila_item_motorista_fk', t, t.motoristaId, motorista),
    tenantReference('patio_fila_item_execucao_circuito_fk', t, t.execucaoCircuitoId, execucaoCircuito),
    // The queue in order; a ticket is given once per area.
    uniqueIndex('patio_fila_item_ordem').on(t.tenant, t.areaId, t.n),
    // A vehicle waits in one queue at a time.
    uniqueIndex('patio_fila_item_veiculo').on(t.tenant, t.veiculoId),
    tenantIsolation(t.tenant),
  ],
);
