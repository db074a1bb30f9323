import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { comCall, makePessoa, seed } from './fixtures.ts';
import { empresa, filial } from './tables/empresas.ts';
import { cidade, estado, pais } from './tables/localidades.ts';
import { pessoa, pessoaEndereco } from './tables/pessoas.ts';

// Companies, branches, places and addresses (spec 001 §4.8; docs/com_comum.md).

let t: TestApp;
let acme: ReturnType<typeof comCall>;
let globex: ReturnType<typeof comCall>;
const ids: Record<string, number> = {};

const audit = { createdBy: 'test', lastModifiedBy: 'test' };

beforeAll(async () => {
  t = await testApp();
  acme = comCall(t, 'acme', await t.tenant('acme'));
  globex = comCall(t, 'globex', await t.tenant('globex'));

  const empresas = await seed(t, 'acme', empresa, [
    {
      codigo: '1',
      nome: 'Cooperativa Agroindustrial Alfa',
      nomeFantasia: 'Coopalfa',
      cnpj: '11222333000181',
    },
    { codigo: '2', nome: 'Beta Grãos Ltda', nomeFantasia: 'Beta Grãos', situacao: 'Inativo' },
    { codigo: '10', nome: 'Gama 100% Soja', nomeFantasia: 'Gama_Soja' },
  ]);
  for (const e of empresas) ids[`empresa${e.codigo}`] = Number(e.id);
  // Ids are numbered per tenant: globex's first rows have acme's ids too. An id only globex holds:
  const [foreign] = await seed(t, 'globex', empresa, [{ id: 900_001, codigo: '1', nome: 'Globex Alfa' }]);
  ids.globexEmpresa = foreign!.id;

  await seed(t, 'acme', cidade, [
    { codigo: '4106902', nome: 'Curitiba', siglaEstado: 'PR', pais: '1058' },
    { codigo: '4113700', nome: 'Londrina', siglaEstado: 'PR', pais: '1058' },
    { codigo: '3550308', nome: 'São Paulo', siglaEstado: 'SP', pais: '1058' },
  ]);
  await seed(t, 'globex', cidade, [
    { codigo: '4118204', nome: 'Paranaguá', siglaEstado: 'PR', pais: '1058' },
  ]);
  const filiais = await seed(t, 'acme', filial, [
    { codigoEmpresa: '1', codigo: '1', nome: 'Matriz Curitiba', codigoCidade: '4106902', siglaEstado: 'PR' },
    { codigoEmpresa: '1', codigo: '2', nome: 'Unidade Londrina', nomeFantasia: 'Armazém Norte' },
    { codigoEmpresa: '2', codigo: '1', nome: 'Beta Matriz' },
    // Imported before its company: shown without idEmpresa.
    { codigoEmpresa: '9', codigo: '1', nome: 'Filial Órfã' },
  ]);
  for (const f of filiais) ids[`filial${f.codigoEmpresa}.${f.codigo}`] = f.id;

  await seed(t, 'acme', pais, [
    { codigo: '1058', nome: 'Brasil', sigla: 'BR' },
    { codigo: '0639', nome: 'Argentina', sigla: 'AR' },
    { codigo: '5860', nome: 'Paraguai', sigla: 'PY' },
  ]);
  await seed(t, 'globex', pais, [{ codigo: '2496', nome: 'Estados Unidos', sigla: 'US' }]);
  await seed(t, 'acme', estado, [
    { pais: '1058', sigla: 'PR', codigo: '41', nome: 'Paraná' },
    { pais: '1058', sigla: 'SP', codigo: '35', nome: 'São Paulo' },
    { pais: '0639', sigla: 'BA', nome: 'Buenos Aires' },
  ]);
  await seed(t, 'globex', estado, [{ pais: '1058', sigla: 'RS', nome: 'Rio Grande do Sul' }]);

  const [ana, bia] = await seed(t, 'acme', pessoa, [
    makePessoa({ codigo: 'C1', nome: 'Ana' }),
    makePessoa({ codigo: 'C2', nome: 'Bia' }),
  ]);
  ids.ana = ana!.id;
  ids.bia = bia!.id;
  const enderecos = await seed(t, 'acme', pessoaEndereco, [
    {
      ...audit,
      codigoPessoa: 'C1',
      sequencia: 1,
      logradouro: 'Rua das Flores',
      bairro: 'Centro',
      cep: '80010000',
      codigoCidade: '4106902',
    },
    {
      ...audit,
      codigoPessoa: 'C1',
      sequencia: 2,
      tipoEndereco: 'Entrega',
      logradouro: 'Estrada do Silo',
      codigoEmpresa: '1',
    },
    {
      ...audit,
      codigoPessoa: 'C1',
      sequencia: 3,
      tipoEndereco: 'Cobranca',
      logradouro: 'Av. 50% Norte',
      codigoEmpresa: '2',
    },
    { ...audit, codigoPessoa: 'C2', sequencia: 1, logradouro: 'Rua XV', bairro: 'Jardim das Flores' },
  ]);
  for (const e of enderecos) ids[`endereco${e.codigoPessoa}.${e.sequencia}`] = Number(e.id);
  const [foreignAddress] = await seed(t, 'globex', pessoaEndereco, [
    { ...audit, id: 900_001, codigoPessoa: 'C1', sequencia: 1, logradouro: 'Rua das Flores' },
  ]);
  ids.globexEndereco = Number(foreignAddress!.id);
});

