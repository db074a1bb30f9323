import { query } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { empresaExiste, skuPorCodigo } from '../../erp_agr/com_comum/contract.ts';
import { E } from './errors.ts';
import { RecSku } from './schemas.ts';

// obterSku (spec 001 §4.1, §2.2): a SKU of the tenant's one catalogue (erp_agr/com_comum's, where
// erp_est/sku_produto's gerarSku writes), as recSku of the company asked (docs/cot_cotacao.md).

export const skus = {
  obterSku: query({
    description: "A SKU of the tenant's catalogue, for a company of the tenant",
    visibility: 'PUBLIC',
    get: true,
    input: Type.Object({
      codigoEmpresa: Type.String({
        minLength: 1,
        maxLength: 20,
        description: 'a company (empresa.codigo) of com_comum',
      }),
      codigoSKU: Type.String({ minLength: 1, maxLength: 30 }),
    }),
    output: Type.Object({ sku: RecSku }),
    handler: async (ctx, input) => {
      if (!(await empresaExiste(ctx.tx, ctx.tenant.name, input.codigoEmpresa)))
        throw E.empresaNotFound({ codigo: input.codigoEmpresa });
      const sku = await skuPorCodigo(ctx.tx, ctx.tenant.name, input.codigoSKU);
      if (!sku) throw E.skuNotFound({ codigo: input.codigoSKU });
      return {
        sku: {
          codigoEmrpesa: input.codigoEmpresa,
          codigo: sku.codigo,
          descricao: sku.descricao,
          tipoProduto: sku.tipoProduto,
          id: sku.id,
          ...(sku.codigoProduto ? { descricaoComplementar: `produto ${sku.codigoProduto}` } : {}),
        },
      };
    },
  }),
};
