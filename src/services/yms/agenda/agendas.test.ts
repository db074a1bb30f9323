import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { makeVeiculo, outboxOf, seed } from '../patio/fixtures.ts';
import { veiculo } from '../patio/tables/veiculos.ts';
import {
  agendaCall,
  agendaRow,
  historico,
  makeAgenda,
  makeTipo,
  PLANTA,
  seedAgendas,
  seedPlanta,
  seedTipos,
  TIPO,
} from './fixtures.ts';

// The agenda record: codes sequential per tenant under concurrency, the internal create and update
// paths, and the `agenda` entity whose state only the state actions change.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;

beforeAll(async () => {
  // The entity POST is the checked booking (horarios.test.ts): a type, a shift on the day and a clock before it.
  t = await testApp({ now: () => new Date('2026-03-01T12:00:00Z') });
  acme = agendaCall(t, 'acme', await t.tenant('acme'));
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
  await seedPlanta(t, 'acme', { turnos: [['2026-03-10', '06:00', '18:00']] });
  await seedTipos(t, 'acme', [makeTipo({ id: TIPO, capacidadePorSlot: 100 })]);
  // globex books on a plant and type of its own with the same ids: nothing of acme's is named.
  await seedPlanta(t, 'globex');
  await seedTipos(t, 'globex', [makeTipo({ id: TIPO })]);
});

const novo = (o: Record<string, unknown> = {}) => ({
  plantaId: PLANTA,
  tipoAgendamentoId: TIPO,
  dataEsperada: '2026-03-10T09:00:00-03:00',
  ...o,
});

