import { bigint, boolean, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entity } from './columns.ts';

// The custom-field definitions (docs/agenda.md "Custom fields").

/** The tenant's custom-field definitions of the customizable records (agenda, preAgenda). */
export const customTable = pgTable(
  'custom_table',
  {
    ...entity(),
    /** agenda or preAgenda */
    entidade: text('entidade').notNull(),
    chave: text('chave').notNull(),
    rotulo: text('rotulo').notNull(),
    /** TEXTO, NUMERO, BOOLEANO, DATA, LISTA */
    tipo: text('tipo').notNull(),
    obrigatorio: boolean('obrigatorio').notNull().default(false),
    opcoes: jsonb('opcoes').$type<string[]>(),
    tamanhoMaximo: bigint('tamanho_maximo', { mode: 'number' }),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('custom_table_chave').on(t.tenant, t.entidade, t.chave),
    tenantIsolation(t.tenant),
  ],
);
