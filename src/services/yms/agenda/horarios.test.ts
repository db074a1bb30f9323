import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import {
  agendaCall,
  agendaRow,
  makeAgenda,
  makeTipo,
  seedAgendas,
  seedPlanta,
  seedTipos,
} from './fixtures.ts';
import { iso, slotsDe } from './slots.ts';
import { agenda as agendaTable } from './tables/agendas.ts';

// Operating hours and slot capacity: horarioOperacao and horarioOperacaoParaReagendamento from
// patio's shifts in the plant's zone, why a slot is unavailable, the nearest bookable slots, and
// the checked booking of the agenda entity with its race for the last place.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;
let clock = new Date('2026-03-01T12:00:00Z');

const SP = '00000000-0000-4000-8000-0000000c0001'; // America/Sao_Paulo, UTC-3
const TOKYO = '00000000-0000-4000-8000-0000000c0002'; // Asia/Tokyo, UTC+9
const VAZIA = '00000000-0000-4000-8000-0000000c0003'; // shifts only on 2026-03-12
const CNPJ = '12.345.678/0001-95';

beforeAll(async () => {
  t = await testApp({ now: () => clock });
  acme = agendaCall(t, 'acme', await t.tenant('acme'));
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
  await seedPlanta(t, 'acme', {
    id: SP,
    cnpj: CNPJ,
    turnos: [
      ['2026-03-10', '08:00', '10:00'],
      ['2026-03-11', '08:00', '10:00'],
      ['2026-03-11', '10:00', '11:00'], // touches the first: one open interval
      ['2026-03-13', '14:00', '15:00'],
    ],
  });
  await seedPlanta(t, 'acme', {
    id: TOKYO,
    fusoHorario: 'Asia/Tokyo',
    turnos: [['2026-03-10', '22:00', '02:00']],
  });
  await seedPlanta(t, 'acme', { id: VAZIA, turnos: [['2026-03-12', '08:00', '09:00']] });
});

const horarios = (body: Record<string, unknown>) =>
  acme('queries/horarioOperacao', { data: '2026-03-10', ...body });
type H = { horaInicio: string; agendados: number; disponiveis: number; disponivel: boolean; motivo?: string };
const resumo = (hs: H[]) =>
  hs.map((h) => `${h.horaInicio} ${h.agendados}/${h.disponiveis} ${h.motivo ?? 'ok'}`);

describe('slots in the plant’s zone (slotsDe)', () => {
  const turnos = (fusoHorario: string, data: string, horaInicio: string, horaFim: string) => ({
    plantaId: 'p',
    fusoHorario,
    ativo: true,
    turnos: [{ data, horaInicio, horaFim }],
  });
  const horas = (slots: ReturnType<typeof slotsDe>) => slots.map((s) => `${s.horaInicio}-${s.horaFim}`);

  it('cuts an ordinary day by arithmetic on the zone’s offset', () => {
    const slots = slotsDe(
      turnos('America/New_York', '2026-03-10', '00:00', '03:00'),
      60,
      '2026-03-10',
      '2026-03-10',
    );
    expect(horas(slots)).toEqual(['00:00-01:00', '01:00-02:00', '02:00-03:00']);
    expect(new Date(slots[0]!.inicio).toISOString()).toBe('2026-03-10T04:00:00.000Z');
  });

  it('follows a daylight-saving change inside the window (02:00 does not exist on 8 March in New York)', () => {
    const slots = slotsDe(
      turnos('America/New_York', '2026-03-08', '00:00', '06:00'),
      60,
      '2026-03-08',
      '2026-03-08',
    );
    expect(horas(slots)).toEqual(['00:00-01:00', '01:00-03:00', '03:00-04:00', '04:00-05:00', '05:00-06:00']);
    expect(slots.map((s) => (s.fim - s.inicio) / 60_000)).toEqual([60, 60, 60, 60, 60]);
  });
});

describe('iso (a slot end as toISOString writes it, by arithmetic)', () => {
  it('agrees with toISOString on whole minutes, before 1970, far years and other instants', () => {
    const instantes = [0, -60_000, 1_781_049_600_000, 1_781_049_660_000 + 1234, 253_402_300_740_000];
    for (let i = 0; i < 2000; i++) instantes.push((((i * 7919) % 100_000) * 1000 - 50_000_000) * 60_000);
    for (const ms of instantes) expect(iso(ms), String(ms)).toBe(new Date(ms).toISOString());
  });
});

