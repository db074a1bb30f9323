import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { numberedId, tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';

// Countries, states and cities, by their codes (BACEN, IBGE).

export const pais = pgTable(
  'com_pais',
  {
    id: numberedId('com_pais'),
    tenant: tenantColumn(),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    sigla: text('sigla'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_pais_codigo').on(t.tenant, t.codigo),
    index('com_pais_sigla').on(t.tenant, t.sigla),
    index('com_pais_nome').on(t.tenant, t.nome),
    tenantIsolation(t.tenant),
  ],
);

export const estado = pgTable(
  'com_estado',
  {
    id: numberedId('com_estado'),
    tenant: tenantColumn(),
    /** The country's codigo. */
    pais: text('pais').notNull(),
    sigla: text('sigla').notNull(),
    /** IBGE code of the state (35 for SP), optional for foreign states. */
    codigo: text('codigo'),
    nome: text('nome').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_estado_sigla').on(t.tenant, t.pais, t.sigla),
    tenantIsolation(t.tenant),
  ],
);

export const cidade = pgTable(
  'com_cidade',
  {
    id: numberedId('com_cidade'),
    tenant: tenantColumn(),
    /** IBGE municipality code (3550308 for São Paulo). */
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    siglaEstado: text('sigla_estado').notNull(),
    pais: text('pais').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_cidade_codigo').on(t.tenant, t.codigo),
    index('com_cidade_estado').on(t.tenant, t.siglaEstado, t.nome),
    tenantIsolation(t.tenant),
  ],
);
