import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import {
  badField,
  cadastrosBasicos,
  entityCall,
  type OficinaCall,
  oficinaCall,
  ok200,
  saved,
} from './fixtures.ts';

// The seven queries of spec 001 §4.7 but visaoGeral (visao.test.ts): every optional filter, POST
// and GET, the computed fields (qtDias, kmDiferenca, qtDiferenca), ok false for a branch or sector
// the tenant does not hold (spec 001 §7), recPageRequest's limits, and tenant isolation.

const NOW = '2026-05-20T12:00:00.000Z';
let t: TestApp;
let acme: OficinaCall;
let globex: OficinaCall;

beforeAll(async () => {
  t = await testApp({ now: () => new Date(NOW) });
  const key = await t.tenant('acme');
  acme = oficinaCall(t, 'acme', key);
  const globexKey = await t.tenant('globex');
  globex = oficinaCall(t, 'globex', globexKey);
  await cadastrosBasicos(t, 'acme', key);
  await cadastrosBasicos(t, 'globex', globexKey);
  const lista = [
    {
      nrPlaca: 'ABC1D23',
      cdVeiculo: 100,
      cdCentroCusto: 10,
      cdEmpresa: 1,
      nrHodometro: 10000,
      dsMovimentacao: 'Saída para rota',
      hrMovimentacao: '2026-05-20T06:00:00Z',
    },
    {
      nrPlaca: 'DEF4G56',
      cdVeiculo: 200,
      cdCentroCusto: 20,
      cdEmpresa: 2,
      dsStatusOficina: 'GARAGEM',
      nrHodometro: 50000,
      dsMovimentacao: 'Entrada na oficina',
    },
  ];
  expect(ok200(await acme('actions/salvaListaVeiculos', { listaVeiculos: lista })).ok).toBe(true);
  // globex has a vehicle 100 too, with its own items: never seen by acme.
  expect(ok200(await globex('actions/salvaListaVeiculos', { listaVeiculos: [lista[0]] })).ok).toBe(true);
  const entity = entityCall(t, 'acme', key);
  const post = async (path: string, body: unknown) => ok200(await entity('POST', path, body));
  await post('pendencia', {
    cdPendenciaPk: 'P1',
    cdPendencia: 1,
    veiculo: 100,
    cdEmpresa: 1,
    dsPendencia: 'Farol queimado',
    qtTempoPrevisto: '01:00',
    inPrioridade: 1,
    inNotificacao: 1,
    dtAbertura: '2026-05-18T12:00:00Z',
    setor: 1,
  });
  await post('pendencia', {
    cdPendenciaPk: 'P2',
    cdPendencia: 2,
    veiculo: 200,
    dsPendencia: 'Pneu careca',
    qtTempoPrevisto: '00:30',
    inPrioridade: 2,
    dtAbertura: '2026-05-20T00:00:00Z',
    setor: 2,
  });
  await post('pendencia', {
    cdPendenciaPk: 'P3',
    cdPendencia: 3,
    veiculo: 100,
    dsPendencia: 'Farol de milha',
    qtTempoPrevisto: '00:30',
    inPrioridade: 2,
    dtAbertura: '2026-05-10T12:00:00Z',
    setor: 2,
  });
  await entityCall(t, 'globex', globexKey)('POST', 'pendencia', {
    cdPendenciaPk: 'G1',
    veiculo: 100,
    setor: 1,
  });
  await post('revisao', {
    cdRevisao: 'R1',
    dsRevisao: 'Revisão 10 mil km',
    veiculo: 100,
    nrHodometro: 10500,
    qtKmAviso: 1000,
    dtPrevisao: '2026-06-01T00:00:00Z',
    setor: 1,
  });
  await post('revisao', {
    cdRevisao: 'R2',
    dsRevisao: 'Revisão de freios',
    veiculo: 200,
    nrHodometro: 60000,
    setor: 2,
  });
  await saved(
    acme('actions/salvaManutencao', {
      cdManutencao: 'M1',
      dsManutencao: 'Troca de óleo',
      cdVeiculo: 100,
      cdSetor: 1,
      qtTempoPrevisto: 2,
      qtTempoRealizado: 3,
      dtAberturaOS: '2026-05-19T00:00:00Z',
    }),
  );
  await saved(
    acme('actions/salvaManutencao', {
      cdManutencao: 'M2',
      dsManutencao: 'Alinhamento',
      cdVeiculo: 200,
      cdSetor: 2,
      dtAberturaOS: '2026-05-20T00:00:00Z',
    }),
  );
});

