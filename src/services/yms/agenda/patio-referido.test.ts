import { eq } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, CONCORRENTES, RODADAS } from '../../../../test/corrida.ts';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { makeMotorista, makePlanta, makeVeiculo, patioCall, seed, seedPatio } from '../patio/fixtures.ts';
import { planta } from '../patio/tables/plantas.ts';
import { motorista, veiculo } from '../patio/tables/veiculos.ts';
import { agendaCall, makeAgenda, PLANTA, seedAgendas, TIPO } from './fixtures.ts';
import { AGORA, seedCadastros } from './preagenda-fixtures.ts';
import { agenda } from './tables/agendas.ts';
import { preAgenda } from './tables/preagendas.ts';

// The yard's records named by this service's entities (EntityOptions.references, docs/agenda.md
// "References"): a write names records of its own tenant, and a record still named is not deleted,
// whichever of the two comes first when they race (on PostgreSQL).

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let patio: ReturnType<typeof patioCall>;
let globex: ReturnType<typeof patioCall>;

beforeAll(async () => {
  t = await testApp({ db: await bancoDeCorrida(), now: () => AGORA });
  const key = await t.tenant('acme');
  acme = agendaCall(t, 'acme', key);
  patio = patioCall(t, 'acme', key);
  globex = patioCall(t, 'globex', await t.tenant('globex'));
  await seedCadastros(t, 'acme');
});

const pedido = (o: Record<string, unknown> = {}) =>
  acme('entities/preAgenda', {
    plantaId: PLANTA,
    tipoAgendamentoId: TIPO,
    dataEsperada: '2026-04-10T12:00:00Z',
    ...o,
  });

describe('a write names records of its own tenant', () => {
  it("refuses an unknown or another tenant's vehicle, driver or composition with 422, changing nothing", async () => {
    const [deles] = await seed(t, 'globex', veiculo, [makeVeiculo()]);
    const [motoristaDeles] = await seed(t, 'globex', motorista, [makeMotorista()]);
    const before = await tableCounts(t.db);
    const casos: Array<[string, string, string]> = [
      ['veiculoId', deles!.id, 'veiculo'],
      ['veiculoId', '00000000-0000-4000-8000-00000000dead', 'veiculo'],
      ['motoristaId', motoristaDeles!.id, 'motorista'],
      ['composicaoVeiculoId', '00000000-0000-4000-8000-00000000dead', 'composicaoVeiculo'],
    ];
    for (const [campo, id, registro] of casos) {
      const res = await pedido({ [campo]: id });
      expect(res.statusCode, campo).toBe(422);
      expect(res.json()).toEqual({
        reason: 'UNPROCESSABLE',
        message: `${campo} ${id}: ${registro} does not exist (yms/patio)`,
      });
    }
    expect(await tableCounts(t.db)).toEqual(before);
    const [nosso] = await seed(t, 'acme', veiculo, [makeVeiculo()]);
    const ok = await pedido({ veiculoId: nosso!.id });
    expect(ok.statusCode, ok.body).toBe(200);
    // An edit that leaves the reference alone does not look it up again; one that changes it does.
    const id = ok.json().id;
    expect((await acme(`entities/preAgenda/${id}`, { descricao: 'x' }, { method: 'PATCH' })).statusCode).toBe(
      200,
    );
    const troca = await acme(`entities/preAgenda/${id}`, { veiculoId: deles!.id }, { method: 'PATCH' });
    expect(troca.statusCode).toBe(422);
  });
});

describe('a record still named is not deleted', () => {
  it('a plant, vehicle, driver, circuit and sequence named by agendas, pre-agendas or types: 422 naming who', async () => {
    const [p] = await seed(t, 'acme', planta, [makePlanta()]);
    const [v] = await seed(t, 'acme', veiculo, [makeVeiculo()]);
    const [m] = await seed(t, 'acme', motorista, [makeMotorista()]);
    const { circuitoId, sequenciaId } = await seedPatio(t, 'acme', PLANTA);
    const [a] = await seedAgendas(t, 'acme', [
      makeAgenda({ plantaId: p!.id, motoristaId: m!.id, circuitoId, sequenciaInicialId: sequenciaId }),
    ]);
    const pre = await pedido({ veiculoId: v!.id });
    const casos: Array<[string, string]> = [
      [`entities/planta/${p!.id}`, 'yms/agenda agenda.plantaId'],
      [`entities/planta/${PLANTA}`, 'yms/agenda '],
      [`entities/veiculo/${v!.id}`, 'yms/agenda preAgenda.veiculoId'],
      [`entities/motorista/${m!.id}`, 'yms/agenda agenda.motoristaId'],
      [`entities/circuito/${circuitoId}/sequencias/${sequenciaId}`, 'yms/agenda agenda.sequenciaInicialId'],
    ];
    const before = await tableCounts(t.db);
    for (const [rota, quem] of casos) {
      const res = await patio(rota, undefined, { method: 'DELETE' });
      expect(res.statusCode, rota).toBe(422);
      expect(res.json().message, rota).toContain(`still referred to by other records (${quem}`);
    }
    expect(await tableCounts(t.db)).toEqual(before);
    // Once nothing names them, they go.
    expect(
      (await acme(`entities/preAgenda/${pre.json().id}`, undefined, { method: 'DELETE' })).statusCode,
    ).toBe(200);
    expect((await patio(`entities/veiculo/${v!.id}`, undefined, { method: 'DELETE' })).statusCode).toBe(200);
    expect((await acme(`entities/agenda/${a!.id}`, undefined, { method: 'DELETE' })).statusCode).toBe(200);
    expect((await patio(`entities/planta/${p!.id}`, undefined, { method: 'DELETE' })).statusCode).toBe(200);
    expect((await patio(`entities/motorista/${m!.id}`, undefined, { method: 'DELETE' })).statusCode).toBe(
      200,
    );
  });

  it("another tenant's records naming the same id do not hold it back", async () => {
    const [v] = await seed(t, 'acme', veiculo, [makeVeiculo()]);
    // globex's pre-agenda table cannot name acme's vehicle (the write is refused), so plant one there.
    await seedAgendas(t, 'globex', [makeAgenda({ veiculoId: v!.id })]);
    expect((await patio(`entities/veiculo/${v!.id}`, undefined, { method: 'DELETE' })).statusCode).toBe(200);
    expect((await globex(`entities/veiculo/${v!.id}`, undefined, { method: 'GET' })).statusCode).toBe(404);
  });
});

