import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { makeMotorista, makeVeiculo, seed } from '../patio/fixtures.ts';
import { motorista, veiculo } from '../patio/tables/veiculos.ts';
import { leitura } from './busca.ts';
import { agendaCall, makeAgenda, makeTipo, seedAgendas, seedTipos } from './fixtures.ts';
import { externalTenant } from './tables/parceiros.ts';

// agenda's own filtrarAgenda and getAgendasPorPeriodo (spec 000 §4.4, §4.5; docs/agenda.md
// "filtrarAgenda"). Each test books its agendas at a plant of its own (or in a year of its own) so
// the others' never match. The clock is the test's: overdue is relative to it.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;
let fullKey: string;
let agora = new Date('2026-03-09T12:00:00Z');

beforeAll(async () => {
  t = await testApp({ now: () => agora });
  fullKey = await t.tenant('acme');
  acme = agendaCall(t, 'acme', fullKey);
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
});

const filtrar = (body: Record<string, unknown>) =>
  acme('actions/filtrarAgenda', { page: 0, size: 100, ...body });
const ids = (res: { json(): { agendas: Array<{ id: string }> } }) => res.json().agendas.map((a) => a.id);

describe('filtrarAgenda', () => {
  it('ANDs the field filters: partner, type, driver, vehicle, description, states, group, code, key, unscheduled', async () => {
    const plantaId = randomUUID();
    const [parceiro, tipo, mot, vei] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const rows = await seedAgendas(t, 'acme', [
      makeAgenda({ plantaId, parceiroId: parceiro, descricao: 'Carga de SOJA' }),
      makeAgenda({ plantaId, tipoAgendamentoId: tipo, status: 'EXECUTANDO' }),
      makeAgenda({ plantaId, motoristaId: mot, codigoAgrupador: 'LOTE-7' }),
      makeAgenda({ plantaId, veiculoId: vei, chaveIntegracao: `NF-${plantaId}`, unscheduled: true }),
      makeAgenda({ plantaId, status: 'CANCELADO', codigoAgrupador: 'LOTE-7' }),
    ]);
    const id = (i: number) => rows[i]!.id;
    const casos: Array<[Record<string, unknown>, string[]]> = [
      [{}, rows.map((r) => r.id)],
      [{ externalTenantId: parceiro }, [id(0)]],
      [{ tipoAgendamentoId: tipo }, [id(1)]],
      [{ motoristaId: mot }, [id(2)]],
      [{ veiculoId: vei }, [id(3)]],
      [{ descricao: 'soja' }, [id(0)]],
      [{ status: ['EXECUTANDO', 'CANCELADO'] }, [id(1), id(4)]],
      [{ codigoAgrupador: 'LOTE-7' }, [id(2), id(4)]],
      [{ codigoAgrupador: 'LOTE-7', status: ['AGENDADO'] }, [id(2)]],
      [{ codigo: rows[3]!.codigo }, [id(3)]],
      [{ chaveIntegracao: `NF-${plantaId}` }, [id(3)]],
      [{ unscheduled: true }, [id(3)]],
      [{ unscheduled: false }, [id(0), id(1), id(2), id(4)]],
    ];
    for (const [filtro, esperado] of casos) {
      const res = await filtrar({ plantaId, ...filtro, sortField: 'codigo' });
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(res), JSON.stringify(filtro)).toEqual(esperado);
      expect(res.json().totalElements).toBe(esperado.length);
    }
  });

  it('pesquisa ORs description, code and the plates and drivers yms/patio matched', async () => {
    const plantaId = randomUUID();
    const [v] = await seed(t, 'acme', veiculo, [makeVeiculo({ placa: 'QWE7J89' })]);
    const [m] = await seed(t, 'acme', motorista, [makeMotorista({ nome: 'Joana Pereira Qwe' })]);
    const rows = await seedAgendas(t, 'acme', [
      makeAgenda({ plantaId, veiculoId: v!.id }),
      makeAgenda({ plantaId, motoristaId: m!.id }),
      makeAgenda({ plantaId, descricao: 'descarga qwe' }),
      makeAgenda({ plantaId, descricao: 'outra' }),
    ]);
    const res = await filtrar({ plantaId, pesquisa: ' qwe ', sortField: 'codigo' });
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res)).toEqual([rows[0]!.id, rows[1]!.id, rows[2]!.id]);
    expect(ids(await filtrar({ plantaId, pesquisa: 'qwe-7j89' }))).toEqual([rows[0]!.id]);
    expect(ids(await filtrar({ plantaId, pesquisa: String(rows[3]!.codigo) }))).toEqual([rows[3]!.id]);
    expect(ids(await filtrar({ plantaId, pesquisa: '100%' }))).toEqual([]);
  });

  it('pesquisa reads description, key and group as one column: any case and accents, never across two fields, kept on edits, never answered', async () => {
    const plantaId = randomUUID();
    const rows = await seedAgendas(t, 'acme', [
      makeAgenda({ plantaId, descricao: 'Carga de AÇÚCAR' }),
      makeAgenda({ plantaId, chaveIntegracao: `NF-ÉPSILON-${plantaId}` }),
      makeAgenda({ plantaId, codigoAgrupador: 'Lote Ômega' }),
      makeAgenda({ plantaId, descricao: 'fim xyz', chaveIntegracao: `abc-${plantaId}` }),
    ]);
    const busca = async (pesquisa: string) => {
      const res = await filtrar({ plantaId, pesquisa, sortField: 'codigo' });
      expect(res.statusCode, res.body).toBe(200);
      return ids(res);
    };
    expect(await busca('açúcar')).toEqual([rows[0]!.id]);
    expect(await busca('épsilon')).toEqual([rows[1]!.id]);
    expect(await busca('ÔMEGA')).toEqual([rows[2]!.id]);
    // Accents aside, both ways: what a keyboard without them types finds what the ERP wrote.
    expect(await busca('acucar')).toEqual([rows[0]!.id]);
    expect(await busca('EPSILON')).toEqual([rows[1]!.id]);
    expect(await busca('lote omega')).toEqual([rows[2]!.id]);
    expect(await busca('fím xýz')).toEqual([rows[3]!.id]);
    // The fields are joined by a separator in the stored column: a text spanning two never matches.
    expect(await busca('xyzabc')).toEqual([]);
    expect(await busca('xyz abc')).toEqual([]);
    expect(await busca('xyz\u001fabc')).toEqual([]);
    expect(await busca('xyz')).toEqual([rows[3]!.id]);
    expect(await busca(`abc-${plantaId}`)).toEqual([rows[3]!.id]);
    // The database keeps the column: an edit is searchable at once, the old text no more.
    const edit = await acme(
      `entities/agenda/${rows[0]!.id}`,
      { descricao: 'Carga de milho' },
      { method: 'PATCH' },
    );
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await busca('açúcar')).toEqual([]);
    expect(await busca('MILHO')).toEqual([rows[0]!.id]);
    // It is the search's, not the record's: never answered, and a client's `busca` is an unknown field,
    // ignored as any other.
    const found = await filtrar({ plantaId, pesquisa: 'milho' });
    expect(Object.keys(found.json().agendas[0])).not.toContain('busca');
    const one = await acme(`entities/agenda/${rows[0]!.id}`, undefined, { method: 'GET' });
    expect(one.statusCode, one.body).toBe(200);
    expect(Object.keys(one.json())).not.toContain('busca');
    const written = await acme(`entities/agenda/${rows[0]!.id}`, { busca: 'zzqqv' }, { method: 'PATCH' });
    expect(written.statusCode, written.body).toBe(200);
    expect(await busca('zzqqv')).toEqual([]);
    expect(await busca('MILHO')).toEqual([rows[0]!.id]);
  });

  describe('pesquisa over partners and appointment types', () => {
    let parceiroId: string;
    let tipoId: string;
    let kpa: Record<string, string>;

    beforeAll(async () => {
      const p = await acme('entities/externalTenant', {
        codigo: '11.222.333/0001-81',
        nome: 'Transportadora Zeta',
      });
      expect(p.statusCode, p.body).toBe(200);
      parceiroId = p.json().id;
      const [tipo, kpaTipo] = await seedTipos(t, 'acme', [
        makeTipo({ codigo: 'OMG-1', descricao: 'Descarga de fertilizante' }),
        makeTipo({ codigo: 'KP-1', descricao: 'Granel KPA' }),
      ]);
      tipoId = tipo!.id;
      const [kp] = await t.db.tenant('acme', (tx) =>
        new Store(tx, 'acme')
          .insert(externalTenant, [
            { codigo: '52998224725', nome: 'Transportes Kpa', createdBy: 'test', lastModifiedBy: 'test' },
          ])
          .returning(),
      );
      const [v] = await seed(t, 'acme', veiculo, [makeVeiculo({ placa: 'KPA1B23' })]);
      const [m] = await seed(t, 'acme', motorista, [makeMotorista({ nome: 'Joana Kpa da Silva' })]);
      kpa = { tipo: kpaTipo!.id, parceiro: kp!.id, veiculo: v!.id, motorista: m!.id };
    });

    it.each([
      ['the partner name', 'zeta', 'parceiro'],
      ['the partner CNPJ digits', '11.222.333/0001', 'parceiro'],
      ['the partner CNPJ, part of the digits', '2333000', 'parceiro'],
      ['the type description', 'FERTILIZ', 'tipo'],
      ['the type code', 'omg-1', 'tipo'],
      ['the type description, accents aside', 'DÉSCARGA', 'tipo'],
      ['the partner name, accents aside', 'zêta', 'parceiro'],
    ] as const)('matches %s', async (_, pesquisa, campo) => {
      const plantaId = randomUUID();
      const rows = await seedAgendas(t, 'acme', [
        makeAgenda({ plantaId, parceiroId }),
        makeAgenda({ plantaId, tipoAgendamentoId: tipoId }),
        makeAgenda({ plantaId }),
      ]);
      const res = await filtrar({ plantaId, pesquisa, sortField: 'codigo' });
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(res)).toEqual([rows[campo === 'parceiro' ? 0 : 1]!.id]);
    });

    it('ORs the five kinds of match (description, plate, driver, partner, type), in agenda and in patio', async () => {
      const plantaId = randomUUID();
      const rows = await seedAgendas(t, 'acme', [
        makeAgenda({ plantaId, descricao: 'carga kpa' }),
        makeAgenda({ plantaId, veiculoId: kpa.veiculo }),
        makeAgenda({ plantaId, motoristaId: kpa.motorista }),
        makeAgenda({ plantaId, parceiroId: kpa.parceiro }),
        makeAgenda({ plantaId, tipoAgendamentoId: kpa.tipo }),
        makeAgenda({ plantaId, descricao: 'nada', parceiroId, tipoAgendamentoId: tipoId }),
      ]);
      const esperado = rows.slice(0, 5).map((r) => r.id);
      const res = await filtrar({ plantaId, pesquisa: 'KPA', sortField: 'codigo' });
      expect(ids(res)).toEqual(esperado);
      expect(res.json().totalElements).toBe(5);
      // yms/patio's filtrarAgenda (through agenda's pesquisarAgendas) matches the same.
      const patio = await t.call(
        'acme',
        'yms/patio/actions/filtrarAgenda',
        { page: 0, size: 100, plantaId, pesquisa: 'kpa', sortField: 'codigo' },
        { auth: fullKey },
      );
      expect(patio.statusCode, patio.body).toBe(200);
      expect(ids(patio)).toEqual(esperado);
      // ANDed with the other filters.
      expect(ids(await filtrar({ plantaId, pesquisa: 'kpa', tipoAgendamentoId: kpa.tipo }))).toEqual([
        rows[4]!.id,
      ]);
      // Another tenant's partners and types match nothing here.
      expect((await globex('actions/filtrarAgenda', { page: 0, size: 10, pesquisa: 'kpa' })).json()).toEqual({
        agendas: [],
        totalElements: 0,
        totalPages: 0,
      });
    });

    it('refuses a text that matches more than 1000 types (422), as for plates', async () => {
      await seedTipos(
        t,
        'amplo',
        Array.from({ length: 1001 }, (_, i) => makeTipo({ codigo: `AMP${i}`, descricao: `amplo ${i}` })),
      );
      const amplo = agendaCall(t, 'amplo', await t.tenant('amplo'));
      const res = await amplo('actions/filtrarAgenda', { page: 0, size: 10, pesquisa: 'amplo' });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(
        'pesquisa "amplo" corresponde a mais de 1000 tipos de agendamento: refine o texto',
      );
      expect(
        (await amplo('actions/filtrarAgenda', { page: 0, size: 10, pesquisa: 'amplo 999' })).statusCode,
      ).toBe(200);
    });
  });

  it('overdue: not started and expected more than h elapsed hours ago, across a daylight-saving change', async () => {
    const plantaId = randomUUID();
    // New York moved its clocks on 2026-03-08 at 02:00 (−05:00 → −04:00). "Now" is 12:30 local on the 8th.
    agora = new Date('2026-03-08T12:30:00-04:00');
    const rows = await seedAgendas(t, 'acme', [
      // 12:00 local on the 7th: the wall clock says 24.5 h ago, but only 23.5 h have elapsed.
      makeAgenda({ plantaId, dataEsperada: new Date('2026-03-07T12:00:00-05:00') }),
      // 11:00 local on the 7th: 24.5 h elapsed.
      makeAgenda({ plantaId, dataEsperada: new Date('2026-03-07T11:00:00-05:00') }),
      // Same instant in São Paulo's notation, AGUARDANDO_INTEGRACAO: overdue too.
      makeAgenda({
        plantaId,
        dataEsperada: new Date('2026-03-07T13:00:00-03:00'),
        status: 'AGUARDANDO_INTEGRACAO',
      }),
      // Started or finished ones are never overdue.
      makeAgenda({ plantaId, dataEsperada: new Date('2026-03-01T00:00:00Z'), status: 'EXECUTANDO' }),
      makeAgenda({ plantaId, dataEsperada: new Date('2026-03-01T00:00:00Z'), status: 'CANCELADO' }),
      makeAgenda({ plantaId, dataEsperada: new Date('2026-03-01T00:00:00Z'), status: 'ERRO_INTEGRACAO' }),
    ]);
    const res = await filtrar({ plantaId, somenteVencidas: true, sortField: 'codigo' });
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res)).toEqual([rows[1]!.id, rows[2]!.id, rows[5]!.id]);
    // 23 hours: the first one too.
    expect(
      ids(
        await filtrar({ plantaId, somenteVencidas: true, horasConsiderarVencida: 23, sortField: 'codigo' }),
      ),
    ).toEqual([rows[0]!.id, rows[1]!.id, rows[2]!.id, rows[5]!.id]);
    // An hour later the first one is past 24 h as well; somenteVencidas false ignores the hours.
    agora = new Date('2026-03-08T13:30:00-04:00');
    expect(ids(await filtrar({ plantaId, somenteVencidas: true }))).toContain(rows[0]!.id);
    expect(ids(await filtrar({ plantaId, horasConsiderarVencida: 500 }))).toHaveLength(rows.length);
    agora = new Date('2026-03-09T12:00:00Z');
  });

  it('a period of the expected date, bounds inclusive; an inverted period is 422', async () => {
    const plantaId = randomUUID();
    const rows = await seedAgendas(t, 'acme', [
      makeAgenda({ plantaId, dataEsperada: new Date('2026-04-01T00:00:00Z') }),
      makeAgenda({ plantaId, dataEsperada: new Date('2026-04-02T12:00:00Z') }),
      makeAgenda({ plantaId, dataEsperada: new Date('2026-04-03T00:00:00Z') }),
    ]);
    const res = await filtrar({
      plantaId,
      dataEsperadaAgendamentoInicio: '2026-03-31T21:00:00-03:00',
      dataEsperadaAgendamentoFim: '2026-04-02T12:00:00Z',
    });
    expect(ids(res)).toEqual([rows[0]!.id, rows[1]!.id]);
    expect(ids(await filtrar({ plantaId, dataEsperadaAgendamentoInicio: '2026-04-02T12:00:01Z' }))).toEqual([
      rows[2]!.id,
    ]);
    const bad = await filtrar({
      plantaId,
      dataEsperadaAgendamentoInicio: '2026-04-03T00:00:00Z',
      dataEsperadaAgendamentoFim: '2026-04-01T00:00:00Z',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe(
      '2026-04-01T00:00:00Z (dataEsperadaAgendamentoFim) é anterior a 2026-04-03T00:00:00Z (dataEsperadaAgendamentoInicio)',
    );
  });

  it('pages in a stable order without overlap, in both directions', async () => {
    const plantaId = randomUUID();
    const same = new Date('2026-05-01T10:00:00Z');
    const rows = await seedAgendas(
      t,
      'acme',
      Array.from({ length: 7 }, () => makeAgenda({ plantaId, dataEsperada: same })),
    );
    const pages = [];
    for (let page = 0; page < 3; page++) {
      const res = await filtrar({ plantaId, page, size: 3, sortOrder: -1 });
      expect(res.json()).toMatchObject({ totalElements: 7, totalPages: 3 });
      pages.push(...ids(res));
    }
    expect(pages).toEqual(rows.map((r) => r.id));
    const desc = await filtrar({ plantaId, sortField: 'codigo', sortOrder: -1 });
    expect(ids(desc)).toEqual(rows.map((r) => r.id).reverse());
  });

  it('pages a text search as any other filter, its count on every page and past the end', async () => {
    // A text search reads its matches once for the page and the count (core/db/reads.ts oneScan).
    const plantaId = randomUUID();
    const texto = `zq${plantaId.slice(0, 6)}`;
    const rows = await seedAgendas(
      t,
      'acme',
      Array.from({ length: 7 }, (_, i) =>
        makeAgenda({
          plantaId,
          descricao: i === 6 ? 'outra' : `Carga ${texto.toUpperCase()} ${i}`,
          dataEsperada: new Date(Date.UTC(2026, 5, 1 + (i % 3))),
        }),
      ),
    );
    const esperado = rows
      .slice(0, 6)
      .sort((a, b) => a.dataEsperada.getTime() - b.dataEsperada.getTime() || a.codigo - b.codigo)
      .map((r) => r.id);
    for (const campo of ['pesquisa', 'descricao']) {
      const pages = [];
      for (let page = 0; page < 3; page++) {
        const res = await filtrar({ plantaId, [campo]: texto, page, size: 4 });
        expect(res.json(), campo).toMatchObject({ totalElements: 6, totalPages: 2 });
        pages.push(...ids(res));
      }
      expect(pages, campo).toEqual(esperado);
      const porCodigo = await filtrar({ plantaId, [campo]: texto, sortField: 'codigo', sortOrder: -1 });
      expect(ids(porCodigo), campo).toEqual(
        rows
          .slice(0, 6)
          .map((r) => r.id)
          .reverse(),
      );
    }
    expect((await filtrar({ plantaId, pesquisa: 'nada-assim' })).json()).toEqual({
      agendas: [],
      totalElements: 0,
      totalPages: 0,
    });
  });

  it('rejects bad inputs with 400 naming the field', async () => {
    const casos: Array<[Record<string, unknown>, RegExp]> = [
      [{ horasConsiderarVencida: 1 }, /horasConsiderarVencida/],
      [{ horasConsiderarVencida: 8761 }, /horasConsiderarVencida/],
      [{ status: ['PERDIDO'] }, /status/],
      [{ externalTenantId: 'x' }, /externalTenantId/],
      [{ dataEsperadaAgendamentoInicio: '2026-04-01' }, /dataEsperadaAgendamentoInicio/],
      [{ size: 0 }, /size/],
      [{ sortField: 'placa' }, /sortField/],
      [{ somenteVencidas: 'sim' }, /somenteVencidas/],
    ];
    for (const [body, campo] of casos) {
      const res = await filtrar(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(campo);
    }
    const semPage = await acme('actions/filtrarAgenda', { size: 10 });
    expect(semPage.statusCode).toBe(400);
  });

  it("never shows another tenant's agendas", async () => {
    const plantaId = randomUUID();
    await seedAgendas(t, 'acme', [makeAgenda({ plantaId })]);
    const res = await globex('actions/filtrarAgenda', { page: 0, size: 10, plantaId });
    expect(res.json()).toEqual({ agendas: [], totalElements: 0, totalPages: 0 });
  });
});

describe('getAgendasPorPeriodo', () => {
  it('POST and GET answer the agendas of the period, paged', async () => {
    const rows = await seedAgendas(t, 'acme', [
      makeAgenda({ dataEsperada: new Date('2031-01-01T00:00:00Z') }),
      makeAgenda({ dataEsperada: new Date('2031-01-01T12:00:00Z') }),
      makeAgenda({ dataEsperada: new Date('2031-01-02T00:00:00Z') }),
      makeAgenda({ dataEsperada: new Date('2031-01-02T00:00:01Z') }),
    ]);
    const body = { dataInicio: '2031-01-01T00:00:00Z', dataFim: '2031-01-02T00:00:00Z', page: 0, size: 2 };
    const post = await acme('queries/getAgendasPorPeriodo', body);
    expect(post.statusCode, post.body).toBe(200);
    expect(post.json()).toMatchObject({ totalElements: 3, totalPages: 2 });
    expect(ids(post)).toEqual([rows[0]!.id, rows[1]!.id]);
    const get = await acme('queries/getAgendasPorPeriodo', undefined, {
      method: 'GET',
      query: { ...body, page: '1', size: '2', sortOrder: '-1' },
    });
    expect(get.statusCode, get.body).toBe(200);
    expect(ids(get)).toEqual([rows[0]!.id]);
    const other = await globex('queries/getAgendasPorPeriodo', body);
    expect(other.json().totalElements).toBe(0);
  });

  it('requires both dates as date-times and an ordered period', async () => {
    for (const body of [
      { dataInicio: '2031-01-01T00:00:00Z', page: 0, size: 2 },
      { dataInicio: '2031-01-01', dataFim: '2031-01-02T00:00:00Z', page: 0, size: 2 },
      { dataInicio: '2031-01-01T00:00:00Z', dataFim: '2031-01-02T00:00:00Z', size: 2 },
    ]) {
      const res = await acme('queries/getAgendasPorPeriodo', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const res = await acme('queries/getAgendasPorPeriodo', {
      dataInicio: '2031-01-02T00:00:00Z',
      dataFim: '2031-01-01T00:00:00Z',
      page: 0,
      size: 2,
    });
    expect(res.statusCode).toBe(422);
  });
});

describe('how a search is read (leitura)', () => {
  const noPatio = (texto: string) => ({ pesquisa: { texto, veiculoIds: [], motoristaIds: [] } });
  const vencidas = { vencidas: { horas: 24, agora } };
  it.each([
    ['no text, no overdue: a plan for the values', {}, { texto: false, generico: false }],
    [
      'a plant alone (skewed): a plan for the values',
      { plantaId: randomUUID() },
      { texto: false, generico: false },
    ],
    ['overdue: the partial index for any value', vencidas, { texto: false, generico: true }],
    ['a text with a trigram', noPatio(' a3f9 '), { texto: true, generico: true }],
    ['a description with a trigram', { descricao: 'Soja' }, { texto: true, generico: true }],
    ['accented letters are a trigram', noPatio('açú'), { texto: true, generico: true }],
    ['two letters: no trigram, a plan for the value', noPatio('ab'), { texto: true, generico: false }],
    [
      'punctuation between: no trigram',
      { ...noPatio('a-b-c'), ...vencidas },
      { texto: true, generico: false },
    ],
    [
      'one text without a trigram spoils the other',
      { ...noPatio('soja'), descricao: 'x' },
      { texto: true, generico: false },
    ],
    ['blank texts are no text', { ...noPatio('  '), descricao: ' ' }, { texto: false, generico: false }],
  ])('%s', (_what, filtros, expected) => {
    expect(leitura(filtros)).toEqual(expected);
  });
});
