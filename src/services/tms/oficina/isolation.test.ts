import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { entityCall, type OficinaCall, oficinaCall, ok200, saved } from './fixtures.ts';

// Tenants apart (issue 17; docs/oficina.md "Saving and removing"): two tenants hold records with the
// same codes (branch 1, cost centre 10, sector 1, vehicle 100, items P1, R1, M1), told apart by
// their descriptions, plates and numbers; globex also holds codes acme does not (9, 90, 900, P9, R9,
// M9). Every query answers the calling tenant's rows only, with its own vehicles joined and counted;
// every save and remove given the other tenant's codes is a 404 (a removal) or ok false (a save
// naming a reference) and changes nothing in either tenant; a save or remove of a code both hold
// touches the caller's row only, and what it counts (a centre's vehicles, a sector's items, the next
// vehicle code) is the caller's.

const NOW = '2026-05-20T12:00:00.000Z';
const ENTITIES = ['filial', 'centroCusto', 'setor', 'veiculo', 'pendencia', 'revisao', 'manutencao'];

let t: TestApp;
let acme: OficinaCall;
let globex: OficinaCall;
const keys: Record<string, string> = {};

const list = (body: unknown) =>
  (Array.isArray(body) ? body : ((body as { contents?: unknown[] }).contents ?? [])) as Array<
    Record<string, unknown>
  >;

/** Every record of the tenant, entity by entity (audit fields included), in id order. */
async function state(tenant: string) {
  const entity = entityCall(t, tenant, keys[tenant]!);
  const out: Record<string, unknown> = {};
  for (const name of ENTITIES)
    out[name] = list(ok200(await entity('GET', `${name}?size=1000&orderby=id asc`)));
  return out;
}

/** One tenant's records with the shared codes, and the numbers that tell it apart. */
async function carrega(tenant: string, n: { km: number; oficina: 'RODANDO' | 'GARAGEM'; dias: number }) {
  const T = tenant === 'acme' ? 'Acme' : 'Globex';
  const call = oficinaCall(t, tenant, keys[tenant]!);
  const entity = entityCall(t, tenant, keys[tenant]!);
  const post = async (path: string, body: unknown) => ok200(await entity('POST', path, body));
  await post('filial', { cdEmpresa: 1, dsEmpresa: `${T} Matriz` });
  await saved(call('actions/salvaCentroCusto', { cdCentroCusto: 10, dsCentroCusto: `${T} Pesada` }));
  await saved(call('actions/salvaSetor', { cdSetor: 1, dsSetor: `${T} Elétrica` }));
  const placa = `${T.slice(0, 3).toUpperCase()}0100`;
  ok200(
    await call('actions/salvaListaVeiculos', {
      listaVeiculos: [
        {
          cdVeiculo: 100,
          nrPlaca: placa,
          cdCentroCusto: 10,
          cdEmpresa: 1,
          nrHodometro: n.km,
          dsStatusOficina: n.oficina,
          dsMovimentacao: `${T} rota`,
        },
      ],
    }),
  );
  await post('pendencia', {
    cdPendenciaPk: 'P1',
    cdPendencia: 1,
    veiculo: 100,
    setor: 1,
    dsPendencia: `${T} farol`,
    dtAbertura: new Date(Date.parse(NOW) - n.dias * 86_400_000).toISOString(),
  });
  await post('revisao', {
    cdRevisao: 'R1',
    veiculo: 100,
    setor: 1,
    nrHodometro: 80_000,
    dsRevisao: `${T} 80 mil`,
  });
  await saved(
    call('actions/salvaManutencao', {
      cdManutencao: 'M1',
      cdVeiculo: 100,
      cdSetor: 1,
      dsManutencao: `${T} óleo`,
      qtTempoPrevisto: 2,
      qtTempoRealizado: n.dias,
    }),
  );
  return placa;
}