describe('horarioOperacao', () => {
  it("cuts the day's shifts into slots with capacity, booked and available counts", async () => {
    const [tipo] = await seedTipos(t, 'acme', [
      makeTipo({ codigo: 'SP30', plantaId: SP, capacidadePorSlot: 2 }),
    ]);
    const at = (iso: string, o = {}) =>
      makeAgenda({ plantaId: SP, tipoAgendamentoId: tipo!.id, dataEsperada: new Date(iso), ...o });
    await seedAgendas(t, 'acme', [
      at('2026-03-10T11:30:00Z', { fimPrevisto: new Date('2026-03-10T12:00:00Z') }),
      at('2026-03-10T11:30:00Z', { fimPrevisto: new Date('2026-03-10T12:00:00Z') }),
      at('2026-03-10T11:30:00Z', { status: 'CANCELADO' }), // does not count
      at('2026-03-10T12:10:00Z'), // booked without the checks: takes the slot it falls in
      at('2026-03-11T11:00:00Z'), // another day
    ]);
    const res = await horarios({ tipoAgendamentoId: tipo!.id, plantaId: SP });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(resumo(body.horarios)).toEqual([
      '08:00 0/2 ok',
      '08:30 2/0 LOTADO',
      '09:00 1/1 ok',
      '09:30 0/2 ok',
    ]);
    expect(body.horarios[0]).toEqual({
      inicio: '2026-03-10T11:00:00.000Z',
      fim: '2026-03-10T11:30:00.000Z',
      data: '2026-03-10',
      horaInicio: '08:00',
      horaFim: '08:30',
      capacidade: 2,
      agendados: 0,
      disponiveis: 2,
      disponivel: true,
    });
    expect(body.horarios[1].motivoDescricao).toBe('todos os 2 lugares estão ocupados');
    expect(body).toMatchObject({
      plantaId: SP,
      fusoHorario: 'America/Sao_Paulo',
      duracaoSlotMinutos: 30,
      quantidadeSlots: 1,
    });
    expect(
      body.proximosHorariosDisponiveis.map((h: H & { data: string }) => `${h.data} ${h.horaInicio}`),
    ).toEqual([
      '2026-03-10 08:00',
      '2026-03-10 09:00',
      '2026-03-10 09:30',
      '2026-03-11 08:00',
      '2026-03-11 08:30',
    ]);
    // The type by its code, the plant by its CNPJ (with or without punctuation): the same answer.
    const byCode = await horarios({ tipoAgendamentoId: 'SP30', plantaId: CNPJ.replace(/\D/g, '') });
    expect(byCode.json().horarios).toEqual(body.horarios);
  });

  it("in the plant's time zone: an overnight shift in Tokyo opens the next day", async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ plantaId: TOKYO, duracaoSlotMinutos: 60 })]);
    const dia10 = (await horarios({ tipoAgendamentoId: tipo!.id, plantaId: TOKYO })).json();
    expect(
      dia10.horarios.map((h: { horaInicio: string; inicio: string }) => [h.horaInicio, h.inicio]),
    ).toEqual([
      ['22:00', '2026-03-10T13:00:00.000Z'],
      ['23:00', '2026-03-10T14:00:00.000Z'],
    ]);
    const dia11 = (
      await horarios({ tipoAgendamentoId: tipo!.id, plantaId: TOKYO, data: '2026-03-11' })
    ).json();
    expect(
      dia11.horarios.map(
        (h: { data: string; horaInicio: string; horaFim: string }) =>
          `${h.data} ${h.horaInicio}-${h.horaFim}`,
      ),
    ).toEqual(['2026-03-11 00:00-01:00', '2026-03-11 01:00-02:00']);
  });

  it('says why: started, inside the lead time, execution past closing, and names the next free slots', async () => {
    const [tipo] = await seedTipos(t, 'acme', [
      makeTipo({ plantaId: SP, antecedenciaMinutos: 30, minutosPorUnidade: 1, capacidadePorSlot: 1 }),
    ]);
    clock = new Date('2026-03-10T11:40:00Z'); // 08:40 in São Paulo
    try {
      const res = await horarios({
        tipoAgendamentoId: tipo!.id,
        plantaId: SP,
        associacaoAgendamento: { quantidade: 50, unidade: 't' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.quantidadeSlots).toBe(2); // 50 × 1 min → two 30-minute slots
      expect(resumo(body.horarios)).toEqual([
        '08:00 0/1 PASSADO',
        '08:30 0/1 PASSADO',
        '09:00 0/1 ANTECEDENCIA',
        '09:30 0/1 FECHADO',
      ]);
      expect(body.horarios[2].motivoDescricao).toBe('agende com pelo menos 30 minutos de antecedência');
      expect(body.horarios[3].motivoDescricao).toMatch(/a execução \(2 horários\) não cabe/);
      // 11 March: 08:00-11:00 is one interval (two shifts touch); 10:30 cannot take two slots.
      expect(
        body.proximosHorariosDisponiveis.map(
          (h: { data: string; horaInicio: string }) => `${h.data} ${h.horaInicio}`,
        ),
      ).toEqual([
        '2026-03-11 08:00',
        '2026-03-11 08:30',
        '2026-03-11 09:00',
        '2026-03-11 09:30',
        '2026-03-11 10:00',
      ]);
    } finally {
      clock = new Date('2026-03-01T12:00:00Z');
    }
  });

  it('a blocked or inactive type shows every slot grey with the reason, and no next slot', async () => {
    const [bloq, inat] = await seedTipos(t, 'acme', [
      makeTipo({ plantaId: SP, bloqueado: true, motivoBloqueio: 'Balança em manutenção' }),
      makeTipo({ plantaId: SP, ativo: false }),
    ]);
    const b = (await horarios({ tipoAgendamentoId: bloq!.id, plantaId: SP })).json();
    expect(b.horarios.every((h: H) => h.motivo === 'TIPO_BLOQUEADO')).toBe(true);
    expect(b.horarios[0].motivoDescricao).toBe('o tipo de agendamento está bloqueado: Balança em manutenção');
    expect(b.proximosHorariosDisponiveis).toEqual([]);
    const i = (await horarios({ tipoAgendamentoId: inat!.id, plantaId: SP })).json();
    expect(i.horarios.map((h: H) => h.motivo)).toEqual(Array(4).fill('TIPO_INATIVO'));
  });

  it('a day without shifts has no slots; the next bookable ones are found ahead', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ plantaId: VAZIA, capacidadePorSlot: 1 })]);
    await seedAgendas(t, 'acme', [
      makeAgenda({
        plantaId: VAZIA,
        tipoAgendamentoId: tipo!.id,
        dataEsperada: new Date('2026-03-12T11:00:00Z'),
      }),
    ]);
    const body = (await horarios({ tipoAgendamentoId: tipo!.id, plantaId: VAZIA })).json();
    expect(body.horarios).toEqual([]);
    expect(body.proximosHorariosDisponiveis).toEqual([
      expect.objectContaining({ data: '2026-03-12', horaInicio: '08:30', disponivel: true }),
    ]);
  });

  it('bad inputs: unknown or foreign type (404), type of another plant (422), unknown plant (404), bad date (400)', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ plantaId: SP })]);
    let res = await horarios({ tipoAgendamentoId: 'NAO-EXISTE', plantaId: SP });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Tipo de agendamento NAO-EXISTE não encontrado');
    res = await globex('queries/horarioOperacao', {
      tipoAgendamentoId: tipo!.id,
      plantaId: SP,
      data: '2026-03-10',
    });
    expect(res.statusCode).toBe(404);
    res = await horarios({ tipoAgendamentoId: tipo!.id, plantaId: TOKYO });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/é da planta .* não da planta/);
    res = await horarios({ tipoAgendamentoId: tipo!.id, plantaId: '99.999.999/0001-99' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/Planta .* não encontrada/);
    res = await horarios({ tipoAgendamentoId: tipo!.id, plantaId: SP, data: '10/03/2026' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/data/);
    res = await horarios({
      tipoAgendamentoId: tipo!.id,
      plantaId: SP,
      associacaoAgendamento: { quantidade: -1 },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('horarioOperacaoParaReagendamento', () => {
  it('counts the slots without the agenda itself (GET and POST); finished or unknown agendas are refused', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ plantaId: SP, capacidadePorSlot: 1 })]);
    const [a, fim] = await seedAgendas(t, 'acme', [
      makeAgenda({
        plantaId: SP,
        tipoAgendamentoId: tipo!.id,
        dataEsperada: new Date('2026-03-10T11:00:00Z'),
      }),
      makeAgenda({
        plantaId: SP,
        tipoAgendamentoId: tipo!.id,
        dataEsperada: new Date('2026-03-10T11:30:00Z'),
        status: 'CONCLUIDO',
      }),
    ]);
    const get = await acme('queries/horarioOperacaoParaReagendamento', undefined, {
      method: 'GET',
      query: { agendaId: String(a!.codigo), data: '2026-03-10' },
    });
    expect(get.statusCode, get.body).toBe(200);
    // Its own slot is free for it; the concluded agenda still takes 08:30.
    expect(resumo(get.json().horarios)).toEqual([
      '08:00 0/1 ok',
      '08:30 1/0 LOTADO',
      '09:00 0/1 ok',
      '09:30 0/1 ok',
    ]);
    const post = await acme('queries/horarioOperacaoParaReagendamento', {
      agendaId: a!.id,
      data: '2026-03-10',
    });
    expect(post.json().horarios).toEqual(get.json().horarios);
    const done = await acme('queries/horarioOperacaoParaReagendamento', {
      agendaId: fim!.id,
      data: '2026-03-10',
    });
    expect(done.statusCode).toBe(409);
    const foreign = await globex('queries/horarioOperacaoParaReagendamento', {
      agendaId: a!.id,
      data: '2026-03-10',
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('the checked booking (agenda entity)', () => {
  const nova = (tipoAgendamentoId: string, dataEsperada: string, o: Record<string, unknown> = {}) =>
    acme('entities/agenda', { plantaId: SP, tipoAgendamentoId, dataEsperada, ...o });

  it('books a free slot and records the end of the execution', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ plantaId: SP, minutosPorUnidade: 2 })]);
    const res = await nova(tipo!.id, '2026-03-10T08:00:00-03:00', {
      associacaoAgendamento: { quantidade: 20, unidade: 'pallets' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'AGENDADO', fimPrevisto: '2026-03-10T12:00:00.000Z' }); // 40 min → 2 slots
    const h = (await horarios({ tipoAgendamentoId: tipo!.id, plantaId: SP })).json();
    expect(resumo(h.horarios).slice(0, 3)).toEqual(['08:00 1/1 ok', '08:30 1/1 ok', '09:00 0/2 ok']);
  });

  it('refuses what is not bookable (422, with the reason), changing nothing', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ plantaId: SP, antecedenciaMinutos: 24 * 60 })]);
    const before = await tableCounts(t.db);
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [
        '2026-03-10T08:15:00-03:00',
        {},
        /\(FECHADO\): 2026-03-10 08:15 \(America\/Sao_Paulo\) não é o início de um horário/,
      ],
      ['2026-03-10T07:00:00-03:00', {}, /FECHADO/],
      ['2026-03-01T12:30:00-03:00', {}, /FECHADO/],
      [
        '2026-03-01T12:30:00-03:00',
        { tipoAgendamentoId: '00000000-0000-4000-8000-00000000dead' },
        /tipo de agendamento não existe/,
      ],
      ['2026-03-10T08:00:00-03:00', { plantaId: TOKYO }, /é da planta/],
    ];
    for (const [when, o, msg] of cases) {
      const res = await nova(tipo!.id, when, o);
      expect(res.statusCode, `${when} ${JSON.stringify(o)}`).toBe(422);
      expect(res.json().message).toMatch(msg);
    }
    clock = new Date('2026-03-09T12:00:00Z');
    try {
      const lead = await nova(tipo!.id, '2026-03-10T08:00:00-03:00');
      expect(lead.statusCode).toBe(422);
      expect(lead.json().message).toMatch(/\(ANTECEDENCIA\): agende com pelo menos 1440 minutos/);
      clock = new Date('2026-03-12T12:00:00Z');
      const past = await nova(tipo!.id, '2026-03-10T08:00:00-03:00');
      expect(past.json().message).toMatch(/PASSADO/);
    } finally {
      clock = new Date('2026-03-01T12:00:00Z');
    }
    await acme('actions/bloquearTipoAgendamento', { id: tipo!.id, motivo: 'Obra na doca' });
    const blocked = await nova(tipo!.id, '2026-03-10T08:00:00-03:00');
    expect(blocked.json().message).toMatch(/\(TIPO_BLOQUEADO\): .*Obra na doca/);
    await acme('actions/desbloquearTipoAgendamento', { id: tipo!.id });
    const after = await tableCounts(t.db);
    expect(after.agenda).toBe(before.agenda);
  });

  it('a full slot is 409; moving an agenda (PATCH) is checked without counting itself', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ plantaId: SP, capacidadePorSlot: 1 })]);
    const a = (await nova(tipo!.id, '2026-03-10T08:00:00-03:00')).json();
    const full = await nova(tipo!.id, '2026-03-10T08:00:00-03:00');
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe(
      `Horário 2026-03-10T11:00:00.000Z lotado para o tipo de agendamento ${tipo!.codigo}: 1 de 1 lugares ocupados`,
    );
    const b = (await nova(tipo!.id, '2026-03-10T08:30:00-03:00')).json();
    // Another field only: no check. Same instant again: no check either.
    const desc = await acme(
      `entities/agenda/${a.id}`,
      { descricao: 'x', dataEsperada: a.dataEsperada },
      { method: 'PATCH' },
    );
    expect(desc.statusCode, desc.body).toBe(200);
    const onto = await acme(
      `entities/agenda/${a.id}`,
      { dataEsperada: '2026-03-10T08:30:00-03:00' },
      { method: 'PATCH' },
    );
    expect(onto.statusCode).toBe(409);
    const moved = await acme(
      `entities/agenda/${b.id}`,
      { dataEsperada: '2026-03-10T09:00:00-03:00' },
      { method: 'PATCH' },
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().fimPrevisto).toBe('2026-03-10T12:30:00.000Z');
    const misaligned = await acme(
      `entities/agenda/${a.id}`,
      { dataEsperada: '2026-03-10T08:10:00-03:00' },
      { method: 'PATCH' },
    );
    expect(misaligned.statusCode).toBe(422);
    expect((await agendaRow(t, 'acme', a.id)).dataEsperada.toISOString()).toBe('2026-03-10T11:00:00.000Z');
  });

  it('an agenda booked off the slots (criarAgendamento, to the millisecond) is edited without a new booking', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ plantaId: SP })]);
    const criada = await acme('actions/criarAgendamento', {
      plantaId: SP,
      tipoAgendamentoId: tipo!.id,
      dataEsperada: '2026-03-10T08:11:12.345-03:00',
    });
    expect(criada.statusCode, criada.body).toBe(200);
    const { id, dataEsperada } = criada.json().agenda;
    expect(dataEsperada).toBe('2026-03-10T11:11:12.345Z');
    const patch = await acme(`entities/agenda/${id}`, { descricao: 'lacre 123' }, { method: 'PATCH' });
    expect(patch.statusCode, patch.body).toBe(200);
    const put = await acme(
      `entities/agenda/${id}`,
      { ...(patch.json() as object), observacao: 'x' },
      { method: 'PUT' },
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ dataEsperada, descricao: 'lacre 123', observacao: 'x' });
  });

  it('a cancelled agenda restarted takes its place back only where there is room (409 lotado otherwise)', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ plantaId: SP, capacidadePorSlot: 1 })]);
    const a = (await nova(tipo!.id, '2026-03-10T08:00:00-03:00')).json();
    const cancelar = (id: string) =>
      t.db.tenant('acme', (tx) =>
        tx.update(agendaTable).set({ status: 'CANCELADO' }).where(eq(agendaTable.id, id)),
      );
    const reiniciar = (id: string) =>
      acme('actions/reiniciarAgendamentoPorCancelamentoCircuito', { agendaId: id });
    await cancelar(a.id);
    // Its place was released: another agenda takes it.
    const b = await nova(tipo!.id, '2026-03-10T08:00:00-03:00');
    expect(b.statusCode, b.body).toBe(200);
    const cheio = await reiniciar(a.id);
    expect(cheio.statusCode, cheio.body).toBe(409);
    expect(cheio.json().message).toMatch(/lotado para o tipo de agendamento .*: 1 de 1 lugares ocupados/);
    expect((await agendaRow(t, 'acme', a.id)).status).toBe('CANCELADO');
    await cancelar(b.json().id);
    const livre = await reiniciar(a.id);
    expect(livre.statusCode, livre.body).toBe(200);
    expect(livre.json().agendaReiniciada.status).toBe('AGENDADO');
  });

  it('concurrent bookings for the last place: exactly one wins, the others get 409', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ plantaId: SP, capacidadePorSlot: 2 })]);
    expect((await nova(tipo!.id, '2026-03-11T09:00:00-03:00')).statusCode).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => nova(tipo!.id, '2026-03-11T09:00:00-03:00')),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes, results.map((r) => r.body).join('\n')).toEqual([200, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409))
      expect(r.json().message).toMatch(/2 de 2 lugares ocupados/);
    const h = (await horarios({ tipoAgendamentoId: tipo!.id, plantaId: SP, data: '2026-03-11' })).json();
    expect(h.horarios.find((x: H) => x.horaInicio === '09:00')).toMatchObject({
      agendados: 2,
      motivo: 'LOTADO',
    });
  });
});
