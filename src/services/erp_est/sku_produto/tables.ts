import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../platform/core/entity.ts';
import type * as S from './schemas.ts';

// erp_est/sku_produto's tables (docs/sku_produto.md). Property names are the JSON field names: the
// entity engine, the imports and the queries read them. Every key holds the tenant.

type Of<V extends readonly string[]> = V[number];
const oneOf = <V extends readonly string[]>(name: string) => text(name).$type<Of<V>>().notNull();
const int = (name: string) => bigint(name, { mode: 'number' });

export const mascara = pgTable(
  'sku_mascara',
  {
    ...entityColumns(),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    abreviatura: text('abreviatura').notNull(),
    quantidadePosicoes: int('quantidade_posicoes').notNull(),
    utilizaComponentes: oneOf<typeof S.SIM_NAO>('utiliza_componentes'),
    tipoComposicao: oneOf<typeof S.TIPOS_COMPOSICAO>('tipo_composicao'),
    autoIncrementavel: oneOf<typeof S.SIM_NAO>('auto_incrementavel'),
    situacao: oneOf<typeof S.INATIVO_ATIVO>('situacao'),
    empresa: jsonb('empresa').$type<Record<string, unknown>>().notNull(),
    /** empresa.codigo, a column of its own: masks are searched and unique per company. */
    codigoEmpresa: int('codigo_empresa').notNull(),
    codigoFamilia: text('codigo_familia').notNull(),
    sequenciaFixa: text('sequencia_fixa'),
    selecionavelPeloUsuario: text('selecionavel_pelo_usuario').$type<Of<typeof S.SIM_NAO>>(),
    valorIncremento: int('valor_incremento'),
    /** The counter of an auto-increment mask: gerarSku moves it under the row's lock. */
    ultimaSequencia: int('ultima_sequencia'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('sku_mascara_codigo').on(t.tenant, t.codigoEmpresa, t.codigoFamilia, t.codigo),
    check('sku_mascara_ultima_sequencia', sql`${t.ultimaSequencia} between 0 and 999999999`),
    tenantIsolation(t.tenant),
  ],
);

export const componente = pgTable(
  'sku_mascara_componente',
  {
    ...entityColumns(),
    mascaraId: uuid('mascara_id').notNull(),
    codigo: text('codigo').notNull(),
    sequencia: int('sequencia').notNull(),
    descricao: text('descricao').notNull(),
    abreviatura: text('abreviatura').notNull(),
    situacao: oneOf<typeof S.INATIVO_ATIVO>('situacao'),
    agrupamento: int('agrupamento'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('sku_mascara_componente_mascara_fk', t, t.mascaraId, mascara).onDelete('cascade'),
    uniqueIndex('sku_mascara_componente_codigo').on(t.tenant, t.mascaraId, t.codigo),
    index('sku_mascara_componente_sequencia').on(t.tenant, t.mascaraId, t.sequencia),
    tenantIsolation(t.tenant),
  ],
);
