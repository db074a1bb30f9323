import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { EMPRESA, FAMILIA, makeComponente, makeMascara, skuApi } from './fixtures.ts';

// The masks and components (entities, spec 001 §2.11 and the limits of §8), buscarMascarasSku and
// buscarComponentesMascaraSku (§4.9): limits at and past the bound, filter, pages, order, totals,
// tenant isolation and the public scope.

let t: TestApp;
let acme: ReturnType<typeof skuApi>;
let globex: ReturnType<typeof skuApi>;
let pub: ReturnType<typeof skuApi>;

beforeAll(async () => {
  t = await testApp();
  acme = skuApi(t, 'acme', await t.tenant('acme'));
  globex = skuApi(t, 'globex', await t.tenant('globex'));
  pub = skuApi(t, 'acme', (await t.key('acme', 'public')).apiKey);
});

const x = (n: number) => 'x'.repeat(n);

describe('mask and component limits', () => {
  const mascaraCases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    [
      'sequenciaFixa',
      { tipoComposicao: 'SequenciaFixa', quantidadePosicoes: 10, sequenciaFixa: x(10) },
      { sequenciaFixa: x(11) },
    ],
    ['valorIncremento', { valorIncremento: 9999 }, { valorIncremento: 10000 }],
    ['valorIncremento', { valorIncremento: 0 }, { valorIncremento: -1 }],
    ['ultimaSequencia', { ultimaSequencia: 999_999_999 }, { ultimaSequencia: 1_000_000_000 }],
    ['ultimaSequencia', { ultimaSequencia: 0 }, { ultimaSequencia: -1 }],
    [
      'empresa',
      { empresa: { codigo: EMPRESA, tipo: 'Filial', nome: x(100) } },
      { empresa: { codigo: EMPRESA, tipo: 'Filial', nome: x(101) } },
    ],
    ['quantidadePosicoes', { quantidadePosicoes: 30 }, { quantidadePosicoes: 31 }],
    ['tipoComposicao', { tipoComposicao: 'Numerico' }, { tipoComposicao: 'Texto' }],
  ];
  it.each(mascaraCases)('mask %s: at the bound 200, past it 400 naming the field', async (field, ok, bad) => {
    const good = await acme.entity('POST', 'mascaraSku', makeMascara(ok));
    expect(good.statusCode, good.body).toBe(200);
    const before = await tableCounts(t.db);
    const res = await acme.entity('POST', 'mascaraSku', makeMascara({ ...ok, ...bad }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'BAD_REQUEST', message: expect.stringContaining(field) });
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('checks the fields a kind of mask needs (422 naming the field)', async () => {
    const semFixa = await acme.entity('POST', 'mascaraSku', makeMascara({ tipoComposicao: 'SequenciaFixa' }));
    expect(semFixa.statusCode, semFixa.body).toBe(422);
    expect(semFixa.json().message).toMatch(/sequenciaFixa/);
    const longa = await acme.entity(
      'POST',
      'mascaraSku',
      makeMascara({ tipoComposicao: 'SequenciaFixa', sequenciaFixa: 'ABCDE', quantidadePosicoes: 4 }),
    );
    expect(longa.statusCode, longa.body).toBe(422);
    const autoAlfa = await acme.entity('POST', 'mascaraSku', makeMascara({ autoIncrementavel: 'Sim' }));
    expect(autoAlfa.statusCode, autoAlfa.body).toBe(422);
    expect(autoAlfa.json().message).toMatch(/autoIncrementavel/);
  });

  it('fills the defaults of an auto-increment mask and derives codigoEmpresa; 409 for the same code', async () => {
    const m = await acme.mascara({ codigo: 'AUTO', tipoComposicao: 'Numerico', autoIncrementavel: 'Sim' });
    expect(m).toMatchObject({
      valorIncremento: 1,
      ultimaSequencia: 0,
      codigoEmpresa: EMPRESA,
      selecionavelPeloUsuario: 'Nao',
    });
    const dup = await acme.entity('POST', 'mascaraSku', makeMascara({ codigo: 'AUTO' }));
    expect(dup.statusCode, dup.body).toBe(409);
    // Another family or company may use the code.
    expect(
      (await acme.entity('POST', 'mascaraSku', makeMascara({ codigo: 'AUTO', codigoFamilia: 'OUT' })))
        .statusCode,
    ).toBe(200);
  });

  const componenteCases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['codigo', { codigo: x(14) }, { codigo: x(15) }],
    ['descricao', { descricao: x(50) }, { descricao: x(51) }],
    ['abreviatura', { abreviatura: x(20) }, { abreviatura: x(21) }],
    ['sequencia', { sequencia: 999_999_999 }, { sequencia: 1_000_000_000 }],
    ['agrupamento', { agrupamento: 9999 }, { agrupamento: 10000 }],
  ];
  it.each(componenteCases)('component %s: at the bound 200, past it 400', async (field, ok, bad) => {
    const m = await acme.mascara({ utilizaComponentes: 'Sim' });
    const good = await acme.entity('POST', 'mascaraSkuComponente', makeComponente(m.id, ok));
    expect(good.statusCode, good.body).toBe(200);
    const res = await acme.entity('POST', 'mascaraSkuComponente', makeComponente(m.id, { ...ok, ...bad }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it('a component needs a mask of the tenant that uses components (422)', async () => {
    const semComp = await acme.mascara();
    const res = await acme.entity('POST', 'mascaraSkuComponente', makeComponente(semComp.id));
    expect(res.statusCode, res.body).toBe(422);
    const comp = await acme.mascara({ utilizaComponentes: 'Sim' });
    const alheio = await globex.entity('POST', 'mascaraSkuComponente', makeComponente(comp.id));
    expect(alheio.statusCode, alheio.body).toBe(422);
    expect((await globex.entity('GET', `mascaraSku/${comp.id}`)).statusCode).toBe(404);
  });
});

describe('buscarMascarasSku', () => {
  it('answers the masks of a company and family by POST and GET, by code; none of another tenant', async () => {
    await acme.mascara({ codigo: 'B2', codigoFamilia: 'BUSCA' });
    await acme.mascara({ codigo: 'B1', codigoFamilia: 'BUSCA', situacao: 'Inativo' });
    await acme.mascara({ codigo: 'B3', codigoFamilia: 'BUSCA', empresa: { codigo: 2, tipo: 'Empresa' } });
    const post = await acme.op('queries/buscarMascarasSku', {
      codigoEmpresa: EMPRESA,
      codigoFamilia: 'BUSCA',
    });
    expect(post.statusCode, post.body).toBe(200);
    expect(post.json().mascaras.map((m: { codigo: string }) => m.codigo)).toEqual(['B1', 'B2']);
    expect(post.json().mascaras[0]).toMatchObject({
      situacao: 'Inativo',
      empresa: { codigo: EMPRESA, tipo: 'Empresa' },
    });
    expect(typeof post.json().mascaras[0].id).toBe('string');
    const get = await acme.op('queries/buscarMascarasSku', undefined, {
      method: 'GET',
      query: { codigoEmpresa: String(EMPRESA), codigoFamilia: 'BUSCA' },
    });
    expect(get.json()).toEqual(post.json());
    const other = await globex.op('queries/buscarMascarasSku', {
      codigoEmpresa: EMPRESA,
      codigoFamilia: 'BUSCA',
    });
    expect(other.json()).toEqual({ mascaras: [] });
  });

  it('400 without codigoFamilia or with a non-integer company; 403 for a public key', async () => {
    expect((await acme.op('queries/buscarMascarasSku', { codigoEmpresa: EMPRESA })).statusCode).toBe(400);
    expect(
      (await acme.op('queries/buscarMascarasSku', { codigoEmpresa: 'x', codigoFamilia: FAMILIA })).statusCode,
    ).toBe(400);
    expect(
      (await pub.op('queries/buscarMascarasSku', { codigoEmpresa: EMPRESA, codigoFamilia: FAMILIA }))
        .statusCode,
    ).toBe(403);
  });
});

describe('buscarComponentesMascaraSku', () => {
  let codigoMascara: string;
  beforeAll(async () => {
    const m = await acme.mascara({ codigo: 'CORES', utilizaComponentes: 'Sim' });
    codigoMascara = 'CORES';
    const cores = [
      ['AZ', 'Azul', 3],
      ['VM', 'Vermelho', 1],
      ['VD', 'Verde', 2],
      ['AM', 'Amarelo', 5],
      ['P_', 'Preto 100%', 4],
    ] as const;
    for (const [codigo, descricao, sequencia] of cores)
      await acme.componente(m.id, { codigo, descricao, sequencia, abreviatura: codigo });
  });
  const busca = (extra: Record<string, unknown>, api = acme) =>
    api.op('queries/buscarComponentesMascaraSku', {
      codigoEmpresa: EMPRESA,
      codigoMascaraSku: codigoMascara,
      paginacao: { offset: 0, size: 10, orderBy: '' },
      ...extra,
    });
  const codigos = (res: { json(): { componentes: Array<{ codigo: string }> } }) =>
    res.json().componentes.map((c) => c.codigo);

  it('pages in sequencia order by default, with totalRegistros and the mask of each component', async () => {
    const p0 = await busca({ paginacao: { offset: 0, size: 2, orderBy: '' } });
    expect(p0.statusCode, p0.body).toBe(200);
    expect(codigos(p0)).toEqual(['VM', 'VD']);
    expect(p0.json().totalRegistros).toBe(5);
    expect(p0.json().componentes[0].mascara).toMatchObject({ codigo: 'CORES', utilizaComponentes: 'Sim' });
    // offset is the page number (recPaginacao).
    expect(codigos(await busca({ paginacao: { offset: 1, size: 2, orderBy: '' } }))).toEqual(['AZ', 'P_']);
    expect(codigos(await busca({ paginacao: { offset: 2, size: 2, orderBy: '' } }))).toEqual(['AM']);
    expect(codigos(await busca({ paginacao: { offset: 3, size: 2, orderBy: '' } }))).toEqual([]);
  });

  it('orders by the field asked, asc or desc', async () => {
    expect(codigos(await busca({ paginacao: { offset: 0, size: 10, orderBy: 'descricao desc' } }))).toEqual([
      'VM',
      'VD',
      'P_',
      'AZ',
      'AM',
    ]);
    expect(codigos(await busca({ paginacao: { offset: 0, size: 10, orderBy: 'codigo' } }))).toEqual([
      'AM',
      'AZ',
      'P_',
      'VD',
      'VM',
    ]);
  });

  it('filters by code or description, any case, wildcards literal', async () => {
    const v = await busca({ filtro: 've' });
    expect(codigos(v).sort()).toEqual(['VD', 'VM']);
    expect(v.json().totalRegistros).toBe(2);
    expect(codigos(await busca({ filtro: 'az' }))).toEqual(['AZ']);
    expect(codigos(await busca({ filtro: '%' }))).toEqual(['P_']);
    expect(codigos(await busca({ filtro: '_' }))).toEqual(['P_']);
  });

  it('400 for a bad orderBy, size or missing paginacao; 404 for an unknown or another tenant’s mask', async () => {
    for (const orderBy of ['nome', 'codigo sideways', 'tenant', 'codigo; drop table x']) {
      const res = await busca({ paginacao: { offset: 0, size: 10, orderBy } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain('paginacao.orderBy');
    }
    expect((await busca({ paginacao: { offset: 0, size: 0, orderBy: '' } })).statusCode).toBe(400);
    expect((await busca({ paginacao: { offset: -1, size: 1, orderBy: '' } })).statusCode).toBe(400);
    expect((await busca({ paginacao: undefined })).statusCode).toBe(400);
    expect((await busca({ codigoMascaraSku: 'NOPE' })).statusCode).toBe(404);
    expect((await busca({}, globex)).statusCode).toBe(404);
    expect((await busca({}, pub)).statusCode).toBe(403);
  });
});

describe('healthcheck', () => {
  it('answers UP with the checkData array, by POST and GET', async () => {
    const res = await acme.op('queries/healthcheck', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'UP', checks: [{ name: 'database', status: 'UP' }] });
    expect((await acme.op('queries/healthcheck', undefined, { method: 'GET' })).statusCode).toBe(200);
  });
});
