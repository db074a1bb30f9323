import { Int64, Record, Type } from '../../../platform/core/schema.ts';
import { CalcularFluxoCaixa, Discriminator, parcelaFields } from '../ctr_contratos/contract.ts';

// The records of erp_mer/ped_pedidos (spec 001 §2.7, §4.6), each field once; the installment's six
// fields are the same as ctr_contratos' (spec: "same six fields").

const Id = (description: string) => Int64({ minimum: 0, description });

export const recPedidoVendaFields = {
  empresa: Id('company (int_pedidovenda codigoEmpresa)'),
  filial: Id('branch (int_pedidovenda codigoFilial)'),
  pedidoVenda: Id('order number (int_pedidovenda numeroPedidoVenda)'),
  _discriminator: Discriminator,
};

export const RecPedidoVenda = Record('recPedidoVenda', Type.Object(recPedidoVendaFields));
export const RecParcelaPedidoVenda = Record('recParcelaPedidoVenda', Type.Object(parcelaFields));
export const RecpedidosVendaComParcelas = Record(
  'recpedidosVendaComParcelas',
  Type.Object({ ...recPedidoVendaFields, parcelasPedido: Type.Array(RecParcelaPedidoVenda) }),
);

export const ObterParcelasPedidoVendaInput = Type.Object({
  calcularFluxoCaixa: CalcularFluxoCaixa,
  pedidoVenda: Type.Array(RecPedidoVenda, {
    minItems: 1,
    maxItems: 1000,
    description: 'the orders asked for (declared minimum 1)',
  }),
});

export const ObterParcelasPedidoVendaOutput = Type.Object({
  pedidosVendaComParcelas: Type.Array(RecpedidosVendaComParcelas),
});