/** The codes a query answers, by POST and by GET (the same filters as a query string). */
async function codes(op: string, list: string, key: string, filters: Record<string, unknown>) {
  const post = ok200(await acme(`queries/${op}`, filters));
  const query = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, String(v)]));
  const get = ok200(await acme(`queries/${op}`, undefined, { method: 'GET', query }));
  expect(get).toEqual(post);
  expect(post.ok).toBe(true);
  return post[list].map((r: Record<string, unknown>) => r[key]);
}

describe('buscaPendencias', () => {
  it('answers each item with its vehicle and qtDias computed from the opening date', async () => {
    const { listaPendencias } = ok200(await acme('queries/buscaPendencias', { cdPendencia: 'P1' }));
    expect(listaPendencias).toEqual([
      {
        cdPendenciapk: 'P1',
        cdPendencia: 1,
        cdEmpresa: 1,
        cdVeiculo: 100,
        nrPlaca: 'ABC1D23',
        dsPendencia: 'Farol queimado',
        qtTempoPrevisto: '01:00',
        inPrioridade: 1,
        inNotificacao: 1,
        dsMovimentacao: 'Saída para rota',
        hrMovimentacao: '2026-05-20T06:00:00.000Z',
        dtAberturaPen: '2026-05-18T12:00:00.000Z',
        qtDias: 2,
        cdSetor: 1,
      },
    ]);
    const [p2] = ok200(await acme('queries/buscaPendencias', { cdPendencia: 'P2' })).listaPendencias;
    expect(p2.qtDias).toBe(0.5);
    expect(p2.cdEmpresa).toBe(2); // the vehicle's branch: the item names none
  });

  it.each([
    [{}, ['P3', 'P1', 'P2']],
    [{ cdPendencia: 'P2' }, ['P2']],
    [{ cdPendencia: '3' }, ['P3']],
    [{ cdVeiculo: 100 }, ['P3', 'P1']],
    [{ dsPendencia: 'FAROL' }, ['P3', 'P1']],
    [{ qtTempoPrevisto: '00:30' }, ['P3', 'P2']],
    [{ inPrioridade: 2 }, ['P3', 'P2']],
    [{ cdEmpresa: 2 }, ['P2']],
    [{ cdEmpresa: 1 }, ['P3', 'P1']],
    [{ dsMovimentacao: 'oficina' }, ['P2']],
    [{ cdSetores: '2' }, ['P3', 'P2']],
    [{ cdSetores: '1, 2' }, ['P3', 'P1', 'P2']],
    [{ cdSetores: '2', cdVeiculo: 100, inPrioridade: 2 }, ['P3']],
    [{ dsPendencia: '%' }, []],
  ])('filters %j', async (filters, expected) => {
    expect(await codes('buscaPendencias', 'listaPendencias', 'cdPendenciapk', filters)).toEqual(expected);
  });
});

