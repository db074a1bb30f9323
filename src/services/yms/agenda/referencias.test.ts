import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { makeArea, makeCircuito, makePlanta, makeSequencia, makeVaga, seed } from '../patio/fixtures.ts';
import { circuito, sequenciaCircuito } from '../patio/tables/circuitos.ts';
import { area, planta, vaga } from '../patio/tables/plantas.ts';
import {
  agendaCall,
  agendaRow,
  makeAgenda,
  makeTipo,
  PLANTA,
  seedAgendas,
  seedTipos,
  TIPO,
} from './fixtures.ts';
import { makePreAgenda, preAgendaRow, seedCadastros, seedPreAgendas } from './preagenda-fixtures.ts';
import { externalTenant } from './tables/parceiros.ts';
import { tipoAgendamento } from './tables/tipos.ts';

// References checked where an operation takes ids of other records (docs/agenda.md "References"):
// aguardarIntegracao's circuit, sequence and spot, a type's plant and circuit, a pre-agenda's plant,
// type and customer. An unknown id and another tenant's get the same 422 naming the field and the
// id, and nothing changes.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
const NENHUM = '00000000-0000-4000-8000-00000000dead';

/** A plant's yard: an area with a spot, and a circuit of one sequence there. */
async function patioDe(tenant: string, plantaId: string) {
  const [a] = await seed(t, tenant, area, [makeArea(plantaId)]);
  const [v] = await seed(t, tenant, vaga, [makeVaga(a!.id, 1, 1)]);
  const [c] = await seed(t, tenant, circuito, [makeCircuito(plantaId)]);
  const [s] = await seed(t, tenant, sequenciaCircuito, [makeSequencia(c!.id, 1, a!.id)]);
  return { vagaId: v!.id, circuitoId: c!.id, circuitoCodigo: c!.codigo, sequenciaId: s!.id };
}
type Patio = Awaited<ReturnType<typeof patioDe>>;

let daPlanta: Patio; // PLANTA's, where the agendas are
let outroCircuito: Patio; // another circuit of PLANTA
let outraPlanta: Patio & { plantaId: string };
let globex: Patio & { plantaId: string; tipoId: string; clienteId: string };
const CLIENTE = '00000000-0000-4000-8000-0000000e0002';

beforeAll(async () => {
  t = await testApp();
  acme = agendaCall(t, 'acme', await t.tenant('acme'));
  await t.tenant('globex');
  await seedCadastros(t, 'acme');
  daPlanta = await patioDe('acme', PLANTA);
  outroCircuito = await patioDe('acme', PLANTA);
  const [p2] = await seed(t, 'acme', planta, [makePlanta()]);
  outraPlanta = { plantaId: p2!.id, ...(await patioDe('acme', p2!.id)) };
  const [pg] = await seed(t, 'globex', planta, [makePlanta()]);
  const TIPO_G = '00000000-0000-4000-8000-00000000bf01';
  await seedTipos(t, 'globex', [makeTipo({ id: TIPO_G, plantaId: pg!.id })]);
  const cliente = (tenant: string, id: string) =>
    t.db.tenant(tenant, (tx) =>
      new Store(tx, tenant).insert(externalTenant, [
        { id, codigo: '11444777000161', nome: 'Cliente', createdBy: 'test', lastModifiedBy: 'test' },
      ]),
    );
  await cliente('acme', CLIENTE);
  const CLIENTE_G = '00000000-0000-4000-8000-0000000ef002';
  await cliente('globex', CLIENTE_G);
  globex = { plantaId: pg!.id, tipoId: TIPO_G, clienteId: CLIENTE_G, ...(await patioDe('globex', pg!.id)) };
});

/** The message of a circuit of another plant than PLANTA, where the agendas and the types are. */
const deOutraPlanta = (campo: string, p: Patio & { plantaId: string }) =>
  `${campo} ${p.circuitoId}: o circuito ${p.circuitoCodigo} é da planta ${p.plantaId}, não da planta ${PLANTA}`;