describe(`a delete racing writes that name the record (${RODADAS} rounds × ${CONCORRENTES} at once)`, () => {
  it('either the vehicle goes and every write naming it is 422, or it stays named', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const [v] = await seed(t, 'acme', veiculo, [makeVeiculo()]);
      const pedidos = Array.from({ length: CONCORRENTES }, (_, k) =>
        k === CONCORRENTES / 2
          ? () => patio(`entities/veiculo/${v!.id}`, undefined, { method: 'DELETE' })
          : () => pedido({ veiculoId: v!.id }),
      );
      const respostas = await aoMesmoTempo(pedidos);
      const apagou = respostas[CONCORRENTES / 2]!;
      const escritas = respostas.filter((_, k) => k !== CONCORRENTES / 2);
      for (const res of respostas) expect([200, 422], res.body).toContain(res.statusCode);
      const existe =
        (await patio(`entities/veiculo/${v!.id}`, undefined, { method: 'GET' })).statusCode === 200;
      const n = (
        await t.db.tenant('acme', (tx) =>
          new Store(tx, 'acme').select(preAgenda, eq(preAgenda.veiculoId, v!.id)),
        )
      ).length;
      expect(n).toBe(escritas.filter((res) => res.statusCode === 200).length);
      // Never a pre-agenda naming a vehicle that is gone.
      if (apagou.statusCode === 200) expect(n).toBe(0);
      else expect(existe && n > 0).toBe(true);
    }
  });
});

// aguardarIntegracao records a circuit, its sequence and a spot outside the entity engine: it reads
// them FOR KEY SHARE as the engine does (core/references.ts requireReferenced), so a delete of any
// of the three sent at the same moment either waits and is refused, or wins and the hand-overs fail.
describe(`a delete racing aguardarIntegracao (${RODADAS} rounds of each record × ${CONCORRENTES} at once)`, () => {
  type Patio = Awaited<ReturnType<typeof seedPatio>>;
  /** What is deleted: its route, its id and the agenda column that names it. */
  const ALVOS: Array<{
    nome: string;
    coluna: AnyPgColumn;
    rota: (p: Patio) => string;
    id: (p: Patio) => string;
  }> = [
    {
      nome: 'circuito',
      coluna: agenda.circuitoId,
      rota: (p) => `entities/circuito/${p.circuitoId}`,
      id: (p) => p.circuitoId,
    },
    {
      nome: 'sequencia',
      coluna: agenda.sequenciaInicialId,
      rota: (p) => `entities/circuito/${p.circuitoId}/sequencias/${p.sequenciaId}`,
      id: (p) => p.sequenciaId,
    },
    {
      nome: 'vaga',
      coluna: agenda.vagaInicialId,
      rota: (p) => `entities/vaga/${p.vagaId}`,
      id: (p) => p.vagaId,
    },
  ];

  it('either the circuit, sequence or spot goes and no agenda names it, or it stays named', async () => {
    for (let r = 0; r < RODADAS * ALVOS.length; r++) {
      const alvo = ALVOS[r % ALVOS.length]!;
      const p = await seedPatio(t, 'acme', PLANTA);
      const agendas = await seedAgendas(
        t,
        'acme',
        Array.from({ length: CONCORRENTES - 1 }, () => makeAgenda()),
      );
      const entregas = agendas.map(
        (a) => () =>
          acme('actions/aguardarIntegracao', {
            agenda: a.id,
            circuito: p.circuitoId,
            sequenciaInicial: p.sequenciaId,
            vagaInicial: p.vagaId,
          }),
      );
      const meio = CONCORRENTES / 2;
      const respostas = await aoMesmoTempo([
        ...entregas.slice(0, meio),
        () => patio(alvo.rota(p), undefined, { method: 'DELETE' }),
        ...entregas.slice(meio),
      ]);
      const resumo = `${alvo.nome}, round ${r}:\n${respostas.map((x) => `${x.statusCode} ${x.statusCode === 200 ? '' : x.body}`).join('\n')}`;
      for (const res of respostas) expect([200, 422], resumo).toContain(res.statusCode);
      const aceitas = respostas.filter((res, k) => k !== meio && res.statusCode === 200).length;
      const n = (
        await t.db.tenant('acme', (tx) => new Store(tx, 'acme').select(agenda, eq(alvo.coluna, alvo.id(p))))
      ).length;
      expect(n, resumo).toBe(aceitas);
      // Never an agenda naming a circuit, sequence or spot that is gone.
      if (respostas[meio]!.statusCode === 200) expect(n, resumo).toBe(0);
      else expect(n, resumo).toBeGreaterThan(0);
    }
  });
});
