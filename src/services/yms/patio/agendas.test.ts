import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { agendaRow, historico, makeAgenda, makeTipo, seedAgendas, seedTipos } from '../agenda/fixtures.ts';
import { makePlanta, makeVeiculo, patioCall, seed } from './fixtures.ts';
import { planta } from './tables/plantas.ts';
import { composicaoVeiculo, motorista, veiculo } from './tables/veiculos.ts';

// yms/patio's agenda operations: cadastrarAgendamentoSimplificado, filtrarAgenda, atualizarAgenda
// (spec 000 §3, §4.2), reaching the agenda record of yms/agenda through ctx.call.

const NOW = new Date('2026-03-02T01:30:00Z');
const TIPO = '00000000-0000-4000-8000-00000000b001';
const TIPO2 = '00000000-0000-4000-8000-00000000b002';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

let t: TestApp;
let acme: ReturnType<typeof patioCall>;
let globex: ReturnType<typeof patioCall>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp({ now: () => NOW });
  acme = patioCall(t, 'acme', await t.tenant('acme'));
  globex = patioCall(t, 'globex', await t.tenant('globex'));
  const [sp, tokyo] = await seed(t, 'acme', planta, [
    makePlanta(),
    makePlanta({ fusoHorario: 'Asia/Tokyo' }),
  ]);
  ids.sp = sp!.id;
  ids.tokyo = tokyo!.id;
  const [cavalo, carreta, outro] = await seed(t, 'acme', veiculo, [
    makeVeiculo({ placa: 'ABC1D23', tipoVeiculo: 'CAVALO_MECANICO' }),
    makeVeiculo({ placa: 'REB9A99', tipoVeiculo: 'SEMIRREBOQUE' }),
    makeVeiculo({ placa: 'XYZ9876' }),
  ]);
  ids.cavalo = cavalo!.id;
  ids.outro = outro!.id;
  const [c] = await seed(t, 'acme', composicaoVeiculo, [{ cavaloId: cavalo!.id, reboqueIds: [carreta!.id] }]);
  ids.composicao = c!.id;
  const [joao, maria] = await seed(t, 'acme', motorista, [
    { documento: '12345678909', nome: 'João da Silva' },
    { documento: '98765432100', nome: 'Maria Souza' },
  ]);
  ids.joao = joao!.id;
  ids.maria = maria!.id;
  const [gp] = await seed(t, 'globex', planta, [makePlanta()]);
  ids.globexPlanta = gp!.id;
  // The appointment type the bookings name: one of the plant's, in each tenant.
  await seedTipos(t, 'acme', [makeTipo({ id: TIPO, plantaId: sp!.id })]);
  await seedTipos(t, 'globex', [makeTipo({ id: TIPO, plantaId: gp!.id })]);
});

