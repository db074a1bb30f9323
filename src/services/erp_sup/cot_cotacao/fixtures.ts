import type { TestApp } from '../../../../test/harness.ts';

// Factories for the cot_cotacao tests.

export const COT = 'erp_sup/cot_cotacao';

let counter = 0;

/** A quotation item (recCotacaoItem) of a purchase need of its own. */
export function makeItem(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return {
    idNecessidadeCompra: `NC-${counter}`,
    numeroNecessidadeCompra: counter,
    quantidade: 12.5,
    codigoEmpresa: '1',
    codigoFilial: '1',
    codigoUnidadeMedida: 'UN',
    ...overrides,
  };
}

export function cotApi(t: TestApp, tenant: string, auth: string) {
  const op = (
    operation: string,
    body: unknown = {},
    options: { method?: 'GET'; query?: Record<string, string> } = {},
  ) => t.call(tenant, `${COT}/${operation}`, body, { auth, ...options });
  return {
    op,
    criar: (itens: Array<Record<string, unknown>>) => op('actions/criarCotacao', { cotacao: itens }),
    cancelar: (ids: string[]) => op('actions/cancelarCotacao', { idNecessidadeCompra: ids }),
    entity: (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
      t.call(tenant, `${COT}/entities/${path}`, body, { auth, method }),
  };
}
