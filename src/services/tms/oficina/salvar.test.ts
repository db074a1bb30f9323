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

// The save and remove operations (docs/oficina.md "Saving and removing"): upserts by code, Rerros
// with ok false and dsErro for a missing reference or a removal that would orphan records (nothing
// written), 404 for a code the tenant does not hold, 400 naming the field for malformed input.

let t: TestApp;
let acme: OficinaCall;
let globex: OficinaCall;
let acmeKey: string;
let publicKey: string;

beforeAll(async () => {
  t = await testApp({ now: () => new Date('2026-05-20T12:00:00Z') });
  acmeKey = await t.tenant('acme');
  acme = oficinaCall(t, 'acme', acmeKey);
  globex = oficinaCall(t, 'globex', await t.tenant('globex'));
  publicKey = (await t.key('acme', 'public')).apiKey;
  await cadastrosBasicos(t, 'acme', acmeKey);
});

const setores = async (call: OficinaCall, body = {}) =>
  ok200(await call('queries/buscaSetor', body)).listaSetores;
const manutencoes = async (body = {}) => ok200(await acme('queries/buscaManutencoes', body)).listaManutencoes;

describe('salvaSetor, salvaCentroCusto', () => {
  it('creates, then updates only the fields sent', async () => {
    await saved(acme('actions/salvaSetor', { cdSetor: 7, dsSetor: 'Funilaria' }));
    await saved(acme('actions/salvaSetor', { cdSetor: 7 }));
    expect(await setores(acme, { cdSetor: 7 })).toEqual([{ cdSetor: 7, dsSetor: 'Funilaria' }]);
    await saved(acme('actions/salvaSetor', { cdSetor: 7, dsSetor: 'Funilaria e Pintura' }));
    expect(await setores(acme, { cdSetor: 7 })).toEqual([{ cdSetor: 7, dsSetor: 'Funilaria e Pintura' }]);
    await saved(acme('actions/salvaCentroCusto', { cdCentroCusto: 40, dsCentroCusto: 'Apoio' }));
    const [cc] = ok200(await acme('queries/buscaCentroCusto', { cdCentroCusto: 40 })).listaCentroCusto;
    expect(cc).toEqual({
      cdCentroCusto: 40,
      dsCentroCusto: 'Apoio',
      inExibePainelOfi: 1,
      rodando: 0,
      garagem: 0,
      total: 0,
    });
  });

  it('keeps audit fields: who created and who changed last', async () => {
    const entity = entityCall(t, 'acme', acmeKey);
    const list = ok200(await entity('GET', 'setor?filter=cdSetor eq 7'));
    const [row] = list.contents ?? list.items ?? list;
    expect(row.createdBy).toMatch(/^key:/);
    expect(row.lastModifiedBy).toMatch(/^key:/);
    expect(row.createdDate).toBe('2026-05-20T12:00:00.000Z');
  });

  it('refuses malformed input naming the field, writing nothing', async () => {
    badField(await acme('actions/salvaSetor', { dsSetor: 'sem código' }), 'cdSetor');
    badField(await acme('actions/salvaSetor', { cdSetor: -1 }), 'cdSetor');
    badField(await acme('actions/salvaSetor', { cdSetor: 'x' }), 'cdSetor');
    badField(
      await acme('actions/salvaCentroCusto', { cdCentroCusto: 1, inExibePainelOfi: 2 }),
      'inExibePainelOfi',
    );
    badField(await acme('actions/salvaSetor', { cdSetor: 8, dsSetor: 'x'.repeat(101) }), 'dsSetor');
    expect(await setores(acme, { cdSetor: 8 })).toEqual([]);
  });

  it("are the tenant's own: another tenant neither sees nor removes them", async () => {
    expect(await setores(globex)).toEqual([]);
    expect((await globex('actions/removeSetor', { cdSetor: 7 })).statusCode).toBe(404);
    expect(await setores(acme, { cdSetor: 7 })).toHaveLength(1);
    // The same code in another tenant is another sector.
    await saved(globex('actions/salvaSetor', { cdSetor: 7, dsSetor: 'Outra' }));
    expect(await setores(acme, { cdSetor: 7 })).toEqual([{ cdSetor: 7, dsSetor: 'Funilaria e Pintura' }]);
  });
});

