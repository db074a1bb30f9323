import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, CONCORRENTES, RODADAS, umVencedor } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import {
  makeArea,
  makeCircuito,
  makeMotorista,
  makePlanta,
  makeSequencia,
  makeVeiculo,
  patioCall,
  seed,
} from '../patio/fixtures.ts';
import { circuito, sequenciaCircuito } from '../patio/tables/circuitos.ts';
import { execucaoCircuito } from '../patio/tables/execucoes.ts';
import { area, planta } from '../patio/tables/plantas.ts';
import { motorista, veiculo } from '../patio/tables/veiculos.ts';
import { agendaCall, makeAgenda, seedAgendas } from './fixtures.ts';
import { agenda, agendaHistorico } from './tables/agendas.ts';

// Race tests of "a vehicle (or a driver) runs one thing at a time" (docs/agenda.md "iniciarAgendamento",
// docs/platform.md "Contended decisions"): many starts of agendas that share a vehicle or a driver,
// with and without a circuit, and starts of the yard's own executions, sent at once. Every path takes
// yms/patio's lock of the vehicle and the driver (patio/travas.ts) before it checks; without it,
// PostgreSQL lets several of them run.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let patio: ReturnType<typeof patioCall>;

beforeAll(async () => {
  t = await testApp({ db: await bancoDeCorrida() });
  const key = await t.tenant('acme');
  acme = agendaCall(t, 'acme', key);
  patio = patioCall(t, 'acme', key);
});

/** A plant with one active circuit of two steps. */
async function patioComCircuito() {
  const [pl] = await seed(t, 'acme', planta, [makePlanta()]);
  const areas = await seed(t, 'acme', area, [makeArea(pl!.id), makeArea(pl!.id)]);
  const [c] = await seed(t, 'acme', circuito, [makeCircuito(pl!.id)]);
  const seqs = await seed(t, 'acme', sequenciaCircuito, [
    makeSequencia(c!.id, 1, areas[0]!.id),
    makeSequencia(c!.id, 2, areas[1]!.id),
  ]);
  return { plantaId: pl!.id, circuitoId: c!.id, sequenciaId: seqs[0]!.id };
}
type Patio = Awaited<ReturnType<typeof patioComCircuito>>;

const veiculos = (n: number) =>
  seed(
    t,
    'acme',
    veiculo,
    Array.from({ length: n }, () => makeVeiculo()),
  );
const motoristas = (n: number) =>
  seed(
    t,
    'acme',
    motorista,
    Array.from({ length: n }, () => makeMotorista()),
  );

/** Agendas of the plant: AGENDADO, or handed over with the circuit when `p` is given. */
function agendas(rows: Array<{ veiculoId?: string; motoristaId?: string; p?: Patio }>) {
  return seedAgendas(
    t,
    'acme',
    rows.map(({ p, ...o }) =>
      makeAgenda({
        ...o,
        ...(p
          ? {
              plantaId: p.plantaId,
              status: 'AGUARDANDO_INTEGRACAO',
              circuitoId: p.circuitoId,
              sequenciaInicialId: p.sequenciaId,
            }
          : {}),
      }),
    ),
  );
}

const iniciar = (id: string) => () => acme('actions/iniciarAgendamento', { agenda: id });

/** The agendas as stored now, by id, with the rows of history each has. */
async function estado(ids: string[]) {
  return t.db.tenant('acme', async (tx) => {
    const store = new Store(tx, 'acme');
    const rows = await store.select(agenda, inArray(agenda.id, ids));
    const hist = await store.select(agendaHistorico, inArray(agendaHistorico.agendaId, ids));
    return new Map(rows.map((r) => [r.id, { ...r, historico: hist.filter((h) => h.agendaId === r.id) }]));
  });
}

/** The running (main) executions of a vehicle or of a driver. */
async function execucoesEmAndamento(by: { veiculoId: string } | { motoristaId: string }) {
  const col = 'veiculoId' in by ? execucaoCircuito.veiculoId : execucaoCircuito.motoristaId;
  const id = 'veiculoId' in by ? by.veiculoId : by.motoristaId;
  return t.db.tenant('acme', (tx) =>
    new Store(tx, 'acme').select(
      execucaoCircuito,
      and(eq(col, id), eq(execucaoCircuito.situacao, 'EXECUTANDO')),
    ),
  );
}

