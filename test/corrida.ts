import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../src/platform/core/db/database.ts';
import { openTestDb } from './harness.ts';

// Helpers of the race tests (docs/platform.md "Contended decisions"): many requests at once, each
// in a transaction of its own on PostgreSQL, and the one answer a contended decision allows. On
// PGlite the requests run one after the other, so the same assertions hold (the first one wins).

/** Rounds of each race, and requests per round: enough to make a missing lock show on PostgreSQL. */
export const RODADAS = 5;
export const CONCORRENTES = 8;

/** A database whose pool gives every concurrent request of a round its own connection. */
export const bancoDeCorrida = (): Promise<Database> => openTestDb({ poolSize: CONCORRENTES + 4 });

/**
 * The request `pedido` sent `ms` milliseconds later: a race between a long request and a short one
 * (an event that allocates a spot, an edit of the spot) shows only when the short one lands inside
 * the long one's window, so such races spread the short ones over it.
 */
export const depois =
  (ms: number, pedido: () => Promise<LightMyRequestResponse>) => (): Promise<LightMyRequestResponse> =>
    new Promise((resolve) => setTimeout(resolve, ms)).then(pedido);

/** Starts every request at once and waits for all of them. */
export const aoMesmoTempo = (pedidos: Array<() => Promise<LightMyRequestResponse>>) =>
  Promise.all(pedidos.map((p) => p()));

/**
 * Exactly one request answered 200; every other one `status` with the genericError body (spec 000
 * §2.2) whose message matches `mensagem`. Returns the index of the winner.
 */
export function umVencedor(
  respostas: LightMyRequestResponse[],
  perdedores: { status: number; mensagem: RegExp },
): number {
  const resumo = respostas.map((r) => `${r.statusCode} ${r.body}`).join('\n');
  const vencedores = respostas.flatMap((r, i) => (r.statusCode === 200 ? [i] : []));
  expect(vencedores, resumo).toHaveLength(1);
  for (const r of respostas) {
    if (r.statusCode === 200) continue;
    expect(r.statusCode, resumo).toBe(perdedores.status);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const body = r.json();
    expect(Object.keys(body).sort(), resumo).toEqual(['message', 'reason']);
    expect(body.reason).toBe(perdedores.status === 404 ? 'OBJECT_NOT_FOUND' : 'UNPROCESSABLE');
    expect(body.message, resumo).toMatch(perdedores.mensagem);
  }
  return vencedores[0]!;
}

/** A promise and its opener: one transaction waits in the middle for the test to go on. */
export function portao(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * 'done' when `p` settles within `ms`, else 'waiting' (it waits on a lock). 300 ms tells that a
 * request waits; to tell that one does not, give it seconds (`LIBRE_MS`): on a busy CI machine a
 * transaction that waits on nothing has taken over 300 ms, and a lock held by the test is never let
 * go meanwhile, so a longer window cannot hide a wait.
 */
export const emEspera = <T>(p: Promise<T>, ms = 300) =>
  Promise.race([p.then(() => 'done' as const), new Promise((r) => setTimeout(() => r('waiting'), ms))]);

/** The window of an `emEspera` that expects 'done'. */
export const LIBRE_MS = 5_000;