describe('salvaManutencao', () => {
  beforeAll(async () => {
    const lista = [
      { nrPlaca: 'ABC1D23', cdVeiculo: 100, cdCentroCusto: 10, cdEmpresa: 1, nrHodometro: 1000 },
    ];
    expect(ok200(await acme('actions/salvaListaVeiculos', { listaVeiculos: lista })).ok).toBe(true);
  });

  it('creates an open maintenance, then closes it', async () => {
    await saved(
      acme('actions/salvaManutencao', {
        cdManutencao: 'M1',
        dsManutencao: 'Troca de óleo',
        qtTempoPrevisto: 2,
        nrOS: 5001,
        dtAberturaOS: '2026-05-19T08:00:00Z',
        dtInicio: '2026-05-20T09:00:00Z',
        cdVeiculo: 100,
        cdSetor: 1,
      }),
    );
    expect(await manutencoes({ cdManutencao: 'M1' })).toEqual([
      {
        cdManutencao: 'M1',
        dsManutencao: 'Troca de óleo',
        qtTempoPrevisto: 2,
        nrOS: 5001,
        dtAberturaOS: '2026-05-19T08:00:00.000Z',
        cdVeiculo: 100,
        nrPlaca: 'ABC1D23',
        cdEmpresa: 1,
        inStatus: 'ABERTA',
        dtPrevisao: '2026-05-20T11:00:00.000Z',
        dtInicio: '2026-05-20T09:00:00.000Z',
      },
    ]);
    await saved(
      acme('actions/salvaManutencao', { cdManutencao: 'M1', qtTempoRealizado: 2.5, inStatus: 'CONCLUIDA' }),
    );
    const [m] = await manutencoes({ cdManutencao: 'M1' });
    expect(m).toMatchObject({
      inStatus: 'CONCLUIDA',
      qtTempoRealizado: 2.5,
      qtDiferenca: 0.5,
      dsManutencao: 'Troca de óleo',
    });
  });

  it('answers ok false naming a vehicle, sector or branch the tenant does not hold, writing nothing', async () => {
    for (const [field, value, text] of [
      ['cdVeiculo', 999, 'Veículo 999 não cadastrado'],
      ['cdSetor', 99, 'Setor 99 não cadastrado'],
      ['cdEmpresa', 9, 'Filial 9 não cadastrada'],
    ] as const) {
      const res = ok200(await acme('actions/salvaManutencao', { cdManutencao: 'M2', [field]: value }));
      expect(res).toEqual({ ok: false, dsErro: text });
    }
    expect(await manutencoes({ cdManutencao: 'M2' })).toEqual([]);
    // Another tenant's vehicle is not one of this tenant's.
    const res = ok200(await globex('actions/salvaManutencao', { cdManutencao: 'M2', cdVeiculo: 100 }));
    expect(res).toEqual({ ok: false, dsErro: 'Veículo 100 não cadastrado' });
  });

  it('refuses malformed input naming the field', async () => {
    badField(await acme('actions/salvaManutencao', { dsManutencao: 'x' }), 'cdManutencao');
    badField(await acme('actions/salvaManutencao', { cdManutencao: 'M3', inStatus: 'FEITA' }), 'inStatus');
    badField(
      await acme('actions/salvaManutencao', { cdManutencao: 'M3', qtTempoPrevisto: -1 }),
      'qtTempoPrevisto',
    );
    badField(await acme('actions/salvaManutencao', { cdManutencao: 'M3', dtInicio: 'amanhã' }), 'dtInicio');
    expect(await manutencoes({ cdManutencao: 'M3' })).toEqual([]);
  });

  it('removeManutencao removes it; a code not held is 404', async () => {
    await saved(acme('actions/salvaManutencao', { cdManutencao: 'M4', cdVeiculo: 100 }));
    await saved(acme('actions/removeManutencao', { cdManutencao: 'M4' }));
    expect(await manutencoes({ cdManutencao: 'M4' })).toEqual([]);
    const res = await acme('actions/removeManutencao', { cdManutencao: 'M4' });
    expect(res.statusCode).toBe(404);
    expect(res.json().reason).toBe('OBJECT_NOT_FOUND');
    badField(await acme('actions/removeManutencao', {}), 'cdManutencao');
  });
});

