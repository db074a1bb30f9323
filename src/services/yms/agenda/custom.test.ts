import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import {
  agendaCall,
  agendaRow,
  makeAgenda,
  makeTipo,
  PLANTA,
  seedAgendas,
  seedPlanta,
  seedTipos,
  TIPO,
} from './fixtures.ts';
import { makePreAgenda, seedPreAgendas } from './preagenda-fixtures.ts';

// Custom fields: the customTable definitions (per record, typed, required, option lists) and the
// check of every agenda and pre-agenda write that sets `custom` against them.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;
const defs = 'entities/customTable';

beforeAll(async () => {
  // Entity POSTs are checked bookings: a plant open on the booking day and a type with room.
  t = await testApp({ now: () => new Date('2026-05-20T12:00:00Z') });
  acme = agendaCall(t, 'acme', await t.tenant('acme'));
  await seedPlanta(t, 'acme', { turnos: [['2026-06-01', '06:00', '18:00']] });
  await seedTipos(t, 'acme', [makeTipo({ id: TIPO, capacidadePorSlot: 100 })]);
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
  const definicoes = [
    {
      entidade: 'agenda',
      chave: 'notaFiscal',
      rotulo: 'Nota fiscal',
      tipo: 'TEXTO',
      obrigatorio: true,
      tamanhoMaximo: 10,
    },
    { entidade: 'agenda', chave: 'peso', rotulo: 'Peso (t)', tipo: 'NUMERO' },
    { entidade: 'agenda', chave: 'refrigerado', rotulo: 'Refrigerado', tipo: 'BOOLEANO' },
    { entidade: 'agenda', chave: 'colheita', rotulo: 'Data da colheita', tipo: 'DATA' },
    { entidade: 'agenda', chave: 'produto', rotulo: 'Produto', tipo: 'LISTA', opcoes: ['SOJA', 'MILHO'] },
    { entidade: 'preAgenda', chave: 'lote', rotulo: 'Lote', tipo: 'TEXTO', obrigatorio: true },
  ];
  const res = await acme(`${defs}/bulk`, definicoes);
  expect(res.statusCode, res.body).toBe(200);
});

const agenda = (custom: unknown) => ({
  plantaId: PLANTA,
  tipoAgendamentoId: TIPO,
  dataEsperada: '2026-06-01T10:00:00Z',
  custom,
});

