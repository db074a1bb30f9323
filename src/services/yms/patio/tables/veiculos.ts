import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../../platform/core/db/keys.ts';
import { trigramIndex } from '../../../../platform/core/db/search.ts';
import { tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entity, ref } from './columns.ts';

// Vehicles, drivers and the compositions a tractor and its trailers make (docs/patio.md "The yard
// model"), each blockable. The conventions of every table: columns.ts.

export const veiculo = pgTable(
  'patio_veiculo',
  {
    ...entity(),
    placa: text('placa').notNull(),
    tipoVeiculo: text('tipo_veiculo').notNull(),
    descricao: text('descricao'),
    renavam: text('renavam'),
    bloqueado: boolean('bloqueado').notNull().default(false),
    motivoBloqueio: text('motivo_bloqueio'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('patio_veiculo_placa').on(t.tenant, t.placa),
    tenantIsolation(t.tenant),
  ],
);

export const motorista = pgTable(
  'patio_motorista',
  {
    ...entity(),
    /** CPF, 11 digits. */
    documento: text('documento').notNull(),
    nome: text('nome').notNull(),
    cnh: text('cnh'),
    telefone: text('telefone'),
    bloqueado: boolean('bloqueado').notNull().default(false),
    motivoBloqueio: text('motivo_bloqueio'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('patio_motorista_documento').on(t.tenant, t.documento),
    trigramIndex('patio_motorista_nome_trgm', t.nome),
    tenantIsolation(t.tenant),
  ],
);

export const composicaoVeiculo = pgTable(
  'patio_composicao_veiculo',
  {
    ...entity(),
    descricao: text('descricao'),
    /** The tractor (cavalo mecânico) or the truck itself. */
    cavaloId: ref('cavalo_id').notNull(),
    /** The trailers, in coupling order. */
    reboqueIds: uuid('reboque_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Effective state: blocked by its own reason or because a part is blocked (docs/patio.md). */
    bloqueado: boolean('bloqueado').notNull().default(false),
    /** The composition's own reason (atualizarBloqueioComposicaoVeiculo). */
    motivoBloqueio: text('motivo_bloqueio'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_composicao_veiculo_cavalo_fk', t, t.cavaloId, veiculo),
    index('patio_composicao_veiculo_cavalo').on(t.tenant, t.cavaloId),
    index('patio_composicao_veiculo_reboques').using('gin', t.reboqueIds),
    tenantIsolation(t.tenant),
  ],
);
