import { getTableColumns } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { importFile as runImport, upload } from '../../../../test/transfers.ts';
import type { Operation } from '../../../platform/core/declarations.ts';
import { compile } from '../../../platform/core/validation.ts';
import { comCall } from './fixtures.ts';
import { comumImports } from './imports.ts';
import service from './service.ts';

// The 22 import targets of com_comum (spec 001 §4.8): each writes the table its queries read, by a
// natural key backed by a unique index; and end to end through upload, import<X> and the job.

const KINDS = [
  'Pessoa',
  'PessoaFisica',
  'PessoaJuridica',
  'Pais',
  'Estado',
  'Cidade',
  'Empresa',
  'Filial',
  'UnidadeMedida',
  'UnidadeMedidaConversao',
  'CondicaoPagamento',
  'Sku',
  'PessoaEndereco',
  'Moeda',
  'Safra',
  'FormaPagamento',
  'SkuUnidadeMedida',
  'CotacaoMoeda',
  'Produtor',
  'CooperadoInfo',
  'ProdutorPropriedade',
  'ProdutorVinculo',
  // past the spec's list: the installment plans and the holiday calendar (docs/com_comum.md)
  'CondicaoPagamentoParcela',
  'Feriado',
];

describe('import targets', () => {
  it('declares exactly the kinds of the spec, each as a PUBLIC import<X> action', () => {
    expect(Object.keys(comumImports).sort()).toEqual([...KINDS].sort());
    for (const kind of KINDS) {
      const op = (service.operations as Record<string, Operation>)[`import${kind}`];
      expect(op?.visibility, kind).toBe('PUBLIC');
      expect(op?.kind).toBe('actions');
    }
  });

  it.each(KINDS)('%s: every row field is a column, and (tenant, natural key) is a unique index', (kind) => {
    const target = comumImports[kind]!;
    const columns = getTableColumns(target.table);
    for (const field of Object.keys(target.row.properties)) expect(columns, field).toHaveProperty(field);
    for (const field of target.naturalKey) {
      expect(target.row.required ?? [], `${field} of the natural key is required`).toContain(field);
    }
    const wanted = ['tenant', ...target.naturalKey].map(
      (k) => (columns as Record<string, { name: string }>)[k]!.name,
    );
    const unique = getTableConfig(target.table as PgTable).indexes.filter((i) => i.config.unique);
    const names = unique.map((i) => i.config.columns.map((c) => (c as { name: string }).name));
    expect(names).toContainEqual(wanted);
  });

  it('PessoaFisica and PessoaJuridica set tipoPessoa and check the document’s shape', () => {
    const fisica = comumImports.PessoaFisica!;
    const juridica = comumImports.PessoaJuridica!;
    expect(fisica.row.properties).not.toHaveProperty('tipoPessoa');
    expect(fisica.prepare!({ codigo: '1', nome: 'Ana', cpfCnpj: '123.456.789-09' })).toEqual({
      codigo: '1',
      nome: 'Ana',
      cpfCnpj: '12345678909',
      tipoPessoa: 'F',
    });
    expect(juridica.prepare!({ codigo: '2', nome: 'Agro SA' })).toEqual({
      codigo: '2',
      nome: 'Agro SA',
      tipoPessoa: 'J',
    });
    const validFisica = compile(fisica.row, 'body');
    expect(validFisica({ codigo: '1', nome: 'Ana', cpfCnpj: '12345678909' })).toBe(true);
    expect(validFisica({ codigo: '1', nome: 'Ana', cpfCnpj: '11222333000181' })).toBe(false);
    expect(compile(juridica.row, 'body')({ codigo: '2', nome: 'Agro', cpfCnpj: '11.222.333/0001-81' })).toBe(
      true,
    );
    // The alphanumeric CNPJ (new numbers since July 2026), stored upper case without punctuation.
    expect(compile(juridica.row, 'body')({ codigo: '3', nome: 'Alfa', cpfCnpj: '12.abc.345/01de-35' })).toBe(
      true,
    );
    expect(juridica.prepare!({ codigo: '3', nome: 'Alfa', cpfCnpj: '12.abc.345/01de-35' }).cpfCnpj).toBe(
      '12ABC34501DE35',
    );
  });

  it('upper-cases abbreviations, so the searches find them', () => {
    expect(comumImports.Estado!.prepare!({ pais: '1058', sigla: 'pr', nome: 'Paraná' }).sigla).toBe('PR');
    expect(
      comumImports.Cidade!.prepare!({ codigo: '1', nome: 'X', siglaEstado: 'sp', pais: '1058' }).siglaEstado,
    ).toBe('SP');
  });
});