describe('salvaListaVeiculos, removeVeiculo', () => {
  it('saves a list, giving codes to new plates and finding known plates', async () => {
    const res = ok200(
      await acme('actions/salvaListaVeiculos', {
        listaVeiculos: [
          { nrPlaca: 'abc1d23', nrHodometro: 1500 },
          { nrPlaca: 'NEW0A01', cdCentroCusto: 20 },
          { nrPlaca: 'NEW0A02', cdVeiculo: 500 },
          { nrPlaca: 'NEW0A03' },
        ],
      }),
    );
    expect(res).toEqual({
      ok: true,
      dsErro: '',
      listaVeiculos: [
        { nrPlaca: 'ABC1D23', cdVeiculo: 100 },
        { nrPlaca: 'NEW0A01', cdVeiculo: 501 },
        { nrPlaca: 'NEW0A02', cdVeiculo: 500 },
        { nrPlaca: 'NEW0A03', cdVeiculo: 502 },
      ],
    });
  });

  it('saves all or nothing: a missing cost centre, a branch or a plate of another vehicle is ok false', async () => {
    for (const [lista, text] of [
      [
        [{ nrPlaca: 'ZZZ0Z01' }, { nrPlaca: 'ZZZ0Z02', cdCentroCusto: 77 }],
        'Centro de custo 77 não cadastrado',
      ],
      [[{ nrPlaca: 'ZZZ0Z01', cdEmpresa: 8 }], 'Filial 8 não cadastrada'],
      [
        [{ nrPlaca: 'ZZZ0Z01' }, { nrPlaca: 'NEW0A01', cdVeiculo: 500 }],
        'A placa NEW0A01 já pertence ao veículo 501',
      ],
      [[{ nrPlaca: 'ZZZ0Z01' }, { nrPlaca: 'zzz0z01' }], 'Placa ZZZ0Z01 repetida na lista'],
    ] as const) {
      expect(ok200(await acme('actions/salvaListaVeiculos', { listaVeiculos: lista }))).toEqual({
        ok: false,
        dsErro: text,
        listaVeiculos: [],
      });
    }
    const res = await acme('actions/removeVeiculo', { nrPlaca: 'ZZZ0Z01' });
    expect(res.statusCode).toBe(404);
  });

  it('limits the list: at least 1, at most 1000, each with its plate', async () => {
    badField(await acme('actions/salvaListaVeiculos', { listaVeiculos: [] }), 'listaVeiculos');
    const many = Array.from({ length: 1001 }, (_, i) => ({ nrPlaca: `L${i}` }));
    badField(await acme('actions/salvaListaVeiculos', { listaVeiculos: many }), 'listaVeiculos');
    badField(await acme('actions/salvaListaVeiculos', { listaVeiculos: [{ cdVeiculo: 1 }] }), 'nrPlaca');
    badField(
      await acme('actions/salvaListaVeiculos', { listaVeiculos: [{ nrPlaca: 'A', dsStatusOficina: 'x' }] }),
      'dsStatusOficina',
    );
  });

  it('removes a vehicle by plate or code with its items; needs one of the two', async () => {
    await saved(acme('actions/salvaManutencao', { cdManutencao: 'M9', cdVeiculo: 502 }));
    await saved(acme('actions/removeVeiculo', { nrPlaca: 'new0a03' }));
    expect(await manutencoes({ cdManutencao: 'M9' })).toEqual([]);
    expect((await acme('actions/removeVeiculo', { cdVeiculo: 502 })).statusCode).toBe(404);
    badField(await acme('actions/removeVeiculo', {}), 'cdVeiculo');
    expect((await globex('actions/removeVeiculo', { cdVeiculo: 500 })).statusCode).toBe(404);
  });
});

describe('removals that would orphan records', () => {
  it('a cost centre with vehicles, a sector with items: ok false, kept; removable once empty', async () => {
    expect(ok200(await acme('actions/removeCentroCusto', { cdCentroCusto: 10 }))).toEqual({
      ok: false,
      dsErro: 'Centro de custo 10 em uso por 1 veículo(s)',
    });
    await saved(acme('actions/salvaManutencao', { cdManutencao: 'M10', cdVeiculo: 100, cdSetor: 2 }));
    expect(ok200(await acme('actions/removeSetor', { cdSetor: 2 }))).toEqual({
      ok: false,
      dsErro: 'Setor 2 em uso por 1 item(ns) da oficina',
    });
    await saved(acme('actions/removeManutencao', { cdManutencao: 'M10' }));
    await saved(acme('actions/removeSetor', { cdSetor: 2 }));
    await saved(acme('actions/removeCentroCusto', { cdCentroCusto: 40 }));
    expect((await acme('actions/removeCentroCusto', { cdCentroCusto: 40 })).statusCode).toBe(404);
  });

  it('removePendencia and removeRevisao: 404 for a code not held, 400 without one', async () => {
    expect((await acme('actions/removePendencia', { cdPendenciaPk: 'nope' })).statusCode).toBe(404);
    expect((await acme('actions/removeRevisao', { cdRevisao: 'nope' })).statusCode).toBe(404);
    badField(await acme('actions/removePendencia', {}), 'cdPendenciaPk');
    badField(await acme('actions/removeRevisao', { cdRevisao: '' }), 'cdRevisao');
  });
});

describe('scope', () => {
  it('a public key reaches none of these PRIVATE operations', async () => {
    const pub = oficinaCall(t, 'acme', publicKey);
    for (const op of [
      'actions/salvaSetor',
      'actions/removeVeiculo',
      'queries/buscaSetor',
      'queries/visaoGeral',
    ]) {
      expect((await pub(op, { cdSetor: 1 })).statusCode, op).toBe(403);
    }
  });
});
