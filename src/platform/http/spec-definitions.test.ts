import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import type { MetadataFormat } from '../core/ports.ts';

// The enums and records the spec's service sections name are named definitions of the service's
// documents, by the spec's exact names, and the fields that hold them refer to them by `$ref`:
// client generators make one type of each (docs/clients.md). One row per name and service; an enum
// whose values the spec gives carries them. Names the documents leave out, and why: docs/platform.md
// "Metadata and docs".

type Named = { enum?: readonly string[] } | undefined;
const UP_DOWN = ['UP', 'DOWN'];

/** spec name → what the spec says of it, per service (spec 000 §2.4-2.5, spec 001 §2). */
const SPEC: Record<string, { enums: Record<string, Named>; records: string[] }> = {
  'yms/patio': {
    enums: { statusAgendamento: undefined, tipoCaptura: undefined },
    records: [
      'autocompleteFilter',
      'autocompleteFilterParameter',
      'controleArea',
      'execucaoCircuito',
      'vaga',
      'condicaoDetalhes',
      'comandoDetalhes',
      'controladorAtual',
      'veiculo',
      'motorista',
      'agenda',
      'turno',
      'yardInput',
      'condicaoDescritor',
      'comandoDescritor',
      'escopoRotina',
      'logRotina',
      'filaItem',
      'importEventStatus',
      'exportEventStatus',
    ],
  },
  'yms/agenda': {
    enums: { statusAgendamento: undefined, statusPreAgenda: undefined, statusIntegracao: undefined },
    records: [
      'agenda',
      'preAgenda',
      'anexo',
      'tipoAgendamento',
      'horarioDisponivel',
      'associacaoAgendamento',
      'externalTenant',
      'externalUser',
      'tenant',
      'composicaoVeiculo',
      'importEventStatus',
      'exportEventStatus',
    ],
  },
  'erp_sup/cot_cotacao': {
    enums: {
      enumTipoSKUCOT: {
        enum: [
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
        ],
      },
    },
    records: [
      'recCotacaoItem',
      'recDetalhesUsuario',
      'recCotacaoItemEndereco',
      'recCotacaoItemAnexo',
      'recSku',
    ],
  },
  'hcm/platform_integration': {
    enums: { heathcheckDTO: { enum: UP_DOWN } },
    records: ['integrationSaveBatchData', 'checkDTO'],
  },
  'hcm/managementpanel': { enums: { heathcheckDTO: { enum: UP_DOWN } }, records: ['checkDTO'] },
  'erp_isl/int_pedidovenda': {
    enums: {
      enumSituacaoPedidoVenda: {
        enum: [
          'AbertoTotal',
          'AbertoParcial',
          'Suspenso',
          'Cancelado',
          'AguardandoIntegracaoWms',
          'EmTransmissao',
          'PreparacaoAnaliseOuNf',
          'NaoFechado',
        ],
      },
    },
    records: ['recItensPro', 'recItensSer', 'recAlteracaoItensPro', 'recAlteracaoItensLotes'],
  },
  'erp_isl/int_ligacaoprodutodeposito': {
    enums: { enumSituacaoLigacaoProdutoDeposito: { enum: ['Inativo', 'Ativo'] } },
    records: [],
  },
  'erp_isl/int_prefatura': {
    enums: {
      enumSituacaoPreFatura: {
        enum: [
          'EmAnalise',
          'EmPreparacao',
          'ParaFaturar',
          'Faturada',
          'EmConferencia',
          'AguardandoIntWMS',
          'SemEstoqueReq',
          'Cancelada',
        ],
      },
    },
    records: ['recAlteracaoItemPreFaturaPro', 'recAlteracaoItensPreFaturaLotes'],
  },
  'erp_mer/ctr_contratos': {
    enums: {},
    records: ['recContratoVenda', 'recParcelaContratoVenda', 'recContratosVendaComParcelas'],
  },
  'erp_mer/ped_pedidos': {
    enums: {},
    records: ['recPedidoVenda', 'recParcelaPedidoVenda', 'recpedidosVendaComParcelas'],
  },
  'erp_cge/gct_historicoprocesso': {
    enums: { situacaoProcesso: { enum: ['Iniciado', 'Finalizado', 'Interrompido'] } },
    records: ['recParametros', 'recPeriodoExecucaoProcesso'],
  },
  'tms/oficina': {
    enums: {
      upDown: { enum: UP_DOWN },
      enumTypeOrder: { enum: ['ASC', 'DESC'] },
      TipoStatusManutencao: undefined,
    },
    records: [
      'checkData',
      'FilialRec',
      'PendenciaRec',
      'RevisaoRec',
      'ManutencaoRec',
      'CentroCustoRec',
      'RsalvaSetor',
      'VisaoRec',
      'VisaoGeralRec',
      'VeiculoRec',
      'RetornoSalvaListaRec',
      'Rerros',
      'RrsalvaManut',
      'RrsalvaCentroCusto',
      'RremoveRevisao',
      'RremoveCentroCusto',
      'RremoveSetor',
      'RremoveManutencao',
      'RremovePendencia',
      'RremoveVeiculo',
      'recFieldsOrderBy',
      'filial',
      'centroCusto',
      'setor',
      'veiculo',
      'pendencia',
      'revisao',
      'manutencao',
    ],
  },
  'erp_agr/com_comum': {
    enums: { upDown: { enum: UP_DOWN }, enumSituacaoPessoa: undefined, enumProcessosTransacao: undefined },
    records: [
      'checkData',
      'empresa',
      'recFilialAux',
      'pais',
      'estado',
      'cidade',
      'recPessoa',
      'recFornecedor',
      'recPagina',
      'produtorVinculo',
      'importConfig',
      'unidadeMedidaConversao',
      'condicaoPagamento',
      'sku',
      'pessoaEndereco',
      'moeda',
      'safra',
    ],
  },
  'erp_est/sku_produto': {
    enums: {
      upDown: { enum: UP_DOWN },
      inativoAtivo: { enum: ['Inativo', 'Ativo'] },
      simNao: { enum: ['Nao', 'Sim'] },
      tipoComposicao: { enum: ['Alfanumerico', 'Numerico', 'SequenciaFixa'] },
      tipoPessoa: { enum: ['Empresa', 'Filial'] },
    },
    records: [
      'checkData',
      'recMascaraSku',
      'recPaginacao',
      'recItensGeracaoSku',
      'recPessoa',
      'recMascaraSkuComponente',
    ],
  },
  'platform/functions': {
    enums: { healthCheckStatus: { enum: UP_DOWN } },
    records: [
      'checkDTO',
      'endpointStage',
      'persistedFunction',
      'environmentInformation',
      'functionsAccess',
      'persistedDeveloper',
      'persistedConsultant',
      'stages',
    ],
  },
};

