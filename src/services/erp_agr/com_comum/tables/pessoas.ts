import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  pgTable,
  pgView,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { numberedId, tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { trigramIndex } from '../../../../platform/core/db/search.ts';
import { tenantColumn, tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entityColumns } from '../../../../platform/core/entity.ts';
import type * as S from '../schemas.ts';
import { oneOf } from './columns.ts';

// People (customers, suppliers, representatives, producers) and their addresses, with their search
// views.

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
