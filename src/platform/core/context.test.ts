import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestApp, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import { errors } from './errors.ts';
import { action, defineService } from './registry.ts';
import { Int64, Type } from './schema.ts';

// Ctx.transactionLocal: state that lives as long as one transaction, shared by the contexts of its
// ctx.call's, fresh in the next one. On PostgreSQL the app runs on ONE pooled connection here, so
// every transaction gets the same `ctx.tx` object (core/db/session.ts): state keyed by it would
// carry from one request into the next (yms/patio's spot hand-ons once did).

const CONTA = Symbol('test: conta');
const vistos: unknown[] = [];

const contexto = defineService({
  domain: 'test',
  name: 'contexto',
  version: '1.0.0',
  title: 'Contexto',
  operations: {
    contar: action({
      input: Type.Object({
        chamadas: Int64({ minimum: 0, maximum: 5 }),
        falhar: Type.Optional(Type.Boolean()),
      }),
      output: Type.Object({ n: Int64() }),
      handler: async (ctx, input) => {
        vistos.push(ctx.tx);
        const conta = ctx.transactionLocal(CONTA, () => ({ n: 0 }));
        conta.n++;
        for (let i = 0; i < input.chamadas; i++)
          await ctx.call('test/contexto/actions/contar', { chamadas: 0 });
        if (input.falhar) throw errors.unprocessable('falhou');
        return { n: conta.n };
      },
    }),
  },
});

let t: TestApp;
let auth: string;

beforeAll(async () => {
  t = await testApp({ services: [...allServices, contexto], db: await openTestDb({ poolSize: 1 }) });
  auth = await t.tenant('acme');
});

describe('Ctx.transactionLocal', () => {
  it('is shared by ctx.call in one transaction and fresh in each next one, on one connection', async () => {
    const contar = async (chamadas: number) => {
      const res = await t.call('acme', 'test/contexto/actions/contar', { chamadas }, { auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().n;
    };
    expect(await contar(2)).toBe(3);
    expect(await contar(0)).toBe(1);
    expect(await contar(4)).toBe(5);
    expect(await contar(0)).toBe(1);
    // What the test guards against: on a server the transactions above all ran on one `ctx.tx`.
    if (process.env.DATABASE_URL) expect(new Set(vistos).size).toBe(1);
  });

  it('is fresh after a failed transaction', async () => {
    const falha = await t.call(
      'acme',
      'test/contexto/actions/contar',
      { chamadas: 3, falhar: true },
      { auth },
    );
    expect(falha.statusCode).toBe(422);
    const res = await t.call('acme', 'test/contexto/actions/contar', { chamadas: 1 }, { auth });
    expect(res.json().n).toBe(2);
  });
});

describe('state kept per transaction', () => {
  it('is never keyed by the transaction object (a pooled connection on PostgreSQL)', () => {
    const src = join(import.meta.dirname, '../..');
    const keyedByTx = /\.(get|set|has|add|delete)\(\s*(ctx\.)?tx\s*[,)]/;
    const offenders = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => keyedByTx.test(readFileSync(join(src, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
