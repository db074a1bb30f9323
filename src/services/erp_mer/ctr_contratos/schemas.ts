import { DateOnly, Double, Int64, Record, Type } from '../../../platform/core/schema.ts';

// The records of erp_mer/ctr_contratos (spec 001 §2.7, §4.6), each field once.

const Id = (description: string) => Int64({ minimum: 0, description });

export const Discriminator = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'the record type the caller names (recContratoVenda); answered back unchanged',
});

export const recContratoVendaFields = {
  empresa: Id('company (codigoEmpresa)'),
  filial: Id('branch (codigoFilial)'),
  contratoVenda: Id('sales contract number'),
  _discriminator: Discriminator,
};

export const RecContratoVenda = Record('recContratoVenda', Type.Object(recContratoVendaFields));

/** The six fields of an installment, shared by recParcelaContratoVenda and recParcelaPedidoVenda. */
export const parcelaFields = {
  sequenciaParcela: Int64({ description: 'installment number in the payment condition plan' }),
  valor: Double({ description: 'the item’s share; an item’s installments add up to its value to the cent' }),
  vencimento: DateOnly({ description: 'due date: base date + the plan’s days' }),
  vencimentoUtil: DateOnly({
    description:
      'vencimento moved to the next day that is no Saturday, Sunday or tenant holiday (com_comum feriado)',
  }),
  produto: Type.Boolean({ description: 'true: a product item; false: a service item' }),
  sequenciaItem: Int64({ description: 'the item the installment belongs to' }),
};

export const RecParcelaContratoVenda = Record('recParcelaContratoVenda', Type.Object(parcelaFields));

export const RecContratosVendaComParcelas = Record(
  'recContratosVendaComParcelas',
  Type.Object({ ...recContratoVendaFields, parcelasContratoVenda: Type.Array(RecParcelaContratoVenda) }),
);

export const CalcularFluxoCaixa = Type.Optional(
  Type.Boolean({
    description:
      'cash-flow calculation: true answers only the installments still to receive, those whose vencimentoUtil is today or later (tenant time zone), and none of a cancelled contract or order; an order item counts only for its open quantity (not cancelled, not attended by pre-invoices)',
  }),
);

export const ObterParcelasContratoVendaInput = Type.Object({
  calcularFluxoCaixa: CalcularFluxoCaixa,
  contratosVenda: Type.Array(RecContratoVenda, {
    minItems: 1,
    maxItems: 1000,
    description: 'the contracts asked for (declared minimum 1)',
  }),
});

export const ObterParcelasContratoVendaOutput = Type.Object({
  contratosVendaComParcelas: Type.Array(RecContratosVendaComParcelas),
});

export const SITUACOES_CONTRATO = ['Ativo', 'Encerrado', 'Cancelado'] as const;

export const ItemContratoVenda = Record(
  'itemContratoVenda',
  Type.Object({
    sequenciaItem: Int64({ minimum: 1, description: 'item number, unique in the contract' }),
    produto: Type.Boolean({ description: 'true: a product; false: a service' }),
    codigo: Type.String({ minLength: 1, maxLength: 30, description: 'product or service code' }),
    descricao: Type.Optional(Type.String({ maxLength: 250 })),
    quantidade: Type.Optional(Double({ minimum: 0 })),
    valor: Double({ minimum: 0, maximum: 1e13, description: 'the item’s total value' }),
  }),
);