describe('buscaRevisoes', () => {
  it('answers kmDiferenca: the km left to the review', async () => {
    const { listaRevisoes } = ok200(await acme('queries/buscaRevisoes', { cdRevisao: 'R1' }));
    expect(listaRevisoes).toEqual([
      {
        cdRevisao: 'R1',
        cdVeiculo: 100,
        dtPrevisao: '2026-06-01T00:00:00.000Z',
        nrPlaca: 'ABC1D23',
        dsRevisao: 'Revisão 10 mil km',
        nrHodometro: 10500,
        qtKmAviso: 1000,
        hrMovimentacao: '2026-05-20T06:00:00.000Z',
        dsMovimentacao: 'Saída para rota',
        kmDiferenca: 500,
        cdEmpresa: 1,
        cdSetor: 1,
      },
    ]);
  });

  it('finds a review by its id (the revisao entity id)', async () => {
    const id = ok200(await acme("entities/revisao?filter=cdRevisao eq 'R2'", undefined, { method: 'GET' }));
    const idRevisao = (id.contents ?? id.items ?? id)[0].id;
    expect(await codes('buscaRevisoes', 'listaRevisoes', 'cdRevisao', { idRevisao })).toEqual(['R2']);
  });

  it.each([
    [{}, ['R1', 'R2']],
    [{ cdRevisao: 'R2' }, ['R2']],
    [{ cdVeiculo: 200 }, ['R2']],
    [{ nrPlaca: 'abc1d23' }, ['R1']],
    [{ dsRevisao: 'freios' }, ['R2']],
    [{ cdEmpresa: 2 }, ['R2']],
    [{ cdSetores: '1' }, ['R1']],
    [{ cdSetores: '1', nrPlaca: 'DEF4G56' }, []],
  ])('filters %j', async (filters, expected) => {
    expect(await codes('buscaRevisoes', 'listaRevisoes', 'cdRevisao', filters)).toEqual(expected);
  });
});

describe('buscaManutencoes', () => {
  it('answers qtDiferenca: hours done − planned', async () => {
    const [m1] = ok200(await acme('queries/buscaManutencoes', { cdManutencao: 'M1' })).listaManutencoes;
    expect(m1).toMatchObject({ qtTempoPrevisto: 2, qtTempoRealizado: 3, qtDiferenca: 1, nrPlaca: 'ABC1D23' });
    const [m2] = ok200(await acme('queries/buscaManutencoes', { cdManutencao: 'M2' })).listaManutencoes;
    expect(m2.qtDiferenca).toBeUndefined();
  });

  it.each([
    [{}, ['M1', 'M2']],
    [{ cdManutencao: 'M2' }, ['M2']],
    [{ cdEmpresa: 1 }, ['M1']],
    [{ dsManutencao: 'óleo' }, ['M1']],
    [{ cdVeiculo: 200 }, ['M2']],
    [{ nrPlaca: 'DEF4G56' }, ['M2']],
    [{ cdSetores: '1,2' }, ['M1', 'M2']],
    [{ cdSetores: '2' }, ['M2']],
  ])('filters %j', async (filters, expected) => {
    expect(await codes('buscaManutencoes', 'listaManutencoes', 'cdManutencao', filters)).toEqual(expected);
  });
});

describe('buscaFilial, buscaCentroCusto, buscaSetor', () => {
  it.each([
    ['buscaFilial', 'listaFiliais', 'cdEmpresa', {}, [1, 2]],
    ['buscaFilial', 'listaFiliais', 'cdEmpresa', { cdEmpresa: 2 }, [2]],
    ['buscaFilial', 'listaFiliais', 'cdEmpresa', { dsEmpresa: 'curitiba' }, [1]],
    ['buscaCentroCusto', 'listaCentroCusto', 'cdCentroCusto', {}, [10, 20, 30]],
    ['buscaCentroCusto', 'listaCentroCusto', 'cdCentroCusto', { cdCentroCusto: 20 }, [20]],
    ['buscaCentroCusto', 'listaCentroCusto', 'cdCentroCusto', { dsCentroCusto: 'frota' }, [10, 20]],
    ['buscaSetor', 'listaSetores', 'cdSetor', {}, [1, 2]],
    ['buscaSetor', 'listaSetores', 'cdSetor', { cdSetor: 1 }, [1]],
    ['buscaSetor', 'listaSetores', 'cdSetor', { dsSetor: 'PNEU' }, [2]],
  ] as const)('%s %j', async (op, list, key, filters, expected) => {
    expect(await codes(op, list, key, filters)).toEqual(expected);
  });

  it('a cost centre comes with its vehicles running and in the garage', async () => {
    const { listaCentroCusto } = ok200(await acme('queries/buscaCentroCusto', {}));
    expect(listaCentroCusto).toEqual([
      {
        cdCentroCusto: 10,
        dsCentroCusto: 'Frota Pesada',
        inExibePainelOfi: 1,
        rodando: 1,
        garagem: 0,
        total: 1,
      },
      {
        cdCentroCusto: 20,
        dsCentroCusto: 'Frota Leve',
        inExibePainelOfi: 1,
        rodando: 0,
        garagem: 1,
        total: 1,
      },
      { cdCentroCusto: 30, dsCentroCusto: 'Reserva', inExibePainelOfi: 0, rodando: 0, garagem: 0, total: 0 },
    ]);
    expect(ok200(await acme('queries/buscaFilial', { cdEmpresa: 1 })).listaFiliais).toEqual([
      { cdEmpresa: 1, dsEmpresa: 'Matriz Curitiba' },
    ]);
  });
});

