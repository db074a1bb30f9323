import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';

// erp_isl/int_ligacaoprodutodeposito through HTTP: the key, 409/404 with nothing changed, every
// mask of spec 001 §4.4 refused naming the field and the mask, the history, tenants apart.

const S = 'erp_isl/int_ligacaoprodutodeposito';
let t: TestApp;
let key: string;
let other: string;

beforeAll(async () => {
  t = await testApp();
  key = await t.tenant('acme');
  other = await t.tenant('globex');
});

const chave = (produto = 'PROD-1') => ({
  codigoEmpresa: 1,
  codigoProduto: produto,
  codigoDerivacao: 'D1',
  codigoDeposito: 'DEP01',
});
const ligacao = (over: Record<string, unknown> = {}) => ({
  ...chave(),
  estoqueNegativo: false,
  estoqueReposicao: 123456789.12345,
  quantidadeMinDias: 5,
  quantidadeMaxDias: 30,
  dataValidade: '31/12/2027',
  prazoRessuprimento: 7,
  capacidadeEstoque: 5000.5,
  calculoNecessidades: true,
  ligacaoEspecial: false,
  situacao: 'Ativo',
  codigoEnderecamento: 'A-01-02',
  codigoMotivo: 123456,
  observacaoMotivo: 'reposição semanal\nsegunda linha',
  ...over,
});
const act = (op: string, body: unknown, auth = key, tenant = 'acme') =>
  t.call(tenant, `${S}/actions/${op}`, body, { auth });
const obter = (k: Record<string, unknown>, auth = key, tenant = 'acme') =>
  t.call(tenant, `${S}/queries/obterLigacao`, k, { auth });