/** The winner ran; every other agenda is as it was, without a new history row. */
async function soOVencedorMudou(ids: string[], vencedor: number, antes: string) {
  const depois = await estado(ids);
  ids.forEach((id, i) => {
    const a = depois.get(id)!;
    if (i === vencedor) {
      expect(a.status).toBe('EXECUTANDO');
      expect(a.historico).toHaveLength(1);
    } else {
      expect(a.status, `agenda ${i}`).toBe(antes);
      expect(a.historico, `agenda ${i}`).toHaveLength(0);
    }
  });
  return depois.get(ids[vencedor]!)!;
}

const OCUPADO =
  /não pode ser iniciada: o (veículo|motorista) \S.* já está em (uma execução de circuito em andamento no pátio|outra agenda em EXECUTANDO \(\d+\))$/;

describe(`starts of agendas that share a vehicle or a driver (${RODADAS} rounds × ${CONCORRENTES} at once)`, () => {
  it('one vehicle, no circuit: one agenda runs, the others are 409 and unchanged', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const [v] = await veiculos(1);
      const ids = (await agendas(Array.from({ length: CONCORRENTES }, () => ({ veiculoId: v!.id })))).map(
        (a) => a.id,
      );
      const respostas = await aoMesmoTempo(ids.map(iniciar));
      const i = umVencedor(respostas, { status: 409, mensagem: OCUPADO });
      await soOVencedorMudou(ids, i, 'AGENDADO');
    }
  });

  it('one driver in different vehicles, no circuit: one agenda runs', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const [m] = await motoristas(1);
      const vs = await veiculos(CONCORRENTES);
      const ids = (await agendas(vs.map((v) => ({ veiculoId: v.id, motoristaId: m!.id })))).map((a) => a.id);
      const i = umVencedor(await aoMesmoTempo(ids.map(iniciar)), {
        status: 409,
        mensagem: /o motorista .* já está em outra agenda em EXECUTANDO/,
      });
      await soOVencedorMudou(ids, i, 'AGENDADO');
    }
  });

  it('one vehicle, with a circuit: one agenda and one yard execution; the others get the 409 of a busy vehicle', async () => {
    const p = await patioComCircuito();
    for (let r = 0; r < RODADAS; r++) {
      const [v] = await veiculos(1);
      const ids = (await agendas(Array.from({ length: CONCORRENTES }, () => ({ veiculoId: v!.id, p })))).map(
        (a) => a.id,
      );
      // Not the yard's refusal of a second execution (its unique index): the check under the lock.
      const i = umVencedor(await aoMesmoTempo(ids.map(iniciar)), { status: 409, mensagem: OCUPADO });
      const vencedora = await soOVencedorMudou(ids, i, 'AGUARDANDO_INTEGRACAO');
      expect(vencedora.inicioExecucao).toBe('INICIADO');
      const execucoes = await execucoesEmAndamento({ veiculoId: v!.id });
      expect(execucoes.map((e) => e.id)).toEqual([vencedora.execucaoCircuitoId]);
    }
  });

  it('one driver, half the agendas with a circuit and half without: one runs', async () => {
    const p = await patioComCircuito();
    for (let r = 0; r < RODADAS; r++) {
      const [m] = await motoristas(1);
      const vs = await veiculos(CONCORRENTES);
      const ids = (
        await agendas(vs.map((v, k) => ({ veiculoId: v.id, motoristaId: m!.id, ...(k % 2 ? { p } : {}) })))
      ).map((a) => a.id);
      const i = umVencedor(await aoMesmoTempo(ids.map(iniciar)), { status: 409, mensagem: OCUPADO });
      const depois = await estado(ids);
      ids.forEach((id, k) => {
        const a = depois.get(id)!;
        expect(a.status).toBe(k === i ? 'EXECUTANDO' : k % 2 ? 'AGUARDANDO_INTEGRACAO' : 'AGENDADO');
      });
      const execucoes = await execucoesEmAndamento({ motoristaId: m!.id });
      expect(execucoes).toHaveLength(i % 2 ? 1 : 0);
    }
  });

  it("agendas and the yard's own starts of one vehicle and driver: one of them runs", async () => {
    const p = await patioComCircuito();
    for (let r = 0; r < RODADAS; r++) {
      const [v] = await veiculos(1);
      const [m] = await motoristas(1);
      const metade = CONCORRENTES / 2;
      const ids = (
        await agendas(Array.from({ length: metade }, () => ({ veiculoId: v!.id, motoristaId: m!.id })))
      ).map((a) => a.id);
      const noPatio = () =>
        patio('actions/iniciarExecucaoCircuito', {
          circuitoId: p.circuitoId,
          veiculoId: v!.id,
          motoristaId: m!.id,
        });
      const pedidos = ids.flatMap((id) => [iniciar(id), noPatio]);
      const respostas = await aoMesmoTempo(pedidos);
      const i = umVencedor(respostas, {
        status: 409,
        mensagem: new RegExp(
          `${OCUPADO.source.slice(0, -1)}|já está na execução de circuito|já está na agenda \\d+ em EXECUTANDO`,
        ),
      });
      const depois = await estado(ids);
      const rodando = ids.filter((id) => depois.get(id)!.status === 'EXECUTANDO');
      const execucoes = await execucoesEmAndamento({ veiculoId: v!.id });
      // Even indexes are agenda starts, odd ones the yard's.
      expect(rodando).toHaveLength(i % 2 ? 0 : 1);
      expect(execucoes).toHaveLength(i % 2 ? 1 : 0);
    }
  });
});

