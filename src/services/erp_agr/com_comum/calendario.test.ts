import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { COM } from './fixtures.ts';

// The entities behind the installments (docs/com_comum.md "Installments"): plan lines name an
// existing condition (422), a holiday is once per tenant (409), and a tenant's holidays move only
// its own due dates.

let t: TestApp;
let acme: string;
let globex: string;

const post = (entity: string, body: unknown, auth = acme, tenant = 'acme') =>
  t.app.inject({
    method: 'POST',
    url: `/t/${tenant}/bridge/1.0/rest/${COM}/entities/${entity}`,
    headers: { authorization: auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

beforeAll(async () => {
  t = await testApp();
  acme = await t.tenant('acme');
  globex = await t.tenant('globex');
  expect((await post('condicaoPagamento', { codigo: '30', descricao: '30 dias' })).statusCode).toBe(200);
});

describe('condicaoPagamentoParcela', () => {
  it('names an existing condition of the tenant: else 422, nothing changed', async () => {
    const before = await tableCounts(t.db);
    const res = await post('condicaoPagamentoParcela', {
      codigoCondicaoPagamento: 'XX',
      sequencia: 1,
      dias: 0,
      percentual: 100,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/condicaoPagamento XX .*codigoCondicaoPagamento/);
    const other = await post(
      'condicaoPagamentoParcela',
      { codigoCondicaoPagamento: '30', sequencia: 1, dias: 30, percentual: 100 },
      globex,
      'globex',
    );
    expect(other.statusCode).toBe(422);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('is one line per (condition, sequencia); percentual in (0, 100], dias ≥ 0', async () => {
    const linha = { codigoCondicaoPagamento: '30', sequencia: 1, dias: 30, percentual: 100 };
    expect((await post('condicaoPagamentoParcela', linha)).statusCode).toBe(200);
    expect((await post('condicaoPagamentoParcela', linha)).statusCode).toBe(409);
    for (const [field, value] of [
      ['percentual', 0],
      ['percentual', 100.5],
      ['dias', -1],
      ['sequencia', 0],
    ] as const) {
      const res = await post('condicaoPagamentoParcela', { ...linha, sequencia: 2, [field]: value });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().message).toMatch(field);
    }
  });
});

describe('feriado', () => {
  it('is once per date in a tenant (409), each tenant its own calendar', async () => {
    expect((await post('feriado', { data: '2026-12-25', descricao: 'Natal' })).statusCode).toBe(200);
    expect((await post('feriado', { data: '2026-12-25', descricao: 'Natal de novo' })).statusCode).toBe(409);
    expect(
      (await post('feriado', { data: '2026-12-25', descricao: 'Natal' }, globex, 'globex')).statusCode,
    ).toBe(200);
    const bad = await post('feriado', { data: '2026-02-30', descricao: 'Nunca' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/data/);
  });
});