describe('healthCheck and metadata', () => {
  it('answers UP with the checkData array, by POST and by GET', async () => {
    for (const method of ['POST', 'GET'] as const) {
      const res = await acme('queries/healthCheck', {}, method === 'GET' ? { method } : {});
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'UP', checks: [{ name: 'database', status: 'UP' }] });
    }
  });

  it('describes every operation, the entities and the import actions in its Swagger 2.0 document', async () => {
    const res = await acme('queries/getMetadata');
    const doc = JSON.parse(res.json().metadata);
    expect(doc.info.version).toBe('2.1.8');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/com_comum/queries/pesquisarEmpresa',
        '/com_comum/queries/pesquisarFornecedorB2',
        '/com_comum/actions/criarVinculo',
        '/com_comum/actions/importProdutorVinculo',
        '/com_comum/entities/safra/{id}',
      ]),
    );
    expect(doc.paths['/com_comum/actions/importPessoa'].post['x-senior-visibility']).toBe('PUBLIC');
  });
});

describe('pesquisarEmpresa', () => {
  const codes = (res: { json(): { empresas: Array<{ codigo: string }> } }) =>
    res.json().empresas.map((e) => e.codigo);

  it('lists every company, numeric codes in numeric order, with the total', async () => {
    const res = await acme('queries/pesquisarEmpresa');
    expect(res.statusCode).toBe(200);
    expect(res.json().totalRegistros).toBe(3);
    expect(codes(res)).toEqual(['1', '2', '10']);
    expect(res.json().empresas[0]).toEqual({
      id: ids.empresa1,
      codigo: '1',
      nome: 'Cooperativa Agroindustrial Alfa',
      nomeFantasia: 'Coopalfa',
      cnpj: '11222333000181',
      situacao: 'Ativo',
    });
  });

  it('finds by id and by exact code', async () => {
    expect(codes(await acme('queries/pesquisarEmpresa', { id: ids.empresa2 }))).toEqual(['2']);
    expect(codes(await acme('queries/pesquisarEmpresa', { codigo: '10' }))).toEqual(['10']);
    expect(codes(await acme('queries/pesquisarEmpresa', { codigo: '0' }))).toEqual([]);
  });

  it('matches texto partially, case and accents aside, on code, name and trade name', async () => {
    expect(codes(await acme('queries/pesquisarEmpresa', { texto: 'COOPALF' }))).toEqual(['1']);
    expect(codes(await acme('queries/pesquisarEmpresa', { texto: 'grãos' }))).toEqual(['2']);
    expect(codes(await acme('queries/pesquisarEmpresa', { texto: 'GRAOS' }))).toEqual(['2']);
    expect(codes(await acme('queries/pesquisarEmpresa', { texto: 'agroindustrial' }))).toEqual(['1']);
    expect(codes(await acme('queries/pesquisarEmpresa', { texto: '0' }))).toEqual(['10']);
    expect(codes(await acme('queries/pesquisarEmpresa', { texto: '   ' }))).toEqual(['1', '2', '10']);
  });

  it('takes % and _ in texto literally', async () => {
    expect(codes(await acme('queries/pesquisarEmpresa', { texto: '100%' }))).toEqual(['10']);
    expect(codes(await acme('queries/pesquisarEmpresa', { texto: '%' }))).toEqual(['10']);
    expect(codes(await acme('queries/pesquisarEmpresa', { texto: 'a_s' }))).toEqual(['10']);
    expect(codes(await acme('queries/pesquisarEmpresa', { texto: 'o_a' }))).toEqual([]);
  });

  it('pages with pagina (index from 0) and tamanho, totalRegistros counting every match', async () => {
    const first = await acme('queries/pesquisarEmpresa', { pagina: { pagina: 0, tamanho: 2 } });
    expect(codes(first)).toEqual(['1', '2']);
    expect(first.json().totalRegistros).toBe(3);
    const second = await acme('queries/pesquisarEmpresa', { pagina: { pagina: 1, tamanho: 2 } });
    expect(codes(second)).toEqual(['10']);
    expect(second.json().totalRegistros).toBe(3);
    const beyond = await acme('queries/pesquisarEmpresa', { pagina: { pagina: 5, tamanho: 2 } });
    expect(beyond.json()).toEqual({ empresas: [], totalRegistros: 3 });
    const bad = await acme('queries/pesquisarEmpresa', { pagina: { tamanho: 1001 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/field 'pagina.tamanho' must be <= 1000/);
  });

  it('never shows another tenant’s companies', async () => {
    expect(codes(await acme('queries/pesquisarEmpresa', { id: ids.globexEmpresa }))).toEqual([]);
    const theirs = await globex('queries/pesquisarEmpresa', { texto: 'alfa' });
    expect(theirs.json()).toEqual({
      empresas: [{ id: ids.globexEmpresa, codigo: '1', nome: 'Globex Alfa', situacao: 'Ativo' }],
      totalRegistros: 1,
    });
  });
});

describe('pesquisarFilial', () => {
  type Filial = { codigoEmpresa: string; codigo: string; idEmpresa?: number };
  const keys = (res: { json(): { filiais: Filial[] } }) =>
    res.json().filiais.map((f) => `${f.codigoEmpresa}.${f.codigo}`);

  it('lists branches with their company id and city name, ordered by company and code', async () => {
    const res = await acme('queries/pesquisarFilial');
    expect(res.statusCode).toBe(200);
    expect(keys(res)).toEqual(['1.1', '1.2', '2.1', '9.1']);
    expect(res.json().totalRegistros).toBe(4);
    expect(res.json().filiais[0]).toEqual({
      id: ids['filial1.1'],
      idEmpresa: ids.empresa1,
      codigoEmpresa: '1',
      codigo: '1',
      nome: 'Matriz Curitiba',
      codigoCidade: '4106902',
      nomeCidade: 'Curitiba',
      siglaEstado: 'PR',
      situacao: 'Ativo',
    });
    expect(res.json().filiais[3]).not.toHaveProperty('idEmpresa');
  });

  it('filters by id, idEmpresa, codigoEmpresa, codigoFilial and texto', async () => {
    expect(keys(await acme('queries/pesquisarFilial', { id: ids['filial1.2'] }))).toEqual(['1.2']);
    expect(keys(await acme('queries/pesquisarFilial', { idEmpresa: ids.empresa1 }))).toEqual(['1.1', '1.2']);
    expect(keys(await acme('queries/pesquisarFilial', { codigoEmpresa: '2' }))).toEqual(['2.1']);
    expect(keys(await acme('queries/pesquisarFilial', { codigoFilial: '1' }))).toEqual(['1.1', '2.1', '9.1']);
    expect(keys(await acme('queries/pesquisarFilial', { texto: 'armazém' }))).toEqual(['1.2']);
    expect(keys(await acme('queries/pesquisarFilial', { texto: 'MATRIZ', codigoEmpresa: '2' }))).toEqual([
      '2.1',
    ]);
  });

  it('counts every match while paging', async () => {
    const res = await acme('queries/pesquisarFilial', {
      idEmpresa: ids.empresa1,
      pagina: { pagina: 1, tamanho: 1 },
    });
    expect(keys(res)).toEqual(['1.2']);
    expect(res.json().totalRegistros).toBe(2);
  });

  it('does not reach another tenant’s company or branches', async () => {
    const res = await acme('queries/pesquisarFilial', { idEmpresa: ids.globexEmpresa });
    expect(res.json()).toEqual({ filiais: [], totalRegistros: 0 });
    expect((await globex('queries/pesquisarFilial')).json().totalRegistros).toBe(0);
  });
});

describe('countries, states and cities', () => {
  it('pesquisarPais lists every country by name, by POST and GET', async () => {
    for (const options of [{}, { method: 'GET' as const }]) {
      const res = await acme('queries/pesquisarPais', {}, options);
      expect(res.statusCode).toBe(200);
      expect(res.json().paises.map((p: { nome: string }) => p.nome)).toEqual([
        'Argentina',
        'Brasil',
        'Paraguai',
      ]);
    }
    expect((await globex('queries/pesquisarPais')).json()).toEqual({
      paises: [{ codigo: '2496', nome: 'Estados Unidos', sigla: 'US' }],
    });
  });

  it('listarPaises filters by part of the name and by code; both empty lists all', async () => {
    const nome = await acme('queries/listarPaises', { nome: 'BRA' });
    expect(nome.json()).toEqual({ paises: [{ codigo: '1058', nome: 'Brasil', sigla: 'BR' }] });
    const codigo = await acme('queries/listarPaises', {}, { method: 'GET', query: { codigo: '5860' } });
    expect(codigo.statusCode).toBe(200);
    expect(codigo.json().paises.map((p: { nome: string }) => p.nome)).toEqual(['Paraguai']);
    expect((await acme('queries/listarPaises', { nome: 'gua', codigo: '1058' })).json().paises).toEqual([]);
    expect((await acme('queries/listarPaises', { nome: '', codigo: '' })).json().paises).toHaveLength(3);
    expect((await acme('queries/listarPaises', { nome: '_' })).json().paises).toEqual([]);
  });

  it('pesquisarEstado takes the country code or its abbreviation', async () => {
    const byCode = await acme('queries/pesquisarEstado', { pais: '1058' });
    expect(byCode.json()).toEqual({
      estados: [
        { pais: '1058', sigla: 'PR', codigo: '41', nome: 'Paraná' },
        { pais: '1058', sigla: 'SP', codigo: '35', nome: 'São Paulo' },
      ],
    });
    const bySigla = await acme('queries/pesquisarEstado', { pais: 'ar' });
    expect(bySigla.json().estados.map((e: { sigla: string }) => e.sigla)).toEqual(['BA']);
    expect((await acme('queries/pesquisarEstado', { pais: 'XX' })).json()).toEqual({ estados: [] });
    expect((await globex('queries/pesquisarEstado', { pais: '1058' })).json().estados).toHaveLength(1);
  });

  it('pesquisarCidade lists a state’s cities by name, the abbreviation in any case', async () => {
    const res = await acme('queries/pesquisarCidade', { estado: 'pr' });
    expect(res.json()).toEqual({
      cidades: [
        { codigo: '4106902', nome: 'Curitiba', siglaEstado: 'PR', pais: '1058' },
        { codigo: '4113700', nome: 'Londrina', siglaEstado: 'PR', pais: '1058' },
      ],
    });
    expect((await acme('queries/pesquisarCidade', { estado: 'MT' })).json()).toEqual({ cidades: [] });
    const theirs = await globex('queries/pesquisarCidade', { estado: 'PR' });
    expect(theirs.json().cidades.map((c: { nome: string }) => c.nome)).toEqual(['Paranaguá']);
  });
});

describe('pesquisarEndereco', () => {
  type Endereco = { codigoPessoa: string; sequencia: number };
  const keys = (res: { json(): { enderecos: Endereco[] } }) =>
    res.json().enderecos.map((e) => `${e.codigoPessoa}.${e.sequencia}`);

  it('lists a person’s addresses with the person id and the city name', async () => {
    const res = await acme('queries/pesquisarEndereco', { pessoa: ids.ana });
    expect(res.statusCode).toBe(200);
    expect(keys(res)).toEqual(['C1.1', 'C1.2', 'C1.3']);
    expect(res.json().truncado).toBe(false);
    expect(res.json().enderecos[0]).toEqual({
      id: ids['enderecoC1.1'],
      idPessoa: ids.ana,
      codigoPessoa: 'C1',
      sequencia: 1,
      tipoEndereco: 'Principal',
      logradouro: 'Rua das Flores',
      bairro: 'Centro',
      cep: '80010000',
      codigoCidade: '4106902',
      nomeCidade: 'Curitiba',
    });
  });

  it('filters by address id, texto (street, district, postal code) and company', async () => {
    expect(keys(await acme('queries/pesquisarEndereco', { id: ids['enderecoC1.2'] }))).toEqual(['C1.2']);
    expect(keys(await acme('queries/pesquisarEndereco', { texto: 'FLORES' }))).toEqual(['C1.1', 'C2.1']);
    expect(keys(await acme('queries/pesquisarEndereco', { texto: '8001' }))).toEqual(['C1.1']);
    // CEPs are stored as digits; texto finds them as people write them.
    for (const texto of ['80010-000', '80.010-000', '80010000', '0010-0'])
      expect(keys(await acme('queries/pesquisarEndereco', { texto })), texto).toEqual(['C1.1']);
    expect(keys(await acme('queries/pesquisarEndereco', { texto: '80010-001' }))).toEqual([]);
    expect(keys(await acme('queries/pesquisarEndereco', { texto: '50%' }))).toEqual(['C1.3']);
    expect(keys(await acme('queries/pesquisarEndereco', { texto: '%' }))).toEqual(['C1.3']);
    // Company 1 uses its own addresses and those of no company; not company 2's.
    const empresa1 = await acme('queries/pesquisarEndereco', { pessoa: ids.ana, idEmpresa: ids.empresa1 });
    expect(keys(empresa1)).toEqual(['C1.1', 'C1.2']);
    const unknown = await acme('queries/pesquisarEndereco', { idEmpresa: 999_999 });
    expect(keys(unknown)).toEqual([]);
  });

  it('cuts at quantidadeLimiteRegistros and says so', async () => {
    const cut = await acme('queries/pesquisarEndereco', { quantidadeLimiteRegistros: 3 });
    expect(keys(cut)).toEqual(['C1.1', 'C1.2', 'C1.3']);
    expect(cut.json().truncado).toBe(true);
    const whole = await acme('queries/pesquisarEndereco', { quantidadeLimiteRegistros: 4 });
    expect(whole.json().truncado).toBe(false);
    expect((await acme('queries/pesquisarEndereco', { quantidadeLimiteRegistros: 0 })).statusCode).toBe(400);
  });

  it('never shows another tenant’s addresses', async () => {
    expect(keys(await acme('queries/pesquisarEndereco', { id: ids.globexEndereco }))).toEqual([]);
    const theirs = await globex('queries/pesquisarEndereco', { texto: 'flores' });
    expect(theirs.json().enderecos).toEqual([
      {
        id: ids.globexEndereco,
        codigoPessoa: 'C1',
        sequencia: 1,
        tipoEndereco: 'Principal',
        logradouro: 'Rua das Flores',
      },
    ]);
  });
});
