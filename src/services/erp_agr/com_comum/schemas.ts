import { CNPJ_ESCRITO, CPF_ESCRITO } from '../../../platform/core/cpf-cnpj.ts';
import { DateOnly, Double, Enum, Int64, Record, Type } from '../../../platform/core/schema.ts';

// The records of erp_agr/com_comum (spec 001 §2.10 names them; their fields are the project's
// design, docs/com_comum.md). Each field is declared once here: the import row schemas, the entity
// fields and the query outputs are built from these.

export const SITUACOES_PESSOA = ['Ativo', 'Inativo', 'Bloqueado'] as const;
export const SITUACOES = ['Ativo', 'Inativo'] as const;
export const PROCESSOS_TRANSACAO = [
  'RecebimentoProducao',
  'CompraProducao',
  'VendaProducao',
  'DevolucaoProducao',
  'TransferenciaDeposito',
  'RemessaArmazenagem',
  'RetornoArmazenagem',
] as const;
export const TIPOS_PESSOA = ['F', 'J'] as const;
export const TIPOS_ENDERECO = ['Principal', 'Cobranca', 'Entrega', 'Correspondencia'] as const;
export const TIPOS_FORMA_PAGAMENTO = [
  'Dinheiro',
  'Boleto',
  'Cheque',
  'Deposito',
  'Pix',
  'CartaoCredito',
  'CartaoDebito',
  'Outros',
] as const;
export const OPERACOES_CONVERSAO = ['Multiplicar', 'Dividir'] as const;
/** enumTipoSKUCOT (spec 001 §2.2): the kind of product a SKU is; shared with erp_sup/cot_cotacao. */
export const TIPOS_PRODUTO = [
  'NaoClassificado',
  'Mercadoria',
  'MateriaPrima',
  'Intermediario',
  'Embalagem',
  'Manufatura',
  'EmFabricacao',
  'Subproduto',
  'UsoCosumo',
  'AtivoImobilizado',
  'Servico',
  'OutrosInsumos',
  'Outros',
] as const;

export const EnumSituacaoPessoa = (options: { default?: (typeof SITUACOES_PESSOA)[number] } = {}) =>
  Record(
    'enumSituacaoPessoa',
    Enum(SITUACOES_PESSOA, { description: 'Ativo, Inativo or Bloqueado', ...options }),
  );
export const EnumSituacao = () => Enum(SITUACOES, { description: 'Ativo or Inativo' });
export const EnumProcessosTransacao = () =>
  Record('enumProcessosTransacao', Enum(PROCESSOS_TRANSACAO, { description: 'agribusiness process' }));

/** A text field; `min` 1 for required codes and names. */
export const Str = (max: number, description?: string, min = 0) =>
  Type.String({
    maxLength: max,
    ...(min ? { minLength: min } : {}),
    ...(description ? { description } : {}),
  });
const Code = (max: number, description?: string) => Str(max, description, 1);
const opt = Type.Optional;
/** A number that must be above zero (factors, exchange rates). */
export const Positive = (description: string) =>
  Type.Number({ format: 'double', exclusiveMinimum: 0, description });

const CPF = `^${CPF_ESCRITO}$`;
/** Numeric or alphanumeric (new CNPJs since July 2026; platform/core/cpf-cnpj.ts). */
const CNPJ = `^${CNPJ_ESCRITO}$`;
export const Cnpj = () =>
  Type.String({
    pattern: CNPJ,
    description:
      'CNPJ, 14 characters, numeric or alphanumeric (punctuation allowed); stored without punctuation',
  });
export const CpfCnpj = (pattern: 'cpf' | 'cnpj' | 'both' = 'both') =>
  Type.String({
    pattern: pattern === 'cpf' ? CPF : pattern === 'cnpj' ? CNPJ : `${CPF}|${CNPJ}`,
    description:
      'CPF (11 digits) or CNPJ (14 characters, numeric or alphanumeric); stored without punctuation',
  });

// ---- fields of each record (the import rows and the outputs share them) ----

export const empresaFields = {
  codigo: Code(4, 'company code'),
  nome: Code(100, 'corporate name'),
  nomeFantasia: opt(Str(60, 'trade name')),
  cnpj: opt(Cnpj()),
  situacao: opt(EnumSituacao()),
};