/** 422 with exactly `message`, and no table changed. */
async function recusado(
  pedido: () => Promise<{ statusCode: number; json(): unknown; body: string }>,
  message: string,
) {
  const antes = await tableCounts(t.db);
  const res = await pedido();
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json()).toEqual({ reason: 'UNPROCESSABLE', message });
  expect(await tableCounts(t.db)).toEqual(antes);
}

describe('aguardarIntegracao: the circuit, its sequence and the spot', () => {
  const aguardar = (
    agenda: string,
    o: Partial<Record<'circuito' | 'sequenciaInicial' | 'vagaInicial', string>>,
  ) =>
    acme('actions/aguardarIntegracao', {
      agenda,
      circuito: daPlanta.circuitoId,
      sequenciaInicial: daPlanta.sequenciaId,
      vagaInicial: daPlanta.vagaId,
      ...o,
    });

  it("refuses an unknown or another tenant's id of each, and one that does not belong, changing nothing", async () => {
    const [a] = await seedAgendas(t, 'acme', [makeAgenda()]);
    const id = a!.id;
    for (const circuito of [NENHUM, globex.circuitoId])
      await recusado(
        () => aguardar(id, { circuito }),
        `circuito ${circuito}: circuito não existe (yms/patio)`,
      );
    await recusado(
      () => aguardar(id, { circuito: outraPlanta.circuitoId, sequenciaInicial: outraPlanta.sequenciaId }),
      deOutraPlanta('circuito', outraPlanta),
    );
    for (const sequenciaInicial of [NENHUM, globex.sequenciaId])
      await recusado(
        () => aguardar(id, { sequenciaInicial }),
        `sequenciaInicial ${sequenciaInicial}: sequência de circuito não existe (yms/patio)`,
      );
    await recusado(
      () => aguardar(id, { sequenciaInicial: outroCircuito.sequenciaId }),
      `sequenciaInicial ${outroCircuito.sequenciaId}: a sequência é do circuito ${outroCircuito.circuitoId}, não do circuito ${daPlanta.circuitoId}`,
    );
    for (const vagaInicial of [NENHUM, globex.vagaId])
      await recusado(
        () => aguardar(id, { vagaInicial }),
        `vagaInicial ${vagaInicial}: vaga não existe (yms/patio)`,
      );
    await recusado(
      () => aguardar(id, { vagaInicial: outraPlanta.vagaId }),
      `vagaInicial ${outraPlanta.vagaId}: a vaga é da planta ${outraPlanta.plantaId}, não da planta ${PLANTA} do circuito`,
    );
    expect(await agendaRow(t, 'acme', id)).toMatchObject({ status: 'AGENDADO', circuitoId: null });
    const ok = await aguardar(id, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().agenda).toMatchObject({
      status: 'AGUARDANDO_INTEGRACAO',
      vagaInicialId: daPlanta.vagaId,
    });
  });
});

