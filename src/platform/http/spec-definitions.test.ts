import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import type { MetadataFormat } from '../core/ports.ts';
import { combinedDocument } from './documents.ts';

// The enums and records the spec's service sections name are named definitions of the service's
// documents, by the spec's exact names, and the fields that hold them refer to them by `$ref`:
// client generators make one type of each (docs/clients.md). One row per name and service; an enum
// whose values the spec gives carries them. The shared records of spec 000 §2.2 are definitions of
// every service's documents, used or not, with the spec's fields. Names the documents leave out, and
// why: docs/platform.md "Metadata and docs".

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

/** A field of a shared record: a string, an array of strings, or a `$ref` to the named definition. */
type Field = 'string' | 'string[]' | { $ref: string };
interface Shared {
  enum?: readonly string[];
  fields?: Record<string, Field>;
  required?: readonly string[];
  /** All fields of this record plus `fields` (`allOf` with its `$ref` first). */
  extends?: string;
  discriminator?: string;
}

/** spec 000 §2.2, record by record: in every service's documents. */
const SHARED: Record<string, Shared> = {
  // `detail` is Ponte's (docs/platform.md "Tenants and credentials"); `reason` holds the spec's reasons.
  genericError: {
    fields: { message: 'string', reason: 'string', detail: 'string' },
    required: ['message', 'reason'],
  },
  basicErrorPayload: { fields: { message: 'string', errorCode: 'string' }, required: [] },
  dependency: {
    fields: { domain: 'string', service: 'string', version: 'string' },
    required: ['domain', 'service', 'version'],
  },
  blobReference: {
    fields: { targetObjectId: 'string', domainName: 'string', serviceName: 'string', targetCopyId: 'string' },
    required: ['targetObjectId'],
  },
  upDown: { enum: UP_DOWN },
  checkData: { fields: { name: 'string', status: { $ref: 'upDown' } }, required: ['name', 'status'] },
  notifyUserEventPayload: {
    fields: {
      notificationKind: { $ref: 'userNotificationKind' },
      notificationPriority: { $ref: 'userNotificationPriority' },
      notificationSubject: 'string',
      notificationContent: 'string',
      sourceDomain: 'string',
      sourceService: 'string',
      destinationUser: 'string',
      _discriminator: 'string',
      notificationClass: 'string',
      notificationOrigin: 'string',
      link: 'string',
    },
    required: [
      'notificationKind',
      'notificationPriority',
      'notificationSubject',
      'notificationContent',
      'sourceDomain',
      'sourceService',
      'destinationUser',
      '_discriminator',
    ],
    discriminator: '_discriminator',
  },
  userNotificationKind: { enum: ['Operational', 'Management', 'News'] },
  userNotificationPriority: { enum: ['Error', 'Alert', 'None'] },
  emailNotifyUserEventPayload: {
    extends: 'notifyUserEventPayload',
    fields: { from: 'string', sendTo: 'string[]', format: { $ref: 'eventEmailFormat' } },
    required: ['from'],
  },
  eventEmailFormat: { enum: ['HTML', 'PLAIN_TEXT'] },
  pushNotifyUserEventPayload: {
    extends: 'notifyUserEventPayload',
    fields: { applicationId: 'string' },
    required: ['applicationId'],
  },
};
/** The records that extend another, by the record they extend. */
const EXTENDING = Object.entries(SHARED).filter(([, spec]) => spec.extends);

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
      // No field holds the enum's values inline: each refers to the one definition (another enum's
      // definition with the same values, as upDown beside heathcheckDTO, is no field).
      const definitionPath = new RegExp(`^/${prefix.slice(2, -1)}/[^/]+$`);
      const inline = [...nodes(doc)]
        .filter(
          ([path, node]) =>
            !definitionPath.test(path) && sameValues(node.enum, definition!.enum as unknown[]),
        )
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

  it.each(Object.entries(SHARED))(
    'of every service name the shared record %s, with the spec fields',
    (name, spec) => {
      const services = t.platform.registry.all().map((service) => service.id);
      expect(services).toEqual(expect.arrayContaining(Object.keys(SPEC)));
      for (const service of services) {
        const definitions = definitionsOf(documentOf(service, format));
        const definition = definitions[name];
        const where = `${service} ${name}`;
        expect(definition, where).toBeDefined();
        if (spec.enum) {
          expect(definition, where).toMatchObject({ type: 'string', enum: spec.enum });
          continue;
        }
        const own = spec.extends ? (definition!.allOf as Json[] | undefined)?.[1] : definition;
        if (spec.extends) {
          expect((definition!.allOf as Json[] | undefined)?.[0], where).toEqual({
            $ref: `${prefix}${spec.extends}`,
          });
        }
        expect(own?.type, where).toBe('object');
        const properties = (own?.properties ?? {}) as Record<string, Json>;
        expect(Object.keys(properties).sort(), where).toEqual(Object.keys(spec.fields!).sort());
        expect([...((own?.required as string[] | undefined) ?? [])].sort(), where).toEqual(
          [...spec.required!].sort(),
        );
        for (const [field, type] of Object.entries(spec.fields!)) {
          const property = properties[field];
          if (typeof type === 'object') {
            expect(property, `${where}.${field}`).toEqual({ $ref: `${prefix}${type.$ref}` });
            expect(definitions[type.$ref], `${where}.${field}`).toBeDefined();
          } else if (type === 'string[]')
            expect(property, `${where}.${field}`).toMatchObject({ type: 'array', items: { type: 'string' } });
          else expect(property?.type, `${where}.${field}`).toBe('string');
        }
        if (spec.discriminator === undefined) {
          expect(definition!.discriminator, where).toBeUndefined();
          continue;
        }
        // The value of the discriminator is the record's name: OpenAPI 3 maps each extending record.
        expect(definition!.discriminator, where).toEqual(
          format === 'swagger'
            ? spec.discriminator
            : {
                propertyName: spec.discriminator,
                mapping: Object.fromEntries(
                  EXTENDING.filter(([, other]) => other.extends === name).map(([other]) => [
                    other,
                    `${prefix}${other}`,
                  ]),
                ),
              },
        );
      }
    },
  );
});

it('the combined document names each shared record once', () => {
  const combined = combinedDocument(t.platform, { baseUrl: 'http://ponte.test', tenant: 'acme' }) as {
    components: { schemas: Record<string, unknown> };
  };
  const names = Object.keys(combined.components.schemas);
  for (const name of Object.keys(SHARED)) {
    expect(names, name).toContain(name);
    expect(
      names.filter((other) => other.endsWith(`_${name}`)),
      name,
    ).toEqual([]);
  }
});
