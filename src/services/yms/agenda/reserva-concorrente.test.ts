import { inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  aoMesmoTempo,
  bancoDeCorrida,
  CONCORRENTES,
  depois,
  RODADAS,
  umVencedor,
} from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { patioCall } from '../patio/fixtures.ts';
import { agendaCall, makeAgenda, makeTipo, seedAgendas, seedPlanta, seedTipos } from './fixtures.ts';
import { logs, makePreAgenda, preAgendaRow, seedPreAgendas } from './preagenda-fixtures.ts';
import { agenda, agendaHistorico } from './tables/agendas.ts';

// Race tests of the booking (docs/agenda.md "The last place", "Codes", docs/platform.md "Contended
// decisions"): many bookings and moves for the last place of a slot, many creations for the next
// code, and edits racing the state actions, sent at once, several rounds each.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let patio: ReturnType<typeof patioCall>;
const clock = new Date('2026-03-01T12:00:00Z');
const SP = '00000000-0000-4000-8000-0000000d0001'; // America/Sao_Paulo, UTC-3
const DIAS = ['2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-16'];

beforeAll(async () => {
  t = await testApp({ db: await bancoDeCorrida(), now: () => clock });
  const key = await t.tenant('acme');
  acme = agendaCall(t, 'acme', key);
  patio = patioCall(t, 'acme', key);
  await seedPlanta(t, 'acme', {
    id: SP,
    turnos: DIAS.map((d) => [d, '08:00', '12:00'] as [string, string, string]),
  });
});

/** A type of the plant with one place per 30-minute slot; `minutosPorUnidade` 1: quantidade 60 takes two slots. */
const tipo = async () =>
  (await seedTipos(t, 'acme', [makeTipo({ plantaId: SP, capacidadePorSlot: 1, minutosPorUnidade: 1 })]))[0]!;

const reservar =
  (tipoId: string, dataEsperada: string, quantidade = 30) =>
  () =>
    acme('entities/agenda', {
      plantaId: SP,
      tipoAgendamentoId: tipoId,
      dataEsperada,
      associacaoAgendamento: { quantidade },
    });

const agendasDoTipo = (tipoId: string) =>
  t.db.tenant('acme', (tx) =>
    new Store(tx, 'acme').select(agenda, inArray(agenda.tipoAgendamentoId, [tipoId])),
  );

const LOTADO = /^Horário \S+ lotado para o tipo de agendamento \S+: 1 de 1 lugares ocupados$/;

