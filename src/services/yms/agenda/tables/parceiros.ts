import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../../platform/core/db/keys.ts';
import { trigramIndex } from '../../../../platform/core/db/search.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entity } from './columns.ts';

// Partners, external users and the vehicles linked to them (docs/agenda.md "External partners and
// users").

/** An external partner (externalTenant): a carrier or customer by CNPJ or CPF. */
export const externalTenant = pgTable(
  'agenda_external_tenant',
  {
    ...entity(),
    /** CNPJ (14 digits) or CPF (11 digits), stored as digits. */
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    ativo: boolean('ativo').notNull().default(true),
    /** The partner's users may change the driver of its agendas. */
    permiteEdicaoMotorista: boolean('permite_edicao_motorista').notNull().default(true),
    /** The partner may not book grouped agendas (codigoAgrupador). */
    naoPermiteCriarAgendamentosAgrupado: boolean('nao_permite_criar_agendamentos_agrupado')
      .notNull()
      .default(false),
    /** The partner requests pre-agendas instead of booking directly. */
    preAgendaHabilitada: boolean('pre_agenda_habilitada').notNull().default(false),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('agenda_external_tenant_codigo').on(t.tenant, t.codigo),
    trigramIndex('agenda_external_tenant_nome_trgm', t.nome),
    tenantIsolation(t.tenant),
  ],
);

/** A user of one or more partners, by e-mail (stored lower case). */
export const externalUser = pgTable(
  'agenda_external_user',
  {
    ...entity(),
    email: text('email').notNull(),
    nome: text('nome').notNull(),
    ativo: boolean('ativo').notNull().default(true),
    /** The partners (externalTenant.id) the user acts for. */
    parceiroIds: uuid('parceiro_ids').array().notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('agenda_external_user_email').on(t.tenant, t.email),
    index('agenda_external_user_parceiros').using('gin', t.parceiroIds),
    tenantIsolation(t.tenant),
  ],
);

/** The vehicles (yms/patio veiculo) a partner may book with, linked by linkVehiclesToPartner. */
export const parceiroVeiculo = pgTable(
  'agenda_parceiro_veiculo',
  {
    id: uuid('id').notNull().defaultRandom(),
    tenant: tenantColumn(),
    parceiroId: uuid('parceiro_id').notNull(),
    veiculoId: uuid('veiculo_id').notNull(),
    placa: text('placa').notNull(),
    createdBy: text('created_by').notNull(),
    createdDate: timestamp('created_date', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('agenda_parceiro_veiculo_parceiro_fk', t, t.parceiroId, externalTenant).onDelete(
      'cascade',
    ),

    uniqueIndex('agenda_parceiro_veiculo_key').on(t.tenant, t.parceiroId, t.veiculoId),
    index('agenda_parceiro_veiculo_veiculo').on(t.tenant, t.veiculoId),
    tenantIsolation(t.tenant),
  ],
);
