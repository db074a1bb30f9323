import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  doublePrecision,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { numberedId, tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../../platform/core/entity.ts';
import { situacao } from './columns.ts';

// Producers: the person each is, the links between them, their cooperative membership and their
// properties; and the crop seasons (safra).

export const produtor = pgTable(
  'com_produtor',
  {
    id: numberedId('com_produtor'),
    tenant: tenantColumn(),
    codigo: text('codigo').notNull(),
    /** The person (pessoa.codigo) the producer is. */
    codigoPessoa: text('codigo_pessoa').notNull(),
    inscricaoProdutor: text('inscricao_produtor'),
    situacao: situacao(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_produtor_codigo').on(t.tenant, t.codigo),
    index('com_produtor_pessoa').on(t.tenant, t.codigoPessoa),
    tenantIsolation(t.tenant),
  ],
);

export const produtorVinculo = pgTable(
  'com_produtor_vinculo',
  {
    id: numberedId('com_produtor_vinculo'),
    tenant: tenantColumn(),
    codigoProdutor: text('codigo_produtor').notNull(),
    codigoProdutorVinculado: text('codigo_produtor_vinculado').notNull(),
    nomeVinculo: text('nome_vinculo'),
    criadoEm: timestamp('criado_em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_produtor_vinculo_par').on(t.tenant, t.codigoProdutor, t.codigoProdutorVinculado),
    index('com_produtor_vinculo_vinculado').on(t.tenant, t.codigoProdutorVinculado),
    // A producer is never linked to itself, whichever way the link arrives (action or import).
    check('com_produtor_vinculo_distintos', sql`${t.codigoProdutor} <> ${t.codigoProdutorVinculado}`),
    tenantIsolation(t.tenant),
  ],
);

export const cooperadoInfo = pgTable(
  'com_cooperado_info',
  {
    id: numberedId('com_cooperado_info'),
    tenant: tenantColumn(),
    codigoProdutor: text('codigo_produtor').notNull(),
    matricula: text('matricula').notNull(),
    dataAdmissao: date('data_admissao', { mode: 'string' }),
    dataDesligamento: date('data_desligamento', { mode: 'string' }),
    valorCotaCapital: doublePrecision('valor_cota_capital'),
    codigoFilial: text('codigo_filial'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_cooperado_info_produtor').on(t.tenant, t.codigoProdutor),
    index('com_cooperado_info_matricula').on(t.tenant, t.matricula),
    tenantIsolation(t.tenant),
  ],
);

export const produtorPropriedade = pgTable(
  'com_produtor_propriedade',
  {
    id: numberedId('com_produtor_propriedade'),
    tenant: tenantColumn(),
    codigoProdutor: text('codigo_produtor').notNull(),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    inscricaoEstadual: text('inscricao_estadual'),
    car: text('car'),
    nirf: text('nirf'),
    codigoCidade: text('codigo_cidade'),
    siglaEstado: text('sigla_estado'),
    areaTotal: doublePrecision('area_total'),
    areaCultivavel: doublePrecision('area_cultivavel'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_produtor_propriedade_codigo').on(t.tenant, t.codigoProdutor, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const safra = pgTable(
  'com_safra',
  {
    ...entityColumns('int64', 'com_safra'),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    cultura: text('cultura'),
    dataInicio: date('data_inicio', { mode: 'string' }).notNull(),
    dataFim: date('data_fim', { mode: 'string' }).notNull(),
    encerrada: boolean('encerrada').notNull().default(false),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_safra_codigo').on(t.tenant, t.codigo),
    check('com_safra_periodo', sql`${t.dataFim} >= ${t.dataInicio}`),
    tenantIsolation(t.tenant),
  ],
);