describe(`the last place of a slot (${RODADAS} rounds × ${CONCORRENTES} at once)`, () => {
  it('bookings of one slot: one is booked, the others are 409', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const tp = await tipo();
      const inicio = `${DIAS[r]}T08:00:00-03:00`;
      const respostas = await aoMesmoTempo(
        Array.from({ length: CONCORRENTES }, () => reservar(tp.id, inicio)),
      );
      const i = umVencedor(respostas, { status: 409, mensagem: LOTADO });
      expect((await agendasDoTipo(tp.id)).map((a) => a.id)).toEqual([respostas[i]!.json().id]);
    }
  });

  it('bookings that overlap: two-slot executions from 08:00 and one-slot ones at 08:30', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const tp = await tipo();
      const dia = DIAS[r];
      const pedidos = Array.from({ length: CONCORRENTES }, (_, k) =>
        k % 2 ? reservar(tp.id, `${dia}T08:00:00-03:00`, 60) : reservar(tp.id, `${dia}T08:30:00-03:00`),
      );
      umVencedor(await aoMesmoTempo(pedidos), { status: 409, mensagem: LOTADO });
      expect(await agendasDoTipo(tp.id)).toHaveLength(1);
    }
  });

  it('moves into the slot race new bookings of it', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const tp = await tipo();
      const dia = DIAS[r];
      // Agendas booked at 09:00, 09:30… (one per slot), each asking to move to 08:00.
      const metade = CONCORRENTES / 2;
      const movidas: string[] = [];
      for (let k = 0; k < metade; k++) {
        const hora = `${String(9 + Math.floor(k / 2)).padStart(2, '0')}:${k % 2 ? '30' : '00'}`;
        const res = await reservar(tp.id, `${dia}T${hora}:00-03:00`)();
        expect(res.statusCode, res.body).toBe(200);
        movidas.push(res.json().id);
      }
      const alvo = `${dia}T08:00:00-03:00`;
      const mover = (id: string) => () =>
        acme(`entities/agenda/${id}`, { dataEsperada: alvo }, { method: 'PATCH' });
      const pedidos = movidas.flatMap((id) => [mover(id), reservar(tp.id, alvo)]);
      const i = umVencedor(await aoMesmoTempo(pedidos), { status: 409, mensagem: LOTADO });
      const agendas = await agendasDoTipo(tp.id);
      const noAlvo = agendas.filter((a) => a.dataEsperada.getTime() === new Date(alvo).getTime());
      // Even indexes are moves, odd ones new bookings.
      expect(noAlvo.map((a) => a.id)).toEqual([
        i % 2 ? agendas.find((a) => !movidas.includes(a.id))!.id : movidas[i / 2],
      ]);
      expect(agendas).toHaveLength(metade + (i % 2));
    }
  });

  it('conversions of pre-agendas race the bookings: one takes the place', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const tp = await tipo();
      const inicio = `${DIAS[r]}T10:00:00-03:00`;
      const pre = await seedPreAgendas(
        t,
        'acme',
        Array.from({ length: CONCORRENTES / 2 }, () =>
          makePreAgenda({
            status: 'APROVADA',
            plantaId: SP,
            tipoAgendamentoId: tp.id,
            dataEsperada: new Date(inicio),
          }),
        ),
      );
      const converter = (id: string) => () => acme('actions/converterPreAgenda', { preAgendaId: id });
      const pedidos = pre.flatMap((p) => [converter(p.id), reservar(tp.id, inicio)]);
      const i = umVencedor(await aoMesmoTempo(pedidos), { status: 409, mensagem: LOTADO });
      expect(await agendasDoTipo(tp.id)).toHaveLength(1);
      // Even indexes are conversions: only the winner's pre-agenda is CONVERTIDA.
      const estados = await Promise.all(pre.map(async (p) => (await preAgendaRow(t, 'acme', p.id))!.status));
      expect(estados).toEqual(pre.map((_, k) => (i % 2 === 0 && k === i / 2 ? 'CONVERTIDA' : 'APROVADA')));
    }
  });
});

describe(`the next agenda code (${RODADAS} rounds × ${CONCORRENTES} at once)`, () => {
  it('creations by every path get distinct, consecutive codes', async () => {
    const tp = (await seedTipos(t, 'acme', [makeTipo({ plantaId: SP, capacidadePorSlot: 1000 })]))[0]!;
    const caminhos = [
      () =>
        acme('actions/criarAgendamento', {
          plantaId: SP,
          tipoAgendamentoId: tp.id,
          dataEsperada: '2026-03-10T12:00:00Z',
        }),
      reservar(tp.id, '2026-03-10T09:00:00-03:00'),
      () => patio('actions/cadastrarAgendamentoSimplificado', { plantaId: SP, tipoAgendamentoId: tp.id }),
    ];
    let ultimo = (await caminhos[0]!()).json().agenda.codigo as number;
    for (let r = 0; r < RODADAS; r++) {
      const respostas = await aoMesmoTempo(
        Array.from({ length: CONCORRENTES }, (_, k) => caminhos[k % caminhos.length]!),
      );
      for (const res of respostas) expect(res.statusCode, res.body).toBe(200);
      const codigos = respostas
        .map((res) => (res.json().agenda ?? res.json()).codigo as number)
        .sort((a, b) => a - b);
      expect(codigos).toEqual(Array.from({ length: CONCORRENTES }, (_, k) => ultimo + 1 + k));
      ultimo = codigos.at(-1)!;
    }
  });
});

describe(`the next version of an attachment (${RODADAS} rounds × ${CONCORRENTES} at once)`, () => {
  it('uploads of one name get distinct, consecutive versions', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const nomeAnexo = `nota-${r}.pdf`;
      const respostas = await aoMesmoTempo(
        Array.from({ length: CONCORRENTES }, () => () => acme('queries/obterUrlUploadAnexo', { nomeAnexo })),
      );
      for (const res of respostas) expect(res.statusCode, res.body).toBe(200);
      const versoes = respostas.map((res) => Number(res.json().versao)).sort((a, b) => a - b);
      expect(versoes).toEqual(Array.from({ length: CONCORRENTES }, (_, k) => k + 1));
    }
  });
});

