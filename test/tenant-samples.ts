import { randomUUID } from 'node:crypto';
import type { TObject, TSchema } from 'typebox';
import { comDigitosCpf } from '../src/platform/core/cpf-cnpj.ts';
import { Store, type TenantTable } from '../src/platform/core/db/store.ts';
import { condicaoPagamento } from '../src/services/erp_agr/com_comum/tables/financeiro.ts';
import { pessoa } from '../src/services/erp_agr/com_comum/tables/pessoas.ts';
import { unidadeMedida } from '../src/services/erp_agr/com_comum/tables/produtos.ts';
import type { TestApp } from './harness.ts';

// Sample records of every entity for tenants.test.ts: a body generated from the entity's input
// schema, with the values the schema alone cannot give (references, patterns, the rules of the
// hooks) from the table below, and the records those references need. Dependencies get the same
// ids and codes in every tenant: tenant B mirrors A, so B can post A's very bodies.

export type Json = Record<string, unknown>;

/** One tenant as a client sees it. */
export interface Fixture {
  tenant: string;
  /** POSTs `body` to `address` (`domain/service/kind/...`) and answers the JSON; anything but 200 throws. */
  post(address: string, body: unknown): Promise<Json>;
  seed<T extends TenantTable>(table: T, rows: Omit<T['$inferInsert'], 'tenant'>[]): Promise<void>;
}

