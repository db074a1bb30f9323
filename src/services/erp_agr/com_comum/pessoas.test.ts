import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { comCall, makePessoa, seed } from './fixtures.ts';
import { pessoa, pessoaBusca } from './tables/pessoas.ts';
import { cooperadoInfo, produtor } from './tables/produtores.ts';

// Searches of people by role, and of producers (spec 001 §4.8; docs/com_comum.md).

let t: TestApp;
let acme: ReturnType<typeof comCall>;
let globex: ReturnType<typeof comCall>;
const ids: Record<string, number> = {};

type Pessoa = { id: number; codigo: string; nome: string };
const codes = (res: { json(): Record<string, unknown> }, field: string) =>
  (res.json()[field] as Pessoa[]).map((p) => p.codigo);

beforeAll(async () => {
  t = await testApp({ now: () => new Date('2026-03-10T12:00:00-03:00') });
  acme = comCall(t, 'acme', await t.tenant('acme'));
  globex = comCall(t, 'globex', await t.tenant('globex'));
  const rows = await seed(t, 'acme', pessoa, [
    makePessoa({
      codigo: 'CLI001',
      nome: 'Agropecuária Santa Rita',
      nomeFantasia: 'Santa Rita',
      tipoPessoa: 'J',
      cpfCnpj: '11222333000181',
    }),
    makePessoa({
      codigo: 'CLI002',
      nome: 'João da Silva',
      nomeFantasia: 'Joãozinho',
      cpfCnpj: '12345678909',
    }),
    makePessoa({ codigo: 'CLI003', nome: 'Maria 50% Sementes', nomeFantasia: 'Maria_Sementes' }),
    makePessoa({ codigo: 'CLI004', nome: 'Pedro Bloqueado', situacao: 'Bloqueado' }),
    makePessoa({ codigo: 'CLI005', nome: 'Rita Inativa', situacao: 'Inativo' }),
    makePessoa({ codigo: 'FOR001', nome: 'Fertilizantes Sul', cliente: false, fornecedor: true }),
    makePessoa({ codigo: 'FOR002', nome: 'Defensivos Rita', cliente: true, fornecedor: true }),
    makePessoa({
      codigo: 'FOR003',
      nome: 'Sementes Antigas',
      cliente: false,
      fornecedor: true,
      situacao: 'Inativo',
    }),
    makePessoa({ codigo: 'REP001', nome: 'Carlos Representações', cliente: false, representante: true }),
    makePessoa({ codigo: 'PRD001', nome: 'Ana Produtora', cliente: false, produtor: true }),
    makePessoa({ codigo: 'PRD002', nome: 'Bruno Produtor', cliente: false, produtor: true }),
  ]);
  for (const row of rows) ids[row.codigo] = row.id;
  // Ids are numbered per tenant: globex's first rows have acme's ids too. An id only globex holds:
  const [foreign] = await seed(t, 'globex', pessoa, [
    makePessoa({
      id: 900_001,
      codigo: 'CLI001',
      nome: 'Globex Santa Rita',
      fornecedor: true,
      representante: true,
    }),
  ]);
  ids.globex = foreign!.id;

  const produtores = await seed(t, 'acme', produtor, [
    { codigo: '100', codigoPessoa: 'PRD001', inscricaoProdutor: 'PR-123' },
    { codigo: '200', codigoPessoa: 'PRD002' },
    { codigo: '300', codigoPessoa: 'SEM-PESSOA' },
    { codigo: '400', codigoPessoa: 'PRD002', situacao: 'Inativo' },
  ]);
  for (const p of produtores) ids[`produtor${p.codigo}`] = p.id;
  await seed(t, 'acme', cooperadoInfo, [
    { codigoProdutor: '100', matricula: 'M-1', dataAdmissao: '2020-01-01' },
    // Left the cooperative before "today" (2026-03-10): no longer a member.
    { codigoProdutor: '200', matricula: 'M-2', dataAdmissao: '2019-01-01', dataDesligamento: '2026-03-10' },
  ]);
});

