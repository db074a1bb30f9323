import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, CONCORRENTES, RODADAS, umVencedor } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { cotApi, makeItem } from './fixtures.ts';

// The contended decisions of cot_cotacao (docs/cot_cotacao.md), each request in a transaction of its
// own on PostgreSQL: one purchase need in one open quotation (the partial unique index decides), and
// cancellations of every need of one quotation at once (the quotation's row lock makes the last one
// see the others, so the quotation ends cancelled). PGlite runs one transaction at a time, so this
// runs only with DATABASE_URL (cotacoes.test.ts covers both rules on both engines).

describe.skipIf(!process.env.DATABASE_URL)('quotations raced', () => {
  let t: TestApp;
  let acme: ReturnType<typeof cotApi>;

  beforeAll(async () => {
    t = await testApp({ db: await bancoDeCorrida() });
    acme = cotApi(t, 'acme', await t.tenant('acme'));
  });

  it(`${CONCORRENTES} criarCotacao of one need at once: one quotation, the others 409`, async () => {
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const need = makeItem();
      const respostas = await aoMesmoTempo(
        Array.from({ length: CONCORRENTES }, () => () => acme.criar([makeItem(), need])),
      );
      umVencedor(respostas, { status: 409, mensagem: /open quotation/ });
    }
  });

  it(`${CONCORRENTES} cancelarCotacao, one per need of one quotation, at once: the quotation ends cancelled`, async () => {
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const itens = Array.from({ length: CONCORRENTES }, () => makeItem());
      const { idCotacao } = (await acme.criar(itens)).json();
      const respostas = await aoMesmoTempo(
        itens.map((i) => () => acme.cancelar([String(i.idNecessidadeCompra)])),
      );
      for (const r of respostas) expect(r.statusCode, r.body).toBe(200);
      const got = (await acme.entity('GET', `cotacao/${idCotacao}`)).json();
      expect(got.situacao).toBe('Cancelada');
      expect(got.itens.every((i: { situacao: string }) => i.situacao === 'Cancelada')).toBe(true);
    }
  });
});
