import { defineEntity } from '../../../platform/core/entity.ts';
import { DateTime, Enum, Int64, type TSchema, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { itemFields, SITUACOES_COTACAO } from './schemas.ts';
import { cotacao as cotacaoTable } from './tables.ts';

// Quotations readable as a generic entity (spec 000 §2.3), with filter and orderby, each with its
// items. Read-only: criarCotacao and cancelarCotacao are the only writers (docs/cot_cotacao.md
// "Reading quotations").

const ReadOnly = <T extends TSchema>(schema: T, what: string) =>
  Type.Optional({ ...schema, description: `read-only: ${what}` } as T);
const Situacao = () => Enum(SITUACOES_COTACAO, { description: 'Aberta, Cancelada' });
/** An item as a quotation shows it: recCotacaoItem, its situacao and when it was cancelled. */
const ItemLido = Type.Object(
  {
    ...itemFields,
    situacao: Situacao(),
    canceladaEm: Type.Optional(DateTime()),
  },
  { title: 'cotacaoItemLido' },
);

export const cotacao = defineEntity({
  name: 'cotacao',
  description: 'Quotations created by criarCotacao (read-only)',
  table: cotacaoTable,
  fields: Type.Object({
    situacao: ReadOnly(Situacao(), 'Cancelada once every item is cancelled'),
    quantidadeItens: ReadOnly(Int64(), 'number of items'),
    canceladaEm: ReadOnly(DateTime(), 'when its last open item was cancelled'),
    itens: ReadOnly(Type.Array(ItemLido), 'its items, each with its situacao'),
  }),
  refuses: { writes: E.somenteLeitura().message },
});

export const cotEntities = [cotacao];
