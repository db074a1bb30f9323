import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';

// Helpers of the tms/oficina tests: calls through the bridge as a tenant's key, and a small fleet
// built through the service's own operations.

export const OFICINA = 'tms/oficina';

/** Calls `kind/operation` of tms/oficina (POST, or GET with `query`). */
export function oficinaCall(t: TestApp, tenant: string, auth: string) {
  return (
    operation: string,
    body: unknown = {},
    options: { method?: 'GET'; query?: Record<string, string> } = {},
  ) => t.call(tenant, `${OFICINA}/${operation}`, body, { auth, ...options });
}
export type OficinaCall = ReturnType<typeof oficinaCall>;

/** A generic entity route of tms/oficina: `entities/<path>`. */
export function entityCall(t: TestApp, tenant: string, auth: string) {
  return (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/t/${tenant}/bridge/1.0/rest/${OFICINA}/entities/${path}`,
      headers: {
        authorization: auth,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
}

/** The body of a 200 answer (fails the test with the body otherwise). */
export function ok200(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A 4xx genericError naming `field` (its message mentions it). */
export function badField(res: LightMyRequestResponse, field: string, status = 400) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['message', 'reason']);
  expect(body.message).toContain(field);
}

/** A save or remove that answered Rerros ok. */
export async function saved(res: Promise<LightMyRequestResponse>) {
  expect(ok200(await res)).toEqual({ ok: true, dsErro: '' });
}

/**
 * Branches 1 and 2, cost centres 10 (shown) 20 (shown) 30 (hidden), sectors 1 (Elétrica) and
 * 2 (Pneus), through the save operations and the entity routes.
 */
export async function cadastrosBasicos(t: TestApp, tenant: string, auth: string): Promise<void> {
  const call = oficinaCall(t, tenant, auth);
  const entity = entityCall(t, tenant, auth);
  for (const f of [
    { cdEmpresa: 1, dsEmpresa: 'Matriz Curitiba' },
    { cdEmpresa: 2, dsEmpresa: 'Filial Londrina' },
  ]) {
    expect((await entity('POST', 'filial', f)).statusCode).toBe(200);
  }
  await saved(call('actions/salvaCentroCusto', { cdCentroCusto: 10, dsCentroCusto: 'Frota Pesada' }));
  await saved(call('actions/salvaCentroCusto', { cdCentroCusto: 20, dsCentroCusto: 'Frota Leve' }));
  await saved(
    call('actions/salvaCentroCusto', { cdCentroCusto: 30, dsCentroCusto: 'Reserva', inExibePainelOfi: 0 }),
  );
  await saved(call('actions/salvaSetor', { cdSetor: 1, dsSetor: 'Elétrica' }));
  await saved(call('actions/salvaSetor', { cdSetor: 2, dsSetor: 'Pneus' }));
}