describe('the customTable entity', () => {
  it('lists the definitions of the tenant only', async () => {
    const list = await acme(defs, undefined, { method: 'GET', query: { size: '50', orderby: 'chave' } });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().map((d: { chave: string }) => d.chave)).toEqual([
      'colheita',
      'lote',
      'notaFiscal',
      'peso',
      'produto',
      'refrigerado',
    ]);
    expect((await globex(defs, undefined, { method: 'GET' })).json()).toEqual([]);
  });

  it.each([
    [{ tipo: 'LISTA' }, 422, /LISTA precisa de 'opcoes'/],
    [{ tipo: 'LISTA', opcoes: ['A', 'A'] }, 422, /'opcoes' do campo x tem valores repetidos/],
    [{ tipo: 'NUMERO', opcoes: ['A'] }, 422, /'opcoes' só vale para o tipo LISTA \(campo x é NUMERO\)/],
    [{ tipo: 'DATA', tamanhoMaximo: 5 }, 422, /'tamanhoMaximo' só vale para o tipo TEXTO/],
    [{ tipo: 'TEXTO', chave: '1abc' }, 400, /field 'chave' must match/],
    [{ tipo: 'TEXTO', entidade: 'veiculo' }, 400, /field 'entidade' must be one of/],
    [{ tipo: 'TEXTO', chave: 'peso' }, 409, /already exists/],
  ])('refuses %j with %i, changing nothing', async (o, status, message) => {
    const before = await tableCounts(t.db);
    const res = await acme(defs, { entidade: 'agenda', chave: 'x', rotulo: 'X', ...o });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toMatch(message);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('the same key may exist for another record and in another tenant', async () => {
    expect(
      (await acme(defs, { entidade: 'preAgenda', chave: 'peso', rotulo: 'Peso', tipo: 'NUMERO' })).statusCode,
    ).toBe(200);
    expect(
      (await globex(defs, { entidade: 'agenda', chave: 'peso', rotulo: 'Peso', tipo: 'TEXTO' })).statusCode,
    ).toBe(200);
  });
});

describe('checking an agenda against the definitions', () => {
  const valido = {
    notaFiscal: 'NF-1',
    peso: 30.5,
    refrigerado: false,
    colheita: '2026-02-28',
    produto: 'SOJA',
  };

  it.each([
    [
      { ...valido, cor: 'azul' },
      "Campo customizado 'custom.cor' não está definido para agenda (customTable)",
    ],
    [{ ...valido, peso: '30' }, "Campo customizado 'custom.peso' deve ser um número"],
    [{ ...valido, refrigerado: 'sim' }, "Campo customizado 'custom.refrigerado' deve ser true ou false"],
    [
      { ...valido, colheita: '2026-02-30' },
      "Campo customizado 'custom.colheita' deve ser uma data YYYY-MM-DD",
    ],
    [
      { ...valido, produto: 'TRIGO' },
      "Campo customizado 'custom.produto' deve ser uma das opções: SOJA, MILHO",
    ],
    [
      { ...valido, notaFiscal: 'NF-12345678' },
      "Campo customizado 'custom.notaFiscal' deve ter no máximo 10 caracteres",
    ],
    [{ ...valido, notaFiscal: 7 }, "Campo customizado 'custom.notaFiscal' deve ser texto (string)"],
    [{ peso: 1 }, "Campo customizado 'custom.notaFiscal' (Nota fiscal) é obrigatório em agenda"],
    [
      { ...valido, notaFiscal: null },
      "Campo customizado 'custom.notaFiscal' (Nota fiscal) é obrigatório em agenda",
    ],
    [undefined, "Campo customizado 'custom.notaFiscal' (Nota fiscal) é obrigatório em agenda"],
  ])('%j → 422 on every create path, changing nothing', async (custom, message) => {
    const before = await tableCounts(t.db);
    for (const path of ['actions/criarAgendamento', 'entities/agenda']) {
      const res = await acme(path, agenda(custom));
      expect(res.statusCode, `${path} ${res.body}`).toBe(422);
      expect(res.json()).toEqual({ reason: 'UNPROCESSABLE', message });
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('accepts valid values (absent optional fields too) on create and update', async () => {
    const a = await acme('actions/criarAgendamento', agenda(valido));
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json().agenda.custom).toEqual(valido);
    const b = await acme('entities/agenda', agenda({ notaFiscal: 'NF-2', produto: 'MILHO' }));
    expect(b.statusCode, b.body).toBe(200);
    const up = await acme('actions/atualizarAgendamento', {
      agenda: { id: a.json().agenda.id, custom: { notaFiscal: 'NF-3' } },
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().agenda.custom).toEqual({ notaFiscal: 'NF-3' });
    // A list's filter reads custom as its JSON text (platform fields.ts), as an export's does.
    const list = (filter: string) =>
      acme('entities/agenda', undefined, { method: 'GET', query: { filter } }).then((r) => {
        expect(r.statusCode, r.body).toBe(200);
        return r.json().map((x: { id: string }) => x.id);
      });
    expect(await list("containing(custom, 'nf-2')")).toEqual([b.json().id]);
    expect(await list(`custom eq '{"notaFiscal": "NF-3"}'`)).toEqual([a.json().agenda.id]);
    expect(await list("lower(custom) gt '{'")).toEqual(expect.arrayContaining([a.json().agenda.id]));
  });

  it('checks updates that change custom, and lets other edits through when it is unchanged', async () => {
    // An agenda written before notaFiscal became required.
    const [antiga] = await seedAgendas(t, 'acme', [makeAgenda({ custom: { peso: 1 } })]);
    const edit = await acme(
      `entities/agenda/${antiga!.id}`,
      { descricao: 'só a descrição' },
      { method: 'PATCH' },
    );
    expect(edit.statusCode, edit.body).toBe(200);
    const patch = await acme(`entities/agenda/${antiga!.id}`, { custom: { peso: 'x' } }, { method: 'PATCH' });
    expect(patch.statusCode).toBe(422);
    expect(patch.json().message).toBe("Campo customizado 'custom.peso' deve ser um número");
    const action = await acme('actions/atualizarAgendamento', {
      agenda: { id: antiga!.id, custom: { peso: 2 } },
    });
    expect(action.statusCode).toBe(422);
    expect(action.json().message).toMatch(/'custom.notaFiscal' \(Nota fiscal\) é obrigatório/);
    expect((await agendaRow(t, 'acme', antiga!.id)).custom).toEqual({ peso: 1 });
  });

  it('a tenant without definitions keeps a free-form custom object', async () => {
    const livre = agendaCall(t, 'initech', await t.tenant('initech'));
    await seedPlanta(t, 'initech');
    await seedTipos(t, 'initech', [makeTipo({ id: TIPO })]);
    const res = await livre('actions/criarAgendamento', agenda({ qualquer: { coisa: [1] } }));
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('checking a pre-agenda, and carrying its fields to the agenda', () => {
  it('checks the pre-agenda against its own definitions', async () => {
    const before = await tableCounts(t.db);
    const semLote = await acme('entities/preAgenda', agenda({ notaFiscal: 'NF-1' }));
    expect(semLote.statusCode).toBe(422);
    expect(semLote.json().message).toBe(
      "Campo customizado 'custom.notaFiscal' não está definido para preAgenda (customTable)",
    );
    expect(await tableCounts(t.db)).toEqual(before);
    const ok = await acme('entities/preAgenda', agenda({ lote: 'L-7', peso: 12 }));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('conversion carries only the keys defined for agenda, and takes the plant’s', async () => {
    const [p] = await seedPreAgendas(t, 'acme', [
      makePreAgenda({ status: 'APROVADA', custom: { lote: 'L-1', peso: 9 } }),
    ]);
    const before = await tableCounts(t.db);
    const dataEsperada = '2026-06-01T10:00:00Z';
    const falta = await acme('actions/converterPreAgenda', { preAgendaId: p!.id, dataEsperada });
    expect(falta.statusCode).toBe(422);
    expect(falta.json().message).toMatch(/'custom.notaFiscal' \(Nota fiscal\) é obrigatório em agenda/);
    expect(await tableCounts(t.db)).toEqual(before);
    const res = await acme('actions/converterPreAgenda', {
      preAgendaId: p!.id,
      dataEsperada,
      custom: { notaFiscal: 'NF-9' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().agenda.custom).toEqual({ peso: 9, notaFiscal: 'NF-9' });
  });
});
