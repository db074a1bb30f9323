import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { verify } from '../../../platform/events/signature.ts';
import { jobs } from '../../../platform/jobs/tables.ts';
import { execucaoOf } from './execucao-consultas.ts';
import {
  asTenant,
  makeArea,
  makeCircuito,
  makePlanta,
  makeSequencia,
  makeVaga,
  makeVeiculo,
  outboxOf,
  patioCall,
  seed,
} from './fixtures.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { area, planta, vaga } from './tables/plantas.ts';
import { veiculo } from './tables/veiculos.ts';

// Conditions and commands (spec 000 §4.1, §4.3; docs/patio.md "Conditions and commands"): the
// built-in and the tenant's own (entity rotina), running them on demand with their log and push,
// the step automation (a step's condition guards it, its command runs once per visit), branches,
// manual step moves, the chamarWebhook job, and the console pushes wsFilaItem / wsLogRotina.

let t: TestApp;
let keys: Record<string, string>;
let acme: ReturnType<typeof patioCall>;
let globex: ReturnType<typeof patioCall>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp();
  keys = { acme: await t.tenant('acme'), globex: await t.tenant('globex') };
  acme = patioCall(t, 'acme', keys.acme!);
  globex = patioCall(t, 'globex', keys.globex!);
  const [p, outra] = await seed(t, 'acme', planta, [makePlanta(), makePlanta()]);
  ids.planta = p!.id;
  ids.outraPlanta = outra!.id;
  ids.portaria = await novaArea(0, { tipo: 'PORTARIA' });
  ids.doca = await novaArea(1, { tipo: 'DOCA' });
  const [circuitoAlheio] = await seed(t, 'acme', circuito, [makeCircuito(outra!.id)]);
  const [areaAlheia] = await seed(t, 'acme', area, [makeArea(outra!.id)]);
  await seed(t, 'acme', sequenciaCircuito, [makeSequencia(circuitoAlheio!.id, 1, areaAlheia!.id)]);
  ids.circuitoAlheio = circuitoAlheio!.id;
  // Conditions used by steps below: the weight was informed; the weight is at least 1000.
  ids.pesoInformado = (
    await novaRotina({
      tipo: 'CONDICAO',
      nome: 'pesoInformado',
      partes: [{ nome: 'variavelCompara', parametros: { chave: 'peso', operador: 'EXISTE' } }],
    })
  ).id;
});

// ---- setup helpers -------------------------------------------------------------------------

/** A new area of the main plant with `vagas` free spots (rua 1, numero 1..n). */
async function novaArea(vagas: number, o: Parameters<typeof makeArea>[1] = {}): Promise<string> {
  const [a] = await seed(t, 'acme', area, [makeArea(ids.planta!, o)]);
  await seed(
    t,
    'acme',
    vaga,
    Array.from({ length: vagas }, (_, i) => makeVaga(a!.id, 1, i + 1)),
  );
  return a!.id;
}

async function novoVeiculo() {
  const [v] = await seed(t, 'acme', veiculo, [makeVeiculo()]);
  return { id: v!.id, placa: v!.placa };
}

type Etapa = { areaId: string; nomeCondicao?: string; nomeComando?: string; subCircuitoId?: string };
/** A circuit of the main plant with one sequence per step (ordem 10, 20…); returns its id and the sequence ids. */
async function novoCircuito(etapas: Etapa[], plantaId = ids.planta!) {
  const [c] = await seed(t, 'acme', circuito, [makeCircuito(plantaId)]);
  const rows = await seed(
    t,
    'acme',
    sequenciaCircuito,
    etapas.map((e, i) => makeSequencia(c!.id, (i + 1) * 10, e.areaId, e)),
  );
  return { id: c!.id, seqs: rows.map((r) => r.id) };
}