describe('criarAgendamento', () => {
  it('creates an agenda in AGENDADO with the next code and its history row', async () => {
    const res = await acme(
      'actions/criarAgendamento',
      novo({ descricao: 'Soja', custom: { nf: '123' }, motivo: 'teste' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json().agenda;
    expect(a).toMatchObject({
      codigo: 1,
      status: 'AGENDADO',
      descricao: 'Soja',
      custom: { nf: '123' },
      unscheduled: false,
      dataEsperada: '2026-03-10T12:00:00.000Z',
    });
    expect(await historico(t, 'acme', a.id)).toEqual([
      expect.objectContaining({ de: null, para: 'AGENDADO', motivo: 'teste' }),
    ]);
  });

  it("refuses an unknown or another tenant's type, plant, vehicle or driver (422), changing nothing", async () => {
    const [deles] = await seed(t, 'globex', veiculo, [makeVeiculo()]);
    const nenhum = '00000000-0000-4000-8000-00000000dead';
    const before = await tableCounts(t.db);
    const casos: Array<[Record<string, unknown>, string]> = [
      [{ tipoAgendamentoId: nenhum }, `tipoAgendamentoId ${nenhum}: tipo de agendamento não existe`],
      [{ plantaId: nenhum }, `é da planta ${PLANTA}, não da planta ${nenhum}`],
      [{ veiculoId: deles!.id }, `veiculoId ${deles!.id}: veiculo does not exist (yms/patio)`],
      [{ motoristaId: nenhum }, `motoristaId ${nenhum}: motorista does not exist (yms/patio)`],
    ];
    for (const [campos, message] of casos) {
      const res = await acme('actions/criarAgendamento', novo(campos));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toContain(message);
    }
    // The internal edit too.
    const a = (await acme('actions/criarAgendamento', novo())).json().agenda;
    const mid = await tableCounts(t.db);
    const edit = await acme('actions/atualizarAgendamento', { agenda: { id: a.id, motoristaId: nenhum } });
    expect(edit.statusCode).toBe(422);
    expect(await tableCounts(t.db)).toEqual(mid);
    expect(mid.agenda).toBe(before.agenda! + 1);
  });

  it('requires the plant and the type (400 naming the field), changing nothing', async () => {
    const before = await tableCounts(t.db);
    for (const field of ['plantaId', 'tipoAgendamentoId']) {
      const res = await acme('actions/criarAgendamento', novo({ [field]: undefined }));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`field '${field}' is required`));
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('gives codes in sequence per tenant, and a failed creation gives its code back', async () => {
    const first = (await acme('actions/criarAgendamento', novo())).json().agenda.codigo;
    const other = await globex('actions/criarAgendamento', novo());
    expect(other.json().agenda.codigo).toBe(1);
    await acme('actions/criarAgendamento', novo({ chaveIntegracao: 'NF-1' }));
    const dup = await acme('actions/criarAgendamento', novo({ chaveIntegracao: 'NF-1' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Já existe uma agenda com chaveIntegracao NF-1');
    const next = (await acme('actions/criarAgendamento', novo())).json().agenda.codigo;
    expect(next).toBe(first + 2);
  });

  it('20 concurrent creations get 20 distinct, consecutive codes', async () => {
    const start = (await acme('actions/criarAgendamento', novo())).json().agenda.codigo as number;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => acme('actions/criarAgendamento', novo())),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const codes = results.map((r) => r.json().agenda.codigo as number).sort((a, b) => a - b);
    expect(codes).toEqual(Array.from({ length: 20 }, (_, i) => start + 1 + i));
  });
});

describe('atualizarAgendamento', () => {
  it('changes only the fields sent, refuses a state change (422) and a finished agenda (409)', async () => {
    const [a, fim] = await seedAgendas(t, 'acme', [
      makeAgenda({ observacao: 'manter' }),
      makeAgenda({ status: 'CONCLUIDO' }),
    ]);
    const ok = await acme('actions/atualizarAgendamento', {
      agenda: { id: a!.id, descricao: 'nova', codigo: 1 },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().agenda).toMatchObject({ descricao: 'nova', observacao: 'manter', codigo: a!.codigo });

    const status = await acme('actions/atualizarAgendamento', { agenda: { id: a!.id, status: 'CONCLUIDO' } });
    expect(status.statusCode).toBe(422);
    expect(status.json().message).toMatch(/status da agenda .* não muda por edição \(AGENDADO → CONCLUIDO\)/);
    // Sending the current state is not a change.
    const same = await acme('actions/atualizarAgendamento', { agenda: { id: a!.id, status: 'AGENDADO' } });
    expect(same.statusCode).toBe(200);

    const done = await acme('actions/atualizarAgendamento', { agenda: { id: fim!.id, descricao: 'x' } });
    expect(done.statusCode).toBe(409);
    expect(done.json().message).toMatch(/está em CONCLUIDO \(finalizada\)/);
    const unknown = await acme('actions/atualizarAgendamento', {
      agenda: { id: '00000000-0000-4000-8000-000000000999', descricao: 'x' },
    });
    expect(unknown.statusCode).toBe(404);
    expect((await agendaRow(t, 'acme', fim!.id)).descricao).not.toBe('x');
  });
});

describe('the agenda entity', () => {
  const base = 'entities/agenda';

  it('creates through the same rules: next code, AGENDADO, history; a client id is kept', async () => {
    const id = '11111111-1111-4111-8111-111111111111';
    const res = await acme(base, novo({ id, descricao: 'pela entidade' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'AGENDADO', codigo: expect.any(Number), custom: {} });
    expect(await historico(t, 'acme', id)).toEqual([expect.objectContaining({ de: null, para: 'AGENDADO' })]);
    const bad = await acme(base, novo({ status: 'EXECUTANDO' }));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toMatch(/nasce em AGENDADO/);
  });

  it('reads and lists, with filters, only the own tenant', async () => {
    const [a] = await seedAgendas(t, 'acme', [makeAgenda({ descricao: 'Milho listado' })]);
    const one = await acme(`${base}/${a!.id}`, undefined, { method: 'GET' });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ id: a!.id, codigo: a!.codigo, status: 'AGENDADO' });
    const list = await acme(base, undefined, {
      method: 'GET',
      query: { filter: "descricao eq 'Milho listado'" },
    });
    expect(list.json()).toEqual([expect.objectContaining({ id: a!.id })]);
    const other = await globex(`${base}/${a!.id}`, undefined, { method: 'GET' });
    expect(other.statusCode).toBe(404);
  });

  it('refuses a status change through PUT or PATCH with 422 pointing to the state actions', async () => {
    const [a] = await seedAgendas(t, 'acme', [makeAgenda()]);
    for (const method of ['PUT', 'PATCH'] as const) {
      const res = await acme(`${base}/${a!.id}`, novo({ status: 'CONCLUIDO' }), { method });
      expect(res.statusCode, method).toBe(422);
      expect(res.json().message).toMatch(/use as ações de estado/);
    }
    const put = await acme(`${base}/${a!.id}`, novo({ descricao: 'editada', codigo: 5 }), { method: 'PUT' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ descricao: 'editada', codigo: a!.codigo, status: 'AGENDADO' });
  });

  it('deletes only an AGENDADO agenda, with its history', async () => {
    const created = (await acme(base, novo())).json();
    const [running] = await seedAgendas(t, 'acme', [makeAgenda({ status: 'EXECUTANDO' })]);
    const refused = await acme(`${base}/${running!.id}`, undefined, { method: 'DELETE' });
    expect(refused.statusCode).toBe(422);
    const res = await acme(`${base}/${created.id}`, undefined, { method: 'DELETE' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await historico(t, 'acme', created.id)).toEqual([]);
  });
});

describe('the agendaAlterada event', () => {
  it('tells each creation, edit, state change and delete, committed with it; a refused write tells nothing', async () => {
    const tenant = 'avisos';
    const avisos = agendaCall(t, tenant, await t.tenant(tenant));
    await seedPlanta(t, tenant, { turnos: [['2026-03-10', '06:00', '18:00']] });
    await seedTipos(t, tenant, [makeTipo({ id: TIPO, capacidadePorSlot: 1 })]);
    const eventos = async () =>
      (await outboxOf(t, tenant))
        .filter((e) => e.topic === 'yms/agenda/agendaAlterada')
        .map((e) => e.payload as Record<string, unknown>);

    const criada = await avisos('entities/agenda', novo());
    expect(criada.statusCode, criada.body).toBe(200);
    const { id, codigo } = criada.json();
    const cheia = await avisos('entities/agenda', novo());
    expect(cheia.statusCode).toBe(409);
    const movida = await avisos(
      `entities/agenda/${id}`,
      { dataEsperada: '2026-03-10T10:00:00-03:00' },
      { method: 'PATCH' },
    );
    expect(movida.statusCode, movida.body).toBe(200);
    const interna = await avisos('actions/atualizarAgendamento', { agenda: { id, descricao: 'doca 2' } });
    expect(interna.statusCode, interna.body).toBe(200);
    const outra = (await avisos('actions/criarAgendamento', novo({ motivo: 'balcão' }))).json().agenda;
    expect((await avisos(`entities/agenda/${outra.id}`, undefined, { method: 'DELETE' })).statusCode).toBe(
      200,
    );

    const base = { agendaId: id, codigo, plantaId: PLANTA, tipoAgendamentoId: TIPO };
    expect(await eventos()).toEqual([
      {
        ...base,
        dataEsperada: '2026-03-10T12:00:00.000Z',
        operacao: 'CRIADA',
        status: 'AGENDADO',
        de: null,
        para: 'AGENDADO',
      },
      { ...base, dataEsperada: '2026-03-10T13:00:00.000Z', operacao: 'ALTERADA', status: 'AGENDADO' },
      { ...base, dataEsperada: '2026-03-10T13:00:00.000Z', operacao: 'ALTERADA', status: 'AGENDADO' },
      expect.objectContaining({ agendaId: outra.id, operacao: 'CRIADA' }),
      expect.objectContaining({ agendaId: outra.id, operacao: 'EXCLUIDA', status: 'AGENDADO' }),
    ]);
  });
});
