import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  pgView,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { numberedId, tenantPrimaryKey } from '../../../platform/core/db/keys.ts';
import { trigramIndex } from '../../../platform/core/db/search.ts';
import { tenantColumn, tenantIsolation } from '../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../platform/core/entity.ts';
import type * as S from './schemas.ts';

// erp_agr/com_comum's tables (docs/com_comum.md). Property names are the JSON field names: the
// queries, the entity engine and the imports all read them. Every table has an int64 surrogate id
// numbered per tenant (primary key (tenant, id), platform/core/db/keys.ts) and a unique index on
// (tenant, natural key); references between these tables are natural codes (filial.codigoEmpresa,
// cidade.siglaEstado), so each import is a plain upsert with no lookups.

type Of<V extends readonly string[]> = V[number];
/** A text column holding one value of an enumeration of schemas.ts. */
const oneOf = <V extends readonly string[]>(name: string) => text(name).$type<Of<V>>().notNull();
const situacao = () => oneOf<typeof S.SITUACOES>('situacao').default('Ativo');

export const empresa = pgTable(
  'com_empresa',
  {
    id: numberedId('com_empresa'),
    tenant: tenantColumn(),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    nomeFantasia: text('nome_fantasia'),
    cnpj: text('cnpj'),
    situacao: situacao(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_empresa_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const filial = pgTable(
  'com_filial',
  {
    id: numberedId('com_filial'),
    tenant: tenantColumn(),
    codigoEmpresa: text('codigo_empresa').notNull(),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    nomeFantasia: text('nome_fantasia'),
    cnpj: text('cnpj'),
    inscricaoEstadual: text('inscricao_estadual'),
    codigoCidade: text('codigo_cidade'),
    siglaEstado: text('sigla_estado'),
    situacao: situacao(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_filial_codigo').on(t.tenant, t.codigoEmpresa, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const pais = pgTable(
  'com_pais',
  {
    id: numberedId('com_pais'),
    tenant: tenantColumn(),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    sigla: text('sigla'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_pais_codigo').on(t.tenant, t.codigo),
    index('com_pais_sigla').on(t.tenant, t.sigla),
    index('com_pais_nome').on(t.tenant, t.nome),
    tenantIsolation(t.tenant),
  ],
);

export const estado = pgTable(
  'com_estado',
  {
    id: numberedId('com_estado'),
    tenant: tenantColumn(),
    /** The country's codigo. */
    pais: text('pais').notNull(),
    sigla: text('sigla').notNull(),
    /** IBGE code of the state (35 for SP), optional for foreign states. */
    codigo: text('codigo'),
    nome: text('nome').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_estado_sigla').on(t.tenant, t.pais, t.sigla),
    tenantIsolation(t.tenant),
  ],
);

export const cidade = pgTable(
  'com_cidade',
  {
    id: numberedId('com_cidade'),
    tenant: tenantColumn(),
    /** IBGE municipality code (3550308 for São Paulo). */
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    siglaEstado: text('sigla_estado').notNull(),
    pais: text('pais').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_cidade_codigo').on(t.tenant, t.codigo),
    index('com_cidade_estado').on(t.tenant, t.siglaEstado, t.nome),
    tenantIsolation(t.tenant),
  ],
);

export const pessoa = pgTable(
  'com_pessoa',
  {
    id: numberedId('com_pessoa'),
    tenant: tenantColumn(),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    nomeFantasia: text('nome_fantasia'),
    tipoPessoa: oneOf<typeof S.TIPOS_PESSOA>('tipo_pessoa'),
    cpfCnpj: text('cpf_cnpj'),
    inscricaoEstadual: text('inscricao_estadual'),
    email: text('email'),
    telefone: text('telefone'),
    situacao: oneOf<typeof S.SITUACOES_PESSOA>('situacao').default('Ativo'),
    cliente: boolean('cliente').notNull().default(false),
    fornecedor: boolean('fornecedor').notNull().default(false),
    representante: boolean('representante').notNull().default(false),
    produtor: boolean('produtor').notNull().default(false),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_pessoa_codigo').on(t.tenant, t.codigo),
    // Lists without texto walk one of these in name order (the role's partial index).
    index('com_pessoa_nome').on(t.tenant, t.nome, t.id),
    index('com_pessoa_cliente_nome').on(t.tenant, t.nome, t.id).where(sql`${t.cliente}`),
    index('com_pessoa_fornecedor_nome').on(t.tenant, t.nome, t.id).where(sql`${t.fornecedor}`),
    index('com_pessoa_representante_nome').on(t.tenant, t.nome, t.id).where(sql`${t.representante}`),
    index('com_pessoa_cpf_cnpj').on(t.tenant, t.cpfCnpj),
    trigramIndex('com_pessoa_codigo_trgm', t.codigo),
    trigramIndex('com_pessoa_nome_trgm', t.nome),
    trigramIndex('com_pessoa_nome_fantasia_trgm', t.nomeFantasia),
    check('com_pessoa_tipo', sql`${t.tipoPessoa} in ('F', 'J')`),
    // A CPF (11 digits) for a natural person, a CNPJ (14) for a legal entity.
    check(
      'com_pessoa_documento',
      sql`${t.cpfCnpj} is null or length(${t.cpfCnpj}) = case ${t.tipoPessoa} when 'F' then 11 else 14 end`,
    ),
    tenantIsolation(t.tenant),
  ],
);

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

/** A transaction of the ERP (its code) enabled for an agribusiness process. */
export const vinculoTransacao = pgTable(
  'com_vinculo_transacao',
  {
    id: numberedId('com_vinculo_transacao'),
    tenant: tenantColumn(),
    transacaoId: text('transacao_id').notNull(),
    processo: oneOf<typeof S.PROCESSOS_TRANSACAO>('processo'),
    criadoEm: timestamp('criado_em', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_vinculo_transacao_par').on(t.tenant, t.transacaoId, t.processo),
    tenantIsolation(t.tenant),
  ],
);

export const moeda = pgTable(
  'com_moeda',
  {
    ...entityColumns('int64', 'com_moeda'),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    simbolo: text('simbolo'),
    quantidadeDecimais: integer('quantidade_decimais'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_moeda_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const cotacaoMoeda = pgTable(
  'com_cotacao_moeda',
  {
    id: numberedId('com_cotacao_moeda'),
    tenant: tenantColumn(),
    codigoMoeda: text('codigo_moeda').notNull(),
    data: date('data', { mode: 'string' }).notNull(),
    valor: doublePrecision('valor').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_cotacao_moeda_data').on(t.tenant, t.codigoMoeda, t.data),
    check('com_cotacao_moeda_valor', sql`${t.valor} > 0`),
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

export const unidadeMedida = pgTable(
  'com_unidade_medida',
  {
    id: numberedId('com_unidade_medida'),
    tenant: tenantColumn(),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    quantidadeDecimais: integer('quantidade_decimais'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_unidade_medida_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const unidadeMedidaConversao = pgTable(
  'com_unidade_medida_conversao',
  {
    ...entityColumns('int64', 'com_unidade_medida_conversao'),
    codigoUnidadeMedidaOrigem: text('codigo_unidade_medida_origem').notNull(),
    codigoUnidadeMedidaDestino: text('codigo_unidade_medida_destino').notNull(),
    operacao: oneOf<typeof S.OPERACOES_CONVERSAO>('operacao').default('Multiplicar'),
    fatorConversao: doublePrecision('fator_conversao').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_unidade_medida_conversao_par').on(
      t.tenant,
      t.codigoUnidadeMedidaOrigem,
      t.codigoUnidadeMedidaDestino,
    ),
    check(
      'com_unidade_medida_conversao_distintas',
      sql`${t.codigoUnidadeMedidaOrigem} <> ${t.codigoUnidadeMedidaDestino}`,
    ),
    check('com_unidade_medida_conversao_fator', sql`${t.fatorConversao} > 0`),
    tenantIsolation(t.tenant),
  ],
);

export const sku = pgTable(
  'com_sku',
  {
    ...entityColumns('int64', 'com_sku'),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    codigoProduto: text('codigo_produto'),
    codigoUnidadeMedida: text('codigo_unidade_medida').notNull(),
    codigoBarras: text('codigo_barras'),
    ncm: text('ncm'),
    pesoLiquido: doublePrecision('peso_liquido'),
    pesoBruto: doublePrecision('peso_bruto'),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_sku_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const skuUnidadeMedida = pgTable(
  'com_sku_unidade_medida',
  {
    id: numberedId('com_sku_unidade_medida'),
    tenant: tenantColumn(),
    codigoSku: text('codigo_sku').notNull(),
    codigoUnidadeMedida: text('codigo_unidade_medida').notNull(),
    fatorConversao: doublePrecision('fator_conversao').notNull(),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_sku_unidade_medida_par').on(t.tenant, t.codigoSku, t.codigoUnidadeMedida),
    check('com_sku_unidade_medida_fator', sql`${t.fatorConversao} > 0`),
    tenantIsolation(t.tenant),
  ],
);

export const condicaoPagamento = pgTable(
  'com_condicao_pagamento',
  {
    ...entityColumns('int64', 'com_condicao_pagamento'),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    quantidadeParcelas: integer('quantidade_parcelas').notNull().default(1),
    diasPrimeiraParcela: integer('dias_primeira_parcela').notNull().default(0),
    intervaloDias: integer('intervalo_dias').notNull().default(0),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_condicao_pagamento_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const formaPagamento = pgTable(
  'com_forma_pagamento',
  {
    id: numberedId('com_forma_pagamento'),
    tenant: tenantColumn(),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    tipo: oneOf<typeof S.TIPOS_FORMA_PAGAMENTO>('tipo').default('Outros'),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_forma_pagamento_codigo').on(t.tenant, t.codigo),
    tenantIsolation(t.tenant),
  ],
);

export const pessoaEndereco = pgTable(
  'com_pessoa_endereco',
  {
    ...entityColumns('int64', 'com_pessoa_endereco'),
    codigoPessoa: text('codigo_pessoa').notNull(),
    sequencia: integer('sequencia').notNull(),
    tipoEndereco: oneOf<typeof S.TIPOS_ENDERECO>('tipo_endereco').default('Principal'),
    logradouro: text('logradouro').notNull(),
    numero: text('numero'),
    complemento: text('complemento'),
    bairro: text('bairro'),
    cep: text('cep'),
    codigoCidade: text('codigo_cidade'),
    siglaEstado: text('sigla_estado'),
    pais: text('pais'),
    /** Empty: the address serves every company; set: only that company (empresa.codigo). */
    codigoEmpresa: text('codigo_empresa'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('com_pessoa_endereco_sequencia').on(t.tenant, t.codigoPessoa, t.sequencia),
    trigramIndex('com_pessoa_endereco_logradouro_trgm', t.logradouro),
    trigramIndex('com_pessoa_endereco_bairro_trgm', t.bairro),
    trigramIndex('com_pessoa_endereco_cep_trgm', t.cep),
    tenantIsolation(t.tenant),
  ],
);

// Search views. A non-leakproof operator (ILIKE) is never used as an index condition below a
// row-level security policy, so a search on the tables themselves, as the application role, scans
// the whole tenant instead of its trigram indexes. These views are owned by the migrating role
// (not subject to the policy) and apply the policy's own predicate, so the database still returns
// only the transaction's tenant, and the trigram indexes serve `texto`. Not security_barrier views:
// that would bring the same restriction back. With CHECK OPTION, a write through a view must stay
// in the transaction's tenant, as the policy's WITH CHECK demands. docs/com_comum.md "Indexes".
const ownTenant = (tenant: AnyPgColumn) => sql`${tenant} = current_setting('ponte.tenant', true)`;

export const pessoaBusca = pgView('com_pessoa_busca')
  .with({ checkOption: 'cascaded' })
  .as((qb) => qb.select().from(pessoa).where(ownTenant(pessoa.tenant)));

export const pessoaEnderecoBusca = pgView('com_pessoa_endereco_busca')
  .with({ checkOption: 'cascaded' })
  .as((qb) => qb.select().from(pessoaEndereco).where(ownTenant(pessoaEndereco.tenant)));
