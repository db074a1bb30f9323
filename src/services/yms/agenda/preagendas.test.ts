import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { agendaCall, agendaRow, historico, makeTipo, PLANTA, seedTipos, TIPO } from './fixtures.ts';
import { STATUS_PRE_AGENDA, type StatusPreAgenda, TRANSICOES } from './preagenda-estados.ts';
import {
  AGORA,
  logs,
  makePreAgenda,
  preAgendaRow,
  seedCadastros,
  seedPreAgendas,
} from './preagenda-fixtures.ts';
import { externalTenant } from './tables/parceiros.ts';
import { preAgendaBusca } from './tables/preagendas.ts';

// Pre-agendas: the entity (creation opens the approval, edits are logged, the state is read-only),
// the state table of statusPreAgenda, the conversion into an agenda, and filtrarPreAgenda.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;
const base = 'entities/preAgenda';
const PARCEIRO = '00000000-0000-4000-8000-0000000e0001';
const CLIENTE = '00000000-0000-4000-8000-0000000e0002';
const OUTRA_PLANTA = '00000000-0000-4000-8000-00000000a002';
const OUTRO_TIPO = '00000000-0000-4000-8000-00000000b002';

beforeAll(async () => {
  t = await testApp({ now: () => AGORA });
  acme = agendaCall(t, 'acme', await t.tenant('acme'));
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
  // The partner the plant's pre-agendas name (an internal caller may name any active partner), and
  // the customer (a partner too); the plant and the type they name.
  await t.db.tenant('acme', (tx) =>
    new Store(tx, 'acme').insert(externalTenant, [
      { id: PARCEIRO, codigo: '11222333000181', nome: 'Parceiro', createdBy: 'test', lastModifiedBy: 'test' },
      { id: CLIENTE, codigo: '11444777000161', nome: 'Cliente', createdBy: 'test', lastModifiedBy: 'test' },
    ]),
  );
  await seedCadastros(t, 'acme');
});

const nova = (o: Record<string, unknown> = {}) => ({
  plantaId: PLANTA,
  tipoAgendamentoId: TIPO,
  dataEsperada: '2026-04-10T09:00:00-03:00',
  ...o,
});

const emEstado = async (status: StatusPreAgenda, o: Record<string, unknown> = {}) =>
  (await seedPreAgendas(t, 'acme', [makePreAgenda({ status, ...o })]))[0]!;

