import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { COM, makePessoa, seed } from './fixtures.ts';
import { pessoa } from './tables/pessoas.ts';
import { unidadeMedida } from './tables/produtos.ts';

// The six generic entities of com_comum through their routes (spec 000 §2.3): CRUD, the natural
// key (409), the reference and period rules of their hooks (422), and tenant isolation.

let t: TestApp;
let acme: string;
let globex: string;

beforeAll(async () => {
  t = await testApp();
  acme = await t.tenant('acme');
  globex = await t.tenant('globex');
  for (const tenant of ['acme', 'globex']) {
    await seed(t, tenant, unidadeMedida, [
      { codigo: 'KG', descricao: 'Quilograma' },
      { codigo: 'SC', descricao: 'Saca de 60 kg' },
      { codigo: 'TON', descricao: 'Tonelada' },
    ]);
  }
  await seed(t, 'acme', pessoa, [makePessoa({ codigo: 'C1' })]);
});

const req = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  tenant: 'acme' | 'globex' = 'acme',
) =>
  t.app.inject({
    method,
    url: `/t/${tenant}/bridge/1.0/rest/${COM}/entities/${path}`,
    headers: {
      authorization: tenant === 'acme' ? acme : globex,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

interface Case {
  name: string;
  create: Record<string, unknown>;
  /** Defaults the server fills on create. */
  defaults: Record<string, unknown>;
  patch: Record<string, unknown>;
  /** A second record with the same natural key. */
  duplicate: Record<string, unknown>;
}

const cases: Case[] = [
  {
    name: 'moeda',
    create: { codigo: 'USD', nome: 'Dólar americano', simbolo: 'US$', quantidadeDecimais: 4 },
    defaults: {},
    patch: { nome: 'Dólar dos EUA' },
    duplicate: { codigo: 'USD', nome: 'Outro dólar' },
  },
  {
    name: 'safra',
    create: {
      codigo: '2025/2026',
      descricao: 'Safra de verão',
      cultura: 'Soja',
      dataInicio: '2025-09-01',
      dataFim: '2026-05-31',
    },
    defaults: { encerrada: false },
    patch: { encerrada: true },
    duplicate: { codigo: '2025/2026', descricao: 'Outra', dataInicio: '2025-01-01', dataFim: '2025-12-31' },
  },
  {
    name: 'sku',
    create: {
      codigo: 'SOJA-GRANEL',
      descricao: 'Soja a granel',
      codigoUnidadeMedida: 'KG',
      ncm: '12019000',
      pesoLiquido: 1,
    },
    defaults: { ativo: true },
    patch: { descricao: 'Soja em grão a granel' },
    duplicate: { codigo: 'SOJA-GRANEL', descricao: 'Outra', codigoUnidadeMedida: 'SC' },
  },
  {
    name: 'unidadeMedidaConversao',
    create: { codigoUnidadeMedidaOrigem: 'SC', codigoUnidadeMedidaDestino: 'KG', fatorConversao: 60 },
    defaults: { operacao: 'Multiplicar' },
    patch: { fatorConversao: 60.5 },
    duplicate: { codigoUnidadeMedidaOrigem: 'SC', codigoUnidadeMedidaDestino: 'KG', fatorConversao: 50 },
  },
  {
    name: 'condicaoPagamento',
    create: { codigo: '030', descricao: '30 dias', diasPrimeiraParcela: 30 },
    defaults: { quantidadeParcelas: 1, intervaloDias: 0, ativo: true },
    patch: { quantidadeParcelas: 3, intervaloDias: 30, descricao: '30/60/90' },
    duplicate: { codigo: '030', descricao: 'Outra' },
  },
  {
    name: 'pessoaEndereco',
    create: {
      codigoPessoa: 'C1',
      sequencia: 1,
      logradouro: 'Rua das Palmeiras',
      cep: '80010000',
      siglaEstado: 'pr',
    },
    defaults: { tipoEndereco: 'Principal', siglaEstado: 'PR' },
    patch: { numero: '100', bairro: 'Centro' },
    duplicate: { codigoPessoa: 'C1', sequencia: 1, logradouro: 'Outra rua' },
  },
];

describe.each(cases)('entity $name', ({ name, create, defaults, patch, duplicate }) => {
  let id: number;

  it('creates with an int64 id, the server’s defaults and audit fields', async () => {
    const res = await req('POST', name, create);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ...create, ...defaults });
    expect(Number.isSafeInteger(body.id)).toBe(true);
    expect(body.createdBy).toMatch(/^key:/);
    id = body.id;
  });

  it('reads, patches and lists it', async () => {
    expect((await req('GET', `${name}/${id}`)).json()).toMatchObject({ id, ...defaults });
    const patched = await req('PATCH', `${name}/${id}`, patch);
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ id, ...patch });
    const list = await req('GET', name);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()[0]).toMatchObject(patch);
  });

  it('answers 409 for a second record with the same natural key', async () => {
    const res = await req('POST', name, duplicate);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/already exists/);
  });

  it('keeps the not-null defaults when PUT leaves optional fields out', async () => {
    const res = await req('PUT', `${name}/${id}`, create);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ...create, ...defaults });
  });

  it('is invisible to another tenant', async () => {
    expect((await req('GET', `${name}/${id}`, undefined, 'globex')).statusCode).toBe(404);
    expect((await req('DELETE', `${name}/${id}`, undefined, 'globex')).statusCode).toBe(404);
    expect((await req('GET', name, undefined, 'globex')).json()).toEqual([]);
    // The same natural key is free in another tenant.
    if (name !== 'pessoaEndereco') expect((await req('POST', name, create, 'globex')).statusCode).toBe(200);
  });

  it('deletes it', async () => {
    expect((await req('DELETE', `${name}/${id}`)).statusCode).toBe(200);
    expect((await req('GET', `${name}/${id}`)).statusCode).toBe(404);
  });
});

