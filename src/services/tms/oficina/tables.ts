import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../platform/core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../platform/core/entity.ts';

// tms/oficina's tables (spec 001 §2.9; docs/oficina.md). Each is a generic entity's: an int64 id
// numbered per tenant, the audit fields, and the record's code as its natural key, unique in the
// tenant. Property names are the entities' JSON fields. References between records are the codes
// the ERP sends (veiculo.centroCusto is a cdCentroCusto, pendencia.veiculo a cdVeiculo), so a fleet
// can be imported in any order; the queries join on them through the indexes below.

const int64 = (name: string) => bigint(name, { mode: 'number' });
/**
 * A timestamptz written from the ISO 8601 text the entities, the imports and the actions carry (or a
 * Date), read as a Date (shown as ISO 8601).
 */
const instant = customType<{ data: Date | string; driverData: string | Date }>({
  dataType: () => 'timestamp with time zone',
  toDriver: (value) => (value instanceof Date ? value.toISOString() : value),
  fromDriver: (value) => (value instanceof Date ? value : new Date(value)),
});

export const filial = pgTable(
  'oficina_filial',
  {
    ...entityColumns('int64', 'oficina_filial'),
    cdEmpresa: int64('cd_empresa').notNull(),
    dsEmpresa: text('ds_empresa'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('oficina_filial_cd').on(t.tenant, t.cdEmpresa),
    tenantIsolation(t.tenant),
  ],
);

export const centroCusto = pgTable(
  'oficina_centro_custo',
  {
    ...entityColumns('int64', 'oficina_centro_custo'),
    cdCentroCusto: int64('cd_centro_custo').notNull(),
    dsCentroCusto: text('ds_centro_custo'),
    inExibePainelOfi: int64('in_exibe_painel_ofi'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('oficina_centro_custo_cd').on(t.tenant, t.cdCentroCusto),
    tenantIsolation(t.tenant),
  ],
);

export const setor = pgTable(
  'oficina_setor',
  {
    ...entityColumns('int64', 'oficina_setor'),
    cdSetor: int64('cd_setor').notNull(),
    dsSetor: text('ds_setor'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('oficina_setor_cd').on(t.tenant, t.cdSetor),
    tenantIsolation(t.tenant),
  ],
);

export const veiculo = pgTable(
  'oficina_veiculo',
  {
    ...entityColumns('int64', 'oficina_veiculo'),
    cdVeiculo: int64('cd_veiculo').notNull(),
    nrPlaca: text('nr_placa'),
    /** The vehicle's cost centre: a centroCusto.cdCentroCusto. */
    centroCusto: int64('centro_custo'),
    dsStatusOficina: text('ds_status_oficina'),
    dsStatus: text('ds_status'),
    cdEmpresa: int64('cd_empresa'),
    dsMovimentacao: text('ds_movimentacao'),
    hrMovimentacao: instant('hr_movimentacao'),
    nrHodometro: doublePrecision('nr_hodometro'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('oficina_veiculo_cd').on(t.tenant, t.cdVeiculo),
    // A plate names one vehicle of the fleet (salvaListaVeiculos finds a vehicle by it).
    uniqueIndex('oficina_veiculo_placa').on(t.tenant, t.nrPlaca).where(sql`${t.nrPlaca} is not null`),
    index('oficina_veiculo_empresa').on(t.tenant, t.cdEmpresa),
    index('oficina_veiculo_centro').on(t.tenant, t.centroCusto),
    tenantIsolation(t.tenant),
  ],
);

export const pendencia = pgTable(
  'oficina_pendencia',
  {
    ...entityColumns('int64', 'oficina_pendencia'),
    cdPendenciaPk: text('cd_pendencia_pk').notNull(),
    cdPendencia: int64('cd_pendencia'),
    cdEmpresa: int64('cd_empresa'),
    dsPendencia: text('ds_pendencia'),
    /** The vehicle: a veiculo.cdVeiculo. */
    veiculo: int64('veiculo'),
    qtTempoPrevisto: text('qt_tempo_previsto'),
    inPrioridade: int64('in_prioridade'),
    inNotificacao: int64('in_notificacao'),
    dtAbertura: instant('dt_abertura'),
    /** The sector: a setor.cdSetor. */
    setor: int64('setor'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('oficina_pendencia_cd').on(t.tenant, t.cdPendenciaPk),
    index('oficina_pendencia_veiculo').on(t.tenant, t.veiculo),
    index('oficina_pendencia_setor').on(t.tenant, t.setor),
    tenantIsolation(t.tenant),
  ],
);

export const revisao = pgTable(
  'oficina_revisao',
  {
    ...entityColumns('int64', 'oficina_revisao'),
    cdRevisao: text('cd_revisao').notNull(),
    dsRevisao: text('ds_revisao'),
    veiculo: int64('veiculo'),
    qtTempoPrevisto: text('qt_tempo_previsto'),
    qtKmAviso: int64('qt_km_aviso'),
    nrDias: int64('nr_dias'),
    inCondicao: int64('in_condicao'),
    nrHodHor: doublePrecision('nr_hod_hor'),
    /** The odometer reading (km) the review is due at. */
    nrHodometro: doublePrecision('nr_hodometro'),
    dtPrevisao: instant('dt_previsao'),
    cdEmpresa: int64('cd_empresa'),
    setor: int64('setor'),
    /**
     * Derived, stored (not a field of the record): the odometer reading the review is due from,
     * nrHodometro − qtKmAviso (visaoGeral: due when the vehicle's odometer reached it).
     */
    alertaKm: doublePrecision('alerta_km').generatedAlwaysAs(sql`nr_hodometro - coalesce(qt_km_aviso, 0)`),
    /**
     * Derived, stored: the UTC instant the review is due from, dtPrevisao − nrDias days (a timestamp
     * in UTC, so the expression is immutable; visaoGeral compares it with the request's clock in UTC).
     */
    alertaDt: timestamp('alerta_dt', { mode: 'string' }).generatedAlwaysAs(
      sql`(dt_previsao at time zone 'UTC') - coalesce(nr_dias, 0) * interval '1 day'`,
    ),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('oficina_revisao_cd').on(t.tenant, t.cdRevisao),
    index('oficina_revisao_veiculo').on(t.tenant, t.veiculo),
    // visaoGeral's due reviews: read from this index alone, in vehicle order.
    index('oficina_revisao_alerta').on(t.tenant, t.veiculo, t.alertaKm, t.alertaDt),
    index('oficina_revisao_setor').on(t.tenant, t.setor),
    tenantIsolation(t.tenant),
  ],
);

export const manutencao = pgTable(
  'oficina_manutencao',
  {
    ...entityColumns('int64', 'oficina_manutencao'),
    cdManutencao: text('cd_manutencao').notNull(),
    dsManutencao: text('ds_manutencao'),
    veiculo: int64('veiculo'),
    qtTempoPrevisto: doublePrecision('qt_tempo_previsto'),
    qtTempoRealizado: doublePrecision('qt_tempo_realizado'),
    nrOs: int64('nr_os'),
    cdEmpresa: int64('cd_empresa'),
    cdPlanoServico: int64('cd_plano_servico'),
    dtAberturaOs: instant('dt_abertura_os'),
    dtInicio: instant('dt_inicio'),
    inStatus: text('in_status'),
    setor: int64('setor'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('oficina_manutencao_cd').on(t.tenant, t.cdManutencao),
    index('oficina_manutencao_veiculo').on(t.tenant, t.veiculo, t.inStatus),
    // visaoGeral's open maintenances (STATUS_MANUTENCAO_ABERTA): only those are in it.
    index('oficina_manutencao_aberta')
      .on(t.tenant, t.veiculo)
      .where(sql`${t.inStatus} in ('ABERTA', 'EM_ANDAMENTO')`),
    index('oficina_manutencao_setor').on(t.tenant, t.setor),
    tenantIsolation(t.tenant),
  ],
);

/**
 * visaoGeral's counts per vehicle code (docs/oficina.md "How it is fast"), kept by the triggers of
 * migration `painel` on every write of a pending item, review, maintenance or vehicle, never by the
 * application. Pending items and open maintenances are added and subtracted (`n = n + d` on the
 * locked row: exact under concurrent writers). Reviews are due by the clock too, so they are
 * recounted (`oficina_painel_recontar_revisoes` locks the codes' rows first): `revisoes` is their
 * count for every instant from `revisoesDesde` (the latest alertaDt of those due by date alone;
 * null: any) up to, not including, `revisoesAte` (the earliest alertaDt of those not yet due; null:
 * never), both UTC. Outside that window visaoGeral counts the vehicle's reviews itself, and asks
 * for a refresh (painel.ts).
 */
export const painelVeiculo = pgTable(
  'oficina_painel_veiculo',
  {
    tenant: tenantColumn(),
    cdVeiculo: int64('cd_veiculo').notNull(),
    pendencias: integer('pendencias').notNull().default(0),
    manutencoes: integer('manutencoes').notNull().default(0),
    revisoes: integer('revisoes').notNull().default(0),
    revisoesDesde: timestamp('revisoes_desde', { mode: 'string' }),
    revisoesAte: timestamp('revisoes_ate', { mode: 'string' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.cdVeiculo] }),
    index('oficina_painel_veiculo_ate').on(t.tenant, t.revisoesAte),
    tenantIsolation(t.tenant),
  ],
);
