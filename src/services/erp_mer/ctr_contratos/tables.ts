import { sql } from 'drizzle-orm';
import { bigint, date, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../platform/core/entity.ts';

// Sales contracts (docs/ctr_contratos.md): keyed by (empresa, filial, contratoVenda) within the
// tenant, as recContratoVenda names them. The items are never filtered or joined: they live in a
// JSONB column, read and written whole with their contract.

export interface ItemContratoVenda {
  sequenciaItem: number;
  produto: boolean;
  codigo: string;
  descricao?: string;
  quantidade?: number;
  valor: number;
}

export const contratoVenda = pgTable(
  'ctr_contrato_venda',
  {
    ...entityColumns('int64', 'ctr_contrato_venda'),
    empresa: bigint('empresa', { mode: 'number' }).notNull(),
    filial: bigint('filial', { mode: 'number' }).notNull(),
    contratoVenda: bigint('contrato_venda', { mode: 'number' }).notNull(),
    codigoCliente: bigint('codigo_cliente', { mode: 'number' }),
    /** com_comum condicaoPagamento.codigo; none: cash, one installment at dataBase. */
    condicaoPagamento: text('condicao_pagamento'),
    dataBase: date('data_base', { mode: 'string' }).notNull(),
    situacao: text('situacao').notNull().default('Ativo'),
    itens: jsonb('itens').$type<ItemContratoVenda[]>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('ctr_contrato_venda_chave').on(t.tenant, t.empresa, t.filial, t.contratoVenda),
    tenantIsolation(t.tenant),
  ],
);
