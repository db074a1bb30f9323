import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../../../test/harness.ts';

// Factories for the sku_produto tests: masks and components created through their entity routes,
// with defaults a test overrides only where it matters.

export const SKU = 'erp_est/sku_produto';
export const EMPRESA = 1;
export const FAMILIA = 'CAM';

let counter = 0;

/** The body of a mask: an active Alfanumerico mask of 4 positions of company 1, family CAM. */
export function makeMascara(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return {
    codigo: `M${counter}`,
    descricao: `Máscara ${counter}`,
    abreviatura: `M${counter}`,
    quantidadePosicoes: 4,
    utilizaComponentes: 'Nao',
    tipoComposicao: 'Alfanumerico',
    autoIncrementavel: 'Nao',
    situacao: 'Ativo',
    empresa: { codigo: EMPRESA, tipo: 'Empresa', nome: 'Empresa 1' },
    codigoFamilia: FAMILIA,
    ...overrides,
  };
}

export function makeComponente(
  mascaraId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  counter++;
  return {
    mascaraId,
    codigo: `C${counter}`,
    sequencia: counter,
    descricao: `Componente ${counter}`,
    abreviatura: `C${counter}`,
    situacao: 'Ativo',
    ...overrides,
  };
}

/** The calls of a test: operations and entity routes of sku_produto as `tenant` with `auth`. */
export function skuApi(t: TestApp, tenant: string, auth: string) {
  const op = (
    operation: string,
    body: unknown = {},
    options: { method?: 'GET'; query?: Record<string, string> } = {},
  ) => t.call(tenant, `${SKU}/${operation}`, body, { auth, ...options });
  const entity = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `/t/${tenant}/bridge/1.0/rest/${SKU}/entities/${path}`,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const ok = (res: LightMyRequestResponse, status = 200) => {
    if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
    return res.json();
  };
  return {
    op,
    entity,
    /** Creates a mask; answers it (with id). */
    mascara: async (overrides: Record<string, unknown> = {}) =>
      ok(await entity('POST', 'mascaraSku', makeMascara(overrides)), 200) as Record<string, unknown> & {
        id: string;
      },
    componente: async (mascaraId: string, overrides: Record<string, unknown> = {}) =>
      ok(await entity('POST', 'mascaraSkuComponente', makeComponente(mascaraId, overrides)), 200) as Record<
        string,
        unknown
      > & { id: string },
    gerar: (itens: Array<{ codigoMascara: string; valor?: string }>, extra: Record<string, unknown> = {}) =>
      op('actions/gerarSku', { codigoEmpresa: EMPRESA, codigoFamilia: FAMILIA, itens, ...extra }),
  };
}