const historicoDe = (ids: string[]) =>
  t.db.tenant('acme', (tx) =>
    new Store(tx, 'acme').select(agendaHistorico, inArray(agendaHistorico.agendaId, ids)),
  );

describe(`edits of the agenda and pre-agenda entities racing the state actions (${RODADAS} rounds × ${CONCORRENTES} at once)`, () => {
  it('edits never write back the state a start changed meanwhile', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const [a] = await seedAgendas(t, 'acme', [makeAgenda()]);
      const editar = (k: number) => () =>
        acme(`entities/agenda/${a!.id}`, { descricao: `edição ${k}` }, { method: 'PATCH' });
      const pedidos = [
        () => acme('actions/iniciarAgendamento', { agenda: a!.id }),
        ...Array.from({ length: CONCORRENTES - 1 }, (_, k) => editar(k)),
      ];
      const [inicio, ...edicoes] = await aoMesmoTempo(pedidos);
      expect(inicio!.statusCode, inicio!.body).toBe(200);
      // Each edit ran before the start or after it (the engine reads the row locked): all are served.
      for (const e of edicoes) expect(e.statusCode, e.body).toBe(200);
      const [row] = await t.db.tenant('acme', (tx) =>
        new Store(tx, 'acme').select(agenda, inArray(agenda.id, [a!.id])),
      );
      expect(row!.status).toBe('EXECUTANDO');
      expect((await historicoDe([a!.id])).map((h) => h.para)).toEqual(['EXECUTANDO']);
    }
  });

  it('a delete and a start of one agenda: exactly one of them happens', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const metade = CONCORRENTES / 2;
      const ids = (
        await seedAgendas(
          t,
          'acme',
          Array.from({ length: metade }, () => makeAgenda()),
        )
      ).map((a) => a.id);
      const pedidos = ids.flatMap((id) => [
        () => acme('actions/iniciarAgendamento', { agenda: id }),
        () => acme(`entities/agenda/${id}`, undefined, { method: 'DELETE' }),
      ]);
      const respostas = await aoMesmoTempo(pedidos);
      const restantes = await t.db.tenant('acme', (tx) =>
        new Store(tx, 'acme').select(agenda, inArray(agenda.id, ids)),
      );
      const historico = await historicoDe(ids);
      ids.forEach((id, k) => {
        const [inicio, exclusao] = [respostas[2 * k]!, respostas[2 * k + 1]!];
        const resumo = `${inicio.statusCode} ${inicio.body}\n${exclusao.statusCode} ${exclusao.body}`;
        const row = restantes.find((a) => a.id === id);
        if (exclusao.statusCode === 200) {
          expect(inicio.statusCode, resumo).toBe(404);
          expect(row, resumo).toBeUndefined();
          expect(historico.filter((h) => h.agendaId === id)).toHaveLength(0);
        } else {
          expect(inicio.statusCode, resumo).toBe(200);
          expect([409, 422], resumo).toContain(exclusao.statusCode);
          expect(row?.status, resumo).toBe('EXECUTANDO');
        }
      });
    }
  });

  it('edits of a pre-agenda never write back the state an approval changed meanwhile', async () => {
    for (let r = 0; r < RODADAS; r++) {
      const [p] = await seedPreAgendas(t, 'acme', [makePreAgenda({ status: 'PENDENTE' })]);
      const editar = (k: number) =>
        depois(2 * k, () =>
          acme(`entities/preAgenda/${p!.id}`, { observacao: `edição ${k}` }, { method: 'PATCH' }),
        );
      const [aprovacao, ...edicoes] = await aoMesmoTempo([
        () => acme('actions/aprovarPreAgenda', { preAgendaId: p!.id, aprovador: 'ana' }),
        ...Array.from({ length: CONCORRENTES - 1 }, (_, k) => editar(k)),
      ]);
      expect(aprovacao!.statusCode, aprovacao!.body).toBe(200);
      for (const e of edicoes) {
        if (e.statusCode === 200) continue;
        // Refused only when it came after the approval (no longer editable).
        expect(e.statusCode, e.body).toBe(409);
        expect(e.json().message).toMatch(/só pode ser editada em PENDENTE/);
      }
      expect((await preAgendaRow(t, 'acme', p!.id))!.status).toBe('APROVADA');
      expect((await logs(t, 'acme', p!.id)).at(-1)).toMatchObject({ acao: 'APROVACAO', para: 'APROVADA' });
    }
  });
});