describe('entity rules', () => {
  it('refuses a SKU whose unit of measure does not exist (422)', async () => {
    const res = await req('POST', 'sku', { codigo: 'X', descricao: 'X', codigoUnidadeMedida: 'LT' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('unidadeMedida LT does not exist (codigoUnidadeMedida)');
  });

  it('refuses a conversion between one unit, or to a unit that does not exist (422)', async () => {
    const same = await req('POST', 'unidadeMedidaConversao', {
      codigoUnidadeMedidaOrigem: 'KG',
      codigoUnidadeMedidaDestino: 'KG',
      fatorConversao: 1,
    });
    expect(same.statusCode).toBe(422);
    const unknown = await req('POST', 'unidadeMedidaConversao', {
      codigoUnidadeMedidaOrigem: 'KG',
      codigoUnidadeMedidaDestino: 'LT',
      fatorConversao: 1,
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toMatch(/LT does not exist \(codigoUnidadeMedidaDestino\)/);
    const zero = await req('POST', 'unidadeMedidaConversao', {
      codigoUnidadeMedidaOrigem: 'KG',
      codigoUnidadeMedidaDestino: 'TON',
      fatorConversao: 0,
    });
    expect(zero.statusCode).toBe(400);
  });

  it('refuses a crop year that ends before it starts, on create and on patch (422)', async () => {
    const bad = await req('POST', 'safra', {
      codigo: 'S1',
      descricao: 'S',
      dataInicio: '2026-01-01',
      dataFim: '2025-12-31',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('dataFim (2025-12-31) is before dataInicio (2026-01-01)');
    const ok = await req('POST', 'safra', {
      codigo: 'S1',
      descricao: 'S',
      dataInicio: '2026-01-01',
      dataFim: '2026-01-01',
    });
    expect(ok.statusCode).toBe(200);
    const patch = await req('PATCH', `safra/${ok.json().id}`, { dataInicio: '2026-02-01' });
    expect(patch.statusCode).toBe(422);
  });

  it('takes a CEP as people write it and stores its 8 digits: create, patch, put, bulk', async () => {
    const base = { codigoPessoa: 'C1', logradouro: 'Rua do Porto' };
    const created = await req('POST', 'pessoaEndereco', { ...base, sequencia: 7, cep: '13140-000' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().cep).toBe('13140000');
    const id = created.json().id;
    const patched = await req('PATCH', `pessoaEndereco/${id}`, { cep: '13.140-001' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().cep).toBe('13140001');
    const put = await req('PUT', `pessoaEndereco/${id}`, { ...base, sequencia: 7, cep: '13140002' });
    expect(put.json().cep).toBe('13140002');
    const bulk = await req('POST', 'pessoaEndereco/bulk', [{ ...base, sequencia: 8, cep: '13140-003' }]);
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json()[0].cep).toBe('13140003');
    expect((await req('GET', `pessoaEndereco/${id}`)).json().cep).toBe('13140002');
    for (const cep of ['1314-0000', '13140-00', '131400000', '13140 000', 'ABCDE-FGH']) {
      const bad = await req('PATCH', `pessoaEndereco/${id}`, { cep });
      expect(bad.statusCode, cep).toBe(400);
      expect(bad.json().message).toContain('cep');
    }
    for (const created of [id, bulk.json()[0].id])
      expect((await req('DELETE', `pessoaEndereco/${created}`)).statusCode).toBe(200);
  });

  it('documents the CEP as the server takes it: the Swagger pattern accepts the written forms', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/t/acme/bridge/1.0/rest/${COM}/queries/getMetadata`,
      headers: { authorization: acme, 'content-type': 'application/json' },
      payload: '{}',
    });
    const doc = JSON.parse(res.json().metadata);
    for (const definition of ['pessoaEnderecoInput', 'pessoaEnderecoPatch']) {
      const pattern = new RegExp(doc.definitions[definition].properties.cep.pattern);
      for (const cep of ['13140-000', '13140000', '13.140-000']) expect(pattern.test(cep), cep).toBe(true);
      expect(pattern.test('13140-00')).toBe(false);
    }
  });

  it('refuses an address of a person that does not exist in the tenant (422)', async () => {
    const res = await req(
      'POST',
      'pessoaEndereco',
      { codigoPessoa: 'C1', sequencia: 1, logradouro: 'Rua' },
      'globex',
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('pessoa C1 does not exist (codigoPessoa)');
  });
});