export function fixture(t: TestApp, tenant: string, auth: string): Fixture {
  return {
    tenant,
    async post(address, body) {
      const res = await t.call(tenant, address, body, { auth });
      if (res.statusCode !== 200) throw new Error(`${tenant} ${address}: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    async seed(table, rows) {
      await t.db.tenant(tenant, (tx) => new Store(tx, tenant).insert(table, rows));
    },
  };
}

export interface Sample {
  /** The records the samples refer to, made in the fixture's tenant (the same in every tenant). */
  deps?: (f: Fixture) => Promise<void>;
  /** The values of the i-th sample the schema cannot give; they win over the generated ones. */
  fields?: (i: number) => Json;
  /** The parent of a child collection (made by `deps`). */
  parentId?: string;
  /**
   * For an entity the engine's POST does not create: the operation that does (it never takes an
   * id from the client, so no id can collide), and why. Answers the record as the entity shows it.
   */
  createdBy?: { reason: string; create: (f: Fixture, i: number) => Promise<Json> };
}

/** Ids of the dependencies, the same in every tenant. */
const dep = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const DEP = {
  planta: dep(1),
  area: dep(2),
  veiculo: dep(3),
  circuito: dep(4),
  tipo: dep(5),
  agenda: dep(6),
  parceiro: dep(7),
  /** erp_est/sku_produto: a mask that uses components. */
  mascaraSku: dep(20),
  /** Plants of their own per sample (an address per plant). */
  plantas: [10, 11, 12, 13, 14, 15].map(dep),
};

/** A valid CPF (platform/core/cpf-cnpj.ts) for each i. */
export const cpf = (i: number): string => comDigitosCpf(String(123_456_000 + i));

const PATIO = 'yms/patio/entities';
const AGENDA = 'yms/agenda/entities';
const planta = (f: Fixture, id = DEP.planta) =>
  f.post(`${PATIO}/planta`, { id, codigo: `DEP-${id.slice(-2)}`, nome: 'Planta de apoio' });
/** One plant for each sample that names its own. */
const plantas = async (f: Fixture) => {
  for (const id of DEP.plantas) await planta(f, id);
};
const area = async (f: Fixture) => {
  await planta(f);
  await f.post(`${PATIO}/area`, {
    id: DEP.area,
    plantaId: DEP.planta,
    codigo: 'DEP',
    descricao: 'Área de apoio',
    tipo: 'DOCA',
  });
};
/** A plant open all of 2026-03-10 with an appointment type of room enough (the agenda's booking). */
const agendamento = async (f: Fixture) => {
  await planta(f);
  await f.post(`${PATIO}/turno`, {
    plantaId: DEP.planta,
    data: '2026-03-10',
    horaInicio: '06:00',
    horaFim: '18:00',
  });
  await f.post(`${AGENDA}/tipoAgendamento`, {
    id: DEP.tipo,
    codigo: 'DEP',
    descricao: 'Descarga de apoio',
    operacao: 'DESCARGA',
    plantaId: DEP.planta,
    duracaoSlotMinutos: 30,
    capacidadePorSlot: 100,
  });
};
const booking = {
  plantaId: DEP.planta,
  tipoAgendamentoId: DEP.tipo,
  dataEsperada: '2026-03-10T09:00:00-03:00',
};
const anexo = (agendaId?: string) => ({
  reason: 'attachments are created by obterUrlUploadAnexo, which takes no id from the client',
  create: async (f: Fixture, i: number) => {
    const made = await f.post('yms/agenda/queries/obterUrlUploadAnexo', {
      nomeAnexo: `nota-${i}.pdf`,
      ...(agendaId ? { agendaId } : {}),
    });
    return { id: made.id };
  },
});

const PEDIDOS = 'erp_isl/int_pedidovenda';
/** erp_isl's read-only entities: each sample is written by the service's actions, then read back by key. */
const pedido = (pick: (found: Json) => Json) => ({
  reason: 'sales orders are written by the int_pedidovenda actions only (read-only entities)',
  create: async (f: Fixture, i: number) => {
    const chave = { codigoEmpresa: 1, codigoFilial: 1, numeroPedidoVenda: 100 + i };
    await f.post(`${PEDIDOS}/actions/inserirPedidoVenda`, {
      ...chave,
      sequenciaPedidoVenda: 1,
      data_emissao: '2026-11-20',
      codigo_cliente: 1,
      valorLiquido: 10,
      valorTotal: 10,
      itensPro: [
        {
          sequenciaEmbalagem: 1,
          sequenciaConteudo: 1,
          quantidade: 1,
          volume: 1,
          pesoBruto: 1,
          pesoLiquido: 1,
          obsProduto: '',
        },
      ],
      itensSer: [
        {
          sequenciaItem: 1,
          codigoServico: 'S',
          servico: 'S',
          quantidade: 1,
          valorUnitario: 1,
          valorDesconto: 0,
          valorLiquido: 1,
          valorTotal: 1,
        },
      ],
    });
    return pick(await f.post(`${PEDIDOS}/queries/obterPedidoVenda`, chave));
  },
});
const first = (list: unknown) => ({ id: (list as Json[])[0]!.id });

const LIGACOES = 'erp_isl/int_ligacaoprodutodeposito';
const ligacao = (pick: (found: Json) => Json) => ({
  reason: 'links are written by the int_ligacaoprodutodeposito actions only (read-only entities)',
  create: async (f: Fixture, i: number) => {
    const chave = { codigoEmpresa: 1, codigoProduto: `P${i}`, codigoDerivacao: '', codigoDeposito: 'D1' };
    await f.post(`${LIGACOES}/actions/inserirLigacao`, { ...chave, situacao: 'Ativo' });
    return pick(await f.post(`${LIGACOES}/queries/obterLigacao`, chave));
  },
});

const preFatura = (pick: (found: Json) => Json) => ({
  reason: 'pre-invoices are written by the int_prefatura actions only (read-only entities)',
  create: async (f: Fixture, i: number) => {
    const chave = { codigoEmpresa: 1, codigoFilial: 1, analiseEmbarque: 1, numeroPreFatura: 100 + i };
    await f.post('erp_isl/int_prefatura/actions/inserirPreFatura', {
      ...chave,
      sequenciaPreFatura: 1,
      codigoDepositoItem: 'D1',
      qtdItemPreFatura: 1,
      cancelaSaldoPedido: false,
    });
    return pick(await f.post('erp_isl/int_prefatura/queries/obterPreFatura', chave));
  },
});

/** By `domain/service/entity`, or `domain/service/parent/children` for a child collection. */
export const SAMPLES: Record<string, Sample> = {
  'erp_est/sku_produto/mascaraSkuComponente': {
    deps: async (f) => {
      await f.post('erp_est/sku_produto/entities/mascaraSku', {
        id: DEP.mascaraSku,
        codigo: 'CORES',
        descricao: 'Cores',
        abreviatura: 'COR',
        quantidadePosicoes: 4,
        utilizaComponentes: 'Sim',
        tipoComposicao: 'Alfanumerico',
        autoIncrementavel: 'Nao',
        situacao: 'Ativo',
        empresa: { codigo: 1, tipo: 'Empresa' },
        codigoFamilia: 'CAM',
      });
    },
    fields: () => ({ mascaraId: DEP.mascaraSku }),
  },
  'erp_sup/cot_cotacao/cotacao': {
    createdBy: {
      reason: 'quotations are created by criarCotacao, which takes no id from the client',
      create: async (f, i) => {
        const made = await f.post('erp_sup/cot_cotacao/actions/criarCotacao', {
          cotacao: [
            {
              idNecessidadeCompra: `NC-${i}`,
              numeroNecessidadeCompra: i,
              quantidade: 10 + i,
              codigoEmpresa: '1',
              codigoFilial: '1',
              codigoUnidadeMedida: 'UN',
            },
          ],
        });
        return { id: made.idCotacao };
      },
    },
  },
  'erp_agr/com_comum/moeda': {},
  'erp_agr/com_comum/safra': {},
  'erp_agr/com_comum/condicaoPagamento': {},
  'erp_agr/com_comum/sku': {
    deps: (f) => f.seed(unidadeMedida, [{ codigo: 'UN', descricao: 'Unidade' }]),
    fields: () => ({ codigoUnidadeMedida: 'UN' }),
  },
  'erp_agr/com_comum/unidadeMedidaConversao': {
    deps: (f) =>
      f.seed(unidadeMedida, [
        { codigo: 'UN', descricao: 'Unidade' },
        ...[0, 1, 2, 3, 4, 5].map((i) => ({ codigo: `D${i}`, descricao: `Destino ${i}` })),
      ]),
    fields: (i) => ({ codigoUnidadeMedidaOrigem: 'UN', codigoUnidadeMedidaDestino: `D${i}` }),
  },
  'erp_agr/com_comum/pessoaEndereco': {
    deps: (f) => f.seed(pessoa, [{ codigo: 'P1', nome: 'Pessoa de apoio', tipoPessoa: 'F' }]),
    fields: () => ({ codigoPessoa: 'P1' }),
  },
  'platform/functions/function': {
    fields: (i) => ({
      name: `fn${i}`,
      domainName: 'erp_agr',
      serviceName: 'com_comum',
      primitiveName: [
        'pesquisarEmpresa',
        'pesquisarFilial',
        'pesquisarPais',
        'listarPaises',
        'pesquisarEstado',
        'pesquisarCidade',
        'pesquisarEndereco',
        'pesquisarFornecedor',
        'pesquisarCliente',
        'pesquisarProdutor',
      ][i % 10],
    }),
  },
  'erp_agr/com_comum/condicaoPagamentoParcela': {
    deps: (f) =>
      f.seed(condicaoPagamento, [
        { codigo: 'CP1', descricao: 'Plano de apoio', createdBy: 'test', lastModifiedBy: 'test' },
      ]),
    fields: (i) => ({ codigoCondicaoPagamento: 'CP1', sequencia: i + 1, dias: 30 * i, percentual: 10 }),
  },
  'erp_agr/com_comum/feriado': { fields: (i) => ({ data: `2026-12-${String(10 + i).padStart(2, '0')}` }) },
  'erp_mer/ctr_contratos/contratoVenda': {
    fields: (i) => ({
      contratoVenda: 100 + i,
      itens: [{ sequenciaItem: 1, produto: true, codigo: 'P', valor: 10 + i }],
    }),
  },
  'yms/patio/planta': {},
  'yms/patio/tipoVeiculo': {},
  'yms/patio/area': { deps: (f) => planta(f).then(() => {}), fields: () => ({ plantaId: DEP.planta }) },
  'yms/patio/vaga': { deps: area, fields: () => ({ areaId: DEP.area }) },
  'yms/patio/veiculo': { fields: (i) => ({ placa: `TNT${1000 + i}` }) },
  'yms/patio/motorista': { fields: (i) => ({ documento: cpf(i) }) },
  'yms/patio/composicaoVeiculo': {
    deps: async (f) => {
      await f.post(`${PATIO}/veiculo`, { id: DEP.veiculo, placa: 'DEP1A23', tipoVeiculo: 'CAVALO_MECANICO' });
    },
    fields: () => ({ cavaloId: DEP.veiculo }),
  },
  'yms/patio/turno': {
    deps: (f) => planta(f).then(() => {}),
    fields: (i) => ({
      plantaId: DEP.planta,
      data: `2026-04-${10 + i}`,
      horaInicio: '08:00',
      horaFim: '17:00',
    }),
  },
  'yms/patio/circuito': { deps: (f) => planta(f).then(() => {}), fields: () => ({ plantaId: DEP.planta }) },
  'yms/patio/circuito/sequencias': {
    deps: async (f) => {
      await area(f);
      await f.post(`${PATIO}/circuito`, {
        id: DEP.circuito,
        plantaId: DEP.planta,
        codigo: 'DEP',
        nome: 'Apoio',
      });
    },
    parentId: DEP.circuito,
    fields: () => ({ areaId: DEP.area }),
  },
  'yms/patio/rotina': {
    fields: (i) => ({
      tipo: 'CONDICAO',
      nome: `Rotina${i}`,
      partes: [{ nome: 'variavelCompara', parametros: { chave: 'peso', operador: 'EXISTE' } }],
    }),
  },
  'yms/patio/endereco': {
    deps: plantas,
    fields: (i) => ({ plantaId: DEP.plantas[i], uf: 'SP' }),
  },
  'yms/agenda/tipoAgendamento': {
    deps: (f) => planta(f).then(() => {}),
    fields: () => ({ plantaId: DEP.planta }),
  },
  'yms/agenda/agenda': { deps: agendamento, fields: () => booking },
  'yms/agenda/preAgenda': { deps: agendamento, fields: () => booking },
  'yms/agenda/configuracaoAprovacaoAgenda': {
    // One scope per sample: the plants are the tenant's own (a reference across services).
    deps: plantas,
    fields: (i) => ({ plantaId: DEP.plantas[i] }),
  },
  'yms/agenda/customTable': { fields: (i) => ({ chave: `campo${i}` }) },
  'yms/agenda/externalTenant': { fields: (i) => ({ codigo: cpf(i) }) },
  'yms/agenda/externalUser': {
    deps: async (f) => {
      await f.post(`${AGENDA}/externalTenant`, {
        id: DEP.parceiro,
        codigo: '11222333000181',
        nome: 'Parceiro',
      });
    },
    fields: () => ({ parceiroIds: [DEP.parceiro] }),
  },
  'yms/agenda/anexo': { createdBy: anexo() },
  'erp_isl/int_ligacaoprodutodeposito/ligacaoProdutoDeposito': {
    fields: () => ({ codigoProduto: 'P', codigoDeposito: 'D' }),
    createdBy: ligacao((r) => ({ id: (r.ligacao as Json).id })),
  },
  'erp_isl/int_ligacaoprodutodeposito/historicoLigacaoProdutoDeposito': {
    fields: () => ({ ligacaoId: dep(99), codigoProduto: 'P', codigoDeposito: 'D' }),
    createdBy: ligacao((r) => first(r.historico)),
  },
  'erp_isl/int_prefatura/preFatura': { createdBy: preFatura((r) => ({ id: (r.preFatura as Json).id })) },
  'erp_isl/int_prefatura/itemPreFatura': {
    fields: () => ({ preFaturaId: dep(99) }),
    createdBy: preFatura((r) => first((r.preFatura as Json).itens)),
  },
  'erp_isl/int_prefatura/historicoPreFatura': {
    fields: () => ({ preFaturaId: dep(99) }),
    createdBy: preFatura((r) => first(r.historico)),
  },
  'erp_isl/int_pedidovenda/pedidoVenda': { createdBy: pedido((r) => ({ id: (r.pedidoVenda as Json).id })) },
  'erp_isl/int_pedidovenda/itemProdutoPedidoVenda': {
    fields: () => ({ pedidoVendaId: dep(99) }),
    createdBy: pedido((r) => first((r.pedidoVenda as Json).itensPro)),
  },
  'erp_isl/int_pedidovenda/itemServicoPedidoVenda': {
    fields: () => ({ pedidoVendaId: dep(99) }),
    createdBy: pedido((r) => first((r.pedidoVenda as Json).itensSer)),
  },
  'erp_isl/int_pedidovenda/historicoPedidoVenda': {
    fields: () => ({ pedidoVendaId: dep(99) }),
    createdBy: pedido((r) => first(r.historico)),
  },
  'yms/agenda/agenda/anexos': {
    deps: async (f) => {
      await agendamento(f);
      await f.post(`${AGENDA}/agenda`, { id: DEP.agenda, ...booking });
    },
    parentId: DEP.agenda,
    createdBy: anexo(DEP.agenda),
  },
};

/**
 * The i-th body of an entity from its input schema: its required fields, each given a value its
 * type, bounds and format accept, distinct per i. A field it cannot fill (a reference, a pattern,
 * a non-empty list) fails here unless the entity's sample gives it: a new entity needs a sample.
 */
export function generate(label: string, input: TObject, i: number, given: Json): Json {
  const out: Json = {};
  for (const key of (input.required ?? []) as string[]) {
    if (key === 'id' || key in given) continue;
    out[key] = value(`${label}.${key}`, input.properties[key] as TSchema & Json, i);
  }
  return { ...out, ...given };
}

function value(where: string, s: TSchema & Json, i: number): unknown {
  const cannot = (why: string) => new Error(`${where}: ${why}; give it in SAMPLES (test/tenant-samples.ts)`);
  if (Array.isArray(s.enum)) return s.enum[0];
  const min = typeof s.minimum === 'number' ? s.minimum : 0;
  const max = typeof s.maximum === 'number' ? s.maximum : Number.MAX_SAFE_INTEGER;
  switch (s.type) {
    case 'integer':
    case 'number':
      return Math.min(max, min + 1 + i);
    case 'boolean':
      return false;
    case 'object': {
      const o = s as unknown as TObject;
      return generate(where, o, i, {});
    }
    case 'string': {
      if (s.pattern) throw cannot(`a string of pattern ${s.pattern}`);
      if (s.format === 'uuid') throw cannot('a reference (uuid)');
      if (s.format === 'date') return `2026-05-${String(10 + i).padStart(2, '0')}`;
      if (s.format === 'date-time') return `2026-05-10T12:0${i % 10}:00Z`;
      if (s.format === 'email') return `s${i}@example.com`;
      if (s.format) throw cannot(`a string of format ${s.format}`);
      const text = `S${i}`.padEnd(typeof s.minLength === 'number' ? s.minLength : 0, 'x');
      return typeof s.maxLength === 'number' ? text.slice(0, s.maxLength) : text;
    }
    default:
      throw cannot(`a value of type ${String(s.type)}`);
  }
}

let free = 900_000_000;
/** An id no tenant holds (none of the samples takes ids this high). */
export const freeId = (idType: 'uuid' | 'int64') => (idType === 'uuid' ? randomUUID() : ++free);