describe('pesquisarCliente', () => {
  it('lists active customers by name, with every field of recPessoa', async () => {
    const res = await acme('queries/pesquisarCliente');
    expect(res.statusCode).toBe(200);
    expect(codes(res, 'clientes')).toEqual(['CLI001', 'FOR002', 'CLI002', 'CLI003']);
    expect(res.json().truncado).toBe(false);
    expect(res.json().clientes[0]).toEqual({
      id: ids.CLI001,
      codigo: 'CLI001',
      nome: 'Agropecuária Santa Rita',
      nomeFantasia: 'Santa Rita',
      tipoPessoa: 'J',
      cpfCnpj: '11222333000181',
      situacao: 'Ativo',
      cliente: true,
      fornecedor: false,
      representante: false,
      produtor: false,
    });
  });

  it('takes another situation when asked', async () => {
    expect(codes(await acme('queries/pesquisarCliente', { situacao: 'Bloqueado' }), 'clientes')).toEqual([
      'CLI004',
    ]);
    expect(codes(await acme('queries/pesquisarCliente', { situacao: 'Inativo' }), 'clientes')).toEqual([
      'CLI005',
    ]);
  });

  it('matches texto partially and case-insensitively on code, name and trade name, and exactly on id', async () => {
    const texto = async (value: string) =>
      codes(await acme('queries/pesquisarCliente', { texto: value }), 'clientes');
    expect(await texto('cli00')).toEqual(['CLI001', 'CLI002', 'CLI003']);
    expect(await texto('SILVA')).toEqual(['CLI002']);
    expect(await texto('joãoz')).toEqual(['CLI002']);
    expect(await texto('rita')).toEqual(['CLI001', 'FOR002']);
    // An id matches exactly: FOR002's id appears in no code or name of the fixtures.
    expect(await texto(String(ids.FOR002))).toEqual(['FOR002']);
    expect(await texto('  ')).toHaveLength(4);
  });

  it('takes %, _ and \\ in texto literally', async () => {
    const texto = async (value: string) =>
      codes(await acme('queries/pesquisarCliente', { texto: value }), 'clientes');
    expect(await texto('50%')).toEqual(['CLI003']);
    expect(await texto('%')).toEqual(['CLI003']);
    expect(await texto('a_S')).toEqual(['CLI003']);
    expect(await texto('o_S')).toEqual([]);
    expect(await texto('\\')).toEqual([]);
  });

  it('filters nome and nomeFantasia by containment, together with the other filters', async () => {
    expect(codes(await acme('queries/pesquisarCliente', { nome: 'DA SIL' }), 'clientes')).toEqual(['CLI002']);
    expect(codes(await acme('queries/pesquisarCliente', { nomeFantasia: 'santa' }), 'clientes')).toEqual([
      'CLI001',
    ]);
    expect(
      codes(await acme('queries/pesquisarCliente', { nome: 'rita', nomeFantasia: 'santa' }), 'clientes'),
    ).toEqual(['CLI001']);
    expect(codes(await acme('queries/pesquisarCliente', { id: ids.CLI002 }), 'clientes')).toEqual(['CLI002']);
    expect(codes(await acme('queries/pesquisarCliente', { id: ids.FOR001 }), 'clientes')).toEqual([]);
  });

  it('sets truncado only when more records matched than the limit', async () => {
    const at = await acme('queries/pesquisarCliente', { quantidadeLimiteRegistros: 4 });
    expect(at.json().clientes).toHaveLength(4);
    expect(at.json().truncado).toBe(false);
    const below = await acme('queries/pesquisarCliente', { quantidadeLimiteRegistros: 3 });
    expect(codes(below, 'clientes')).toEqual(['CLI001', 'FOR002', 'CLI002']);
    expect(below.json().truncado).toBe(true);
    const over = await acme('queries/pesquisarCliente', { quantidadeLimiteRegistros: 1001 });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toMatch(/field 'quantidadeLimiteRegistros' must be <= 1000/);
  });

  it('never shows another tenant’s people', async () => {
    expect(codes(await acme('queries/pesquisarCliente', { id: ids.globex }), 'clientes')).toEqual([]);
    expect(codes(await globex('queries/pesquisarCliente', { texto: 'rita' }), 'clientes')).toEqual([
      'CLI001',
    ]);
    expect((await globex('queries/pesquisarCliente', { texto: 'rita' })).json().clientes[0].id).toBe(
      ids.globex,
    );
  });
});

describe('pesquisarFornecedor and pesquisarRepresentante', () => {
  it('lists only suppliers, active by default', async () => {
    const res = await acme('queries/pesquisarFornecedor');
    expect(res.statusCode).toBe(200);
    expect(codes(res, 'fornecedores')).toEqual(['FOR002', 'FOR001']);
    expect(codes(await acme('queries/pesquisarFornecedor', { situacao: 'Inativo' }), 'fornecedores')).toEqual(
      ['FOR003'],
    );
    expect(codes(await acme('queries/pesquisarFornecedor', { texto: 'SUL' }), 'fornecedores')).toEqual([
      'FOR001',
    ]);
    const cut = await acme('queries/pesquisarFornecedor', { quantidadeLimiteRegistros: 1 });
    expect(cut.json()).toMatchObject({ truncado: true });
    expect(cut.json().fornecedores).toHaveLength(1);
  });

  it('lists only representatives', async () => {
    const res = await acme('queries/pesquisarRepresentante', { texto: 'carlos' });
    expect(codes(res, 'representantes')).toEqual(['REP001']);
    expect(res.json().truncado).toBe(false);
    expect(codes(await acme('queries/pesquisarRepresentante', { texto: 'rita' }), 'representantes')).toEqual(
      [],
    );
    expect(codes(await globex('queries/pesquisarRepresentante'), 'representantes')).toEqual(['CLI001']);
  });
});