beforeAll(async () => {
  t = await testApp({ now: () => new Date(NOW) });
  keys.acme = await t.tenant('acme');
  keys.globex = await t.tenant('globex');
  acme = oficinaCall(t, 'acme', keys.acme);
  globex = oficinaCall(t, 'globex', keys.globex);
  // acme's vehicle 100 runs, 70,000 km before its review; globex's is in the garage, past it.
  await carrega('acme', { km: 10_000, oficina: 'RODANDO', dias: 1 });
  await carrega('globex', { km: 85_000, oficina: 'GARAGEM', dias: 3 });
  // globex only: more of its own in the shared codes, and codes acme does not hold.
  const entity = entityCall(t, 'globex', keys.globex);
  ok200(await entity('POST', 'filial', { cdEmpresa: 9, dsEmpresa: 'Globex Norte' }));
  await saved(globex('actions/salvaCentroCusto', { cdCentroCusto: 90, dsCentroCusto: 'Globex Leve' }));
  await saved(globex('actions/salvaSetor', { cdSetor: 9, dsSetor: 'Globex Pneus' }));
  ok200(
    await globex('actions/salvaListaVeiculos', {
      listaVeiculos: [
        { cdVeiculo: 101, nrPlaca: 'GLX0101', cdCentroCusto: 10, cdEmpresa: 1, dsStatusOficina: 'GARAGEM' },
        { cdVeiculo: 900, nrPlaca: 'GLX0900', cdCentroCusto: 90, cdEmpresa: 9 },
      ],
    }),
  );
  ok200(await entity('POST', 'pendencia', { cdPendenciaPk: 'P2', veiculo: 101, setor: 1 }));
  ok200(await entity('POST', 'pendencia', { cdPendenciaPk: 'P9', veiculo: 900, setor: 9 }));
  ok200(await entity('POST', 'revisao', { cdRevisao: 'R9', veiculo: 900, setor: 9, nrHodometro: 1 }));
  await saved(globex('actions/salvaManutencao', { cdManutencao: 'M9', cdVeiculo: 900, cdSetor: 9 }));
});