export const filialFields = {
  codigoEmpresa: Code(4, 'code of the company (empresa.codigo)'),
  codigo: Code(5, 'branch code, unique within the company'),
  nome: Code(100),
  nomeFantasia: opt(Str(60)),
  cnpj: opt(Cnpj()),
  inscricaoEstadual: opt(Str(20)),
  codigoCidade: opt(Str(10, 'IBGE code of the city (cidade.codigo)')),
  siglaEstado: opt(Str(2)),
  situacao: opt(EnumSituacao()),
};

export const paisFields = {
  codigo: Code(5, 'country code (BACEN: 1058 for Brazil)'),
  nome: Code(60),
  sigla: opt(Str(3, 'ISO 3166 alpha-2 or alpha-3 (BR)')),
};

export const estadoFields = {
  pais: Code(5, 'code of the country (pais.codigo)'),
  sigla: Code(2, 'state abbreviation (SP)'),
  codigo: opt(Str(5, 'IBGE code of the state (35)')),
  nome: Code(60),
};

export const cidadeFields = {
  codigo: Code(10, 'IBGE code of the city (3550308)'),
  nome: Code(60),
  siglaEstado: Code(2, 'state abbreviation (estado.sigla)'),
  pais: Code(5, 'code of the country (pais.codigo)'),
};

export const pessoaFields = {
  codigo: Code(20, 'person code in the ERP'),
  nome: Code(150, 'name or corporate name'),
  nomeFantasia: opt(Str(60, 'trade name or nickname')),
  tipoPessoa: Enum(TIPOS_PESSOA, { description: 'F natural person, J legal entity' }),
  cpfCnpj: opt(CpfCnpj()),
  inscricaoEstadual: opt(Str(20)),
  email: opt(Str(100)),
  telefone: opt(Str(20)),
  situacao: opt(EnumSituacaoPessoa()),
  cliente: opt(Type.Boolean({ description: 'is a customer' })),
  fornecedor: opt(Type.Boolean({ description: 'is a supplier' })),
  representante: opt(Type.Boolean({ description: 'is a sales representative' })),
  produtor: opt(Type.Boolean({ description: 'is a rural producer' })),
};

export const produtorFields = {
  codigo: Code(20, 'producer code'),
  codigoPessoa: Code(20, 'the person the producer is (pessoa.codigo)'),
  inscricaoProdutor: opt(Str(20, 'state rural producer registration')),
  situacao: opt(EnumSituacao()),
};

export const produtorVinculoFields = {
  codigoProdutor: Code(20, 'the producer (produtor.codigo)'),
  codigoProdutorVinculado: Code(20, 'the linked producer (produtor.codigo)'),
  nomeVinculo: opt(Str(20, 'kind of link (Cônjuge, Parceiro, Arrendatário)')),
};

export const cooperadoInfoFields = {
  codigoProdutor: Code(20, 'the producer (produtor.codigo); one record per producer'),
  matricula: Code(20, 'membership number'),
  dataAdmissao: opt(DateOnly()),
  dataDesligamento: opt(DateOnly()),
  valorCotaCapital: opt(Double({ minimum: 0 })),
  codigoFilial: opt(Str(5, 'branch the member is attached to')),
};

export const produtorPropriedadeFields = {
  codigoProdutor: Code(20, 'the producer (produtor.codigo)'),
  codigo: Code(10, 'property code, unique per producer'),
  nome: Code(100),
  inscricaoEstadual: opt(Str(20)),
  car: opt(Str(50, 'Cadastro Ambiental Rural')),
  nirf: opt(Str(10, 'Receita Federal rural property number')),
  codigoCidade: opt(Str(10)),
  siglaEstado: opt(Str(2)),
  areaTotal: opt(Double({ minimum: 0, description: 'hectares' })),
  areaCultivavel: opt(Double({ minimum: 0, description: 'hectares' })),
  latitude: opt(Double({ minimum: -90, maximum: 90 })),
  longitude: opt(Double({ minimum: -180, maximum: 180 })),
};

export const unidadeMedidaFields = {
  codigo: Code(3, 'unit code (KG, SC, TON)'),
  descricao: Code(40),
  quantidadeDecimais: opt(Int64({ minimum: 0, maximum: 6 })),
};