describe("a type's plant and circuit", () => {
  const tipo = (o: Record<string, unknown>) =>
    acme('entities/tipoAgendamento', {
      codigo: `R${Math.random().toString(36).slice(2, 8)}`,
      descricao: 'Granel',
      operacao: 'DESCARGA',
      plantaId: PLANTA,
      duracaoSlotMinutos: 30,
      capacidadePorSlot: 2,
      ...o,
    });

  it("refuses an unknown or another tenant's plant or circuit, and a circuit of another plant", async () => {
    for (const plantaId of [NENHUM, globex.plantaId])
      await recusado(() => tipo({ plantaId }), `plantaId ${plantaId}: planta não existe (yms/patio)`);
    for (const circuitoId of [NENHUM, globex.circuitoId])
      await recusado(() => tipo({ circuitoId }), `circuitoId ${circuitoId}: circuito não existe (yms/patio)`);
    await recusado(
      () => tipo({ circuitoId: outraPlanta.circuitoId }),
      deOutraPlanta('circuitoId', outraPlanta),
    );
    const ok = await tipo({ circuitoId: daPlanta.circuitoId });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().circuitoId).toBe(daPlanta.circuitoId);
  });

  it('checks an edit that changes the circuit or the plant; another field alone is not checked', async () => {
    const { id } = (await tipo({ circuitoId: daPlanta.circuitoId })).json();
    const patch = (o: Record<string, unknown>) =>
      acme(`entities/tipoAgendamento/${id}`, o, { method: 'PATCH' });
    await recusado(
      () => patch({ circuitoId: globex.circuitoId }),
      `circuitoId ${globex.circuitoId}: circuito não existe (yms/patio)`,
    );
    // The circuit stays PLANTA's: moving the type to another plant leaves it foreign.
    await recusado(
      () => patch({ plantaId: outraPlanta.plantaId }),
      `circuitoId ${daPlanta.circuitoId}: o circuito ${daPlanta.circuitoCodigo} é da planta ${PLANTA}, não da planta ${outraPlanta.plantaId}`,
    );
    const ambos = await patch({ plantaId: outraPlanta.plantaId, circuitoId: outraPlanta.circuitoId });
    expect(ambos.statusCode, ambos.body).toBe(200);
    // A type saved before the checks, naming a circuit that exists nowhere, still takes other edits.
    await t.db.tenant('acme', (tx) =>
      new Store(tx, 'acme').update(tipoAgendamento, { circuitoId: NENHUM }, eq(tipoAgendamento.id, TIPO)),
    );
    const descricao = await acme(
      `entities/tipoAgendamento/${TIPO}`,
      { descricao: 'nova' },
      { method: 'PATCH' },
    );
    expect(descricao.statusCode, descricao.body).toBe(200);
  });
});

describe("a pre-agenda's plant, type and customer", () => {
  const nova = (o: Record<string, unknown>) =>
    acme('entities/preAgenda', {
      plantaId: PLANTA,
      tipoAgendamentoId: TIPO,
      clienteId: CLIENTE,
      dataEsperada: '2026-04-10T09:00:00-03:00',
      ...o,
    });

  it("refuses an unknown or another tenant's plant, type or customer, and a type of another plant", async () => {
    for (const plantaId of [NENHUM, globex.plantaId])
      await recusado(() => nova({ plantaId }), `plantaId ${plantaId}: planta não existe (yms/patio)`);
    for (const tipoAgendamentoId of [NENHUM, globex.tipoId])
      await recusado(
        () => nova({ tipoAgendamentoId }),
        `tipoAgendamentoId ${tipoAgendamentoId}: tipo de agendamento não existe`,
      );
    const [outro] = await seedTipos(t, 'acme', [makeTipo({ plantaId: outraPlanta.plantaId })]);
    await recusado(
      () => nova({ tipoAgendamentoId: outro!.id }),
      `Tipo de agendamento ${outro!.codigo} é da planta ${outraPlanta.plantaId}, não da planta ${PLANTA}`,
    );
    for (const clienteId of [NENHUM, globex.clienteId])
      await recusado(
        () => nova({ clienteId }),
        `clienteId ${clienteId} não é um parceiro (externalTenant) deste tenant`,
      );
    const ok = await nova({});
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('checks an edit that changes a reference; a pre-agenda saved before the checks takes other edits', async () => {
    const [p] = await seedPreAgendas(t, 'acme', [makePreAgenda({ status: 'PENDENTE', clienteId: NENHUM })]);
    const patch = (o: Record<string, unknown>) => acme(`entities/preAgenda/${p!.id}`, o, { method: 'PATCH' });
    await recusado(
      () => patch({ clienteId: globex.clienteId }),
      `clienteId ${globex.clienteId} não é um parceiro (externalTenant) deste tenant`,
    );
    await recusado(
      () => patch({ plantaId: globex.plantaId }),
      `plantaId ${globex.plantaId}: planta não existe (yms/patio)`,
    );
    const observacao = await patch({ observacao: 'ok' });
    expect(observacao.statusCode, observacao.body).toBe(200);
    expect(await preAgendaRow(t, 'acme', p!.id)).toMatchObject({
      clienteId: NENHUM,
      plantaId: PLANTA,
      observacao: 'ok',
    });
  });
});