describe('the queries answer the calling tenant’s rows only', () => {
  it('buscaFilial, buscaCentroCusto, buscaSetor: the same codes, each tenant its own', async () => {
    for (const [call, T] of [
      [acme, 'Acme'],
      [globex, 'Globex'],
    ] as const) {
      for (const filtro of [{}, { cdEmpresa: 1 }]) {
        const filiais = ok200(await call('queries/buscaFilial', filtro)).listaFiliais;
        expect(filiais[0], T).toEqual({ cdEmpresa: 1, dsEmpresa: `${T} Matriz` });
      }
      const setores = ok200(await call('queries/buscaSetor', { cdSetor: 1 })).listaSetores;
      expect(setores).toEqual([{ cdSetor: 1, dsSetor: `${T} Elétrica` }]);
      const [centro] = ok200(await call('queries/buscaCentroCusto', { cdCentroCusto: 10 })).listaCentroCusto;
      // acme: its one vehicle, running; globex: its two, in the garage.
      expect(centro).toEqual(
        T === 'Acme'
          ? {
              cdCentroCusto: 10,
              dsCentroCusto: 'Acme Pesada',
              inExibePainelOfi: 1,
              rodando: 1,
              garagem: 0,
              total: 1,
            }
          : {
              cdCentroCusto: 10,
              dsCentroCusto: 'Globex Pesada',
              inExibePainelOfi: 1,
              rodando: 0,
              garagem: 2,
              total: 2,
            },
      );
    }
    // Unfiltered, acme sees its own register only; globex's other codes are nowhere.
    expect(ok200(await acme('queries/buscaFilial', {})).listaFiliais).toEqual([
      { cdEmpresa: 1, dsEmpresa: 'Acme Matriz' },
    ]);
    expect(
      ok200(await acme('queries/buscaCentroCusto', {})).listaCentroCusto.map(
        (c: { cdCentroCusto: number }) => c.cdCentroCusto,
      ),
    ).toEqual([10]);
    expect(ok200(await acme('queries/buscaSetor', {})).listaSetores).toEqual([
      { cdSetor: 1, dsSetor: 'Acme Elétrica' },
    ]);
    for (const [op, filtro, lista] of [
      ['buscaFilial', { cdEmpresa: 9 }, 'listaFiliais'],
      ['buscaFilial', { dsEmpresa: 'globex' }, 'listaFiliais'],
      ['buscaCentroCusto', { cdCentroCusto: 90 }, 'listaCentroCusto'],
      ['buscaCentroCusto', { dsCentroCusto: 'globex' }, 'listaCentroCusto'],
      ['buscaSetor', { cdSetor: 9 }, 'listaSetores'],
      ['buscaSetor', { dsSetor: 'globex' }, 'listaSetores'],
    ] as const) {
      expect(ok200(await acme(`queries/${op}`, filtro))[lista], `${op} ${JSON.stringify(filtro)}`).toEqual(
        [],
      );
    }
  });

  it('buscaPendencias, buscaRevisoes, buscaManutencoes: the items of the same codes, with the tenant’s own vehicle', async () => {
    for (const [call, T, placa, km, dias] of [
      [acme, 'Acme', 'ACM0100', 10_000, 1],
      [globex, 'Globex', 'GLO0100', 85_000, 3],
    ] as const) {
      const pend = ok200(await call('queries/buscaPendencias', { cdPendencia: 'P1' })).listaPendencias;
      expect(pend).toHaveLength(1);
      expect(pend[0]).toMatchObject({
        cdPendenciapk: 'P1',
        cdVeiculo: 100,
        nrPlaca: placa,
        dsPendencia: `${T} farol`,
        dsMovimentacao: `${T} rota`,
        cdEmpresa: 1,
        qtDias: dias,
      });
      const rev = ok200(
        await call('queries/buscaRevisoes', { cdRevisao: 'R1', cdVeiculo: 100 }),
      ).listaRevisoes;
      expect(rev).toHaveLength(1);
      expect(rev[0]).toMatchObject({ dsRevisao: `${T} 80 mil`, nrPlaca: placa, kmDiferenca: 80_000 - km });
      const man = ok200(
        await call('queries/buscaManutencoes', { cdManutencao: 'M1', nrPlaca: placa }),
      ).listaManutencoes;
      expect(man).toHaveLength(1);
      expect(man[0]).toMatchObject({ dsManutencao: `${T} óleo`, nrPlaca: placa, qtDiferenca: dias - 2 });
    }
    const codigos = async (op: string, lista: string, campo: string, filtro: object) =>
      ok200(await acme(`queries/${op}`, filtro))[lista].map((r: Record<string, unknown>) => r[campo]);
    expect(await codigos('buscaPendencias', 'listaPendencias', 'cdPendenciapk', {})).toEqual(['P1']);
    expect(await codigos('buscaRevisoes', 'listaRevisoes', 'cdRevisao', {})).toEqual(['R1']);
    expect(await codigos('buscaManutencoes', 'listaManutencoes', 'cdManutencao', {})).toEqual(['M1']);
    // globex's own codes, vehicles, plates and review ids find nothing for acme.
    expect(ok200(await globex('queries/buscaRevisoes', { cdRevisao: 'R9' })).listaRevisoes).toHaveLength(1);
    for (const [op, lista, filtro] of [
      ['buscaPendencias', 'listaPendencias', { cdPendencia: 'P9' }],
      ['buscaPendencias', 'listaPendencias', { cdPendencia: 'P2' }],
      ['buscaPendencias', 'listaPendencias', { cdVeiculo: 101 }],
      ['buscaRevisoes', 'listaRevisoes', { cdRevisao: 'R9' }],
      ['buscaRevisoes', 'listaRevisoes', { nrPlaca: 'GLO0100' }],
      ['buscaManutencoes', 'listaManutencoes', { cdManutencao: 'M9' }],
      ['buscaManutencoes', 'listaManutencoes', { cdVeiculo: 900 }],
    ] as const) {
      expect(ok200(await acme(`queries/${op}`, filtro)), `${op} ${JSON.stringify(filtro)}`).toEqual({
        ok: true,
        [lista]: [],
      });
    }
    // Ids are numbered per tenant (docs/oficina.md "Entities"): globex's review ids name, for acme,
    // acme's review of that id if it has one, never globex's.
    const revisoes = async (tenant: string) =>
      list(ok200(await entityCall(t, tenant, keys[tenant]!)('GET', 'revisao?orderby=id asc')));
    const deAcme = new Map((await revisoes('acme')).map((r) => [r.id, r.cdRevisao]));
    const idsGlobex = (await revisoes('globex')).map((r) => r.id as number);
    expect(idsGlobex.length).toBeGreaterThan(deAcme.size);
    for (const id of idsGlobex) {
      const achadas = ok200(await acme('queries/buscaRevisoes', { idRevisao: id })).listaRevisoes;
      expect(
        achadas.map((r: { dsRevisao: string }) => r.dsRevisao),
        `idRevisao ${id}`,
      ).toEqual(deAcme.has(id) ? ['Acme 80 mil'] : []);
    }
    // A branch or sector only globex holds is, for acme, one it does not hold (spec 001 §7).
    expect(ok200(await acme('queries/buscaPendencias', { cdEmpresa: 9 }))).toEqual({
      ok: false,
      dsErro: 'Filial 9 não cadastrada',
      listaPendencias: [],
    });
    expect(ok200(await acme('queries/buscaManutencoes', { cdSetores: '1,9' }))).toEqual({
      ok: false,
      dsErro: 'Setor 9 não cadastrado',
      listaManutencoes: [],
    });
  });

  it('visaoGeral counts the tenant’s own fleet and items', async () => {
    const um = (rodando: number, garagem: number, cd: number, ds: string) => ({
      rodando,
      garagem,
      centrocusto: [
        {
          cdCentroCusto: cd,
          dsCentroCusto: ds,
          inExibePainelOfi: 1,
          rodando,
          garagem,
          total: rodando + garagem,
        },
      ],
    });
    // acme: vehicle 100 running with P1 and M1; R1 not due (70,000 km ahead).
    expect(ok200(await acme('queries/visaoGeral', {})).visao).toEqual({
      disponiveis: um(1, 0, 10, 'Acme Pesada'),
      pendencias: um(1, 0, 10, 'Acme Pesada'),
      revisoes: { rodando: 0, garagem: 0, centrocusto: [] },
      manutencoes: um(1, 0, 10, 'Acme Pesada'),
    });
    expect(ok200(await acme('queries/visaoGeral', { cdEmpresa: 1 })).visao.disponiveis).toEqual(
      um(1, 0, 10, 'Acme Pesada'),
    );
    expect(ok200(await acme('queries/visaoGeral', { cdEmpresa: 9 }))).toMatchObject({
      ok: false,
      dsErro: 'Filial 9 não cadastrada',
    });
    // globex, branch 1: vehicles 100 and 101 in the garage, P1 and P2, R1 due (85,000 km), M1.
    expect(ok200(await globex('queries/visaoGeral', { cdEmpresa: 1 })).visao).toEqual({
      disponiveis: um(0, 2, 10, 'Globex Pesada'),
      pendencias: um(0, 2, 10, 'Globex Pesada'),
      revisoes: um(0, 1, 10, 'Globex Pesada'),
      manutencoes: um(0, 1, 10, 'Globex Pesada'),
    });
  });
});

