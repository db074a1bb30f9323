import { sql } from 'drizzle-orm';
import { check, date, doublePrecision, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../../platform/core/entity.ts';

// The installment plan of a payment condition and the tenant's holiday calendar
// (docs/com_comum.md "Installments"): what ped_pedidos and ctr_contratos compute installments from.

/** One line of a condition's plan: installment `sequencia` falls `dias` after the base date, for `percentual` of the value. */
export const condicaoPagamentoParcela = pgTable(
  'com_condicao_pagamento_parcela',
  {
    ...entityColumns('int64', 'com_condicao_pagamento_parcela'),
    codigoCondicaoPagamento: text('codigo_condicao_pagamento').notNull(),
    sequencia: integer('sequencia').notNull(),
    dias: integer('dias').notNull(),
    percentual: doublePrecision('percentual').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_condicao_pagamento_parcela_seq').on(t.tenant, t.codigoCondicaoPagamento, t.sequencia),
    check('com_condicao_pagamento_parcela_percentual', sql`${t.percentual} > 0 and ${t.percentual} <= 100`),
    check('com_condicao_pagamento_parcela_dias', sql`${t.dias} >= 0`),
    tenantIsolation(t.tenant),
  ],
);

/** A day no payment falls due in the tenant: vencimentoUtil moves past it. */
export const feriado = pgTable(
  'com_feriado',
  {
    ...entityColumns('int64', 'com_feriado'),
    data: date('data', { mode: 'string' }).notNull(),
    descricao: text('descricao').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_feriado_data').on(t.tenant, t.data),
    tenantIsolation(t.tenant),
  ],
);
