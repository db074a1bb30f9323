import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../platform/core/entity.ts';
import type { SituacaoLigacao } from './situacoes.ts';

// erp_isl/int_ligacaoprodutodeposito's tables (spec 001 §2.5, §4.4; docs/int_ligacaoprodutodeposito.md).
// A link is keyed by the ERP's (tenant, codigoEmpresa, codigoProduto, codigoDerivacao,
// codigoDeposito): a unique index, so a second insert of one key is refused by it (409).

const int64 = (name: string) => bigint(name, { mode: 'number' });

/** The id (a UUID, typed as the string it is) and audit columns of an entity table. */
function entidade() {
  const { id: _id, ...audit } = entityColumns('uuid');
  return { id: uuid('id').notNull().defaultRandom(), ...audit };
}

/** A product-to-warehouse link (the entity ligacaoProdutoDeposito). */
export const ligacao = pgTable(
  'isl_ligacao_produto_deposito',
  {
    ...entidade(),
    codigoEmpresa: int64('codigo_empresa').notNull(),
    codigoProduto: text('codigo_produto').notNull(),
    codigoDerivacao: text('codigo_derivacao').notNull(),
    codigoDeposito: text('codigo_deposito').notNull(),
    estoqueNegativo: boolean('estoque_negativo'),
    estoqueReposicao: doublePrecision('estoque_reposicao'),
    quantidadeMinDias: int64('quantidade_min_dias'),
    quantidadeMaxDias: int64('quantidade_max_dias'),
    dataValidade: date('data_validade', { mode: 'string' }),
    prazoRessuprimento: int64('prazo_ressuprimento'),
    capacidadeEstoque: doublePrecision('capacidade_estoque'),
    calculoNecessidades: boolean('calculo_necessidades'),
    ligacaoEspecial: boolean('ligacao_especial'),
    situacao: text('situacao').$type<SituacaoLigacao>().notNull(),
    codigoEnderecamento: text('codigo_enderecamento'),
    codigoMotivo: int64('codigo_motivo'),
    observacaoMotivo: text('observacao_motivo'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('isl_ligacao_produto_deposito_chave').on(
      t.tenant,
      t.codigoEmpresa,
      t.codigoProduto,
      t.codigoDerivacao,
      t.codigoDeposito,
    ),
    index('isl_ligacao_produto_deposito_deposito').on(t.tenant, t.codigoEmpresa, t.codigoDeposito),
    tenantIsolation(t.tenant),
  ],
);

/**
 * The history of the links: one row per insert, change and removal. It names the link by its key
 * and keeps no reference to it, so a removed link's history stays readable.
 */
export const historicoLigacao = pgTable(
  'isl_ligacao_historico',
  {
    ...entidade(),
    ligacaoId: uuid('ligacao_id').notNull(),
    codigoEmpresa: int64('codigo_empresa').notNull(),
    codigoProduto: text('codigo_produto').notNull(),
    codigoDerivacao: text('codigo_derivacao').notNull(),
    codigoDeposito: text('codigo_deposito').notNull(),
    operacao: text('operacao').notNull(),
    alteracoes: jsonb('alteracoes').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    index('isl_ligacao_historico_ligacao').on(t.tenant, t.ligacaoId, t.createdDate),
    index('isl_ligacao_historico_chave').on(
      t.tenant,
      t.codigoEmpresa,
      t.codigoProduto,
      t.codigoDerivacao,
      t.codigoDeposito,
    ),
    tenantIsolation(t.tenant),
  ],
);
