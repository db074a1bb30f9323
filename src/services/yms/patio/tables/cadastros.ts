import { boolean, doublePrecision, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entity, ref } from './columns.ts';
import { planta } from './plantas.ts';

// Registers of imports and exports (docs/patio.md "Imports and exports"): a plant's address and the
// tenant's catalogue of vehicle types. The conventions of every table: columns.ts.

/** The address of a plant: one per plant. */
export const endereco = pgTable(
  'patio_endereco',
  {
    ...entity(),
    plantaId: ref('planta_id').notNull(),
    logradouro: text('logradouro').notNull(),
    numero: text('numero'),
    complemento: text('complemento'),
    bairro: text('bairro'),
    cidade: text('cidade').notNull(),
    /** Brazilian state abbreviation, upper case. */
    uf: text('uf').notNull(),
    /** CEP, 8 digits. */
    cep: text('cep'),
    /** ISO 3166-1 alpha-2, default BR. */
    pais: text('pais').notNull().default('BR'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_endereco_planta_fk', t, t.plantaId, planta).onDelete('cascade'),
    uniqueIndex('patio_endereco_planta').on(t.tenant, t.plantaId),
    tenantIsolation(t.tenant),
  ],
);

/** The tenant's catalogue of vehicle types (e.g. "Bitrem 9 eixos"), each of one vehicle category. */
export const tipoVeiculo = pgTable(
  'patio_tipo_veiculo',
  {
    ...entity(),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    /** The category of veiculo.tipoVeiculo this type belongs to. */
    categoria: text('categoria').notNull(),
    eixos: integer('eixos'),
    pesoMaximoKg: doublePrecision('peso_maximo_kg'),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('patio_tipo_veiculo_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);