describe('imports end to end', () => {
  let t: TestApp;
  let acme: ReturnType<typeof comCall>;
  let key: string;

  beforeAll(async () => {
    t = await testApp();
    key = await t.tenant('acme');
    acme = comCall(t, 'acme', key);
  });

  async function importFile(kind: string, fileName: string, content: string) {
    const arquivo = await upload(t, 'acme', key, fileName, content);
    return runImport(t, 'acme', key, `erp_agr/com_comum/actions/import${kind}`, { arquivo });
  }

  it('imports natural persons from CSV into the table pesquisarCliente reads', async () => {
    const { status } = await importFile(
      'PessoaFisica',
      'pf.csv',
      'codigo,nome,cpfCnpj,cliente,situacao\nPF1,Ana Lima,123.456.789-09,true,Ativo\nPF2,Bia Souza,,true,Bloqueado\nPF3,Caio,11.222.333/0001-81,true,\n',
    );
    expect(status).toMatchObject({ state: 'done', processed: 3, succeeded: 2, failed: 1 });
    const res = await acme('queries/pesquisarCliente', { texto: 'lima' });
    expect(res.json().clientes).toEqual([
      expect.objectContaining({ codigo: 'PF1', tipoPessoa: 'F', cpfCnpj: '12345678909', situacao: 'Ativo' }),
    ]);
    expect(
      (await acme('queries/pesquisarCliente', { situacao: 'Bloqueado' })).json().clientes[0].codigo,
    ).toBe('PF2');
  });

  it('updates a person by its code on a second import', async () => {
    const { status } = await importFile(
      'Pessoa',
      'p.jsonl',
      '{"codigo":"PF1","nome":"Ana Lima Costa","tipoPessoa":"F","fornecedor":true}\n',
    );
    expect(status).toMatchObject({ state: 'done', succeeded: 1 });
    const res = await acme('queries/pesquisarFornecedor', { texto: 'costa' });
    expect(res.json().fornecedores.map((p: { codigo: string }) => p.codigo)).toEqual(['PF1']);
  });

  it('feeds countries, states and cities to their searches, in any order', async () => {
    await importFile('Cidade', 'cidades.csv', 'codigo,nome,siglaEstado,pais\n4106902,Curitiba,pr,1058\n');
    await importFile(
      'Estado',
      'estados.json',
      JSON.stringify([{ pais: '1058', sigla: 'pr', codigo: '41', nome: 'Paraná' }]),
    );
    await importFile(
      'Pais',
      'paises.json',
      JSON.stringify([{ codigo: '1058', nome: 'Brasil', sigla: 'br' }]),
    );
    expect((await acme('queries/pesquisarCidade', { estado: 'PR' })).json().cidades[0].nome).toBe('Curitiba');
    expect((await acme('queries/pesquisarEstado', { pais: 'BR' })).json().estados[0].nome).toBe('Paraná');
  });

  it('feeds companies and branches, the branch joined to its company', async () => {
    await importFile('Filial', 'filiais.csv', 'codigoEmpresa,codigo,nome\n1,1,Matriz\n');
    await importFile(
      'Empresa',
      'empresas.csv',
      'codigo,nome,cnpj\n1,Coop Alfa,11.222.333/0001-81\n2,Coop Beta,12.abc.345/01de-35\n',
    );
    const empresa = (await acme('queries/pesquisarEmpresa', { codigo: '1' })).json().empresas[0];
    expect(empresa).toMatchObject({ nome: 'Coop Alfa', cnpj: '11222333000181' });
    // An alphanumeric CNPJ (new numbers since July 2026): upper case, without punctuation.
    const beta = (await acme('queries/pesquisarEmpresa', { codigo: '2' })).json().empresas[0];
    expect(beta).toMatchObject({ nome: 'Coop Beta', cnpj: '12ABC34501DE35' });
    const filial = (await acme('queries/pesquisarFilial', { idEmpresa: empresa.id })).json().filiais;
    expect(filial).toEqual([expect.objectContaining({ codigo: '1', idEmpresa: empresa.id })]);
  });

  it('stores the CEP of an imported address as its 8 digits, as the entity does', async () => {
    const { status } = await importFile(
      'PessoaEndereco',
      'enderecos.csv',
      'codigoPessoa,sequencia,logradouro,cep,siglaEstado\nPF1,1,Rua A,13140-000,sp\nPF1,2,Rua B,13.140-001,sp\nPF1,3,Rua C,1314-000,sp\n',
    );
    expect(status).toMatchObject({ state: 'done', succeeded: 2, failed: 1 });
    const res = await t.app.inject({
      method: 'GET',
      url: `/t/acme/bridge/1.0/rest/erp_agr/com_comum/entities/pessoaEndereco?orderby=sequencia`,
      headers: { authorization: key },
    });
    expect(res.json().map((e: { cep: string; siglaEstado: string }) => [e.cep, e.siglaEstado])).toEqual([
      ['13140000', 'SP'],
      ['13140001', 'SP'],
    ]);
  });

  it('imports entities with their audit fields, readable through the entity routes', async () => {
    const { status } = await importFile('Moeda', 'moedas.csv', 'codigo,nome,simbolo\nUSD,Dólar,US$\n');
    expect(status).toMatchObject({ state: 'done', succeeded: 1 });
    const res = await t.app.inject({
      method: 'GET',
      url: `/t/acme/bridge/1.0/rest/erp_agr/com_comum/entities/moeda?filter=${encodeURIComponent("codigo eq 'USD'")}`,
      headers: { authorization: key },
    });
    expect(res.json()).toEqual([
      expect.objectContaining({ codigo: 'USD', nome: 'Dólar', createdBy: expect.stringMatching(/^import:/) }),
    ]);
  });

  it('refuses a producer linked to itself row by row, keeping the other links', async () => {
    await importFile('Produtor', 'produtores.csv', 'codigo,codigoPessoa\nA,PF1\nB,PF2\n');
    const { status } = await importFile(
      'ProdutorVinculo',
      'vinculos.csv',
      'codigoProdutor,codigoProdutorVinculado,nomeVinculo\nA,B,Cônjuge\nA,A,Ele mesmo\n',
    );
    expect(status).toMatchObject({ state: 'done', succeeded: 1, failed: 1 });
    const produtores = (await acme('queries/pesquisarProdutor', { codigo: 'A' })).json().produtores;
    const vinculos = (await acme('queries/pesquisarVinculo', { produtorId: produtores[0].id })).json()
      .vinculos;
    expect(vinculos).toEqual([
      expect.objectContaining({ codigoProdutor: 'A', codigoProdutorVinculado: 'B', nomeVinculo: 'Cônjuge' }),
    ]);
  });
});