async function novaRotina(body: Record<string, unknown>) {
  const res = await acme('entities/rotina', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Starts an execution through the PRIVATE action; returns its id. */
async function iniciar(circuitoId: string, veiculoId: string, extra: Record<string, unknown> = {}) {
  const res = await acme('actions/iniciarExecucaoCircuito', { circuitoId, veiculoId, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().execucaoCircuito.id as string;
}

const execucao = (id: string) => asTenant(t, 'acme', (ctx) => execucaoOf(ctx, id));
const execucaoLida = async (id: string) => {
  const res = await acme('queries/buscaExecucaoCircuitoPorVeiculo', {
    veiculoId: (await execucao(id)).veiculoId,
  });
  return res.json().execucoes.find((e: { id: string }) => e.id === id);
};
const ramosDe = async (paiId: string) => {
  const res = await acme('queries/buscaExecucaoCircuitoPorVeiculo', {
    veiculoId: (await execucao(paiId)).veiculoId,
  });
  return res.json().execucoes.filter((e: { execucaoPaiId?: string }) => e.execucaoPaiId === paiId);
};
const vagaDe = async (veiculoId: string) =>
  (await asTenant(t, 'acme', (ctx) => ctx.store.select(vaga, eq(vaga.veiculoId, veiculoId))))[0];

type Escopo = Record<string, string>;
interface Run {
  parametros?: Record<string, string>;
  variaveis?: Record<string, string>;
  alvo?: string;
  servico?: string;
}
/** executarCondicao / executarComando with the request's parts. */
function rodar(tipo: 'condicao' | 'comando', nome: string, escopo: Escopo, run: Run = {}) {
  const op = tipo === 'condicao' ? 'events/executarCondicao' : 'events/executarComando';
  return acme(op, {
    servico: run.servico ?? 'yms/patio',
    [tipo]: { nome, ...(run.parametros ? { parametros: run.parametros } : {}) },
    alvo: run.alvo ?? 'teste',
    escopo,
    variaveis: run.variaveis ? JSON.stringify(run.variaveis) : '',
  });
}
const condicao = (nome: string, escopo: Escopo, run?: Run) => rodar('condicao', nome, escopo, run);
const comando = (nome: string, escopo: Escopo, run?: Run) => rodar('comando', nome, escopo, run);

/** The routine logs, newest first, narrowed by execution, kind or name. */
async function logs(filtro: Record<string, string> = {}) {
  const res = await acme('queries/buscarLogRotina', { ...filtro, page: 0, size: 100 });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().logs as Array<Record<string, unknown>>;
}
const ultimoLog = async (filtro: Record<string, string> = {}) => (await logs(filtro))[0]!;

/** A condition's outcome, as its log tells it. */
async function avaliar(nome: string, escopo: Escopo, run?: Run) {
  const res = await condicao(nome, escopo, run);
  expect(res.statusCode, res.body).toBe(200);
  return (await ultimoLog()).resultado;
}

/** What the outbox holds of a topic: the fields these tests read. */
interface Publicado {
  [campo: string]: unknown;
  logRotina: { id: string };
  alvo: string;
  comando: { nome: string };
}
const publicados = async (topic: string) =>
  (await outboxOf(t, 'acme')).filter((e) => e.topic === topic).map((e) => e.payload as Publicado);

/** Expects `work` to answer `status` and to change no table. */
async function semMudanca(work: () => Promise<{ statusCode: number; body: string }>, status: number) {
  const before = await tableCounts(t.db);
  const res = await work();
  expect(res.statusCode, res.body).toBe(status);
  expect(await tableCounts(t.db)).toEqual(before);
  return JSON.parse(res.body) as { reason: string; message: string };
}

// ---- tests ---------------------------------------------------------------------------------

describe('listCondicoes / listComandos', () => {
  it('list the built-ins with their parameters (POST and GET)', async () => {
    for (const method of ['POST', 'GET'] as const) {
      const res = await acme('queries/listCondicoes', method === 'POST' ? {} : undefined, {
        ...(method === 'GET' ? { method } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      const sistema = res.json().condicoes.filter((c: { origem: string }) => c.origem === 'SISTEMA');
      expect(sistema.map((c: { nome: string }) => c.nome)).toEqual([
        'variavelCompara',
        'veiculoNaoBloqueado',
        'motoristaNaoBloqueado',
        'vagaLivreNaArea',
        'veiculoNoPatio',
      ]);
      const compara = sistema[0];
      expect(compara.ativo).toBe(true);
      expect(compara.parametros).toEqual([
        expect.objectContaining({ nome: 'chave', tipo: 'texto', obrigatorio: true }),
        expect.objectContaining({
          nome: 'operador',
          tipo: 'opcao',
          obrigatorio: true,
          valores: expect.arrayContaining(['IGUAL', 'MAIOR', 'EXISTE', 'NAO_EXISTE']),
        }),
        expect.objectContaining({ nome: 'valor', obrigatorio: false }),
        expect.objectContaining({ nome: 'alvoId', obrigatorio: false }),
      ]);
    }
    const res = await acme('queries/listComandos', undefined, { method: 'GET' });
    expect(res.statusCode, res.body).toBe(200);
    const comandos = res.json().comandos;
    expect(
      comandos.filter((c: { origem: string }) => c.origem === 'SISTEMA').map((c: { nome: string }) => c.nome),
    ).toEqual([
      'avancarEtapa',
      'retornarEtapa',
      'alocarVaga',
      'liberarVaga',
      'definirVariavel',
      'chamarWebhook',
      'iniciarRamo',
      'finalizarExecucao',
    ]);
    expect(comandos.find((c: { nome: string }) => c.nome === 'chamarWebhook').parametros).toEqual([
      expect.objectContaining({ nome: 'url', tipo: 'url', obrigatorio: true }),
      expect.objectContaining({ nome: 'segredo', tipo: 'texto', obrigatorio: false }),
    ]);
    expect((await acme('queries/listComandos', {})).json()).toEqual(res.json());
  });

  it("list the tenant's own with origem TENANT; another tenant sees none of them", async () => {
    const [acmeList, globexList] = await Promise.all([
      acme('queries/listCondicoes', {}),
      globex('queries/listCondicoes', {}),
    ]);
    expect(acmeList.json().condicoes.find((c: { nome: string }) => c.nome === 'pesoInformado')).toEqual({
      nome: 'pesoInformado',
      descricao: '',
      origem: 'TENANT',
      parametros: [],
      operador: 'TODAS',
      partes: [{ nome: 'variavelCompara', parametros: { chave: 'peso', operador: 'EXISTE' } }],
      ativo: true,
    });
    expect(globexList.json().condicoes.map((c: { origem: string }) => c.origem)).not.toContain('TENANT');
    expect(globexList.json().condicoes).toHaveLength(5);
  });
});

describe('the rotina entity', () => {
  const partesCondicao = [
    { nome: 'veiculoNaoBloqueado' },
    { nome: 'variavelCompara', parametros: { chave: 'umidade', operador: 'MENOR_IGUAL', valor: '14' } },
  ];

  it('creates a composite condition (TODAS, ALGUMA) and a composite command, readable and listed', async () => {
    const todas = await novaRotina({
      tipo: 'CONDICAO',
      nome: 'liberadoParaDoca',
      descricao: 'Veículo livre e grão seco',
      operador: 'TODAS',
      partes: partesCondicao,
    });
    expect(todas).toMatchObject({ tipo: 'CONDICAO', operador: 'TODAS', ativo: true, partes: partesCondicao });
    const alguma = await novaRotina({
      tipo: 'CONDICAO',
      nome: 'livreOuSeco',
      operador: 'ALGUMA',
      partes: partesCondicao,
    });
    expect(alguma.operador).toBe('ALGUMA');
    const cmd = await novaRotina({
      tipo: 'COMANDO',
      nome: 'estacionarEMarcar',
      partes: [{ nome: 'alocarVaga' }, { nome: 'definirVariavel', parametros: { chave: 'x', valor: '1' } }],
    });
    expect(cmd.operador).toBeUndefined();
    ids.liberadoParaDoca = todas.id;
    ids.estacionarEMarcar = cmd.id;
    const lido = await acme(`entities/rotina/${todas.id}`, undefined, { method: 'GET' });
    expect(lido.statusCode).toBe(200);
    expect(lido.json()).toMatchObject({ nome: 'liberadoParaDoca', descricao: 'Veículo livre e grão seco' });
    const comandos = (await acme('queries/listComandos', {})).json().comandos;
    expect(comandos.find((c: { nome: string }) => c.nome === 'estacionarEMarcar')).toMatchObject({
      origem: 'TENANT',
      partes: [{ nome: 'alocarVaga' }, { nome: 'definirVariavel' }],
    });
  });

  it('refuses bad bodies and changes nothing', async () => {
    const cases: Array<[Record<string, unknown>, number, RegExp?]> = [
      // A built-in's name, and a name already taken.
      [{ tipo: 'CONDICAO', nome: 'variavelCompara', partes: partesCondicao }, 409, /do sistema/],
      [{ tipo: 'CONDICAO', nome: 'liberadoParaDoca', partes: partesCondicao }, 409],
      // Unknown parts, of either kind (a command is no condition).
      [{ tipo: 'CONDICAO', nome: 'x1', partes: [{ nome: 'telepatia' }] }, 422, /partes\[0\]\.nome/],
      [{ tipo: 'CONDICAO', nome: 'x2', partes: [{ nome: 'alocarVaga' }] }, 422, /partes\[0\]\.nome/],
      [
        { tipo: 'COMANDO', nome: 'x3', partes: [{ nome: 'liberarVaga' }, { nome: 'veiculoNoPatio' }] },
        422,
        /partes\[1\]\.nome/,
      ],
      // Parameters: a wrong value, a missing one, an unknown one, a bad uuid, a bad url.
      [
        {
          tipo: 'CONDICAO',
          nome: 'x4',
          partes: [{ nome: 'variavelCompara', parametros: { chave: 'p', operador: 'QUASE' } }],
        },
        422,
        /operador/,
      ],
      [
        {
          tipo: 'CONDICAO',
          nome: 'x5',
          partes: [{ nome: 'variavelCompara', parametros: { operador: 'IGUAL' } }],
        },
        422,
        /chave.*obrigatório/,
      ],
      [
        {
          tipo: 'CONDICAO',
          nome: 'x6',
          partes: [{ nome: 'veiculoNaoBloqueado', parametros: { cor: 'azul' } }],
        },
        422,
        /cor/,
      ],
      [
        {
          tipo: 'CONDICAO',
          nome: 'x7',
          partes: [{ nome: 'vagaLivreNaArea', parametros: { areaId: 'doca' } }],
        },
        422,
        /UUID/,
      ],
      [
        { tipo: 'COMANDO', nome: 'x8', partes: [{ nome: 'chamarWebhook', parametros: { url: 'ftp://x' } }] },
        422,
        /URL/,
      ],
      // operador is a condition's.
      [
        { tipo: 'COMANDO', nome: 'x9', operador: 'TODAS', partes: [{ nome: 'liberarVaga' }] },
        422,
        /operador/,
      ],
      // Schema: no parts, a bad name, an unknown kind.
      [{ tipo: 'CONDICAO', nome: 'x10', partes: [] }, 400],
      [{ tipo: 'CONDICAO', nome: '1abc', partes: partesCondicao }, 400],
      [{ tipo: 'ROTINA', nome: 'x11', partes: partesCondicao }, 400],
    ];
    for (const [body, status, message] of cases) {
      const err = await semMudanca(() => acme('entities/rotina', body), status);
      if (message) expect(err.message, JSON.stringify(body)).toMatch(message);
    }
  });

  it('updates; renaming or deleting one a sequence uses is 422; an unused one is deleted', async () => {
    const put = (id: string, body: Record<string, unknown>, who = acme) =>
      who(`entities/rotina/${id}`, body, { method: 'PUT' });
    const body = { tipo: 'CONDICAO', nome: 'liberadoParaDoca', operador: 'ALGUMA', partes: partesCondicao };
    const res = await put(ids.liberadoParaDoca!, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().operador).toBe('ALGUMA');
    await novoCircuito([{ areaId: ids.doca!, nomeCondicao: 'liberadoParaDoca' }]);
    const renomear = await semMudanca(() => put(ids.liberadoParaDoca!, { ...body, nome: 'outroNome' }), 422);
    expect(renomear.message).toMatch(/liberadoParaDoca é usada pela sequência/);
    await semMudanca(
      () => acme(`entities/rotina/${ids.liberadoParaDoca}`, undefined, { method: 'DELETE' }),
      422,
    );
    const livre = await novaRotina({
      tipo: 'COMANDO',
      nome: 'descartavel',
      partes: [{ nome: 'liberarVaga' }],
    });
    const del = await acme(`entities/rotina/${livre.id}`, undefined, { method: 'DELETE' });
    expect(del.statusCode, del.body).toBe(200);
    expect((await acme(`entities/rotina/${livre.id}`, undefined, { method: 'GET' })).statusCode).toBe(404);
  });

  it("another tenant's id is 404 for GET, PUT and DELETE", async () => {
    const id = ids.estacionarEMarcar!;
    expect((await globex(`entities/rotina/${id}`, undefined, { method: 'GET' })).statusCode).toBe(404);
    const body = { tipo: 'COMANDO', nome: 'estacionarEMarcar', partes: [{ nome: 'liberarVaga' }] };
    await semMudanca(() => globex(`entities/rotina/${id}`, body, { method: 'PUT' }), 404);
    await semMudanca(() => globex(`entities/rotina/${id}`, undefined, { method: 'DELETE' }), 404);
    expect((await acme(`entities/rotina/${id}`, undefined, { method: 'GET' })).json().partes).toHaveLength(2);
  });
});

describe('executarCondicao', () => {
  it('variavelCompara against the request variables: numbers as numbers, decimal comma, EXISTE', async () => {
    const escopo = {};
    const compara = (operador: string, valor: string | undefined, variaveis: Record<string, string>) =>
      avaliar('variavelCompara', escopo, {
        parametros: { chave: 'peso', operador, ...(valor === undefined ? {} : { valor }) },
        variaveis,
      });
    expect(await compara('MAIOR', '31500', { peso: '31500,5' })).toBe(true);
    expect(await compara('MENOR', '10', { peso: '9' })).toBe(true); // '9' < '10' as numbers, not as text
    expect(await compara('IGUAL', '31500.0', { peso: '31500' })).toBe(true);
    expect(await compara('MAIOR_IGUAL', '40000', { peso: '31500' })).toBe(false);
    expect(await compara('DIFERENTE', 'ABC', { peso: 'abc' })).toBe(true);
    expect(await compara('CONTEM', 'soja', { peso: 'Soja em grão' })).toBe(true);
    expect(await compara('CONTEM', 'GRAO', { peso: 'Soja em grão' })).toBe(true); // accents aside, as searches
    expect(await compara('EXISTE', undefined, { peso: '0' })).toBe(true);
    expect(await compara('EXISTE', undefined, { tara: '0' })).toBe(false);
    expect(await compara('NAO_EXISTE', undefined, { tara: '0' })).toBe(true);
    expect(await compara('IGUAL', '1', {})).toBe(false);
  });

  it('variavelCompara against the execution: the request wins; the log is read back and pushed', async () => {
    const v = await novoVeiculo();
    const c = await novoCircuito([{ areaId: ids.portaria! }, { areaId: ids.doca! }]);
    const exec = await iniciar(c.id, v.id);
    const add = await acme('actions/adicionaVariavelExecucaoCircuito', {
      execucaoCircuitoId: exec,
      alvoId: c.seqs[0],
      chave: 'umidade',
      valor: '13,5',
    });
    expect(add.statusCode, add.body).toBe(200);
    const escopo = { execucaoCircuitoId: exec, ws_users: 'ana,bruno' };
    const parametros = { chave: 'umidade', operador: 'MENOR', valor: '14' };
    const res = await condicao('variavelCompara', escopo, { parametros, alvo: 'balanca-1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('');
    const log = await ultimoLog({ execucaoCircuitoId: exec });
    expect(log).toMatchObject({
      tipo: 'CONDICAO',
      nome: 'variavelCompara',
      servico: 'yms/patio',
      alvo: 'balanca-1',
      origem: 'EXPLICITO',
      parametros,
      resultado: true,
      sucesso: true,
      execucaoCircuitoId: exec,
      sequenciaCircuitoId: c.seqs[0],
      mensagem: "umidade = '13,5' MENOR '14': sim",
    });
    const [push] = (await publicados('yms/patio/wsLogRotina')).filter((p) => p.logRotina.id === log.id);
    expect(push).toEqual({ logRotina: log, ws_users: 'ana,bruno' });
    expect((await publicados('yms/patio/executarCondicao')).at(-1)).toMatchObject({
      alvo: 'balanca-1',
      condicao: { nome: 'variavelCompara', parametros },
    });
    // The request's own value wins over the execution's.
    expect(await avaliar('variavelCompara', escopo, { parametros, variaveis: { umidade: '15' } })).toBe(
      false,
    );
    const get = await acme('queries/buscarLogRotina', undefined, {
      method: 'GET',
      query: { execucaoCircuitoId: exec, tipo: 'CONDICAO', page: '0', size: '1' },
    });
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json()).toMatchObject({ totalElements: 2, totalPages: 2 });
    expect(get.json().logs[0]).toMatchObject({ resultado: false, variaveis: { umidade: '15' } });
  });

  it('composites: TODAS needs every part, ALGUMA one; detalhes per part', async () => {
    const v = await novoVeiculo();
    await acme('actions/bloquearVeiculo', { veiculoId: v.id, motivo: 'Documento vencido' });
    const livre = await novoVeiculo();
    await novaRotina({
      tipo: 'CONDICAO',
      nome: 'livreESeco',
      partes: [
        { nome: 'veiculoNaoBloqueado' },
        { nome: 'variavelCompara', parametros: { chave: 'umidade', operador: 'MENOR', valor: '14' } },
      ],
    });
    await novaRotina({
      tipo: 'CONDICAO',
      nome: 'livreOuSecoAgora',
      operador: 'ALGUMA',
      partes: [
        { nome: 'veiculoNaoBloqueado' },
        { nome: 'variavelCompara', parametros: { chave: 'umidade', operador: 'MENOR', valor: '14' } },
      ],
    });
    const seco = { variaveis: { umidade: '12' } };
    expect(await avaliar('livreESeco', { veiculoId: v.id }, seco)).toBe(false);
    const log = await ultimoLog();
    expect(log).toMatchObject({ sucesso: true, mensagem: expect.stringMatching(/Documento vencido/) });
    expect(log.detalhes).toEqual([
      { nome: 'veiculoNaoBloqueado', resultado: false, sucesso: true, mensagem: expect.any(String) },
      { nome: 'variavelCompara', resultado: true, sucesso: true, mensagem: "umidade = '12' MENOR '14': sim" },
    ]);
    expect(await avaliar('livreESeco', { veiculoId: livre.id }, seco)).toBe(true);
    expect(await avaliar('livreOuSecoAgora', { veiculoId: v.id }, seco)).toBe(true);
    expect(await avaliar('livreOuSecoAgora', { veiculoId: v.id }, { variaveis: { umidade: '16' } })).toBe(
      false,
    );
    // A part that cannot be evaluated (no vehicle) counts as not holding, and marks the run unsuccessful.
    expect(await avaliar('livreOuSecoAgora', {}, seco)).toBe(true);
    const parcial = await ultimoLog();
    expect(parcial.sucesso).toBe(false);
    expect((parcial.detalhes as Array<{ sucesso: boolean }>).map((d) => d.sucesso)).toEqual([false, true]);
    // A tenant's routine takes no parameters of its own.
    await semMudanca(() => condicao('livreESeco', { veiculoId: v.id }, { parametros: { chave: 'x' } }), 422);
  });

  it('refusals before the run change nothing: unknown condition 404, other service 422, bad scope', async () => {
    const v = await novoVeiculo();
    const outro = await novoVeiculo();
    const c = await novoCircuito([{ areaId: ids.portaria! }]);
    const exec = await iniciar(c.id, v.id);
    const naoExiste = await semMudanca(() => condicao('telepatia', {}), 404);
    expect(naoExiste.message).toMatch(/telepatia/);
    await semMudanca(
      () => condicao('veiculoNaoBloqueado', { veiculoId: v.id }, { servico: 'yms/agenda' }),
      422,
    );
    await semMudanca(() => condicao('veiculoNaoBloqueado', { execucaoCircuitoId: randomUUID() }), 404);
    const divergente = await semMudanca(
      () => condicao('veiculoNaoBloqueado', { execucaoCircuitoId: exec, veiculoId: outro.id }),
      422,
    );
    expect(divergente.message).toMatch(/escopo\.veiculoId/);
    await semMudanca(() => condicao('veiculoNaoBloqueado', { veiculoId: randomUUID() }), 422);
    await semMudanca(
      () => condicao('variavelCompara', {}, { parametros: { chave: 'x', operador: 'SIM' } }),
      422,
    );
    const bad = await acme('events/executarCondicao', {
      servico: 'yms/patio',
      condicao: { nome: 'veiculoNaoBloqueado' },
      alvo: 'x',
      escopo: {},
      variaveis: '[1,2]',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('a condition whose scope lacks what it needs answers 422 and keeps its failed log', async () => {
    const before = await tableCounts(t.db);
    const res = await condicao('veiculoNaoBloqueado', { ws_users: 'ana' }, { alvo: 'sem-veiculo' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/veiculoNaoBloqueado precisa de um veículo/);
    const log = await ultimoLog();
    expect(log).toMatchObject({
      alvo: 'sem-veiculo',
      nome: 'veiculoNaoBloqueado',
      resultado: false,
      sucesso: false,
      mensagem: res.json().message,
    });
    const after = await tableCounts(t.db);
    expect(after.patio_log_rotina).toBe(before.patio_log_rotina! + 1);
    // Its push is kept with it; the refused event itself is not published.
    expect(after.outbox).toBe(before.outbox! + 1);
    expect((await publicados('yms/patio/wsLogRotina')).at(-1)!.logRotina.id).toBe(log.id);
  });
});

describe('executarComando', () => {
  it('alocarVaga takes the first free spot; a full area is 422, moves no spot and keeps the log', async () => {
    const estacionamento = await novaArea(2);
    const lotada = await novaArea(0);
    await seed(t, 'acme', vaga, [makeVaga(lotada, 1, 1, { bloqueio: true, motivoBloqueio: 'obra' })]);
    const [a, b] = [await novoVeiculo(), await novoVeiculo()];
    const res = await comando('alocarVaga', { veiculoId: a.id, areaId: estacionamento });
    expect(res.statusCode, res.body).toBe(200);
    expect(await vagaDe(a.id)).toMatchObject({ areaId: estacionamento, rua: 1, numero: 1, ocupada: true });
    expect(await ultimoLog()).toMatchObject({ sucesso: true, mensagem: 'vaga rua 1, número 1 alocada' });
    expect(
      (await comando('alocarVaga', { veiculoId: b.id }, { parametros: { areaId: estacionamento } }))
        .statusCode,
    ).toBe(200);
    expect(await vagaDe(b.id)).toMatchObject({ numero: 2 });
    // A holds a spot; moving it to the full area fails and leaves it where it was.
    const before = await tableCounts(t.db);
    const full = await comando('alocarVaga', { veiculoId: a.id, areaId: lotada });
    expect(full.statusCode).toBe(422);
    expect(full.json().message).toMatch(/Nenhuma vaga livre/);
    expect(await vagaDe(a.id)).toMatchObject({ areaId: estacionamento, numero: 1 });
    expect(await ultimoLog()).toMatchObject({
      nome: 'alocarVaga',
      sucesso: false,
      mensagem: full.json().message,
    });
    expect((await tableCounts(t.db)).patio_log_rotina).toBe(before.patio_log_rotina! + 1);
    // Without a vehicle in the scope: 422, logged.
    expect((await comando('alocarVaga', { areaId: estacionamento })).statusCode).toBe(422);
  });

  it('definirVariavel writes a variable of the execution with tipoCaptura ROTINA', async () => {
    const v = await novoVeiculo();
    const c = await novoCircuito([{ areaId: ids.portaria! }, { areaId: ids.doca! }]);
    const exec = await iniciar(c.id, v.id);
    const res = await comando(
      'definirVariavel',
      { veiculoId: v.id },
      { parametros: { chave: 'lacre', valor: 'L-77' } },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await execucaoLida(exec)).variaveis).toEqual([
      { alvoId: c.seqs[0], chave: 'lacre', valor: 'L-77', tipoCaptura: 'ROTINA' },
    ]);
    // Its required parameters.
    await semMudanca(
      () => comando('definirVariavel', { veiculoId: v.id }, { parametros: { chave: 'lacre' } }),
      422,
    );
  });

  it('avancarEtapa refused by the destination’s condition is 422 and changes nothing but its log', async () => {
    const v = await novoVeiculo();
    const c = await novoCircuito([
      { areaId: ids.portaria! },
      { areaId: ids.doca!, nomeCondicao: 'pesoInformado' },
    ]);
    const exec = await iniciar(c.id, v.id);
    const historico = (await execucaoLida(exec)).historico;
    const res = await comando('avancarEtapa', { execucaoCircuitoId: exec });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/exige a condição pesoInformado/);
    expect(await execucao(exec)).toMatchObject({ sequenciaAtualId: c.seqs[0], situacao: 'EXECUTANDO' });
    expect((await execucaoLida(exec)).historico).toEqual(historico);
    expect(await ultimoLog({ execucaoCircuitoId: exec })).toMatchObject({
      tipo: 'COMANDO',
      nome: 'avancarEtapa',
      sucesso: false,
    });
    // Once the execution has the weight, it moves.
    await acme('actions/adicionaVariavelExecucaoCircuito', {
      execucaoCircuitoId: exec,
      alvoId: c.seqs[0],
      chave: 'peso',
      valor: '1',
    });
    expect((await execucao(exec)).sequenciaAtualId).toBe(c.seqs[0]);
    const ok = await comando('avancarEtapa', { execucaoCircuitoId: exec });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await execucao(exec)).sequenciaAtualId).toBe(c.seqs[1]);
    expect((await execucaoLida(exec)).historico.at(-1)).toMatchObject({
      acao: 'AVANCOU',
      origem: 'COMANDO:avancarEtapa',
    });
  });

  it('a composite command is all or nothing: a failing second part frees the spot the first took', async () => {
    const estacionamento = await novaArea(1);
    await novaRotina({
      tipo: 'COMANDO',
      nome: 'estacionarEAnotar',
      partes: [
        { nome: 'alocarVaga', parametros: { areaId: estacionamento } },
        { nome: 'definirVariavel', parametros: { chave: 'estacionado', valor: 'sim' } },
      ],
    });
    const v = await novoVeiculo();
    // No execution: definirVariavel cannot run, so the spot alocarVaga took is given back.
    const res = await comando('estacionarEAnotar', { veiculoId: v.id });
    expect(res.statusCode).toBe(422);
    expect(await vagaDe(v.id)).toBeUndefined();
    expect(await ultimoLog()).toMatchObject({
      nome: 'estacionarEAnotar',
      sucesso: false,
      detalhes: [
        { nome: 'alocarVaga', sucesso: true, mensagem: 'vaga rua 1, número 1 alocada' },
        { nome: 'definirVariavel', sucesso: false, mensagem: expect.stringMatching(/execução/) },
      ],
    });
    // With an execution both parts run.
    const c = await novoCircuito([{ areaId: ids.portaria! }]);
    const exec = await iniciar(c.id, v.id);
    expect((await comando('estacionarEAnotar', { veiculoId: v.id })).statusCode).toBe(200);
    expect(await vagaDe(v.id)).toMatchObject({ areaId: estacionamento });
    expect((await execucaoLida(exec)).variaveis).toEqual([
      expect.objectContaining({ chave: 'estacionado', valor: 'sim', tipoCaptura: 'ROTINA' }),
    ]);
  });

  it('publishes yms/patio/executarComando only for the accepted runs', async () => {
    const v = await novoVeiculo();
    const area = await novaArea(1);
    const alvo = `publicacao-${randomUUID()}`;
    expect((await comando('liberarVaga', { veiculoId: v.id }, { alvo })).statusCode).toBe(200);
    expect((await comando('alocarVaga', { veiculoId: v.id }, { alvo })).statusCode).toBe(422);
    expect((await comando('alocarVaga', { veiculoId: v.id, areaId: area }, { alvo })).statusCode).toBe(200);
    expect((await comando('finalizarExecucao', { veiculoId: v.id }, { alvo })).statusCode).toBe(422);
    const mine = (await publicados('yms/patio/executarComando')).filter((p) => p.alvo === alvo);
    expect(mine.map((p) => p.comando.nome)).toEqual(['liberarVaga', 'alocarVaga']);
    expect(mine[1]!.escopo).toEqual({ veiculoId: v.id, areaId: area });
    expect((await logs({ nome: 'finalizarExecucao' }))[0]).toMatchObject({ alvo, sucesso: false });
  });
});

describe('step automation', () => {
  /** The ETAPA runs of a command for an execution, oldest first. */
  const rodadasEtapa = async (exec: string, tipo = 'COMANDO') =>
    (await logs({ execucaoCircuitoId: exec, tipo })).filter((l) => l.origem === 'ETAPA').reverse();

  it('a step’s alocarVaga runs once per visit when a start reaches the step', async () => {
    const estacionamento = await novaArea(3);
    const c = await novoCircuito([
      { areaId: ids.portaria! },
      { areaId: estacionamento, nomeComando: 'alocarVaga' },
      { areaId: ids.doca! },
    ]);
    const v = await novoVeiculo();
    const exec = await iniciar(c.id, v.id, { sequenciaInicialId: c.seqs[1] });
    expect(await vagaDe(v.id)).toMatchObject({ areaId: estacionamento, numero: 1 });
    expect(await rodadasEtapa(exec)).toEqual([
      expect.objectContaining({
        nome: 'alocarVaga',
        sucesso: true,
        sequenciaCircuitoId: c.seqs[1],
        alvo: c.seqs[1],
      }),
    ]);
    // Another trigger in the same visit does not run it again.
    expect((await acme('events/reprocessarRotinasPlanta', { plantaId: ids.planta })).statusCode).toBe(200);
    await acme('actions/adicionaVariavelExecucaoCircuito', {
      execucaoCircuitoId: exec,
      alvoId: c.seqs[1],
      chave: 'k',
      valor: 'v',
    });
    expect(await rodadasEtapa(exec)).toHaveLength(1);
    // A new visit of the step runs it again.
    await acme('actions/retornarEtapaExecucaoCircuito', { execucaoCircuitoId: exec });
    await acme('actions/avancarEtapaExecucaoCircuito', { execucaoCircuitoId: exec });
    expect((await rodadasEtapa(exec)).map((l) => l.mensagem)).toEqual([
      'vaga rua 1, número 1 alocada',
      'já ocupa a vaga rua 1, número 1',
    ]);
  });

  it('a step’s command runs when a yard event brings the execution to the step', async () => {
    const estacionamento = await novaArea(0);
    const reserva = await novaArea(2);
    await novaRotina({
      tipo: 'COMANDO',
      nome: 'reservarDoca',
      partes: [{ nome: 'alocarVaga', parametros: { areaId: reserva } }],
    });
    const c = await novoCircuito([
      { areaId: ids.portaria! },
      { areaId: estacionamento, nomeComando: 'reservarDoca' },
    ]);
    const v = await novoVeiculo();
    const exec = await iniciar(c.id, v.id);
    const yard = { plantaId: ids.planta, veiculoId: v.id };
    expect((await acme('events/vehicleEnteredYard', { ...yard, areaId: ids.portaria })).statusCode).toBe(200);
    expect(await vagaDe(v.id)).toBeUndefined();
    const res = await acme('events/vehicleEnteredAreaInYard', { ...yard, areaId: estacionamento });
    expect(res.statusCode, res.body).toBe(200);
    expect(await execucao(exec)).toMatchObject({ sequenciaAtualId: c.seqs[1] });
    expect(await vagaDe(v.id)).toMatchObject({ areaId: reserva });
    // The same area reported again: same visit, no second run.
    await acme('events/vehicleEnteredAreaInYard', { ...yard, areaId: estacionamento });
    expect(await rodadasEtapa(exec)).toEqual([
      expect.objectContaining({ nome: 'reservarDoca', sucesso: true }),
    ]);
  });

  it('a step whose condition fails keeps the execution back when the truck enters its area; it moves once the condition holds', async () => {
    const estacionamento = await novaArea(2);
    const c = await novoCircuito([
      { areaId: ids.portaria!, nomeComando: 'avancarEtapa' },
      { areaId: estacionamento, nomeCondicao: 'pesoInformado' },
      { areaId: ids.doca! },
    ]);
    const v = await novoVeiculo();
    const exec = await iniciar(c.id, v.id);
    // At the start, the first step's command (advance) is refused by the next step's condition.
    expect(await execucao(exec)).toMatchObject({ sequenciaAtualId: c.seqs[0] });
    expect(await rodadasEtapa(exec)).toEqual([
      expect.objectContaining({
        nome: 'avancarEtapa',
        sucesso: false,
        mensagem: expect.stringMatching(/peso/),
      }),
    ]);
    const yard = { plantaId: ids.planta, veiculoId: v.id };
    await acme('events/vehicleEnteredYard', { ...yard, areaId: ids.portaria });
    const condicoesAntes = (await rodadasEtapa(exec, 'CONDICAO')).length;
    const res = await acme('events/vehicleEnteredAreaInYard', { ...yard, areaId: estacionamento });
    expect(res.statusCode, res.body).toBe(200);
    expect(await execucao(exec)).toMatchObject({ sequenciaAtualId: c.seqs[0] });
    const chegadas = (
      await acme('queries/buscarHistoricoControleChegada', { areaId: estacionamento })
    ).json();
    expect(chegadas.content).toEqual([
      expect.objectContaining({ veiculoId: v.id, execucaoCircuitoId: exec }),
    ]);
    // The failed evaluation of the step's condition is in the log.
    const avaliacoes = await rodadasEtapa(exec, 'CONDICAO');
    expect(avaliacoes.length).toBeGreaterThan(condicoesAntes);
    expect(avaliacoes.at(-1)).toMatchObject({
      nome: 'pesoInformado',
      resultado: false,
      sequenciaCircuitoId: c.seqs[1],
    });
    // The weight arrives: the step's command runs again and moves it on.
    const add = await acme('actions/adicionaVariavelExecucaoCircuito', {
      execucaoCircuitoId: exec,
      alvoId: c.seqs[0],
      chave: 'peso',
      valor: '31500',
    });
    expect(add.statusCode, add.body).toBe(200);
    expect(add.json().execucaoCircuito.sequenciaAtualId).toBe(c.seqs[1]);
    expect(add.json().execucaoCircuito.historico.at(-1)).toMatchObject({
      acao: 'AVANCOU',
      origem: 'COMANDO:avancarEtapa',
    });
  });

  it('reprocessarRotinasPlanta moves an execution on once its vehicle is unblocked', async () => {
    const c = await novoCircuito([
      { areaId: ids.portaria!, nomeComando: 'avancarEtapa' },
      { areaId: ids.doca!, nomeCondicao: 'veiculoNaoBloqueado' },
    ]);
    const v = await novoVeiculo();
    await acme('actions/bloquearVeiculo', { veiculoId: v.id, motivo: 'Sem seguro' });
    const exec = await iniciar(c.id, v.id);
    expect((await execucao(exec)).sequenciaAtualId).toBe(c.seqs[0]);
    await acme('events/reprocessarRotinasPlanta', { plantaId: ids.planta });
    expect((await execucao(exec)).sequenciaAtualId).toBe(c.seqs[0]);
    expect((await acme('actions/desbloquearVeiculo', { veiculoId: v.id })).statusCode).toBe(200);
    const res = await acme('events/reprocessarRotinasPlanta', { plantaId: ids.planta });
    expect(res.statusCode, res.body).toBe(200);
    expect((await execucao(exec)).sequenciaAtualId).toBe(c.seqs[1]);
    expect((await publicados('yms/patio/reprocessarRotinasPlanta')).at(-1)).toEqual({ plantaId: ids.planta });
  });

  it('a start whose first step’s condition fails is 422 and creates nothing', async () => {
    const c = await novoCircuito([{ areaId: ids.portaria!, nomeCondicao: 'veiculoNaoBloqueado' }]);
    const v = await novoVeiculo();
    await acme('actions/bloquearVeiculo', { veiculoId: v.id, motivo: 'Sem seguro' });
    const err = await semMudanca(
      () => acme('actions/iniciarExecucaoCircuito', { circuitoId: c.id, veiculoId: v.id }),
      422,
    );
    expect(err.message).toMatch(/Sem seguro/);
  });
});

describe('branches', () => {
  let sub: { id: string; seqs: string[] };
  let main: { id: string; seqs: string[] };
  let balanca: string;
  let classificacao: string;

  beforeAll(async () => {
    balanca = await novaArea(0);
    classificacao = await novaArea(0);
    sub = await novoCircuito([{ areaId: balanca }, { areaId: classificacao }]);
    const estacionamento = await novaArea(5);
    main = await novoCircuito([
      { areaId: ids.portaria! },
      { areaId: estacionamento, subCircuitoId: sub.id },
      { areaId: ids.doca! },
    ]);
    ids.estacionamentoRamos = estacionamento;
  });

  it('reaching a step with subCircuitoId starts a branch; events and moves act on it; its end moves the parent', async () => {
    const v = await novoVeiculo();
    const exec = await iniciar(main.id, v.id);
    const yard = { plantaId: ids.planta, veiculoId: v.id };
    await acme('events/vehicleEnteredYard', { ...yard, areaId: ids.portaria });
    const res = await acme('events/vehicleEnteredAreaInYard', { ...yard, areaId: ids.estacionamentoRamos });
    expect(res.statusCode, res.body).toBe(200);
    expect((await execucao(exec)).sequenciaAtualId).toBe(main.seqs[1]);
    const [ramo] = await ramosDe(exec);
    expect(ramo).toMatchObject({
      circuitoId: sub.id,
      status: 'EXECUTANDO',
      sequenciaAtualId: sub.seqs[0],
      veiculoId: v.id,
    });
    expect((await execucaoLida(exec)).historico.at(-1)).toMatchObject({
      acao: 'RAMIFICOU',
      origem: `ETAPA:${main.seqs[1]}`,
    });
    // The controller in charge is the branch's step, asked by the parent's id or by its agenda.
    const controlador = await acme('queries/buscaControladorAtivo', { execucaoCircuitoId: exec });
    expect(controlador.json().controlador).toMatchObject({
      execucaoCircuitoId: ramo.id,
      sequenciaCircuitoId: sub.seqs[0],
    });
    // The parent does not move while its branch runs.
    const avancarPai = await semMudanca(
      () => acme('actions/avancarEtapaExecucaoCircuito', { execucaoCircuitoId: exec }),
      409,
    );
    expect(avancarPai.message).toContain(ramo.id);
    await semMudanca(() => acme('actions/retornarEtapaExecucaoCircuito', { execucaoCircuitoId: exec }), 409);
    // A yard event moves the branch, not the parent.
    await acme('events/vehicleEnteredAreaInYard', { ...yard, areaId: classificacao });
    expect((await execucao(ramo.id)).sequenciaAtualId).toBe(sub.seqs[1]);
    expect((await execucao(exec)).sequenciaAtualId).toBe(main.seqs[1]);
    // Past its last step the branch finishes and the parent moves to its next step.
    const fim = await acme('actions/avancarEtapaExecucaoCircuito', { execucaoCircuitoId: ramo.id });
    expect(fim.statusCode, fim.body).toBe(200);
    expect(fim.json().execucaoCircuito).toMatchObject({ id: ramo.id, status: 'FINALIZADO' });
    expect(await execucao(exec)).toMatchObject({ situacao: 'EXECUTANDO', sequenciaAtualId: main.seqs[2] });
    expect((await execucaoLida(exec)).historico.at(-1)).toMatchObject({
      acao: 'AVANCOU',
      origem: `RAMO:${ramo.id}`,
    });
    expect(await ramosDe(exec)).toHaveLength(1);
  });

  it('a finished branch whose parent’s next step condition fails leaves the parent waiting, and says why', async () => {
    const pai = await novoCircuito([
      { areaId: ids.portaria! },
      { areaId: ids.estacionamentoRamos!, subCircuitoId: sub.id },
      { areaId: ids.doca!, nomeCondicao: 'motoristaNaoBloqueado' },
    ]);
    const v = await novoVeiculo();
    const exec = await iniciar(pai.id, v.id); // no driver: the doca's condition cannot hold
    await acme('actions/avancarEtapaExecucaoCircuito', { execucaoCircuitoId: exec });
    const [ramo] = await ramosDe(exec);
    await acme('actions/avancarEtapaExecucaoCircuito', { execucaoCircuitoId: ramo.id });
    const fim = await acme('actions/avancarEtapaExecucaoCircuito', { execucaoCircuitoId: ramo.id });
    expect(fim.json().execucaoCircuito.status).toBe('FINALIZADO');
    expect(await execucao(exec)).toMatchObject({ situacao: 'EXECUTANDO', sequenciaAtualId: pai.seqs[1] });
    expect(await ultimoLog({ execucaoCircuitoId: exec })).toMatchObject({
      tipo: 'CONDICAO',
      nome: 'motoristaNaoBloqueado',
      origem: 'ETAPA',
      sucesso: false,
      sequenciaCircuitoId: pai.seqs[2],
    });
  });

  it('a cancelled branch leaves the parent at its step; iniciarRamoExecucaoCircuito starts another', async () => {
    const v = await novoVeiculo();
    const exec = await iniciar(main.id, v.id, { sequenciaInicialId: main.seqs[1] });
    const [ramo] = await ramosDe(exec);
    expect(ramo).toMatchObject({ status: 'EXECUTANDO', execucaoPaiId: exec });
    const res = await acme('actions/cancelarExecucaoCircuito', {
      execucaoCircuitoId: ramo.id,
      motivo: 'Desvio',
    });
    expect(res.statusCode, res.body).toBe(200);
    await acme('events/reprocessarRotinasPlanta', { plantaId: ids.planta });
    expect(await execucao(exec)).toMatchObject({ situacao: 'EXECUTANDO', sequenciaAtualId: main.seqs[1] });
    expect(await ramosDe(exec)).toHaveLength(1);
    // A sub-circuit of another plant is 422; the step's own (the default) starts a new branch.
    await semMudanca(
      () =>
        acme('actions/iniciarRamoExecucaoCircuito', {
          execucaoCircuitoId: exec,
          subCircuitoId: ids.circuitoAlheio,
        }),
      422,
    );
    const novo = await acme('actions/iniciarRamoExecucaoCircuito', { execucaoCircuitoId: exec });
    expect(novo.statusCode, novo.body).toBe(200);
    expect(novo.json().ramo).toMatchObject({
      execucaoPaiId: exec,
      circuitoId: sub.id,
      status: 'EXECUTANDO',
      sequenciaAtualId: sub.seqs[0],
    });
    expect(novo.json().ramo.historico[0].origem).toMatch(/^MANUAL:/);
    // One running branch at a time.
    await semMudanca(() => acme('actions/iniciarRamoExecucaoCircuito', { execucaoCircuitoId: exec }), 409);
  });

  it('cancelling the parent cancels its running branch, with the same reason', async () => {
    const v = await novoVeiculo();
    const exec = await iniciar(main.id, v.id, { sequenciaInicialId: main.seqs[1] });
    const [ramo] = await ramosDe(exec);
    expect(ramo).toMatchObject({ status: 'EXECUTANDO' });
    const res = await acme('actions/cancelarExecucaoCircuito', {
      execucaoCircuitoId: exec,
      motivo: 'Desistiu',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await execucao(exec)).toMatchObject({ situacao: 'CANCELADO', motivoCancelamento: 'Desistiu' });
    expect(await execucao(ramo.id)).toMatchObject({ situacao: 'CANCELADO', motivoCancelamento: 'Desistiu' });
    // The truck can start again: nothing of it runs.
    expect(await iniciar(main.id, v.id)).toEqual(expect.any(String));
  });

  it('iniciarRamoExecucaoCircuito: a step without subCircuitoId needs one (422); unknown execution 404', async () => {
    const v = await novoVeiculo();
    const exec = await iniciar(main.id, v.id);
    const semSub = await semMudanca(
      () => acme('actions/iniciarRamoExecucaoCircuito', { execucaoCircuitoId: exec }),
      422,
    );
    expect(semSub.message).toMatch(/não tem subCircuitoId/);
    await semMudanca(
      () => acme('actions/iniciarRamoExecucaoCircuito', { execucaoCircuitoId: exec, subCircuitoId: main.id }),
      422,
    );
    await semMudanca(
      () =>
        acme('actions/iniciarRamoExecucaoCircuito', {
          execucaoCircuitoId: randomUUID(),
          subCircuitoId: sub.id,
        }),
      404,
    );
  });
});

describe('manual step moves', () => {
  let c: { id: string; seqs: string[] };
  beforeAll(async () => {
    c = await novoCircuito([
      { areaId: ids.portaria! },
      { areaId: ids.doca!, nomeCondicao: 'pesoInformado' },
      { areaId: ids.portaria! },
      { areaId: ids.doca! },
    ]);
  });
  const avancar = (body: Record<string, unknown>, who = acme) =>
    who('actions/avancarEtapaExecucaoCircuito', body);
  const retornar = (id: string, who = acme) =>
    who('actions/retornarEtapaExecucaoCircuito', { execucaoCircuitoId: id });

  it('advance (the condition, ignorarCondicao, a jump), revert, and the history origin', async () => {
    const exec = await iniciar(c.id, (await novoVeiculo()).id);
    const refused = await semMudanca(() => avancar({ execucaoCircuitoId: exec }), 422);
    expect(refused.message).toMatch(/pesoInformado/);
    let res = await avancar({ execucaoCircuitoId: exec, ignorarCondicao: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().execucaoCircuito).toMatchObject({ sequenciaAtualId: c.seqs[1] });
    expect(res.json().execucaoCircuito.historico.at(-1)).toMatchObject({
      acao: 'AVANCOU',
      sequenciaCircuitoId: c.seqs[1],
      origem: expect.stringMatching(/^MANUAL:/),
    });
    res = await avancar({ execucaoCircuitoId: exec, sequenciaCircuitoId: c.seqs[3] });
    expect(res.json().execucaoCircuito.sequenciaAtualId).toBe(c.seqs[3]);
    res = await retornar(exec);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().execucaoCircuito.historico.at(-1)).toMatchObject({
      acao: 'RETORNOU',
      sequenciaCircuitoId: c.seqs[2],
      origem: expect.stringMatching(/^MANUAL:/),
    });
    // A jump to a step of another circuit; a jump back into the guarded step without the weight.
    await semMudanca(() => avancar({ execucaoCircuitoId: exec, sequenciaCircuitoId: randomUUID() }), 422);
    await semMudanca(() => avancar({ execucaoCircuitoId: exec, sequenciaCircuitoId: c.seqs[1] }), 422);
    // Past the last step it finishes; a finished execution moves no more (409).
    await avancar({ execucaoCircuitoId: exec });
    res = await avancar({ execucaoCircuitoId: exec });
    expect(res.json().execucaoCircuito.status).toBe('FINALIZADO');
    await semMudanca(() => avancar({ execucaoCircuitoId: exec }), 409);
    await semMudanca(() => retornar(exec), 409);
  });

  it('revert at the first step is 409; another tenant’s or an unknown execution is 404', async () => {
    const exec = await iniciar(c.id, (await novoVeiculo()).id);
    const first = await semMudanca(() => retornar(exec), 409);
    expect(first.message).toMatch(/primeira sequência/);
    await semMudanca(() => avancar({ execucaoCircuitoId: exec, ignorarCondicao: true }, globex), 404);
    await semMudanca(() => retornar(exec, globex), 404);
    await semMudanca(() => avancar({ execucaoCircuitoId: randomUUID() }), 404);
    expect((await execucao(exec)).sequenciaAtualId).toBe(c.seqs[0]);
  });
});

describe('chamarWebhook', () => {
  const recebidos: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let respostas = [500];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      recebidos.push({ headers: req.headers, body });
      res.statusCode = respostas.shift() ?? 200;
      res.end();
    });
  });
  let url: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ponte`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const status = async (id: string) => (await t.admin('GET', `/tenants/acme/jobs/${id}`)).json();
  /** The retry is due now rather than after its backoff. */
  const pronta = (id: string) =>
    t.db.system((tx) =>
      tx
        .update(jobs)
        .set({ runAt: new Date(0) })
        .where(eq(jobs.id, id)),
    );

  it('enqueues a job that delivers the signed JSON body, retried until the receiver accepts it', async () => {
    respostas = [500];
    const v = await novoVeiculo();
    const res = await comando(
      'chamarWebhook',
      { veiculoId: v.id },
      { parametros: { url, segredo: 'segredo-do-erp' }, variaveis: { lote: 'L1' } },
    );
    expect(res.statusCode, res.body).toBe(200);
    const log = await ultimoLog({ nome: 'chamarWebhook' });
    const jobId = String(log.mensagem).match(/tarefa ([0-9a-f-]{36})/)![1]!;
    expect(await status(jobId)).toMatchObject({
      kind: 'yms/patio/chamarWebhook',
      state: 'queued',
      attempts: 0,
    });
    expect(recebidos).toHaveLength(0);

    await t.platform.jobs.drain();
    expect(recebidos).toHaveLength(1);
    expect(await status(jobId)).toMatchObject({
      state: 'queued',
      attempts: 1,
      lastError: expect.stringMatching(/500/),
    });
    // Backoff: not due yet.
    await t.platform.jobs.drain();
    expect(recebidos).toHaveLength(1);
    await pronta(jobId);
    await t.platform.jobs.drain();
    expect(await status(jobId)).toMatchObject({ state: 'done', attempts: 2 });
    expect(recebidos).toHaveLength(2);

    const { headers, body } = recebidos[1]!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-ponte-tenant']).toBe('acme');
    expect(JSON.parse(body)).toMatchObject({
      comando: 'chamarWebhook',
      tenant: 'acme',
      escopo: { veiculoId: v.id },
      veiculoId: v.id,
      variaveis: { lote: 'L1' },
    });
    const assinatura = {
      signature: headers['x-ponte-signature'] as string,
      timestamp: headers['x-ponte-timestamp'] as string,
    };
    expect(verify('segredo-do-erp', assinatura, body)).toBe(true);
    expect(verify('outro-segredo', assinatura, body)).toBe(false);
    expect(verify('segredo-do-erp', assinatura, `${body} `)).toBe(false);
  });

  it('without segredo the body goes unsigned; a bad url is 422 and enqueues nothing', async () => {
    respostas = [];
    const v = await novoVeiculo();
    expect((await comando('chamarWebhook', { veiculoId: v.id }, { parametros: { url } })).statusCode).toBe(
      200,
    );
    await t.platform.jobs.drain();
    expect(recebidos.at(-1)!.headers['x-ponte-signature']).toBeUndefined();
    const before = await tableCounts(t.db);
    expect((await comando('chamarWebhook', {}, { parametros: { url: 'nada' } })).statusCode).toBe(422);
    expect((await tableCounts(t.db)).jobs).toBe(before.jobs);
  });
});

describe('wsFilaItem, wsLogRotina, reprocessarRotinasPlanta', () => {
  const filaItem = { id: 'item-1', posicao: 1, placa: 'ABC1D23', descricao: 'Aguardando doca' };

  it('refuse bad bodies (400) and change nothing', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['wsFilaItem', { operacao: 'APAGADO', fila: 'doca', filaItem, ws_users: 'ana' }],
      ['wsFilaItem', { operacao: 'CRIADO', fila: 'doca', filaItem }],
      ['wsFilaItem', { operacao: 'CRIADO', fila: 'doca', filaItem: { posicao: 1 }, ws_users: 'ana' }],
      ['wsFilaItem', { operacao: 'CRIADO', fila: 'doca', filaItem, ws_users: '' }],
      ['wsLogRotina', { logRotina: { tipo: 'CONDICAO', nome: 'x', sucesso: true, mensagem: 'ok' } }],
      [
        'wsLogRotina',
        { logRotina: { tipo: 'ROTINA', nome: 'x', sucesso: true, mensagem: 'ok' }, ws_users: 'ana' },
      ],
      ['wsLogRotina', { logRotina: { tipo: 'COMANDO', nome: 'x', mensagem: 'ok' }, ws_users: 'ana' }],
    ];
    for (const [name, body] of cases) await semMudanca(() => acme(`events/${name}`, body), 400);
  });

  it('publish good ones to the outbox with their payload', async () => {
    for (const operacao of ['CRIADO', 'ALTERADO', 'REMOVIDO']) {
      const body = { operacao, fila: 'doca', filaItem, ws_users: 'ana,bruno' };
      const res = await acme('events/wsFilaItem', body);
      expect(res.statusCode, res.body).toBe(200);
      expect((await publicados('yms/patio/wsFilaItem')).at(-1)).toEqual(body);
    }
    const body = {
      logRotina: { tipo: 'COMANDO', nome: 'pesar', sucesso: false, mensagem: 'balança offline' },
      ws_users: 'ana',
    };
    expect((await acme('events/wsLogRotina', body)).statusCode).toBe(200);
    expect((await publicados('yms/patio/wsLogRotina')).at(-1)).toEqual(body);
  });

  it('reprocessarRotinasPlanta: an unknown or another tenant’s plant is 404', async () => {
    await semMudanca(() => acme('events/reprocessarRotinasPlanta', { plantaId: randomUUID() }), 404);
    await semMudanca(() => globex('events/reprocessarRotinasPlanta', { plantaId: ids.planta }), 404);
    await semMudanca(() => acme('events/reprocessarRotinasPlanta', {}), 400);
  });
});