describe('pesquisarFornecedorB2', () => {
  it('pages active suppliers with the total of matches, in recFornecedor', async () => {
    const first = await acme('queries/pesquisarFornecedorB2', { page: { pagina: 0, tamanho: 1 } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      contents: [
        {
          id: ids.FOR002,
          codigo: 'FOR002',
          nome: 'Defensivos Rita',
          tipoPessoa: 'F',
          situacao: 'Ativo',
        },
      ],
      totalElements: 2,
    });
    const second = await acme('queries/pesquisarFornecedorB2', { page: { pagina: 1, tamanho: 1 } });
    expect(codes(second, 'contents')).toEqual(['FOR001']);
    expect(second.json().totalElements).toBe(2);
    const all = await acme('queries/pesquisarFornecedorB2', { page: {} });
    expect(codes(all, 'contents')).toEqual(['FOR002', 'FOR001']);
  });

  it('filters by id and by part of the name', async () => {
    const byName = await acme('queries/pesquisarFornecedorB2', { page: {}, nome: 'fertil' });
    expect(byName.json()).toMatchObject({ totalElements: 1 });
    expect(codes(byName, 'contents')).toEqual(['FOR001']);
    const byId = await acme('queries/pesquisarFornecedorB2', { page: {}, id: ids.FOR003 });
    expect(byId.json()).toEqual({ contents: [], totalElements: 0 });
    const foreign = await acme('queries/pesquisarFornecedorB2', { page: {}, id: ids.globex });
    expect(foreign.json()).toEqual({ contents: [], totalElements: 0 });
  });

  it('requires page and bounds its size', async () => {
    expect((await acme('queries/pesquisarFornecedorB2', {})).statusCode).toBe(400);
    const bad = await acme('queries/pesquisarFornecedorB2', { page: { pagina: -1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/field 'page.pagina' must be >= 0/);
  });
});

describe('pesquisarProdutor', () => {
  it('lists active producers by the name of their person, with membership derived from cooperadoInfo', async () => {
    const res = await acme('queries/pesquisarProdutor');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      produtores: [
        {
          id: ids.produtor100,
          codigo: '100',
          codigoPessoa: 'PRD001',
          inscricaoProdutor: 'PR-123',
          situacao: 'Ativo',
          cooperado: true,
          idPessoa: ids.PRD001,
          nome: 'Ana Produtora',
        },
        {
          id: ids.produtor200,
          codigo: '200',
          codigoPessoa: 'PRD002',
          situacao: 'Ativo',
          cooperado: false,
          idPessoa: ids.PRD002,
          nome: 'Bruno Produtor',
        },
        {
          id: ids.produtor300,
          codigo: '300',
          codigoPessoa: 'SEM-PESSOA',
          situacao: 'Ativo',
          cooperado: false,
        },
      ],
      truncado: false,
    });
  });

  it('filters by id, code, texto and situation, and cuts at the limit', async () => {
    const codigos = (res: { json(): { produtores: Array<{ codigo: string }> } }) =>
      res.json().produtores.map((p) => p.codigo);
    expect(codigos(await acme('queries/pesquisarProdutor', { texto: 'BRUNO' }))).toEqual(['200']);
    expect(codigos(await acme('queries/pesquisarProdutor', { texto: '30' }))).toEqual(['300']);
    expect(codigos(await acme('queries/pesquisarProdutor', { codigo: '100' }))).toEqual(['100']);
    expect(codigos(await acme('queries/pesquisarProdutor', { id: ids.produtor200 }))).toEqual(['200']);
    expect(codigos(await acme('queries/pesquisarProdutor', { situacao: 'Inativo' }))).toEqual(['400']);
    const cut = await acme('queries/pesquisarProdutor', { quantidadeLimiteRegistros: 2 });
    expect(codigos(cut)).toEqual(['100', '200']);
    expect(cut.json().truncado).toBe(true);
    expect((await globex('queries/pesquisarProdutor', { id: ids.produtor100 })).json().produtores).toEqual(
      [],
    );
  });
});

describe('the search view (com_pessoa_busca)', () => {
  it('shows only the transaction’s tenant, even to a query without a tenant condition', async () => {
    const globexRows = await t.db.tenant('globex', (tx) => tx.select().from(pessoaBusca));
    expect(globexRows.map((r) => [r.tenant, r.codigo])).toEqual([['globex', 'CLI001']]);
    const acmeRows = await t.db.tenant('acme', (tx) => tx.select().from(pessoaBusca));
    expect(new Set(acmeRows.map((r) => r.tenant))).toEqual(new Set(['acme']));
    expect(acmeRows).toHaveLength(11);
    // Outside a tenant transaction the setting is empty: nothing.
    expect(await t.db.system((tx) => tx.select().from(pessoaBusca))).toEqual([]);
  });

  it('refuses writes into another tenant through it, like the policy', async () => {
    await expect(
      t.db.tenant('acme', (tx) =>
        tx.execute(
          sql`insert into com_pessoa_busca (tenant, codigo, nome, tipo_pessoa) values ('globex', 'X', 'X', 'F')`,
        ),
      ),
    ).rejects.toThrow();
    await t.db.tenant('acme', (tx) =>
      tx.execute(sql`update com_pessoa_busca set nome = 'x' where tenant = 'globex'`),
    );
    const [globexRow] = await t.db.tenant('globex', (tx) => tx.select().from(pessoa));
    expect(globexRow!.nome).toBe('Globex Santa Rita');
  });
});
