import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { makePlanta, patioCall, seed } from './fixtures.ts';
import { planta, turno } from './tables/plantas.ts';

// cadastrarTurnoPorDiaSemana (spec 000 §4.2, §8; docs/patio.md "Shifts"): from today in the
// plant's time zone to 31 December, no duplicates. The clock is the app's, set per test.

let t: TestApp;
let acme: ReturnType<typeof patioCall>;
let globex: ReturnType<typeof patioCall>;
let clock = new Date('2026-12-30T02:00:00Z');
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp({ now: () => clock });
  acme = patioCall(t, 'acme', await t.tenant('acme'));
  globex = patioCall(t, 'globex', await t.tenant('globex'));
  const [sp, utc] = await seed(t, 'acme', planta, [makePlanta(), makePlanta({ fusoHorario: 'UTC' })]);
  ids.sp = sp!.id;
  ids.utc = utc!.id;
});

const cadastrar = (body: Record<string, unknown>) =>
  acme('actions/cadastrarTurnoPorDiaSemana', { horaInicio: '06:00', horaFim: '14:00', ...body });
const datas = (res: { json(): { turnos: Array<{ data: string }> } }) => res.json().turnos.map((x) => x.data);

describe('cadastrarTurnoPorDiaSemana', () => {
  it("starts on the plant's today: 2026-12-30T02:00Z is still Tuesday 29 December in São Paulo", async () => {
    // 1 Monday … 7 Sunday: Tuesday and Wednesday.
    const res = await cadastrar({ plantaId: ids.sp, dias: [2, 3], descricao: 'Manhã' });
    expect(res.statusCode, res.body).toBe(200);
    expect(datas(res)).toEqual(['2026-12-29', '2026-12-30']);
    expect(res.json().turnos[0]).toMatchObject({
      plantaId: ids.sp,
      horaInicio: '06:00',
      horaFim: '14:00',
      descricao: 'Manhã',
    });
  });

  it('in a plant on UTC the same instant is already Wednesday 30 December', async () => {
    const res = await cadastrar({ plantaId: ids.utc, dias: [2, 3] });
    expect(datas(res)).toEqual(['2026-12-30']);
  });

  it('a second call creates nothing; other hours are another shift', async () => {
    expect(datas(await cadastrar({ plantaId: ids.sp, dias: [3, 2, 2] }))).toEqual([]);
    const tarde = await cadastrar({ plantaId: ids.sp, dias: [3], horaInicio: '14:00', horaFim: '22:00' });
    expect(datas(tarde)).toEqual(['2026-12-30']);
    const list = await acme('entities/turno', undefined, {
      method: 'GET',
      query: { size: '100', filter: `plantaId eq '${ids.sp}'` },
    });
    expect(list.json()).toHaveLength(3);
  });

  it('fills up to 31 December of ano, skipping what exists; Sunday is 7', async () => {
    const res = await cadastrar({ plantaId: ids.sp, dias: [7, 3], ano: 2027 });
    const d = datas(res);
    expect(d[0]).toBe('2027-01-03'); // 30 Dec already exists; the first Sunday is 3 January
    expect(d.at(-1)).toBe('2027-12-29');
    expect(d).toHaveLength(104);
    expect(d.every((x) => [0, 3].includes(new Date(`${x}T00:00:00Z`).getUTCDay()))).toBe(true);
  });

  it('an overnight shift (horaFim before horaInicio) is accepted', async () => {
    clock = new Date('2026-12-31T12:00:00Z');
    const res = await cadastrar({ plantaId: ids.sp, dias: [4], horaInicio: '22:00', horaFim: '06:00' });
    expect(datas(res)).toEqual(['2026-12-31']);
  });

  it('rejects equal hours, a past year, a bad hour and an unknown or foreign plant', async () => {
    let res = await cadastrar({ plantaId: ids.sp, dias: [1], horaInicio: '08:00', horaFim: '08:00' });
    expect(res.statusCode).toBe(422);
    res = await cadastrar({ plantaId: ids.sp, dias: [1], ano: 2025 });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/ano 2025/);
    res = await cadastrar({ plantaId: ids.sp, dias: [1], horaInicio: '24:00' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/horaInicio/);
    res = await cadastrar({ plantaId: ids.sp, dias: [8] });
    expect(res.statusCode).toBe(400);
    res = await globex('actions/cadastrarTurnoPorDiaSemana', {
      horaInicio: '06:00',
      horaFim: '14:00',
      plantaId: ids.sp,
      dias: [1],
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(`Planta ${ids.sp} não encontrada`);
  });
});

describe('listarTurnosPlanta (PRIVATE, for yms/agenda)', () => {
  it('names the plant by id or CNPJ, with its zone and the shifts of the days asked, in order', async () => {
    const [p] = await seed(t, 'acme', planta, [
      makePlanta({ cnpj: '11222333000181', fusoHorario: 'Asia/Tokyo' }),
    ]);
    await seed(t, 'acme', turno, [
      { plantaId: p!.id, data: '2027-02-02', horaInicio: '14:00', horaFim: '22:00' },
      { plantaId: p!.id, data: '2027-02-01', horaInicio: '22:00', horaFim: '06:00', descricao: 'Noite' },
      { plantaId: p!.id, data: '2027-02-03', horaInicio: '06:00', horaFim: '14:00' },
    ]);
    const listar = (body: Record<string, unknown>, who = acme) =>
      who('queries/listarTurnosPlanta', { dataInicio: '2027-02-01', dataFim: '2027-02-02', ...body });
    const res = await listar({ plantaId: p!.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      plantaId: p!.id,
      fusoHorario: 'Asia/Tokyo',
      ativo: true,
      turnos: [
        {
          id: expect.any(String),
          data: '2027-02-01',
          horaInicio: '22:00',
          horaFim: '06:00',
          descricao: 'Noite',
        },
        { id: expect.any(String), data: '2027-02-02', horaInicio: '14:00', horaFim: '22:00' },
      ],
    });
    expect((await listar({ plantaId: '11222333000181' })).json().plantaId).toBe(p!.id);
    expect((await listar({ plantaId: '11.222.333/0001-81' })).json().turnos).toHaveLength(2);
    // Unknown, malformed and another tenant's plants are 404; a reversed or too long range is 422.
    for (const ref of ['11222333000199', 'abc', p!.id]) {
      const r = await listar({ plantaId: ref }, ref === p!.id ? globex : acme);
      expect(r.statusCode, ref).toBe(404);
    }
    const rev = await listar({ plantaId: p!.id, dataInicio: '2027-02-03' });
    expect(rev.statusCode).toBe(422);
    const longo = await listar({ plantaId: p!.id, dataFim: '2027-05-01' });
    expect(longo.statusCode).toBe(422);
    expect(longo.json().message).toMatch(/até 62 dias/);
  });
});
