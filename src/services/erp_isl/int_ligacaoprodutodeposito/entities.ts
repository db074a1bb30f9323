import { defineEntity } from '../../../platform/core/entity.ts';
import { Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { CamposLigacao, ChaveLigacao } from './schemas.ts';
import { historicoLigacao, ligacao } from './tables.ts';

// The links as users read them (docs/int_ligacaoprodutodeposito.md "Reading"): read-only entities
// with the platform's list, get, filter and orderby; only the actions write them (405 otherwise).

/** Not written through the entity routes (405 naming the actions; left out of the documents). */
const somenteLeitura = (entidade: string) => ({ writes: E.somenteLeitura({ entidade }).message });

export const ligacaoEntity = defineEntity({
  name: 'ligacaoProdutoDeposito',
  description: 'Product-to-warehouse links (read-only; dataValidade answered YYYY-MM-DD)',
  table: ligacao,
  naturalKey: ['codigoEmpresa', 'codigoProduto', 'codigoDerivacao', 'codigoDeposito'],
  fields: Type.Object({ ...ChaveLigacao, ...CamposLigacao }),
  refuses: somenteLeitura('ligacaoProdutoDeposito'),
});

export const historicoLigacaoEntity = defineEntity({
  name: 'historicoLigacaoProdutoDeposito',
  description:
    'History of the links: one record per insert, change and removal (filter by ligacaoId or the key); createdBy and createdDate say who and when (read-only)',
  table: historicoLigacao,
  fields: Type.Object({
    ligacaoId: Type.String({ format: 'uuid', description: 'the link (ligacaoProdutoDeposito.id)' }),
    ...ChaveLigacao,
    operacao: Type.String({ maxLength: 60, description: 'inserirLigacao, alterarLigacao or excluirLigacao' }),
    alteracoes: Type.Record(Type.String(), Type.Object({ de: Type.Unknown(), para: Type.Unknown() }), {
      description: 'each changed field: its value before (de) and after (para)',
    }),
  }),
  refuses: somenteLeitura('historicoLigacaoProdutoDeposito'),
});

export const ligacaoEntities = [ligacaoEntity, historicoLigacaoEntity];
