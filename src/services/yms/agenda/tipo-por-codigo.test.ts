import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { agendaCall, agendaRow, makeTipo, PLANTA, seedPlanta, seedTipos, TIPO } from './fixtures.ts';
import { preAgendaRow } from './preagenda-fixtures.ts';

// docs/agenda.md "Appointment types": a type's `codigo` is accepted wherever a type is named. The
// agenda and pre-agenda entities take `tipoAgendamentoId` as the type's id or its code, and store
// and answer the id; a code of no type (or another tenant's) is 422 naming the field, like an
// unknown id, and changes nothing.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
const CODIGO = 'DESC-GRAOS';
const OUTRO = '00000000-0000-4000-8000-00000000b002';

beforeAll(async () => {
  t = await testApp({ now: () => new Date('2026-03-01T12:00:00Z') });
  acme = agendaCall(t, 'acme', await t.tenant('acme'));
  await t.tenant('globex');
  await seedPlanta(t, 'acme', { turnos: [['2026-03-10', '06:00', '18:00']] });
  await seedTipos(t, 'acme', [
    makeTipo({ id: TIPO, codigo: CODIGO, capacidadePorSlot: 100 }),
    makeTipo({ id: OUTRO, codigo: 'CARGA-1', operacao: 'CARGA', capacidadePorSlot: 100 }),
  ]);
  await seedPlanta(t, 'globex');
  await seedTipos(t, 'globex', [makeTipo({ codigo: 'SO-GLOBEX' })]);
});

const agenda = (o: Record<string, unknown> = {}) => ({
  plantaId: PLANTA,
  tipoAgendamentoId: CODIGO,
  dataEsperada: '2026-03-10T09:00:00-03:00',
  ...o,
});

describe('the agenda entity', () => {
  it("creates with the type's code, storing and answering its id", async () => {
    const res = await acme('entities/agenda', agenda({ descricao: 'pelo código' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tipoAgendamentoId: TIPO, status: 'AGENDADO' });
    expect((await agendaRow(t, 'acme', res.json().id)).tipoAgendamentoId).toBe(TIPO);
    // The id works as before.
    const byId = await acme('entities/agenda', agenda({ tipoAgendamentoId: TIPO }));
    expect(byId.statusCode, byId.body).toBe(200);
  });

  it('changes the type by its code in PUT and PATCH', async () => {
    const { id } = (await acme('entities/agenda', agenda())).json();
    const patched = await acme(
      `entities/agenda/${id}`,
      { tipoAgendamentoId: 'CARGA-1' },
      { method: 'PATCH' },
    );
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().tipoAgendamentoId).toBe(OUTRO);
    const put = await acme(`entities/agenda/${id}`, agenda({ descricao: 'de volta' }), { method: 'PUT' });
    expect(put.statusCode, put.body).toBe(200);
    expect((await agendaRow(t, 'acme', id)).tipoAgendamentoId).toBe(TIPO);
  });

  it("refuses a code of no type, or another tenant's, with 422 naming the field, changing nothing", async () => {
    const before = await tableCounts(t.db);
    for (const codigo of ['NAO-EXISTE', 'SO-GLOBEX']) {
      const res = await acme('entities/agenda', agenda({ tipoAgendamentoId: codigo }));
      expect(res.statusCode, codigo).toBe(422);
      expect(res.json().message).toBe(`tipoAgendamentoId ${codigo}: tipo de agendamento não existe`);
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });
});

describe('the pre-agenda entity', () => {
  it("creates and edits with the type's code, storing its id; an unknown code is 422", async () => {
    const res = await acme('entities/preAgenda', {
      plantaId: PLANTA,
      tipoAgendamentoId: CODIGO,
      dataEsperada: '2026-04-10T09:00:00-03:00',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().tipoAgendamentoId).toBe(TIPO);
    const { id } = res.json();
    const patched = await acme(
      `entities/preAgenda/${id}`,
      { tipoAgendamentoId: 'CARGA-1' },
      { method: 'PATCH' },
    );
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await preAgendaRow(t, 'acme', id))?.tipoAgendamentoId).toBe(OUTRO);
    const unknown = await acme(
      `entities/preAgenda/${id}`,
      { tipoAgendamentoId: 'NAO-EXISTE' },
      { method: 'PATCH' },
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toMatch(/^tipoAgendamentoId NAO-EXISTE:/);
  });
});