describe(`a driver taking over running executions while agendas of that driver start (${RODADAS} rounds × ${CONCORRENTES} at once)`, () => {
  it('the driver ends up in one of them only', async () => {
    const p = await patioComCircuito();
    const metade = CONCORRENTES / 2;
    for (let r = 0; r < RODADAS; r++) {
      const [m] = await motoristas(1);
      // Executions of other trucks and drivers, each started by its agenda.
      const donos = await motoristas(metade);
      const emExecucao = await agendas(
        (await veiculos(metade)).map((v, k) => ({ veiculoId: v.id, motoristaId: donos[k]!.id, p })),
      );
      const execucoes: string[] = [];
      for (const a of emExecucao) {
        const res = await acme('actions/iniciarAgendamento', { agenda: a.id });
        expect(res.statusCode, res.body).toBe(200);
        execucoes.push(res.json().agenda.execucaoCircuitoId);
      }
      const ids = (
        await agendas((await veiculos(metade)).map((v) => ({ veiculoId: v.id, motoristaId: m!.id })))
      ).map((a) => a.id);
      const trocar = (k: number) => () =>
        patio('events/motoristaAlteradoEmExecucao', {
          agendaId: emExecucao[k]!.id,
          execucaoCircuitoid: execucoes[k],
          motoristaAntigoId: donos[k]!.id,
          motoristaNovoId: m!.id,
        });
      const respostas = await aoMesmoTempo(ids.flatMap((id, k) => [iniciar(id), trocar(k)]));
      const i = umVencedor(respostas, {
        status: 409,
        mensagem: new RegExp(
          `${OCUPADO.source.slice(0, -1)}|já está na execução de circuito|já está na agenda \\d+ em EXECUTANDO`,
        ),
      });
      const rodando = [...(await estado(ids)).values()].filter((a) => a.status === 'EXECUTANDO');
      const comOMotorista = await execucoesEmAndamento({ motoristaId: m!.id });
      // Even indexes are agenda starts, odd ones the driver changes.
      expect(rodando).toHaveLength(i % 2 ? 0 : 1);
      expect(comOMotorista.map((e) => e.id)).toEqual(i % 2 ? [execucoes[(i - 1) / 2]] : []);
    }
  });
});

describe(`running agendas given another vehicle while agendas of it start (${RODADAS} rounds × ${CONCORRENTES} at once)`, () => {
  it('the vehicle ends up in one running agenda only', async () => {
    const metade = CONCORRENTES / 2;
    for (let r = 0; r < RODADAS; r++) {
      const [v] = await veiculos(1);
      // Running agendas of other trucks, each to be given v: by the entity and by patio's atualizarAgenda.
      const rodando = await seedAgendas(
        t,
        'acme',
        (await veiculos(metade)).map((w) => makeAgenda({ status: 'EXECUTANDO', veiculoId: w.id })),
      );
      const ids = (await agendas(Array.from({ length: metade }, () => ({ veiculoId: v!.id })))).map(
        (a) => a.id,
      );
      const trocar = (k: number) => () =>
        k % 2
          ? acme(`entities/agenda/${rodando[k]!.id}`, { veiculoId: v!.id }, { method: 'PATCH' })
          : acme('actions/atualizarAgendamento', { agenda: { id: rodando[k]!.id, veiculoId: v!.id } });
      const respostas = await aoMesmoTempo(ids.flatMap((id, k) => [iniciar(id), trocar(k)]));
      umVencedor(respostas, {
        status: 409,
        mensagem:
          /^Agenda \d+ não pode (ser iniciada|trocar de veículo ou motorista em EXECUTANDO): o veículo \S+ já está em outra agenda em EXECUTANDO \(\d+\)$/,
      });
      const comOVeiculo = await t.db.tenant('acme', (tx) =>
        new Store(tx, 'acme').select(
          agenda,
          and(eq(agenda.veiculoId, v!.id), eq(agenda.status, 'EXECUTANDO')),
        ),
      );
      expect(comOVeiculo).toHaveLength(1);
    }
  });
});