export const skuUnidadeMedidaFields = {
  codigoSku: Code(30, 'the SKU (sku.codigo)'),
  codigoUnidadeMedida: Code(3, 'an alternative unit of the SKU'),
  fatorConversao: Positive('base units of the SKU in one of this unit'),
};

export const cotacaoMoedaFields = {
  codigoMoeda: Code(3, 'the currency (moeda.codigo)'),
  data: DateOnly(),
  valor: Positive('value of one unit in the national currency'),
};

export const formaPagamentoFields = {
  codigo: Code(6),
  descricao: Code(60),
  tipo: opt(Enum(TIPOS_FORMA_PAGAMENTO)),
  ativo: opt(Type.Boolean()),
};

// ---- query records ----

const Id = () => Int64();

export const Empresa = Record('empresa', Type.Object({ id: Id(), ...empresaFields }));

export const RecFilialAux = Record(
  'recFilialAux',
  Type.Object({
    id: Id(),
    idEmpresa: opt(Int64({ description: 'absent while the company is not registered' })),
    ...filialFields,
    nomeCidade: opt(Type.String()),
  }),
);

export const Pais = Record('pais', Type.Object(paisFields));
export const Estado = Record('estado', Type.Object(estadoFields));
export const Cidade = Record('cidade', Type.Object(cidadeFields));

export const RecPessoa = Record('recPessoa', Type.Object({ id: Id(), ...pessoaFields }));

export const RecFornecedor = Record(
  'recFornecedor',
  Type.Object({
    id: Id(),
    codigo: pessoaFields.codigo,
    nome: pessoaFields.nome,
    nomeFantasia: pessoaFields.nomeFantasia,
    tipoPessoa: pessoaFields.tipoPessoa,
    cpfCnpj: pessoaFields.cpfCnpj,
    situacao: EnumSituacaoPessoa(),
    email: pessoaFields.email,
    telefone: pessoaFields.telefone,
  }),
);

export const RecProdutor = Record(
  'recProdutor',
  Type.Object({
    id: Id(),
    ...produtorFields,
    cooperado: Type.Boolean({
      description: 'has a cooperadoInfo not ended (dataDesligamento empty or later)',
    }),
    idPessoa: opt(Int64({ description: 'absent while the person is not registered' })),
    nome: opt(Type.String({ description: 'name of the person' })),
    cpfCnpj: opt(Type.String()),
  }),
);

export const ProdutorVinculo = Record(
  'produtorVinculo',
  Type.Object({
    id: Id(),
    produtorId: Id(),
    produtorVinculadoId: Id(),
    ...produtorVinculoFields,
  }),
);

export const VinculoTransacao = Record(
  'vinculoTransacao',
  Type.Object({ id: Id(), transacaoId: Type.String(), processo: EnumProcessosTransacao() }),
);

export const RecEndereco = Record(
  'recEndereco',
  Type.Object({
    id: Id(),
    idPessoa: opt(Int64()),
    codigoPessoa: Type.String(),
    sequencia: Int64(),
    tipoEndereco: Enum(TIPOS_ENDERECO),
    logradouro: Type.String(),
    numero: opt(Type.String()),
    complemento: opt(Type.String()),
    bairro: opt(Type.String()),
    cep: opt(Type.String()),
    codigoCidade: opt(Type.String()),
    nomeCidade: opt(Type.String()),
    siglaEstado: opt(Type.String()),
    pais: opt(Type.String()),
    codigoEmpresa: opt(Type.String()),
  }),
);

// ---- paging and limits ----

export const DEFAULT_TAMANHO = 100;
export const MAX_TAMANHO = 1000;
export const MAX_PAGINA = 1_000_000;
export const DEFAULT_LIMITE = 100;
export const MAX_LIMITE = 1000;

export const RecPagina = () =>
  Record(
    'recPagina',
    Type.Object({
      pagina: opt(Int64({ minimum: 0, maximum: MAX_PAGINA, default: 0, description: 'page index, from 0' })),
      tamanho: opt(
        Int64({ minimum: 1, maximum: MAX_TAMANHO, default: DEFAULT_TAMANHO, description: 'page size' }),
      ),
    }),
  );

export const QuantidadeLimiteRegistros = () =>
  Int64({
    minimum: 1,
    maximum: MAX_LIMITE,
    default: DEFAULT_LIMITE,
    description: 'at most this many records; truncado tells when more matched',
  });