describe('saves and removals given the other tenant’s codes', () => {
  it('a removal of a code only globex holds is 404; a save naming its references is ok false; nothing changes', async () => {
    const antes = { acme: await state('acme'), globex: await state('globex') };
    for (const [op, body] of [
      ['removeCentroCusto', { cdCentroCusto: 90 }],
      ['removeSetor', { cdSetor: 9 }],
      ['removeVeiculo', { cdVeiculo: 900 }],
      ['removeVeiculo', { nrPlaca: 'GLX0900' }],
      ['removeVeiculo', { cdVeiculo: 101 }],
      ['removePendencia', { cdPendenciaPk: 'P9' }],
      ['removePendencia', { cdPendenciaPk: 'P2' }],
      ['removeRevisao', { cdRevisao: 'R9' }],
      ['removeManutencao', { cdManutencao: 'M9' }],
    ] as const) {
      const res = await acme(`actions/${op}`, body);
      expect(res.statusCode, `${op} ${JSON.stringify(body)}: ${res.body}`).toBe(404);
      expect(Object.keys(res.json()).sort()).toEqual(['message', 'reason']);
      expect(res.json().reason).toBe('OBJECT_NOT_FOUND');
    }
    for (const [op, body, dsErro] of [
      ['salvaManutencao', { cdManutencao: 'MX', cdVeiculo: 900 }, 'Veículo 900 não cadastrado'],
      ['salvaManutencao', { cdManutencao: 'M1', cdVeiculo: 101 }, 'Veículo 101 não cadastrado'],
      ['salvaManutencao', { cdManutencao: 'M1', cdSetor: 9 }, 'Setor 9 não cadastrado'],
      ['salvaManutencao', { cdManutencao: 'MX', cdEmpresa: 9 }, 'Filial 9 não cadastrada'],
    ] as const) {
      expect(ok200(await acme(`actions/${op}`, body)), JSON.stringify(body)).toEqual({ ok: false, dsErro });
    }
    for (const [veiculo, dsErro] of [
      [{ nrPlaca: 'ACM0999', cdCentroCusto: 90 }, 'Centro de custo 90 não cadastrado'],
      [{ nrPlaca: 'ACM0999', cdEmpresa: 9 }, 'Filial 9 não cadastrada'],
      [{ cdVeiculo: 100, nrPlaca: 'ACM0100', cdCentroCusto: 90 }, 'Centro de custo 90 não cadastrado'],
    ] as const) {
      expect(ok200(await acme('actions/salvaListaVeiculos', { listaVeiculos: [veiculo] }))).toEqual({
        ok: false,
        dsErro,
        listaVeiculos: [],
      });
    }
    expect(await state('acme')).toEqual(antes.acme);
    expect(await state('globex')).toEqual(antes.globex);
  });

  it('a save or removal of a code both hold touches the caller’s row only, counting the caller’s records', async () => {
    const globexAntes = await state('globex');
    const acmeCall = (op: string, body: object) => acme(`actions/${op}`, body);
    const deAcme = async (entity: string, campo: string, codigo: unknown) =>
      ((await state('acme'))[entity] as Array<Record<string, unknown>>).find((r) => r[campo] === codigo);

    await saved(acmeCall('salvaCentroCusto', { cdCentroCusto: 10, dsCentroCusto: 'Acme Pesada 2' }));
    expect(await deAcme('centroCusto', 'cdCentroCusto', 10)).toMatchObject({
      dsCentroCusto: 'Acme Pesada 2',
    });
    await saved(acmeCall('salvaSetor', { cdSetor: 1, dsSetor: 'Acme Elétrica 2' }));
    await saved(acmeCall('salvaManutencao', { cdManutencao: 'M1', dsManutencao: 'Acme óleo 2' }));
    expect(await deAcme('manutencao', 'cdManutencao', 'M1')).toMatchObject({ dsManutencao: 'Acme óleo 2' });
    // A code globex holds and acme does not is a new record of acme's.
    await saved(acmeCall('salvaCentroCusto', { cdCentroCusto: 90, dsCentroCusto: 'Acme Nova' }));
    await saved(acmeCall('salvaManutencao', { cdManutencao: 'M9', cdVeiculo: 100 }));
    expect(await deAcme('manutencao', 'cdManutencao', 'M9')).toMatchObject({
      veiculo: 100,
      inStatus: 'ABERTA',
    });
    // Vehicle 100 by its code; globex's plate is free in acme, and the next code is acme's (101, not 901).
    const lista = ok200(
      await acmeCall('salvaListaVeiculos', {
        listaVeiculos: [{ cdVeiculo: 100, nrPlaca: 'ACM0100', nrHodometro: 11_000 }, { nrPlaca: 'GLX0900' }],
      }),
    );
    expect(lista).toEqual({
      ok: true,
      dsErro: '',
      listaVeiculos: [
        { nrPlaca: 'ACM0100', cdVeiculo: 100 },
        { nrPlaca: 'GLX0900', cdVeiculo: 101 },
      ],
    });
    expect(await state('globex')).toEqual(globexAntes);

    // In use counts the caller's: acme's centre 10 holds one vehicle, its sector 1 three items.
    expect(ok200(await acmeCall('removeCentroCusto', { cdCentroCusto: 10 }))).toEqual({
      ok: false,
      dsErro: 'Centro de custo 10 em uso por 1 veículo(s)',
    });
    expect(ok200(await acmeCall('removeSetor', { cdSetor: 1 }))).toEqual({
      ok: false,
      dsErro: 'Setor 1 em uso por 3 item(ns) da oficina',
    });
    // acme's items and vehicle 100 go; globex's of the same codes stay.
    await saved(acmeCall('removePendencia', { cdPendenciaPk: 'P1' }));
    await saved(acmeCall('removeRevisao', { cdRevisao: 'R1' }));
    await saved(acmeCall('removeManutencao', { cdManutencao: 'M1' }));
    await saved(acmeCall('removeVeiculo', { cdVeiculo: 100 }));
    await saved(acmeCall('removeCentroCusto', { cdCentroCusto: 10 }));
    await saved(acmeCall('removeSetor', { cdSetor: 1 }));
    const acmeDepois = await state('acme');
    expect((acmeDepois.veiculo as Array<{ cdVeiculo: number }>).map((v) => v.cdVeiculo)).toEqual([101]);
    expect(acmeDepois.pendencia).toEqual([]);
    expect(acmeDepois.revisao).toEqual([]);
    expect(acmeDepois.setor).toEqual([]);
    expect(await state('globex')).toEqual(globexAntes);
    // And globex's queries still answer its records of those codes.
    expect(
      ok200(await globex('queries/buscaPendencias', { cdPendencia: 'P1' })).listaPendencias,
    ).toHaveLength(1);
    expect(
      ok200(await globex('queries/buscaCentroCusto', { cdCentroCusto: 10 })).listaCentroCusto[0],
    ).toMatchObject({
      dsCentroCusto: 'Globex Pesada',
      total: 2,
    });
  });
});
