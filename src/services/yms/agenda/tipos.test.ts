import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { agendaCall, makeAgenda, makeTipo, PLANTA, seedAgendas, seedPlanta, seedTipos } from './fixtures.ts';

// Appointment types: the entity (plant checked in yms/patio, read-only state fields), the four
// state actions, and getExisteAgendaAgendadoExecucaoComTipoAgendamento.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;

beforeAll(async () => {
  t = await testApp({ now: () => new Date('2026-03-01T12:00:00Z') });
  acme = agendaCall(t, 'acme', await t.tenant('acme'));
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
  await seedPlanta(t, 'acme');
});

const novoTipo = (o: Record<string, unknown> = {}) => ({
  codigo: 'DESC-GRAO',
  descricao: 'Descarga de grãos',
  operacao: 'DESCARGA',
  plantaId: PLANTA,
  duracaoSlotMinutos: 30,
  capacidadePorSlot: 3,
  ...o,
});

describe('the tipoAgendamento entity', () => {
  it('creates an active, unblocked type; ativo, bloqueado and motivoBloqueio sent are ignored', async () => {
    const res = await acme(
      'entities/tipoAgendamento',
      novoTipo({ minutosPorUnidade: 0.5, ativo: false, bloqueado: true, motivoBloqueio: 'x' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      codigo: 'DESC-GRAO',
      ativo: true,
      bloqueado: false,
      antecedenciaMinutos: 0,
      minutosPorUnidade: 0.5,
    });
    expect(res.json().motivoBloqueio).toBeUndefined();
    const dup = await acme('entities/tipoAgendamento', novoTipo());
    expect(dup.statusCode).toBe(409);
  });

  it('refuses an unknown plant (422), a bad operation or slot length (400), changing nothing', async () => {
    const before = await tableCounts(t.db);
    const unknown = await acme(
      'entities/tipoAgendamento',
      novoTipo({ codigo: 'X1', plantaId: '00000000-0000-4000-8000-00000000ffff' }),
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toMatch(/planta não existe/);
    // Another tenant's plant is unknown here too.
    const foreign = await globex('entities/tipoAgendamento', novoTipo({ codigo: 'X2' }));
    expect(foreign.statusCode).toBe(422);
    const op = await acme('entities/tipoAgendamento', novoTipo({ codigo: 'X3', operacao: 'TRANSBORDO' }));
    expect(op.statusCode).toBe(400);
    expect(op.json().message).toMatch(/operacao/);
    const dur = await acme('entities/tipoAgendamento', novoTipo({ codigo: 'X4', duracaoSlotMinutos: 2 }));
    expect(dur.statusCode).toBe(400);
    expect(dur.json().message).toMatch(/duracaoSlotMinutos/);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('PATCH keeps the state fields; a type that agendas name is not deleted (409)', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ bloqueado: true, motivoBloqueio: 'obra' })]);
    const res = await acme(
      `entities/tipoAgendamento/${tipo!.id}`,
      { capacidadePorSlot: 9, bloqueado: false },
      { method: 'PATCH' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ capacidadePorSlot: 9, bloqueado: true, motivoBloqueio: 'obra' });
    await seedAgendas(t, 'acme', [makeAgenda({ tipoAgendamentoId: tipo!.id, status: 'CONCLUIDO' })]);
    const del = await acme(`entities/tipoAgendamento/${tipo!.id}`, undefined, { method: 'DELETE' });
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toMatch(/usado por 1 agenda\(s\): desative-o/);
    const [livre] = await seedTipos(t, 'acme', [makeTipo()]);
    const ok = await acme(`entities/tipoAgendamento/${livre!.id}`, undefined, { method: 'DELETE' });
    expect(ok.statusCode).toBe(200);
  });
});

