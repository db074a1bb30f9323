import { defineEntity } from '../../../platform/core/entity.ts';
import { DateTime, Enum, Int64, type TSchema, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { itemFields, SITUACOES_COTACAO } from './schemas.ts';
import { cotacao as cotacaoTable, cotacaoItem as itemTable } from './tables.ts';

// Quotations readable as generic entities (spec 000 §2.3), with filter and orderby: `cotacao` and
// its items (`cotacao/{id}/itens`, or `cotacaoItem` filtered by idNecessidadeCompra). Read-only:
// criarCotacao and cancelarCotacao are the only writers (docs/cot_cotacao.md "Reading quotations").

const ReadOnly = <T extends TSchema>(schema: T, what: string) =>
  Type.Optional({ ...schema, description: `read-only: ${what}` } as T);
const somenteLeitura = {
  beforeSave: async () => {
    throw E.somenteLeitura();
  },
  beforeDelete: async () => {
    throw E.somenteLeitura();
  },
};
const Situacao = () => Enum(SITUACOES_COTACAO, { description: 'Aberta, Cancelada' });

export const cotacaoItem = defineEntity({
  name: 'cotacaoItem',
  description: 'Items of quotations, one per purchase need (read-only)',
  table: itemTable,
  fields: Type.Object({
    cotacaoId: ReadOnly(Type.String({ format: 'uuid' }), 'the quotation (idCotacao)'),
    ...Object.fromEntries(Object.entries(itemFields).map(([k, v]) => [k, Type.Optional(v as TSchema)])),
    situacao: ReadOnly(Situacao(), 'Aberta until cancelarCotacao cancels its need'),
    canceladaEm: ReadOnly(DateTime(), 'when it was cancelled'),
    canceladaPor: ReadOnly(Type.String(), 'who cancelled it'),
  }),
  hooks: somenteLeitura,
});

export const cotacao = defineEntity({
  name: 'cotacao',
  description: 'Quotations created by criarCotacao (read-only)',
  table: cotacaoTable,
  fields: Type.Object({
    situacao: ReadOnly(Situacao(), 'Cancelada once every item is cancelled'),
    quantidadeItens: ReadOnly(Int64(), 'number of items'),
    canceladaEm: ReadOnly(DateTime(), 'when its last open item was cancelled'),
  }),
  children: { itens: { entity: cotacaoItem, parentField: 'cotacaoId' } },
  hooks: somenteLeitura,
});

export const cotEntities = [cotacao, cotacaoItem];