const FORMATS = ['swagger', 'openapi'] as const;
const rows = Object.entries(SPEC).flatMap(([service, { enums, records }]) => [
  ...Object.entries(enums).map(([name, spec]) => ({
    service,
    name,
    kind: 'enum' as const,
    values: spec?.enum,
  })),
  ...records.map((name) => ({ service, name, kind: 'record' as const, values: undefined })),
]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every schema node of a document but its non-body parameters (Swagger 2.0 writes those inline). */
function* nodes(node: unknown, path = ''): Generator<[string, Json]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* nodes(item, `${path}/${i}`);
    return;
  }
  if (!isObject(node)) return;
  if (typeof node.in === 'string' && node.in !== 'body') return;
  yield [path, node];
  for (const [key, value] of Object.entries(node)) yield* nodes(value, `${path}/${key}`);
}

const sameValues = (a: unknown, b: readonly unknown[]) =>
  Array.isArray(a) && JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

let t: TestApp;
const documents = new Map<string, Json>();
function documentOf(service: string, format: MetadataFormat): Json {
  const key = `${service} ${format}`;
  if (!documents.has(key))
    documents.set(
      key,
      t.platform.metadata(service, format, { baseUrl: 'http://ponte.test', tenant: 'acme' }) as Json,
    );
  return documents.get(key)!;
}

beforeAll(async () => {
  t = await testApp();
});

describe.each(FORMATS)('the %s documents', (format) => {
  const prefix = format === 'swagger' ? '#/definitions/' : '#/components/schemas/';
  const definitionsOf = (doc: Json) =>
    ((format === 'swagger' ? doc.definitions : (doc.components as Json | undefined)?.schemas) ??
      {}) as Record<string, Json>;

  it.each(rows)(
    'of $service name the $kind $name, which the fields refer to',
    ({ service, name, kind, values }) => {
      const doc = documentOf(service, format);
      const definition = definitionsOf(doc)[name];
      expect(definition, `${service} ${name}`).toBeDefined();
      const ref = `${prefix}${name}`;
      const referrers = [...nodes(doc)].filter(([, node]) => node.$ref === ref).map(([path]) => path);
      expect(referrers.length, `${service}: no field refers to ${name}`).toBeGreaterThan(0);
      if (kind === 'record') return;
      expect(definition!.type).toBe('string');
      expect(Array.isArray(definition!.enum)).toBe(true);
      if (values) expect(definition!.enum).toEqual(values);
      // No field holds the enum's values inline: each refers to the one definition.
      const inline = [...nodes(doc)]
        .filter(([, node]) => node !== definition && sameValues(node.enum, definition!.enum as unknown[]))
        .map(([path]) => path);
      expect(inline, `${service}: fields holding ${name} inline`).toEqual([]);
    },
  );

  it('give an enum several services name one definition (the combined document keeps one)', () => {
    const services = new Map<string, string[]>();
    for (const { service, name, kind } of rows)
      if (kind === 'enum') services.set(name, [...(services.get(name) ?? []), service]);
    const shared = [...services].filter(([, of]) => of.length > 1);
    expect(shared.map(([name]) => name).sort()).toEqual(['heathcheckDTO', 'statusAgendamento', 'upDown']);
    for (const [name, [first, ...others]] of shared)
      for (const other of others)
        expect(definitionsOf(documentOf(other, format))[name], `${other} ${name}`).toEqual(
          definitionsOf(documentOf(first!, format))[name],
        );
  });
});
