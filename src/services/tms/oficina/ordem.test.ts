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

// recPageRequest's orderBy on the six lists of spec 001 §4.7 (ordem.ts; docs/oficina.md "Paging"):
// fields of the listed record, ASC or DESC, several in turn, the list's own order breaking ties,
// with paging; a field the record does not have (or anything that is not a field name) is a 400
// naming it.

const NOW = '2026-05-20T12:00:00.000Z';
let t: TestApp;
let acme: OficinaCall;

beforeAll(async () => {
  t = await testApp({ now: () => new Date(NOW) });
  const key = await t.tenant('acme');
  acme = oficinaCall(t, 'acme', key);
  await cadastrosBasicos(t, 'acme', key);
  const veiculos = [
    { nrPlaca: 'AAA0A01', cdVeiculo: 1, cdCentroCusto: 10, cdEmpresa: 1, nrHodometro: 10_000 },
    { nrPlaca: 'AAA0A02', cdVeiculo: 2, cdCentroCusto: 10, cdEmpresa: 2, nrHodometro: 20_000 },
    { nrPlaca: 'AAA0A03', cdVeiculo: 3, cdCentroCusto: 20, cdEmpresa: 1, nrHodometro: 30_000 },
    { nrPlaca: 'AAA0A04', cdVeiculo: 4, cdCentroCusto: 10, dsStatusOficina: 'GARAGEM', nrHodometro: 5 },
  ];
  ok200(await acme('actions/salvaListaVeiculos', { listaVeiculos: veiculos }));
  const entity = entityCall(t, 'acme', key);
  // Pending items P1..P5: vehicles 3,1,2,1,3; opened 5,1,3,2,4 days ago.
  const pend: Array<[number, number]> = [
    [3, 5],
    [1, 1],
    [2, 3],
    [1, 2],
    [3, 4],
  ];
  for (const [i, [veiculo, dias]] of pend.entries()) {
    const dtAbertura = new Date(Date.parse(NOW) - dias * 86_400_000).toISOString();
    ok200(await entity('POST', 'pendencia', { cdPendenciaPk: `P${i + 1}`, veiculo, dtAbertura, setor: 1 }));
  }
  // Reviews R1..R3 at km 12,000 (vehicle 1: 2,000 left), 21,000 (vehicle 2: 1,000), 40,000 (vehicle 3: 10,000).
  for (const [i, [veiculo, km]] of [
    [1, 12_000],
    [2, 21_000],
    [3, 40_000],
  ].entries()) {
    const dtPrevisao = `2026-06-0${3 - i}T00:00:00Z`;
    ok200(await entity('POST', 'revisao', { cdRevisao: `R${i + 1}`, veiculo, nrHodometro: km, dtPrevisao }));
  }
  for (const [cd, previsto, realizado] of [
    ['M1', 2, 5],
    ['M2', 4, 3],
    ['M3', 1, 1],
  ] as const) {
    const body = { cdManutencao: cd, cdVeiculo: 1, qtTempoPrevisto: previsto, qtTempoRealizado: realizado };
    await saved(acme('actions/salvaManutencao', { ...body, dtAberturaOS: '2026-05-19T00:00:00Z' }));
  }
});

type Order = Array<{ field: string; order: 'ASC' | 'DESC' }>;
const lista = async (op: string, list: string, key: string, orderBy?: Order, page: object = {}) => {
  const res = ok200(await acme(`queries/${op}`, { ...(orderBy ? { orderBy } : {}), ...page }));
  expect(res.ok).toBe(true);
  return res[list].map((r: Record<string, unknown>) => r[key]);
};