describe('inserirLigacao, alterarLigacao, excluirLigacao', () => {
  it('stores a link (DD/MM/YYYY read as a date), refuses its key twice (409), changes and removes it, all in the history', async () => {
    expect((await act('inserirLigacao', ligacao())).statusCode).toBe(200);
    let got = (await obter(chave())).json();
    expect(got.ligacao).toMatchObject({
      ...chave(),
      dataValidade: '2027-12-31',
      situacao: 'Ativo',
      codigoMotivo: 123456,
    });

    const before = await tableCounts(t.db);
    const dup = await act('inserirLigacao', ligacao({ situacao: 'Inativo' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toContain('already exists');
    expect(await tableCounts(t.db)).toEqual(before);

    expect(
      (await act('alterarLigacao', { ...chave(), situacao: 'Inativo', quantidadeMaxDias: 40 })).statusCode,
    ).toBe(200);
    got = (await obter(chave())).json();
    expect(got.ligacao).toMatchObject({ situacao: 'Inativo', quantidadeMaxDias: 40, quantidadeMinDias: 5 });
    expect(got.historico.map((h: { operacao: string }) => h.operacao)).toEqual([
      'inserirLigacao',
      'alterarLigacao',
    ]);
    expect(got.historico[1].alteracoes).toEqual({
      situacao: { de: 'Ativo', para: 'Inativo' },
      quantidadeMaxDias: { de: 30, para: 40 },
    });

    expect((await act('excluirLigacao', chave())).statusCode).toBe(200);
    expect((await obter(chave())).statusCode).toBe(404);
    const hist = await t.call('acme', `${S}/entities/historicoLigacaoProdutoDeposito`, undefined, {
      auth: key,
      method: 'GET',
      query: { filter: "codigoProduto eq 'PROD-1'", orderby: 'createdDate' },
    });
    expect(hist.json().map((h: { operacao: string }) => h.operacao)).toEqual([
      'inserirLigacao',
      'alterarLigacao',
      'excluirLigacao',
    ]);
  });

  it('answers 404 for an unknown link on change and removal, nothing changed; tenants apart', async () => {
    expect((await act('inserirLigacao', ligacao({ codigoProduto: 'P2' }))).statusCode).toBe(200);
    const before = await tableCounts(t.db);
    for (const [op, body] of [
      ['alterarLigacao', ligacao({ codigoProduto: 'NOPE' })],
      ['excluirLigacao', chave('NOPE')],
    ] as const) {
      const res = await act(op, body);
      expect(res.statusCode, op).toBe(404);
      expect(res.json().reason).toBe('OBJECT_NOT_FOUND');
      expect(
        (
          await act(
            op,
            op === 'excluirLigacao' ? chave('P2') : ligacao({ codigoProduto: 'P2' }),
            other,
            'globex',
          )
        ).statusCode,
      ).toBe(404);
    }
    expect(await tableCounts(t.db)).toEqual(before);
    expect((await obter(chave('P2'), other, 'globex')).statusCode).toBe(404);
  });

  it('documents each mask with the bounds JSON Schema can state (length, range)', () => {
    const doc = JSON.stringify(
      t.platform.metadata('erp_isl/int_ligacaoprodutodeposito', 'openapi', {
        baseUrl: 'http://ponte.test',
        tenant: 'acme',
      }),
    );
    expect(doc).toContain('"x-mask":"U[14]","maxLength":14');
    expect(doc).toContain('"x-mask":"ZZZ9","minimum":0,"maximum":9999');
  });

  it('refuses every value outside its §4.4 mask with 400 naming the field and the mask, nothing changed', async () => {
    const before = await tableCounts(t.db);
    const cases: Array<[string, unknown, string]> = [
      ['codigoEmpresa', 10000, 'ZZZ9'],
      ['codigoEmpresa', -1, 'ZZZ9'],
      ['codigoProduto', 'prod-1', 'U[14]'],
      ['codigoProduto', 'P'.repeat(15), 'U[14]'],
      ['codigoDerivacao', 'D'.repeat(8), 'U[7]'],
      ['codigoDeposito', 'DEP-ABCDEFG', 'U[10]'],
      ['estoqueReposicao', 1_000_000_000, 'ZZZ.ZZZ.ZZ9,9[5]'],
      ['estoqueReposicao', 1.123456, 'ZZZ.ZZZ.ZZ9,9[5]'],
      ['capacidadeEstoque', -1, 'ZZZ.ZZZ.ZZ9,9[5]'],
      ['quantidadeMinDias', 10000, 'ZZZ9'],
      ['quantidadeMaxDias', 10000, 'ZZZ9'],
      ['prazoRessuprimento', 12345, 'ZZZ9'],
      ['dataValidade', '30/02/2027', 'DD/MM/YYYY'],
      ['dataValidade', '2027-31-12', 'DD/MM/YYYY'],
      ['codigoEnderecamento', 'a-01', 'U[20]'],
      ['codigoMotivo', 1_000_000, 'ZZZ.ZZ9'],
      ['observacaoMotivo', 'x'.repeat(41), '#(40,2)#'],
      ['observacaoMotivo', 'a\nb\nc', '#(40,2)#'],
    ];
    for (const op of ['inserirLigacao', 'alterarLigacao']) {
      for (const [field, value, mask] of cases) {
        const res = await act(op, ligacao({ codigoProduto: 'P2', [field]: value }));
        expect(res.statusCode, `${op} ${field}=${value}`).toBe(400);
        expect(res.json().message).toContain(`field '${field}' must follow the mask ${mask}`);
      }
    }
    const enumBad = await act('inserirLigacao', ligacao({ situacao: 'Bloqueado' }));
    expect(enumBad.statusCode).toBe(400);
    expect(enumBad.json().message).toContain("field 'situacao' must be one of Inativo, Ativo");
    const dias = await act('inserirLigacao', ligacao({ codigoProduto: 'P3', quantidadeMinDias: 50 }));
    expect(dias.statusCode).toBe(422);
    expect(dias.json().message).toContain("'quantidadeMinDias'");
    expect(await tableCounts(t.db)).toEqual(before);
  });
});