describe('activate, deactivate, block, unblock', () => {
  it('deactivates and activates by id or code; a repeated call changes nothing', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ codigo: 'ATV' })]);
    let res = await acme('actions/desativarTipoAgendamento', { tipoAgendamento: { id: tipo!.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().tipoAgendamento).toMatchObject({ id: tipo!.id, ativo: false });
    res = await acme('actions/desativarTipoAgendamento', { tipoAgendamento: { codigo: 'ATV' } });
    expect(res.json().tipoAgendamento.ativo).toBe(false);
    // The whole record, as a client holds it, is accepted: its id names the type.
    res = await acme('actions/ativarTipoAgendamento', { tipoAgendamento: { ...res.json().tipoAgendamento } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().tipoAgendamento.ativo).toBe(true);
  });

  it('blocks with a reason and unblocks, clearing it', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ codigo: 'BLQ' })]);
    let res = await acme('actions/bloquearTipoAgendamento', { id: 'BLQ', motivo: ' Balança em manutenção ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().tipoAgendamento).toMatchObject({
      bloqueado: true,
      motivoBloqueio: 'Balança em manutenção',
    });
    res = await acme('actions/desbloquearTipoAgendamento', { id: tipo!.id });
    expect(res.json().tipoAgendamento.bloqueado).toBe(false);
    expect(res.json().tipoAgendamento.motivoBloqueio).toBeUndefined();
  });

  it('bad inputs: no reason, no id or code, unknown or foreign type; nothing changes', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo()]);
    const before = await tableCounts(t.db);
    let res = await acme('actions/bloquearTipoAgendamento', { id: tipo!.id, motivo: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/motivo/);
    res = await acme('actions/bloquearTipoAgendamento', { id: tipo!.id });
    expect(res.statusCode).toBe(400);
    res = await acme('actions/ativarTipoAgendamento', { tipoAgendamento: { descricao: 'sem id' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/informe id ou codigo/);
    res = await acme('actions/desativarTipoAgendamento', { tipoAgendamento: { codigo: 'NAO-EXISTE' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Tipo de agendamento NAO-EXISTE não encontrado');
    for (const [op, body] of [
      ['actions/desativarTipoAgendamento', { tipoAgendamento: { id: tipo!.id } }],
      ['actions/bloquearTipoAgendamento', { id: tipo!.id, motivo: 'x' }],
      ['actions/desbloquearTipoAgendamento', { id: tipo!.id }],
      ['queries/getExisteAgendaAgendadoExecucaoComTipoAgendamento', { tipoAgendamento: { id: tipo!.id } }],
    ] as const) {
      res = await globex(op, body);
      expect(res.statusCode, op).toBe(404);
    }
    expect(await tableCounts(t.db)).toEqual(before);
    const row = await acme(`entities/tipoAgendamento/${tipo!.id}`, undefined, { method: 'GET' });
    expect(row.json()).toMatchObject({ ativo: true, bloqueado: false });
  });
});

describe('getExisteAgendaAgendadoExecucaoComTipoAgendamento', () => {
  it('is true only while an agenda of the type is not CONCLUIDO or CANCELADO', async () => {
    const [tipo, outro] = await seedTipos(t, 'acme', [makeTipo(), makeTipo()]);
    const existe = async (id: string) => {
      const res = await acme('queries/getExisteAgendaAgendadoExecucaoComTipoAgendamento', {
        tipoAgendamento: { id },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().possuiAgendamento as boolean;
    };
    await seedAgendas(t, 'acme', [
      makeAgenda({ tipoAgendamentoId: tipo!.id, status: 'CONCLUIDO' }),
      makeAgenda({ tipoAgendamentoId: tipo!.id, status: 'CANCELADO' }),
    ]);
    expect(await existe(tipo!.id)).toBe(false);
    for (const status of ['AGENDADO', 'AGUARDANDO_INTEGRACAO', 'EXECUTANDO', 'ERRO_INTEGRACAO'] as const) {
      const [a] = await seedAgendas(t, 'acme', [makeAgenda({ tipoAgendamentoId: outro!.id, status })]);
      expect(await existe(outro!.id), status).toBe(true);
      await t.db.tenant('acme', (tx) =>
        tx.execute(sql`update agenda set status = 'CANCELADO' where id = ${a!.id}`),
      );
    }
    expect(await existe(outro!.id)).toBe(false);
  });

  it('deactivating a type with pending agendas is allowed: they stay, new bookings are refused', async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo()]);
    const [a] = await seedAgendas(t, 'acme', [makeAgenda({ tipoAgendamentoId: tipo!.id })]);
    const res = await acme('actions/desativarTipoAgendamento', { tipoAgendamento: { id: tipo!.id } });
    expect(res.statusCode).toBe(200);
    const got = await acme(`entities/agenda/${a!.id}`, undefined, { method: 'GET' });
    expect(got.json().status).toBe('AGENDADO');
    const novo = await acme('entities/agenda', {
      plantaId: PLANTA,
      tipoAgendamentoId: tipo!.id,
      dataEsperada: '2026-03-10T09:00:00-03:00',
    });
    expect(novo.statusCode).toBe(422);
    expect(novo.json().message).toMatch(/TIPO_INATIVO/);
  });
});
