import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, CONCORRENTES, RODADAS, umVencedor } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';

// The contended decisions of gct_historicoprocesso (docs/gct_historicoprocesso.md): a run ends
// once (one conditional UPDATE), and a start repeated with its chaveExecucao is one run (the unique
// index). Many requests at once, each in its own transaction on PostgreSQL; on PGlite they run one
// after the other and the same answers hold.

const GCT = 'erp_cge/gct_historicoprocesso';

let t: TestApp;
let key: string;

const post = (op: string, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/t/acme/bridge/1.0/rest/${GCT}/actions/${op}`,
    headers: { authorization: key, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const inicio = (chaveExecucao?: string) => ({
  empresa: 1,
  filial: 1,
  processo: 'FECHAMENTO',
  dataInicio: '2026-11-01',
  dataFinal: '2026-11-30',
  ...(chaveExecucao ? { chaveExecucao } : {}),
});

beforeAll(async () => {
  t = await testApp({ db: await bancoDeCorrida() });
  key = await t.tenant('acme');
});

describe('gct_historicoprocesso races', () => {
  it('of concurrent endings of one run (finish and interrupt), exactly one wins; the rest are 409', async () => {
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const id = (await post('iniciarProcesso', inicio())).json().id;
      const respostas = await aoMesmoTempo(
        Array.from(
          { length: CONCORRENTES },
          (_, i) => () =>
            i % 2 ? post('finalizarProcesso', { id }) : post('interromperProcesso', { id, motivo: `r${i}` }),
        ),
      );
      const vencedor = umVencedor(respostas, { status: 409, mensagem: /already (Finalizado|Interrompido)/ });
      const hist = await t.app.inject({
        method: 'POST',
        url: `/t/acme/bridge/1.0/rest/${GCT}/queries/obterHistorico`,
        headers: { authorization: key, 'content-type': 'application/json' },
        payload: JSON.stringify({
          parametros: {
            empresa: 1,
            filial: 1,
            processo: 'FECHAMENTO',
            dataInicial: '2026-11-01',
            dataFinal: '2026-11-30',
          },
        }),
      });
      const run = hist.json().execucao.find((e: { id: string }) => e.id === id);
      expect(run.situacao).toBe(vencedor % 2 ? 'Finalizado' : 'Interrompido');
    }
  });

  it('of concurrent starts with one chaveExecucao, exactly one run is made; the rest are 409', async () => {
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const respostas = await aoMesmoTempo(
        Array.from({ length: CONCORRENTES }, () => () => post('iniciarProcesso', inicio(`k${rodada}`))),
      );
      umVencedor(respostas, { status: 409, mensagem: new RegExp(`chaveExecucao k${rodada}`) });
    }
  });
});