describe('the preAgenda entity', () => {
  it('creates PENDENTE with an approval process and a CRIADA log; a client id is kept', async () => {
    const id = '22222222-2222-4222-8222-222222222222';
    const res = await acme(
      base,
      nova({
        id,
        descricao: 'Soja 30t',
        externalTenantId: PARCEIRO,
        clienteId: CLIENTE,
        custom: { nf: '9' },
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id,
      status: 'PENDENTE',
      descricao: 'Soja 30t',
      externalTenantId: PARCEIRO,
      custom: { nf: '9' },
      dataEsperada: '2026-04-10T12:00:00.000Z',
    });
    expect(res.json().codAgenda).toBeUndefined();
    const h = await acme('queries/historicoPreAgenda', { preAgendaId: id });
    expect(h.statusCode, h.body).toBe(200);
    expect(h.json().logs).toEqual([
      expect.objectContaining({ acao: 'CRIADA', para: 'PENDENTE', quem: expect.stringMatching(/^key:/) }),
    ]);
    expect(h.json().aprovacoes).toEqual([
      expect.objectContaining({ niveis: 1, nivelAtual: 1, status: 'EM_ANDAMENTO', itens: [] }),
    ]);
  });

  it('refuses a starting state other than PENDENTE (422) and missing required fields (400), changing nothing', async () => {
    const before = await tableCounts(t.db);
    const bad = await acme(base, nova({ status: 'APROVADA' }));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toMatch(/nasce em PENDENTE \(recebido: APROVADA\)/);
    for (const field of ['plantaId', 'tipoAgendamentoId', 'dataEsperada']) {
      const res = await acme(base, nova({ [field]: undefined }));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`field '${field}' is required`));
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('logs an edit with the changed fields; the state and the conversion fields are read-only', async () => {
    const created = (await acme(base, nova({ descricao: 'antes' }))).json();
    const res = await acme(
      `${base}/${created.id}`,
      { descricao: 'depois', codAgenda: 77 },
      { method: 'PATCH' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ descricao: 'depois', status: 'PENDENTE' });
    expect(res.json().codAgenda).toBeUndefined();
    const l = await logs(t, 'acme', created.id);
    expect(l.map((x) => x.acao)).toEqual(['CRIADA', 'ALTERADA']);
    expect(l[1]!.alteracoes).toEqual({ descricao: { de: 'antes', para: 'depois' } });

    const status = await acme(`${base}/${created.id}`, { status: 'APROVADA' }, { method: 'PATCH' });
    expect(status.statusCode).toBe(422);
    expect(status.json().message).toMatch(/não muda por edição \(PENDENTE → APROVADA\)/);
    expect((await preAgendaRow(t, 'acme', created.id))!.status).toBe('PENDENTE');
  });

  it('PUT replaces the editable fields of a REPROVADA one, keeping its id and state fields', async () => {
    const p = await emEstado('REPROVADA', { motivo: 'placa errada', observacao: 'some' });
    const res = await acme(`${base}/${p.id}`, nova({ descricao: 'corrigida', status: 'REPROVADA' }), {
      method: 'PUT',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: p.id,
      descricao: 'corrigida',
      status: 'REPROVADA',
      motivo: 'placa errada',
    });
    expect(res.json().observacao).toBeUndefined();
    const h = (
      await acme(
        'queries/historicoPreAgenda',
        { preAgendaId: p.id },
        { method: 'GET', query: { preAgendaId: p.id } },
      )
    ).json();
    expect(h.logs).toEqual([
      expect.objectContaining({
        acao: 'ALTERADA',
        de: 'REPROVADA',
        para: 'REPROVADA',
        alteracoes: {
          descricao: { de: p.descricao, para: 'corrigida' },
          observacao: { de: 'some', para: null },
        },
      }),
    ]);
  });

  it.each(STATUS_PRE_AGENDA.filter((s) => !TRANSICOES.editar.de.includes(s as never)))(
    'an edit in %s is 409 and changes nothing',
    async (status) => {
      const p = await emEstado(status);
      const res = await acme(`${base}/${p.id}`, nova({ descricao: 'x' }), { method: 'PUT' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(new RegExp(`está em ${status}`));
      expect(await preAgendaRow(t, 'acme', p.id)).toEqual(p);
    },
  );

  it('deletes only a PENDENTE pre-agenda, with its log and approval process', async () => {
    const created = (await acme(base, nova())).json();
    const res = await acme(`${base}/${created.id}`, undefined, { method: 'DELETE' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await logs(t, 'acme', created.id)).toEqual([]);
    const h = await acme('queries/historicoPreAgenda', { preAgendaId: created.id });
    expect(h.statusCode).toBe(404);
    const aprovada = await emEstado('APROVADA');
    const refused = await acme(`${base}/${aprovada.id}`, undefined, { method: 'DELETE' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toMatch(/só uma pré-agenda em PENDENTE pode ser excluída/);
  });

  it("another tenant's pre-agenda is 404 everywhere", async () => {
    const p = await emEstado('APROVADA');
    const calls: Array<[string, unknown, { method?: 'GET' | 'PATCH' | 'DELETE' }?]> = [
      [`${base}/${p.id}`, undefined, { method: 'GET' }],
      [`${base}/${p.id}`, { descricao: 'x' }, { method: 'PATCH' }],
      [`${base}/${p.id}`, undefined, { method: 'DELETE' }],
      ['actions/aprovarPreAgenda', { preAgendaId: p.id, aprovador: 'ana' }],
      ['actions/reprovarPreAgenda', { preAgendaId: p.id, aprovador: 'ana', motivo: 'x' }],
      ['actions/cancelarPreAgenda', { preAgendaId: p.id, motivo: 'x' }],
      ['actions/reenviarPreAgenda', { preAgendaId: p.id }],
      ['actions/converterPreAgenda', { preAgendaId: p.id }],
      ['queries/historicoPreAgenda', { preAgendaId: p.id }],
    ];
    for (const [op, body, options] of calls) {
      const res = await globex(op, body, options);
      expect(res.statusCode, op).toBe(404);
    }
    expect(await preAgendaRow(t, 'acme', p.id)).toEqual(p);
  });
});

/** Each state action with a valid body, and the state it leads to from an allowed state (one level). */
const ACOES: Record<string, { body: Record<string, unknown>; para: StatusPreAgenda }> = {
  aprovarPreAgenda: { body: { aprovador: 'ana@acme.com', comentario: 'ok' }, para: 'APROVADA' },
  reprovarPreAgenda: { body: { aprovador: 'ana@acme.com', motivo: 'placa errada' }, para: 'REPROVADA' },
  cancelarPreAgenda: { body: { motivo: 'desistiu' }, para: 'CANCELADA' },
  reenviarPreAgenda: { body: { comentario: 'placa corrigida' }, para: 'PENDENTE' },
  converterPreAgenda: { body: {}, para: 'CONVERTIDA' },
};

const TABELA = Object.entries(ACOES).flatMap(([acao, { body, para }]) =>
  STATUS_PRE_AGENDA.map((de) => ({
    acao,
    de,
    body,
    permitido: (TRANSICOES[acao as keyof typeof TRANSICOES].de as readonly string[]).includes(de),
    para,
  })),
);

describe('the state table of statusPreAgenda', () => {
  it('names every action in TRANSICOES', () => {
    expect(Object.keys(ACOES).sort()).toEqual(
      Object.keys(TRANSICOES)
        .filter((k) => k !== 'editar' && k !== 'excluir')
        .sort(),
    );
  });

  it.each(TABELA)('$acao from $de → allowed: $permitido', async ({ acao, de, body, permitido, para }) => {
    const p = await emEstado(de);
    const logsAntes = await logs(t, 'acme', p.id);
    const res = await acme(`actions/${acao}`, { preAgendaId: p.id, ...body });
    if (permitido) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().preAgenda.status).toBe(para);
      const depois = await logs(t, 'acme', p.id);
      expect(depois.at(-1)).toMatchObject({ de, para, quem: expect.stringMatching(/^key:/) });
    } else {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toMatch(
        ['CANCELADA', 'CONVERTIDA'].includes(de)
          ? new RegExp(`Pré-agenda ${p.id} está em ${de} \\(finalizada\\)`)
          : new RegExp(`Pré-agenda ${p.id} está em ${de}: ${acao} só é possível a partir de`),
      );
      expect(await preAgendaRow(t, 'acme', p.id)).toEqual(p);
      expect(await logs(t, 'acme', p.id)).toEqual(logsAntes);
    }
  });

  it('refuses bad inputs with 400 naming the field, changing nothing', async () => {
    const p = await emEstado('PENDENTE');
    const before = await tableCounts(t.db);
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['aprovarPreAgenda', { preAgendaId: p.id }, /field 'aprovador' is required/],
      ['reprovarPreAgenda', { preAgendaId: p.id, aprovador: 'a' }, /field 'motivo' is required/],
      [
        'cancelarPreAgenda',
        { preAgendaId: p.id, motivo: 'x'.repeat(256) },
        /field 'motivo' must have at most 255/,
      ],
      ['cancelarPreAgenda', { preAgendaId: 'nope', motivo: 'x' }, /field 'preAgendaId' must be a valid uuid/],
    ];
    for (const [acao, body, message] of cases) {
      const res = await acme(`actions/${acao}`, body);
      expect(res.statusCode, acao).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const unknown = await acme('actions/cancelarPreAgenda', {
      preAgendaId: '00000000-0000-4000-8000-000000000999',
      motivo: 'x',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Pré-agenda 00000000-0000-4000-8000-000000000999 não encontrada');
    expect(await tableCounts(t.db)).toEqual(before);
  });
});

describe('converterPreAgenda', () => {
  it('creates the agenda through criarAgendamento (code, AGENDADO, history) and records it', async () => {
    const p = await emEstado('APROVADA', {
      descricao: 'Milho',
      externalTenantId: PARCEIRO,
      clienteId: CLIENTE,
      observacao: 'doca 2',
      custom: { lote: 'L1' },
    });
    const res = await acme('actions/converterPreAgenda', {
      preAgendaId: p.id,
      dataEsperada: '2026-04-11T08:00:00Z',
      chaveIntegracao: 'PRE-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { preAgenda, agenda } = res.json();
    expect(agenda).toMatchObject({
      codigo: expect.any(Number),
      status: 'AGENDADO',
      descricao: 'Milho',
      parceiroId: PARCEIRO,
      observacao: 'doca 2',
      chaveIntegracao: 'PRE-1',
      custom: { lote: 'L1' },
      dataEsperada: '2026-04-11T08:00:00.000Z',
    });
    expect(preAgenda).toMatchObject({ status: 'CONVERTIDA', codAgenda: agenda.codigo, agendaId: agenda.id });
    expect(await agendaRow(t, 'acme', agenda.id)).toMatchObject({ codigo: agenda.codigo, plantaId: PLANTA });
    expect(await historico(t, 'acme', agenda.id)).toEqual([
      expect.objectContaining({ de: null, para: 'AGENDADO', motivo: `convertida da pré-agenda ${p.id}` }),
    ]);
    expect((await logs(t, 'acme', p.id)).at(-1)).toMatchObject({
      acao: 'CONVERSAO',
      motivo: `agenda ${agenda.codigo}`,
    });
    // Converted once: a second conversion is refused.
    const again = await acme('actions/converterPreAgenda', { preAgendaId: p.id });
    expect(again.statusCode).toBe(409);
  });

  it('a refused agenda (duplicate integration key) leaves the pre-agenda APROVADA and no agenda', async () => {
    const p = await emEstado('APROVADA');
    await acme('actions/criarAgendamento', {
      plantaId: PLANTA,
      tipoAgendamentoId: TIPO,
      dataEsperada: '2026-04-11T08:00:00Z',
      chaveIntegracao: 'DUP-1',
    });
    const before = await tableCounts(t.db);
    const res = await acme('actions/converterPreAgenda', { preAgendaId: p.id, chaveIntegracao: 'DUP-1' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Já existe uma agenda com chaveIntegracao DUP-1');
    expect(await tableCounts(t.db)).toEqual(before);
    expect(await preAgendaRow(t, 'acme', p.id)).toEqual(p);
  });

  it("takes a slot's place like the carriers' booking, without their lead time", async () => {
    // One place a slot, and a lead time longer than what is left before the plant's day.
    const [tipo] = await seedTipos(t, 'acme', [
      makeTipo({ capacidadePorSlot: 1, antecedenciaMinutos: 100_000 }),
    ]);
    const aprovada = (dataEsperada: string) =>
      emEstado('APROVADA', { tipoAgendamentoId: tipo!.id, dataEsperada: new Date(dataEsperada) });
    const p = await aprovada('2026-04-10T12:00:00Z');
    const ok = await acme('actions/converterPreAgenda', { preAgendaId: p.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().agenda.fimPrevisto).toBe('2026-04-10T12:30:00.000Z');
    expect(ok.json().agenda).not.toHaveProperty('busca');
    expect((await agendaRow(t, 'acme', ok.json().agenda.id))!.fimPrevisto).toEqual(
      new Date('2026-04-10T12:30:00Z'),
    );

    const refusals: Array<[string, Record<string, unknown>, number, RegExp]> = [
      ['the slot is full', {}, 409, /^Horário 2026-04-10T12:00:00.000Z lotado .*: 1 de 1 lugares ocupados$/],
      ['the plant is closed', { dataEsperada: '2026-04-12T12:00:00Z' }, 422, /\(FECHADO\)/],
      ['not the start of a slot', { dataEsperada: '2026-04-10T12:10:00Z' }, 422, /\(FECHADO\)/],
    ];
    const outra = await aprovada('2026-04-10T12:00:00Z');
    const before = await tableCounts(t.db);
    for (const [why, body, status, message] of refusals) {
      const res = await acme('actions/converterPreAgenda', { preAgendaId: outra.id, ...body });
      expect(res.statusCode, why).toBe(status);
      expect(res.json().message, why).toMatch(message);
    }
    expect(await tableCounts(t.db)).toEqual(before);
    expect(await preAgendaRow(t, 'acme', outra.id)).toEqual(outra);
    // The plant books it on the next slot instead.
    const depois = await acme('actions/converterPreAgenda', {
      preAgendaId: outra.id,
      dataEsperada: '2026-04-10T12:30:00Z',
    });
    expect(depois.statusCode, depois.body).toBe(200);
  });

  it('an inactive type takes no pre-agenda, and converts none', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ ativo: false })]);
    const before = await tableCounts(t.db);
    const nova1 = await acme(base, nova({ tipoAgendamentoId: tipo!.id }));
    expect(nova1.statusCode).toBe(422);
    expect(nova1.json().message).toBe(
      `Tipo de agendamento ${tipo!.codigo} está inativo: não recebe pedidos de agendamento`,
    );
    const p = await emEstado('PENDENTE');
    const troca = await acme(`${base}/${p.id}`, { tipoAgendamentoId: tipo!.id }, { method: 'PATCH' });
    expect(troca.statusCode).toBe(422);
    expect(await tableCounts(t.db)).toEqual({ ...before, pre_agenda: before.pre_agenda! + 1 });
    // One asked before the type was deactivated is still edited, but not converted.
    const antiga = await emEstado('PENDENTE', { tipoAgendamentoId: tipo!.id });
    const edit = await acme(`${base}/${antiga.id}`, { observacao: 'doca 3' }, { method: 'PATCH' });
    expect(edit.statusCode, edit.body).toBe(200);
    const aprovada = await emEstado('APROVADA', { tipoAgendamentoId: tipo!.id });
    const conv = await acme('actions/converterPreAgenda', { preAgendaId: aprovada.id });
    expect(conv.statusCode).toBe(422);
    expect(conv.json().message).toMatch(/\(TIPO_INATIVO\)/);
  });
});

describe('filtrarPreAgenda', () => {
  let f: ReturnType<typeof agendaCall>;
  let ids: Record<string, string>;

  beforeAll(async () => {
    f = agendaCall(t, 'filtro', await t.tenant('filtro'));
    const rows = await seedPreAgendas(t, 'filtro', [
      makePreAgenda({
        descricao: 'Soja norte',
        status: 'PENDENTE',
        externalTenantId: PARCEIRO,
        createdDate: new Date('2026-01-01T10:00:00Z'),
        dataEsperada: new Date('2026-02-01T10:00:00Z'),
      }),
      makePreAgenda({
        descricao: 'Milho 50%',
        status: 'APROVADA',
        clienteId: CLIENTE,
        createdDate: new Date('2026-01-02T10:00:00Z'),
        dataEsperada: new Date('2026-02-03T10:00:00Z'),
      }),
      makePreAgenda({
        descricao: 'Soja sul',
        status: 'CONVERTIDA',
        codAgenda: 42,
        plantaId: OUTRA_PLANTA,
        observacao: 'frete especial',
        createdDate: new Date('2026-01-03T10:00:00Z'),
        dataEsperada: new Date('2026-02-02T10:00:00Z'),
      }),
      makePreAgenda({
        descricao: 'Trigo',
        status: 'REPROVADA',
        tipoAgendamentoId: OUTRO_TIPO,
        createdDate: new Date('2026-01-03T10:00:00Z'),
        dataEsperada: new Date('2026-02-04T10:00:00Z'),
      }),
    ]);
    ids = Object.fromEntries(rows.map((r) => [r.descricao!, r.id]));
    // Another tenant's pre-agenda never shows.
    await seedPreAgendas(t, 'acme', [makePreAgenda({ descricao: 'Soja de outro tenant' })]);
  });

  const filtrar = async (o: Record<string, unknown>) => {
    const res = await f('actions/filtrarPreAgenda', { page: 0, size: 50, ...o });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      preAgenda: Array<{ id: string; descricao: string }>;
      totalElements: number;
      totalPages: number;
    };
  };
  const nomes = async (o: Record<string, unknown>) => (await filtrar(o)).preAgenda.map((p) => p.descricao);

  it.each([
    [{}, ['Soja norte', 'Milho 50%', 'Soja sul', 'Trigo']],
    [{ plantaId: OUTRA_PLANTA }, ['Soja sul']],
    [{ tipoAgendamentoId: OUTRO_TIPO }, ['Trigo']],
    [{ externalTenantId: PARCEIRO }, ['Soja norte']],
    [{ clienteId: CLIENTE }, ['Milho 50%']],
    [{ status: ['APROVADA', 'REPROVADA'] }, ['Milho 50%', 'Trigo']],
    [{ descricao: 'soja' }, ['Soja norte', 'Soja sul']],
    [{ descricao: '50%' }, ['Milho 50%']],
    [{ descricao: '%' }, ['Milho 50%']],
    [{ dataCriacaoInicio: '2026-01-02T10:00:00Z', dataCriacaoFim: '2026-01-02T10:00:00Z' }, ['Milho 50%']],
    [{ dataCriacaoInicio: '2026-01-03T00:00:00Z' }, ['Soja sul', 'Trigo']],
    [
      { dataEsperadaInicio: '2026-02-02T00:00:00Z', dataEsperadaFim: '2026-02-03T23:00:00Z' },
      ['Milho 50%', 'Soja sul'],
    ],
    [{ codAgenda: 42 }, ['Soja sul']],
    [{ pesquisa: '42' }, ['Soja sul']],
    [{ pesquisa: 'especial' }, ['Soja sul']],
    [{ pesquisa: 'norte', status: ['PENDENTE'] }, ['Soja norte']],
    [{ pesquisa: 'nada disso' }, []],
    // The text's conditions are ORed among themselves only: a match in the observation alone still
    // answers to every other filter.
    [{ pesquisa: 'especial', status: ['PENDENTE'] }, []],
    [{ pesquisa: 'especial', plantaId: OUTRA_PLANTA, status: ['CONVERTIDA'] }, ['Soja sul']],
  ])('filters %j', async (filtro, esperado) => {
    // The order is tested below (two rows share createdDate: the id, random, breaks that tie).
    expect((await nomes(filtro)).sort()).toEqual([...esperado].sort());
  });

  it('sorts by a whitelisted field both ways, ties broken by id, pages without overlap', async () => {
    expect(await nomes({ sortField: 'dataEsperada' })).toEqual([
      'Soja norte',
      'Soja sul',
      'Milho 50%',
      'Trigo',
    ]);
    expect(await nomes({ sortField: 'dataEsperada', sortOrder: -1 })).toEqual([
      'Trigo',
      'Milho 50%',
      'Soja sul',
      'Soja norte',
    ]);
    expect(await nomes({ sortField: 'descricao', sortOrder: 0 })).toEqual([
      'Milho 50%',
      'Soja norte',
      'Soja sul',
      'Trigo',
    ]);
    // Soja sul and Trigo share createdDate: the id decides, the same way in both directions.
    const empate = [ids['Soja sul']!, ids.Trigo!].sort();
    const desc = (await filtrar({ sortOrder: -1 })).preAgenda.map((p) => p.id);
    expect(desc.slice(0, 2)).toEqual(empate);
    const paginas = [];
    for (let page = 0; page < 2; page++) {
      const r = await filtrar({ page, size: 3, sortField: 'status' });
      expect(r).toMatchObject({ totalElements: 4, totalPages: 2 });
      paginas.push(...r.preAgenda.map((p) => p.id));
    }
    expect(new Set(paginas).size).toBe(4);
  });

  it('refuses a sortField off the list, a bad status and a reversed period, changing nothing', async () => {
    const bad = await f('actions/filtrarPreAgenda', { page: 0, size: 10, sortField: 'tenant' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/field 'sortField' must be one of/);
    const status = await f('actions/filtrarPreAgenda', { page: 0, size: 10, status: ['AGENDADO'] });
    expect(status.statusCode).toBe(400);
    const periodo = await f('actions/filtrarPreAgenda', {
      page: 0,
      size: 10,
      dataEsperadaInicio: '2026-02-05T00:00:00Z',
      dataEsperadaFim: '2026-02-01T00:00:00Z',
    });
    expect(periodo.statusCode).toBe(422);
    expect(periodo.json().message).toMatch(
      /dataEsperadaInicio \(2026-02-05T00:00:00Z\) é posterior a dataEsperadaFim/,
    );
    const semPagina = await f('actions/filtrarPreAgenda', { size: 10 });
    expect(semPagina.statusCode).toBe(400);
    expect(semPagina.json().message).toMatch(/field 'page' is required/);
  });
});

describe('the search view (pre_agenda_busca)', () => {
  it('shows only the transaction’s tenant, even to a query without a tenant condition', async () => {
    await seedPreAgendas(t, 'globex', [makePreAgenda({ descricao: 'da globex' })]);
    const globexRows = await t.db.tenant('globex', (tx) => tx.select().from(preAgendaBusca));
    expect(globexRows.length).toBeGreaterThan(0);
    expect(new Set(globexRows.map((r) => r.tenant))).toEqual(new Set(['globex']));
    const acmeRows = await t.db.tenant('acme', (tx) => tx.select().from(preAgendaBusca));
    expect(new Set(acmeRows.map((r) => r.tenant))).toEqual(new Set(['acme']));
    expect(await t.db.system((tx) => tx.select().from(preAgendaBusca))).toEqual([]);
  });
});