describe('the rule both sides apply, one request at a time', () => {
  it('the yard refuses a vehicle or a driver that an agenda runs without the yard; its own agenda aside', async () => {
    const p = await patioComCircuito();
    const [v, w] = await veiculos(2);
    const [m, n] = await motoristas(2);
    const [sem] = await agendas([{ veiculoId: v!.id, motoristaId: m!.id }]);
    expect((await iniciar(sem!.id)()).statusCode).toBe(200);
    const noPatio = (o: Record<string, string>) =>
      patio('actions/iniciarExecucaoCircuito', { circuitoId: p.circuitoId, ...o });
    const porVeiculo = await noPatio({ veiculoId: v!.id, motoristaId: n!.id });
    expect(porVeiculo.statusCode).toBe(409);
    expect(porVeiculo.json()).toEqual({
      reason: 'UNPROCESSABLE',
      message: `O veículo ${v!.placa} já está na agenda ${sem!.codigo} em EXECUTANDO, sem execução no pátio`,
    });
    const porMotorista = await noPatio({ veiculoId: w!.id, motoristaId: m!.id });
    expect(porMotorista.statusCode).toBe(409);
    expect(porMotorista.json().message).toBe(
      `O motorista ${m!.nome} já está na agenda ${sem!.codigo} em EXECUTANDO, sem execução no pátio`,
    );
    expect(await execucoesEmAndamento({ veiculoId: w!.id })).toHaveLength(0);
    // The same driver in an execution taking over: refused as well.
    const [outra] = await agendas([{ veiculoId: w!.id, motoristaId: n!.id, p }]);
    const exec = (await iniciar(outra!.id)()).json().agenda.execucaoCircuitoId;
    const troca = await patio('events/motoristaAlteradoEmExecucao', {
      agendaId: outra!.id,
      execucaoCircuitoid: exec,
      motoristaAntigoId: n!.id,
      motoristaNovoId: m!.id,
    });
    expect(troca.statusCode).toBe(409);
    expect(troca.json().message).toContain(`já está na agenda ${sem!.codigo} em EXECUTANDO`);
    // An agenda with a yard execution is the yard's own business (its unique indexes): not counted here.
    const fim = await acme('actions/finalizarAgendamento', { agenda: sem!.id });
    expect(fim.statusCode, fim.body).toBe(200);
    expect((await noPatio({ veiculoId: v!.id, motoristaId: m!.id })).statusCode).toBe(200);
  });

  it('a running agenda cannot be given a vehicle or driver that runs elsewhere; a booked one can', async () => {
    const [v, w] = await veiculos(2);
    const [m, n] = await motoristas(2);
    const [a, b, c] = await seedAgendas(t, 'acme', [
      makeAgenda({ status: 'EXECUTANDO', veiculoId: v!.id, motoristaId: m!.id }),
      makeAgenda({ status: 'EXECUTANDO', veiculoId: w!.id, motoristaId: n!.id }),
      makeAgenda({ veiculoId: w!.id }),
    ]);
    const patch = await acme(`entities/agenda/${b!.id}`, { veiculoId: v!.id }, { method: 'PATCH' });
    expect(patch.statusCode).toBe(409);
    expect(patch.json()).toEqual({
      reason: 'UNPROCESSABLE',
      message: `Agenda ${b!.codigo} não pode trocar de veículo ou motorista em EXECUTANDO: o veículo ${v!.placa} já está em outra agenda em EXECUTANDO (${a!.codigo})`,
    });
    const atualizar = await acme('actions/atualizarAgendamento', {
      agenda: { id: b!.id, motoristaId: m!.id },
    });
    expect(atualizar.statusCode).toBe(409);
    expect(atualizar.json().message).toContain(
      `o motorista ${m!.nome} já está em outra agenda em EXECUTANDO`,
    );
    expect((await estado([b!.id])).get(b!.id)).toMatchObject({ veiculoId: w!.id, motoristaId: n!.id });
    // A booked agenda is not running: it may name any vehicle; its start will check.
    const livre = await acme(`entities/agenda/${c!.id}`, { veiculoId: v!.id }, { method: 'PATCH' });
    expect(livre.statusCode, livre.body).toBe(200);
  });
});