describe('cadastrarAgendamentoSimplificado', () => {
  it('creates an AGENDADO agenda expected now, with the composition tractor as vehicle and decoded custom fields', async () => {
    const res = await acme('actions/cadastrarAgendamentoSimplificado', {
      tipoAgendamentoId: TIPO,
      plantaId: ids.sp,
      descricao: 'Descarga de soja',
      motoristaId: ids.joao,
      composicaoVeiculoId: ids.composicao,
      observacao: 'chegou sem agenda',
      unscheduled: true,
      custom: b64({ notaFiscal: '4711', pesoKg: 32000 }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json().agenda;
    expect(a).toMatchObject({
      id: expect.any(String),
      codigo: 1,
      status: 'AGENDADO',
      dataEsperada: NOW.toISOString(),
      plantaId: ids.sp,
      tipoAgendamentoId: TIPO,
      veiculoId: ids.cavalo,
      composicaoVeiculoId: ids.composicao,
      motoristaId: ids.joao,
      unscheduled: true,
      custom: { notaFiscal: '4711', pesoKg: 32000 },
    });
    expect(await historico(t, 'acme', a.id)).toEqual([
      expect.objectContaining({
        de: null,
        para: 'AGENDADO',
        motivo: 'cadastrarAgendamentoSimplificado (yms/patio)',
      }),
    ]);
    const minimal = await acme('actions/cadastrarAgendamentoSimplificado', {
      tipoAgendamentoId: TIPO,
      plantaId: ids.sp,
    });
    expect(minimal.json().agenda).toMatchObject({ codigo: 2, unscheduled: false, custom: {} });
  });

  it.each([
    ['not base64', '***', /field 'custom' must be a valid byte/],
    [
      'base64 of text',
      Buffer.from('not json').toString('base64'),
      /must be the base64 of a JSON object \(not JSON\)/,
    ],
    ['a JSON array', b64([1, 2]), /JSON object \(a JSON array\)/],
    ['JSON null', b64(null), /JSON object \(a JSON null\)/],
  ])('bad custom (%s) is 400 and creates nothing', async (_, custom, message) => {
    const before = await tableCounts(t.db);
    const res = await acme('actions/cadastrarAgendamentoSimplificado', {
      tipoAgendamentoId: TIPO,
      plantaId: ids.sp,
      custom,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ reason: 'BAD_REQUEST', message: expect.stringMatching(message) });
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("checks the yard's records: unknown plant 404, unknown driver or composition 422", async () => {
    const before = await tableCounts(t.db);
    const missing = '00000000-0000-4000-8000-000000000999';
    const base = { tipoAgendamentoId: TIPO, plantaId: ids.sp };
    const p = await acme('actions/cadastrarAgendamentoSimplificado', { ...base, plantaId: missing });
    expect(p.statusCode).toBe(404);
    const m = await acme('actions/cadastrarAgendamentoSimplificado', { ...base, motoristaId: missing });
    expect(m.statusCode).toBe(422);
    expect(m.json().message).toMatch(/motoristaId/);
    const c = await acme('actions/cadastrarAgendamentoSimplificado', {
      ...base,
      composicaoVeiculoId: missing,
    });
    expect(c.statusCode).toBe(422);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("keeps tenants apart: another tenant's plant is 404, and codes count per tenant", async () => {
    const res = await globex('actions/cadastrarAgendamentoSimplificado', {
      tipoAgendamentoId: TIPO,
      plantaId: ids.sp,
    });
    expect(res.statusCode).toBe(404);
    const own = await globex('actions/cadastrarAgendamentoSimplificado', {
      tipoAgendamentoId: TIPO,
      plantaId: ids.globexPlanta,
      motoristaId: ids.joao,
    });
    expect(own.statusCode).toBe(422);
    const ok = await globex('actions/cadastrarAgendamentoSimplificado', {
      tipoAgendamentoId: TIPO,
      plantaId: ids.globexPlanta,
    });
    expect(ok.json().agenda.codigo).toBe(1);
    const list = await globex('actions/filtrarAgenda', { page: 0, size: 100 });
    expect(list.json().agendas.map((a: { id: string }) => a.id)).toEqual([ok.json().agenda.id]);
  });
});

describe('filtrarAgenda', () => {
  const codigos: Record<string, number> = {};
  beforeAll(async () => {
    // A plant of its own (São Paulo time), so the agendas booked above do not show here.
    ids.filtro = (await seed(t, 'acme', planta, [makePlanta()]))[0]!.id;
    const rows = await seedAgendas(t, 'acme', [
      // 22:30 on 1 March in São Paulo; 10:30 on 2 March in Tokyo.
      makeAgenda({
        plantaId: ids.filtro,
        dataEsperada: new Date('2026-03-02T01:30:00Z'),
        descricao: 'Noite de domingo',
      }),
      // 00:00 on 1 March in São Paulo: the first instant of the day.
      makeAgenda({
        plantaId: ids.filtro,
        dataEsperada: new Date('2026-03-01T03:00:00Z'),
        descricao: 'Meia-noite',
      }),
      // 00:00 on 2 March in São Paulo: the next day.
      makeAgenda({
        plantaId: ids.filtro,
        dataEsperada: new Date('2026-03-02T03:00:00Z'),
        descricao: 'Segunda cedo',
      }),
      makeAgenda({
        plantaId: ids.tokyo,
        dataEsperada: new Date('2026-03-02T01:30:00Z'),
        descricao: 'Tóquio 100%',
        tipoAgendamentoId: TIPO2,
        status: 'EXECUTANDO',
        veiculoId: ids.outro,
        motoristaId: ids.maria,
        chaveIntegracao: 'ERP-77',
      }),
    ]);
    for (const r of rows) codigos[r.descricao!] = r.codigo;
  });
  const filtrar = async (body: Record<string, unknown>) => {
    const res = await acme('actions/filtrarAgenda', { page: 0, size: 100, ...body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      agendas: Array<Record<string, unknown>>;
      totalElements: number;
      totalPages: number;
    };
  };
  const nomes = (r: { agendas: Array<Record<string, unknown>> }) => r.agendas.map((a) => a.descricao);

  it("finds the agendas of a local day in the plant's time zone", async () => {
    expect(nomes(await filtrar({ plantaId: ids.filtro, dataEsperada: '2026-03-01' }))).toEqual([
      'Meia-noite',
      'Noite de domingo',
    ]);
    expect(nomes(await filtrar({ plantaId: ids.filtro, dataEsperada: '2026-03-02' }))).toEqual([
      'Segunda cedo',
    ]);
    // The same instant is 2 March in Tokyo.
    expect(nomes(await filtrar({ plantaId: ids.tokyo, dataEsperada: '2026-03-02' }))).toEqual([
      'Tóquio 100%',
    ]);
    expect(nomes(await filtrar({ plantaId: ids.tokyo, dataEsperada: '2026-03-01' }))).toEqual([]);
    // Without a plant, the tenant's zone (America/Sao_Paulo by default).
    const semPlanta = nomes(await filtrar({ dataEsperada: '2026-03-01' }));
    expect(semPlanta).toEqual(expect.arrayContaining(['Meia-noite', 'Noite de domingo', 'Tóquio 100%']));
    expect(semPlanta).not.toContain('Segunda cedo');
  });

  it('filters by state, driver, vehicle, types, code, integration key and description', async () => {
    expect(nomes(await filtrar({ status: 'EXECUTANDO' }))).toEqual(['Tóquio 100%']);
    expect(nomes(await filtrar({ motoristaId: ids.maria }))).toEqual(['Tóquio 100%']);
    expect(nomes(await filtrar({ veiculoId: ids.outro }))).toEqual(['Tóquio 100%']);
    expect(nomes(await filtrar({ tiposAgendamento: [TIPO2] }))).toEqual(['Tóquio 100%']);
    expect(nomes(await filtrar({ tipoAgendamentoId: TIPO2, tiposAgendamento: [TIPO] }))).toEqual([]);
    expect(nomes(await filtrar({ codigo: codigos['Meia-noite'] }))).toEqual(['Meia-noite']);
    expect(nomes(await filtrar({ chaveIntegracao: 'ERP-77' }))).toEqual(['Tóquio 100%']);
    expect(nomes(await filtrar({ descricao: 'DOMINGO' }))).toEqual(['Noite de domingo']);
    // Wildcards are literal.
    expect(nomes(await filtrar({ descricao: '100%' }))).toEqual(['Tóquio 100%']);
    expect(nomes(await filtrar({ descricao: '%' }))).toEqual(['Tóquio 100%']);
  });

  it('pesquisa matches description, code, integration key, plate and driver name or document', async () => {
    expect(nomes(await filtrar({ pesquisa: 'meia' }))).toEqual(['Meia-noite']);
    expect(nomes(await filtrar({ pesquisa: 'xyz-98' }))).toEqual(['Tóquio 100%']);
    expect(nomes(await filtrar({ pesquisa: 'souza' }))).toEqual(['Tóquio 100%']);
    expect(nomes(await filtrar({ pesquisa: '987.654.321' }))).toEqual(['Tóquio 100%']);
    expect(nomes(await filtrar({ pesquisa: 'erp-7' }))).toEqual(['Tóquio 100%']);
    expect(nomes(await filtrar({ pesquisa: String(codigos['Segunda cedo']) }))).toEqual(['Segunda cedo']);
    const cadastrada = await filtrar({ pesquisa: 'abc1d2' });
    expect(nomes(cadastrada)).toEqual(['Descarga de soja']);
    expect(nomes(await filtrar({ pesquisa: 'nada parecido' }))).toEqual([]);
  });

  it('pages in a stable order with totals, sorts by a whitelisted field', async () => {
    const all = await filtrar({ plantaId: ids.filtro, sortField: 'codigo' });
    expect(all.totalElements).toBe(3);
    const pages = [];
    for (let page = 0; page <= 2; page++)
      pages.push(...(await filtrar({ plantaId: ids.filtro, sortField: 'codigo', page, size: 2 })).agendas);
    expect(pages.map((a) => a.id)).toEqual(all.agendas.map((a) => a.id));
    const p0 = await filtrar({ plantaId: ids.filtro, page: 0, size: 2 });
    expect(p0).toMatchObject({ totalElements: 3, totalPages: 2 });
    const byDate = nomes(await filtrar({ plantaId: ids.filtro, dataEsperada: '2026-03-01', sortOrder: -1 }));
    expect(byDate).toEqual(['Noite de domingo', 'Meia-noite']);
    const desc = (await filtrar({ plantaId: ids.filtro, sortField: 'codigo', sortOrder: -1 })).agendas.map(
      (a) => a.codigo as number,
    );
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    const bad = await acme('actions/filtrarAgenda', { page: 0, size: 10, sortField: 'tenant' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/sortField/);
    const noPage = await acme('actions/filtrarAgenda', { size: 10 });
    expect(noPage.statusCode).toBe(400);
    expect(noPage.json().message).toMatch(/field 'page' is required/);
  });
});

describe('atualizarAgenda', () => {
  it('updates the editable fields sent and keeps the others', async () => {
    const [a] = await seedAgendas(t, 'acme', [makeAgenda({ plantaId: ids.sp, observacao: 'fica' })]);
    const res = await acme('actions/atualizarAgenda', {
      agenda: {
        id: a!.id,
        descricao: 'Reagendada',
        motoristaId: ids.maria,
        dataEsperada: '2026-03-05T10:00:00-03:00',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({});
    expect(await agendaRow(t, 'acme', a!.id)).toMatchObject({
      descricao: 'Reagendada',
      motoristaId: ids.maria,
      observacao: 'fica',
      dataEsperada: new Date('2026-03-05T13:00:00Z'),
      status: 'AGENDADO',
    });
  });

  it('is 404 for an unknown or foreign agenda, 409 for a finished one, 422 for a state change or a missing driver', async () => {
    const [aberta, concluida, cancelada] = await seedAgendas(t, 'acme', [
      makeAgenda({ plantaId: ids.sp }),
      makeAgenda({ plantaId: ids.sp, status: 'CONCLUIDO' }),
      makeAgenda({ plantaId: ids.sp, status: 'CANCELADO' }),
    ]);
    const before = await tableCounts(t.db);
    const unknown = await acme('actions/atualizarAgenda', {
      agenda: { id: '00000000-0000-4000-8000-000000000999' },
    });
    expect(unknown.statusCode).toBe(404);
    const foreign = await globex('actions/atualizarAgenda', { agenda: { id: aberta!.id, descricao: 'x' } });
    expect(foreign.statusCode).toBe(404);
    for (const fim of [concluida!, cancelada!]) {
      const res = await acme('actions/atualizarAgenda', { agenda: { id: fim.id, descricao: 'x' } });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(new RegExp(`está em ${fim.status} \\(finalizada\\)`));
    }
    const state = await acme('actions/atualizarAgenda', { agenda: { id: aberta!.id, status: 'EXECUTANDO' } });
    expect(state.statusCode).toBe(422);
    expect(state.json().message).toMatch(/use as ações de estado/);
    const driver = await acme('actions/atualizarAgenda', {
      agenda: { id: aberta!.id, motoristaId: '00000000-0000-4000-8000-000000000999' },
    });
    expect(driver.statusCode).toBe(422);
    expect(driver.json().message).toMatch(/agenda\.motoristaId/);
    expect(await tableCounts(t.db)).toEqual(before);
    expect((await agendaRow(t, 'acme', aberta!.id)).lastModifiedDate).toEqual(aberta!.lastModifiedDate);
  });
});
