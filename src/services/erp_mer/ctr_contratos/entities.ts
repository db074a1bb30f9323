import { defineEntity } from '../../../platform/core/entity.ts';
import { DateOnly, Enum, Int64, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { ItemContratoVenda, SITUACOES_CONTRATO } from './schemas.ts';
import { contratoVenda as contratoVendaTable } from './tables.ts';

// The sales contract (docs/ctr_contratos.md): the spec names only its key (recContratoVenda); the
// rest is the project's design, what the installments are computed from.

const opt = Type.Optional;

export const contratoVenda = defineEntity({
  name: 'contratoVenda',
  description:
    'A sales contract: its items and payment condition, from which obterParcelasContratoVenda computes the installments',
  table: contratoVendaTable,
  idType: 'int64',
  naturalKey: ['empresa', 'filial', 'contratoVenda'],
  fields: Type.Object({
    empresa: Int64({ minimum: 0, description: 'company (codigoEmpresa)' }),
    filial: Int64({ minimum: 0, description: 'branch (codigoFilial)' }),
    contratoVenda: Int64({ minimum: 0, description: 'contract number, unique in the company and branch' }),
    codigoCliente: opt(Int64({ minimum: 0, description: 'the customer' })),
    condicaoPagamento: opt(
      Type.String({
        minLength: 1,
        maxLength: 6,
        description:
          'payment condition (com_comum condicaoPagamento.codigo); none: one installment at dataBase',
      }),
    ),
    dataBase: DateOnly({ description: 'the date the plan’s days count from (the contract’s date)' }),
    situacao: opt(Enum(SITUACOES_CONTRATO, { description: 'Ativo (default), Encerrado or Cancelado' })),
    itens: Type.Array(ItemContratoVenda, {
      maxItems: 1000,
      description: 'the items; each is split into installments on its own',
    }),
  }),
  hooks: {
    beforeSave: async (_ctx, next) => {
      next.situacao ??= 'Ativo';
      const seen = new Set<number>();
      (next.itens as { sequenciaItem: number }[]).forEach((item, index) => {
        if (seen.has(item.sequenciaItem)) throw E.itemRepetido({ index, sequenciaItem: item.sequenciaItem });
        seen.add(item.sequenciaItem);
      });
    },
  },
});