describe('failures inside the answer (spec 001 §7)', () => {
  it.each([
    ['buscaPendencias', 'listaPendencias', { cdEmpresa: 9 }, 'Filial 9 não cadastrada'],
    ['buscaRevisoes', 'listaRevisoes', { cdSetores: '1,8,9' }, 'Setores não cadastrados: 8, 9'],
    ['buscaManutencoes', 'listaManutencoes', { cdSetores: '8' }, 'Setor 8 não cadastrado'],
  ])('%s %j: ok false, dsErro, an empty list', async (op, list, filters, dsErro) => {
    expect(ok200(await acme(`queries/${op}`, filters))).toEqual({ ok: false, dsErro, [list]: [] });
  });
});

describe('malformed requests and limits', () => {
  it.each([
    ['buscaPendencias', { cdSetores: '1;2' }, 'cdSetores'],
    ['buscaPendencias', { cdSetores: '' }, 'cdSetores'],
    ['buscaPendencias', { cdVeiculo: 'abc' }, 'cdVeiculo'],
    ['buscaRevisoes', { idRevisao: 1.5 }, 'idRevisao'],
    ['buscaManutencoes', { nrPlaca: 'X'.repeat(11) }, 'nrPlaca'],
    ['buscaSetor', { offset: -1 }, 'offset'],
    ['buscaFilial', { size: 0 }, 'size'],
    ['buscaCentroCusto', { size: 1001 }, 'size'],
  ])('%s %j: 400 naming the field', async (op, body, field) => {
    badField(await acme(`queries/${op}`, body), field);
  });

  it('pages: offset is the page index, size the rows per page', async () => {
    const page = async (offset: number, size: number) =>
      codes('buscaPendencias', 'listaPendencias', 'cdPendenciapk', { offset, size });
    expect(await page(0, 2)).toEqual(['P3', 'P1']);
    expect(await page(1, 2)).toEqual(['P2']);
    expect(await page(2, 2)).toEqual([]);
    expect(await page(0, 1)).toEqual(['P3']);
  });
});

describe('tenant isolation', () => {
  it("another tenant's items are never seen", async () => {
    const pend = ok200(await globex('queries/buscaPendencias', {})).listaPendencias;
    expect(pend.map((p: { cdPendenciapk: string }) => p.cdPendenciapk)).toEqual(['G1']);
    expect(ok200(await globex('queries/buscaRevisoes', {})).listaRevisoes).toEqual([]);
    expect(ok200(await globex('queries/buscaManutencoes', { cdManutencao: 'M1' })).listaManutencoes).toEqual(
      [],
    );
    expect(await codes('buscaPendencias', 'listaPendencias', 'cdPendenciapk', { cdPendencia: 'G1' })).toEqual(
      [],
    );
  });
});