describe('recPageRequest orderBy', () => {
  it('orders pending items by a computed field, either way, and by several fields in turn', async () => {
    const by = (orderBy?: Order, page?: object) =>
      lista('buscaPendencias', 'listaPendencias', 'cdPendenciapk', orderBy, page);
    // Without orderBy: the list's own order (opening date).
    expect(await by()).toEqual(['P1', 'P5', 'P3', 'P4', 'P2']);
    expect(await by([{ field: 'qtDias', order: 'ASC' }])).toEqual(['P2', 'P4', 'P3', 'P5', 'P1']);
    expect(await by([{ field: 'qtDias', order: 'DESC' }])).toEqual(['P1', 'P5', 'P3', 'P4', 'P2']);
    // By vehicle (descending), then ties by opening date, newest first.
    const dois: Order = [
      { field: 'cdVeiculo', order: 'DESC' },
      { field: 'dtAberturaPen', order: 'DESC' },
    ];
    expect(await by(dois)).toEqual(['P5', 'P1', 'P3', 'P2', 'P4']);
    // Ties left by the fields asked fall back on the list's own order.
    expect(await by([{ field: 'cdVeiculo', order: 'ASC' }])).toEqual(['P4', 'P2', 'P3', 'P1', 'P5']);
    // Pages follow the order asked.
    expect(await by(dois, { offset: 1, size: 2 })).toEqual(['P3', 'P2']);
  });

  it('orders reviews, maintenances and the registers by their records’ fields', async () => {
    const rev = (o: Order) => lista('buscaRevisoes', 'listaRevisoes', 'cdRevisao', o);
    expect(await rev([])).toEqual(['R3', 'R2', 'R1']);
    expect(await rev([{ field: 'kmDiferenca', order: 'ASC' }])).toEqual(['R2', 'R1', 'R3']);
    expect(await rev([{ field: 'cdRevisao', order: 'ASC' }])).toEqual(['R1', 'R2', 'R3']);
    const man = (o: Order) => lista('buscaManutencoes', 'listaManutencoes', 'cdManutencao', o);
    expect(await man([{ field: 'qtDiferenca', order: 'DESC' }])).toEqual(['M1', 'M3', 'M2']);
    expect(await man([{ field: 'qtTempoPrevisto', order: 'ASC' }])).toEqual(['M3', 'M1', 'M2']);
    const filiais = (o: Order) => lista('buscaFilial', 'listaFiliais', 'cdEmpresa', o);
    expect(await filiais([{ field: 'dsEmpresa', order: 'ASC' }])).toEqual([2, 1]);
    const setores = (o: Order) => lista('buscaSetor', 'listaSetores', 'cdSetor', o);
    expect(await setores([{ field: 'cdSetor', order: 'DESC' }])).toEqual([2, 1]);
    const centros = (o: Order) => lista('buscaCentroCusto', 'listaCentroCusto', 'cdCentroCusto', o);
    // Centre 10: 3 vehicles (2 running), 20: 1 running, 30: none.
    expect(await centros([{ field: 'total', order: 'DESC' }])).toEqual([10, 20, 30]);
    expect(await centros([{ field: 'rodando', order: 'ASC' }])).toEqual([30, 20, 10]);
    expect(await centros([{ field: 'garagem', order: 'DESC' }])).toEqual([10, 20, 30]);
  });

  it('refuses a field the record does not have, naming it, and an order other than ASC or DESC', async () => {
    const bad = (op: string, orderBy: unknown) => acme(`queries/${op}`, { orderBy });
    badField(await bad('buscaPendencias', [{ field: 'nrOS', order: 'ASC' }]), "'nrOS'");
    badField(await bad('buscaManutencoes', [{ field: 'cd_manutencao', order: 'ASC' }]), "'cd_manutencao'");
    badField(await bad('buscaRevisoes', [{ field: 'cdRevisao; drop table x', order: 'ASC' }]), 'drop table');
    badField(await bad('buscaSetor', [{ field: 'toString', order: 'ASC' }]), "'toString'");
    badField(await bad('buscaFilial', [{ field: 'dsEmpresa', order: 'UP' }]), 'order');
    badField(await bad('buscaCentroCusto', [{ order: 'ASC' }]), 'field');
    badField(await bad('buscaPendencias', 'qtDias'), 'orderBy');
    // GET carries offset and size; orderBy, an array of records, only by POST.
    const get = { method: 'GET' as const, query: { orderBy: 'qtDias' } };
    badField(await acme('queries/buscaPendencias', undefined, get), 'orderBy');
    // Nothing changed: the lists answer as before.
    expect(await lista('buscaSetor', 'listaSetores', 'cdSetor')).toEqual([1, 2]);
  });
});
