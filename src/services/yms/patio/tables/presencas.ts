import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../../platform/core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { ref } from './columns.ts';
import { execucaoCircuito } from './execucoes.ts';
import { area, planta } from './plantas.ts';
import { motorista, veiculo } from './veiculos.ts';

// Where the vehicles are, as the yard events report it (docs/patio.md "Yard events"): the arrivals in
// an area (arrival control) and a vehicle's stay in a plant's yard. The conventions of every table:
// columns.ts.

/** Arrival control: the arrivals in an area, in order. */
export const controleArea = pgTable(
  'patio_controle_area',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    areaId: ref('area_id').notNull(),
    veiculoId: ref('veiculo_id'),
    motoristaId: ref('motorista_id'),
    execucaoCircuitoId: ref('execucao_circuito_id'),
    agendaId: uuid('agenda_id'),
    placa: text('placa').notNull(),
    /** The device or person that reported the arrival (yardInput.origem). */
    origem: text('origem'),
    chegadaEm: timestamp('chegada_em', { withTimezone: true }).notNull(),
    saidaEm: timestamp('saida_em', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_controle_area_area_fk', t, t.areaId, area),
    tenantReference('patio_controle_area_veiculo_fk', t, t.veiculoId, veiculo),
    tenantReference('patio_controle_area_motorista_fk', t, t.motoristaId, motorista),
    tenantReference('patio_controle_area_execucao_circuito_fk', t, t.execucaoCircuitoId, execucaoCircuito),
    index('patio_controle_area_chegada').on(t.tenant, t.areaId, t.chegadaEm, t.id),
    // The vehicle's open arrival (where it is now), closed when it enters another area or leaves.
    index('patio_controle_area_veiculo_aberta').on(t.tenant, t.veiculoId).where(sql`${t.saidaEm} is null`),
    // The dwell time per area of the arrivals that ended in a day (temposDoDia).
    index('patio_controle_area_saida').on(t.tenant, t.areaId, t.saidaEm).where(sql`${t.saidaEm} is not null`),
    tenantIsolation(t.tenant),
  ],
);

/** A vehicle's stay in a plant's yard, from vehicleEnteredYard to vehicleExitedYard. */
export const presencaPatio = pgTable(
  'patio_presenca_patio',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    plantaId: ref('planta_id').notNull(),
    veiculoId: ref('veiculo_id').notNull(),
    motoristaId: ref('motorista_id'),
    placa: text('placa').notNull(),
    /** The gate area it entered through, when reported. */
    areaEntradaId: ref('area_entrada_id'),
    origemEntrada: text('origem_entrada'),
    entradaEm: timestamp('entrada_em', { withTimezone: true }).notNull(),
    areaSaidaId: ref('area_saida_id'),
    origemSaida: text('origem_saida'),
    saidaEm: timestamp('saida_em', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_presenca_patio_planta_fk', t, t.plantaId, planta),
    tenantReference('patio_presenca_patio_veiculo_fk', t, t.veiculoId, veiculo),
    tenantReference('patio_presenca_patio_motorista_fk', t, t.motoristaId, motorista),
    tenantReference('patio_presenca_patio_area_entrada_fk', t, t.areaEntradaId, area),
    tenantReference('patio_presenca_patio_area_saida_fk', t, t.areaSaidaId, area),
    // A vehicle is in at most one yard at a time: a second entry, even a concurrent one, is refused.
    uniqueIndex('patio_presenca_patio_veiculo').on(t.tenant, t.veiculoId).where(sql`${t.saidaEm} is null`),
    index('patio_presenca_patio_planta').on(t.tenant, t.plantaId, t.entradaEm),
    // The day's numbers (numeros-sql.ts): who is in the yard now, the stays that ended in a day,
    // and an agenda's arrival (its vehicle's entries around the expected time).
    index('patio_presenca_patio_no_patio')
      .on(t.tenant, t.plantaId, t.entradaEm)
      .where(sql`${t.saidaEm} is null`),
    index('patio_presenca_patio_saida')
      .on(t.tenant, t.plantaId, t.saidaEm)
      .where(sql`${t.saidaEm} is not null`),
    index('patio_presenca_patio_veiculo_entrada').on(t.tenant, t.veiculoId, t.entradaEm),
    tenantIsolation(t.tenant),
  ],
);
