import { defineEntity } from '../../../platform/core/entity.ts';
import { Double, Int64, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { ChavePreFatura, EnumSituacaoPreFatura } from './schemas.ts';
import { historicoPreFatura, itemPreFatura, preFatura } from './tables.ts';

// The pre-invoices as users read them (docs/int_prefatura.md "Reading"): read-only entities with
// the platform's list, get, filter and orderby; only the actions write them (405 otherwise).

const opt = Type.Optional;
/** Not written through the entity routes (405 naming the actions; left out of the documents). */
const somenteLeitura = (entidade: string) => ({ writes: E.somenteLeitura({ entidade }).message });
const PreFaturaId = Type.String({ format: 'uuid', description: 'the pre-invoice (preFatura.id)' });

export const preFaturaEntity = defineEntity({
  name: 'preFatura',
  description: 'Pre-invoices (read-only)',
  table: preFatura,
  naturalKey: ['codigoEmpresa', 'codigoFilial', 'analiseEmbarque', 'numeroPreFatura'],
  fields: Type.Object({
    ...ChavePreFatura,
    situacaoPreFatura: EnumSituacaoPreFatura,
    textoObservacao: opt(Type.String({ maxLength: 4000 })),
  }),
  refuses: somenteLeitura('preFatura'),
});

export const itemPreFaturaEntity = defineEntity({
  name: 'itemPreFatura',
  description:
    'Items of the pre-invoices (filter by preFaturaId), with the order item they attend when named (read-only)',
  table: itemPreFatura,
  naturalKey: ['preFaturaId', 'sequenciaPreFatura'],
  fields: Type.Object({
    preFaturaId: PreFaturaId,
    sequenciaPreFatura: Int64(),
    codigoDepositoItem: Type.String({ maxLength: 10 }),
    qtdItemPreFatura: Double(),
    quantidadeAtendida: Double(),
    cancelaSaldoPedido: Type.Boolean(),
    textoObservacao: opt(Type.String({ maxLength: 4000 })),
    situacaoPreFatura: EnumSituacaoPreFatura,
    numeroPedidoVenda: opt(Int64()),
    sequenciaPedidoVenda: opt(Int64()),
    quantidadePedido: Double({ description: 'what the item holds of its order item now' }),
    saldoCancelado: Double({
      description: 'the open balance of the order item it cancelled (cancelaSaldoPedido)',
    }),
  }),
  refuses: somenteLeitura('itemPreFatura'),
});

export const historicoPreFaturaEntity = defineEntity({
  name: 'historicoPreFatura',
  description:
    'History of the pre-invoices (filter by preFaturaId): one record per change; createdBy and createdDate say who and when (read-only)',
  table: historicoPreFatura,
  fields: Type.Object({
    preFaturaId: PreFaturaId,
    sequenciaPreFatura: opt(Int64()),
    operacao: Type.String({ maxLength: 60 }),
    situacaoAnterior: opt(EnumSituacaoPreFatura),
    situacaoNova: opt(EnumSituacaoPreFatura),
    alteracoes: Type.Record(Type.String(), Type.Object({ de: Type.Unknown(), para: Type.Unknown() })),
  }),
  refuses: somenteLeitura('historicoPreFatura'),
});

export const preFaturaEntities = [preFaturaEntity, itemPreFaturaEntity, historicoPreFaturaEntity];
