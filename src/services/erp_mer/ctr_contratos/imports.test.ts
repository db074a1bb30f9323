import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { importFile, upload } from '../../../../test/transfers.ts';

// End to end through upload, import<X> and the job: payment plans and holidays into com_comum,
// contracts with their items into ctr_contratos, their installments asked for; and each import,
// being a Ponte job, in gct_historicoprocesso's history as a finished run of its process.

let t: TestApp;
let key: string;

const importar = async (address: string, fileName: string, content: string) => {
  const arquivo = await upload(t, 'acme', key, fileName, content);
  return importFile(t, 'acme', key, address, { arquivo });
};

beforeAll(async () => {
  t = await testApp();
  key = await t.tenant('acme');
});

describe('importing contracts, plans and holidays', () => {
  it('feeds the installments of the imported contracts, and each import is a run in the history', async () => {
    const cond = await importar(
      'erp_agr/com_comum/actions/importCondicaoPagamento',
      'cond.csv',
      'codigo,descricao\n2X,Duas vezes\n',
    );
    expect(cond.status).toMatchObject({ state: 'done', succeeded: 1 });
    const plano = await importar(
      'erp_agr/com_comum/actions/importCondicaoPagamentoParcela',
      'plano.csv',
      'codigoCondicaoPagamento,sequencia,dias,percentual\n2X,1,0,50\n2X,2,30,50\n2X,3,60,0\n',
    );
    // the 0% line breaks the schema (percentual > 0): that row alone is refused
    expect(plano.status).toMatchObject({ state: 'done', succeeded: 2, failed: 1 });
    const feriados = await importar(
      'erp_agr/com_comum/actions/importFeriado',
      'feriados.csv',
      'data,descricao\n2026-03-02,Carnaval\n',
    );
    expect(feriados.status).toMatchObject({ state: 'done', succeeded: 1 });
    const contratos = await importar(
      'erp_mer/ctr_contratos/actions/importContratoVenda',
      'contratos.jsonl',
      [
        {
          empresa: 1,
          filial: 1,
          contratoVenda: 77,
          condicaoPagamento: '2X',
          dataBase: '2026-01-31',
          itens: [{ sequenciaItem: 1, produto: true, codigo: 'MILHO', valor: 0.03 }],
        },
        { empresa: 1, filial: 1, contratoVenda: 78, dataBase: '2026-01-31', itens: 'nada' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    expect(contratos.status).toMatchObject({ state: 'done', succeeded: 1, failed: 1 });

    const res = await t.call(
      'acme',
      'erp_mer/ctr_contratos/queries/obterParcelasContratoVenda',
      { contratosVenda: [{ empresa: 1, filial: 1, contratoVenda: 77, _discriminator: 'recContratoVenda' }] },
      { auth: key },
    );
    expect(res.statusCode).toBe(200);
    // 2026-01-31 is a Saturday → Monday 02-02; +30 is 03-02, the imported holiday → 03-03
    expect(res.json().contratosVendaComParcelas[0].parcelasContratoVenda).toEqual([
      {
        sequenciaParcela: 1,
        valor: 0.01,
        vencimento: '2026-01-31',
        vencimentoUtil: '2026-02-02',
        produto: true,
        sequenciaItem: 1,
      },
      {
        sequenciaParcela: 2,
        valor: 0.02,
        vencimento: '2026-03-02',
        vencimentoUtil: '2026-03-03',
        produto: true,
        sequenciaItem: 1,
      },
    ]);

    const hist = await t.call(
      'acme',
      'erp_cge/gct_historicoprocesso/queries/obterHistorico',
      {
        parametros: {
          empresa: 1,
          filial: 1,
          processo: 'erp_mer/ctr_contratos/importContratoVenda',
          dataInicial: '2020-01-01',
          dataFinal: '2099-12-31',
          situacao: ['Finalizado'],
        },
      },
      { auth: key },
    );
    expect(hist.statusCode).toBe(200);
    const runs = hist.json().execucao;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ situacao: 'Finalizado', fimProcessamento: expect.any(String) });
    expect(runs[0].dataInicio).toBe(runs[0].dataFinal);
  });
});
