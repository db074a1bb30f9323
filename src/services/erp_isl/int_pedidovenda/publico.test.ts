import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';

// Spec 001 §2.1 and §5 for the three erp_isl services: getDependencies is PUBLIC (a `public` key
// reaches it and nothing else), getMetadata PRIVATE, and their documents list no 401 response,
// while bad credentials are still refused with 401.

const SERVICES = ['int_pedidovenda', 'int_prefatura', 'int_ligacaoprodutodeposito'];
let t: TestApp;
let full: string;
let pub: string;

beforeAll(async () => {
  t = await testApp();
  full = await t.tenant('acme');
  pub = (await t.key('acme', 'public')).apiKey;
});

describe.each(SERVICES)('erp_isl/%s', (service) => {
  it('answers getDependencies to a public key, and refuses it everything else (403)', async () => {
    const deps = await t.call('acme', `erp_isl/${service}/queries/getDependencies`, {}, { auth: pub });
    expect(deps.statusCode, deps.body).toBe(200);
    // int_prefatura reads and locks the orders its items attend (src/services/dependencies.test.ts).
    expect(deps.json()).toEqual({
      dependencies:
        service === 'int_prefatura'
          ? [{ domain: 'erp_isl', service: 'int_pedidovenda', version: expect.any(String) }]
          : [],
    });
    expect(
      (await t.call('acme', `erp_isl/${service}/queries/getMetadata`, {}, { auth: pub })).statusCode,
    ).toBe(403);
    const action =
      service === 'int_pedidovenda'
        ? 'alterarSitPedidoVenda'
        : service === 'int_prefatura'
          ? 'alterarSitPreFatura'
          : 'excluirLigacao';
    expect((await t.call('acme', `erp_isl/${service}/actions/${action}`, {}, { auth: pub })).statusCode).toBe(
      403,
    );
  });

  it('documents no 401 response, and still answers 401 to bad credentials', async () => {
    const res = await t.call('acme', `erp_isl/${service}/queries/getMetadata`, {}, { auth: full });
    const doc = JSON.parse(res.json().metadata);
    expect(doc.info.version).toBe('0.1.1');
    for (const path of Object.values(doc.paths) as Array<
      Record<string, { responses: Record<string, unknown> }>
    >)
      for (const op of Object.values(path)) expect(Object.keys(op.responses)).not.toContain('401');
    expect(
      (await t.call('acme', `erp_isl/${service}/queries/getDependencies`, {}, { auth: 'wrong' })).statusCode,
    ).toBe(401);
  });
});
