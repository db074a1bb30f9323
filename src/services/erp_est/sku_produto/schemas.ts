import { Enum, Int64, Record, Type } from '../../../platform/core/schema.ts';

// The records of erp_est/sku_produto (spec 001 §2.11, limits §8), each field declared once: the
// entities, the imports and the query outputs are built from these. docs/sku_produto.md.

export const INATIVO_ATIVO = ['Inativo', 'Ativo'] as const;
export const SIM_NAO = ['Nao', 'Sim'] as const;
export const TIPOS_COMPOSICAO = ['Alfanumerico', 'Numerico', 'SequenciaFixa'] as const;
export const TIPOS_PESSOA = ['Empresa', 'Filial'] as const;

/** The most characters of a mask (quantidadePosicoes): a SKU code of the catalogue holds at most 30. */
export const MAX_POSICOES = 30;
export const MAX_ULTIMA_SEQUENCIA = 999_999_999;

const opt = Type.Optional;
const Str = (max: number, description?: string) =>
  Type.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) });

export const InativoAtivo = () =>
  Record('inativoAtivo', Enum(INATIVO_ATIVO, { description: 'Inativo, Ativo' }));
export const SimNao = () => Record('simNao', Enum(SIM_NAO, { description: 'Nao, Sim' }));
export const TipoComposicao = () =>
  Record('tipoComposicao', Enum(TIPOS_COMPOSICAO, { description: 'Alfanumerico, Numerico, SequenciaFixa' }));

export const RecPessoa = Record(
  'recPessoa',
  Type.Object({
    codigo: Int64({ minimum: 0, description: 'code of the company or branch' }),
    tipo: Record('tipoPessoa', Enum(TIPOS_PESSOA, { description: 'Empresa, Filial' })),
    id: opt(Int64()),
    nome: opt(Type.String({ maxLength: 100 })),
  }),
);

/** The fields of recMascaraSku but id (the entity adds it), and the family the mask codes (design). */
export const mascaraFields = {
  codigo: Str(20, 'code of the mask, unique per company and family'),
  descricao: Str(100),
  abreviatura: Str(20, 'goes into the generated description of Numerico and SequenciaFixa masks'),
  quantidadePosicoes: Int64({
    minimum: 1,
    maximum: MAX_POSICOES,
    description: 'number of characters of the mask',
  }),
  utilizaComponentes: SimNao(),
  tipoComposicao: TipoComposicao(),
  autoIncrementavel: SimNao(),
  situacao: InativoAtivo(),
  empresa: RecPessoa,
  codigoFamilia: Str(20, '(design) the product family the mask codes (buscarMascarasSku, gerarSku)'),
  sequenciaFixa: opt(
    Type.String({ minLength: 1, maxLength: 10, description: 'the fixed text of a SequenciaFixa mask' }),
  ),
  selecionavelPeloUsuario: opt(SimNao()),
  valorIncremento: opt(
    Int64({
      minimum: 0,
      maximum: 9999,
      description: 'step of an auto-increment Numerico mask (0 counts as 1); default 1',
    }),
  ),
  ultimaSequencia: opt(
    Int64({ minimum: 0, maximum: MAX_ULTIMA_SEQUENCIA, description: 'last number handed out; default 0' }),
  ),
};

/** The fields of recMascaraSkuComponente but id and mascara (the entity links mascaraId). */
export const componenteFields = {
  codigo: Str(14),
  sequencia: Int64({
    minimum: 0,
    maximum: MAX_ULTIMA_SEQUENCIA,
    description: 'order of the component in a code',
  }),
  descricao: Str(50),
  abreviatura: Str(20, 'goes into the generated description'),
  situacao: InativoAtivo(),
  agrupamento: opt(Int64({ minimum: 0, maximum: 9999 })),
};

export const RecMascaraSku = Record('recMascaraSku', Type.Object({ id: Type.String(), ...mascaraFields }));

export const RecMascaraSkuComponente = Record(
  'recMascaraSkuComponente',
  Type.Object({ id: opt(Type.String()), mascara: RecMascaraSku, ...componenteFields }),
);

export const RecPaginacao = Record(
  'recPaginacao',
  Type.Object({
    offset: Int64({ minimum: 0, maximum: 1_000_000, description: 'page number, from 0' }),
    size: Int64({ minimum: 1, maximum: 1000 }),
    orderBy: Type.String({
      maxLength: 100,
      description:
        'codigo, descricao, abreviatura, sequencia or agrupamento, then asc or desc (default sequencia)',
    }),
  }),
);

export const RecItensGeracaoSku = Record(
  'recItensGeracaoSku',
  Type.Object({
    codigoMascara: Str(20),
    valor: opt(
      Type.String({
        maxLength: MAX_POSICOES * 15,
        description:
          'required when the mask uses components (the component codes, comma separated) or is Alfanumerico, ' +
          'or Numerico without auto-increment',
      }),
    ),
  }),
);
