import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, RODADAS } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { rowsOf } from '../../../platform/core/db/database.ts';

// Batches naming the same ids in opposite orders, at once, each in a transaction of its own on
// PostgreSQL (docs/platform_integration.md): the rows are written in id order, so the batches take
// turns (an outside probe found a quarter of them 500s, deadlocks). Every save counted once.

const OP = 'hcm/platform_integration/actions/integrationSaveBatch';

describe.skipIf(!process.env.DATABASE_URL)('batches of the same ids in opposite orders', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await testApp({ db: await bancoDeCorrida() });
    key = await t.tenant('acme');
  });

  it('all 200, each entity saved once per batch', async () => {
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const ids = [`R${rodada}-a`, `R${rodada}-b`, `R${rodada}-c`];
      const batch = (order: string[]) => () =>
        t.call(
          'acme',
          OP,
          {
            className: 'Pessoa',
            serviceName: 'folha',
            collectionName: 'pessoas',
            ids: order.join(','),
            jsonText: JSON.stringify(order.map((id) => ({ id }))),
          },
          { auth: key },
        );
      const respostas = await aoMesmoTempo(
        Array.from({ length: 8 }, (_, i) => batch(i % 2 ? ids : [...ids].reverse())),
      );
      for (const r of respostas) {
        expect(r.statusCode, r.body).toBe(200);
        expect(r.json().results.every((x: { success: boolean }) => x.success)).toBe(true);
      }
      // Created by one batch, updated by the 7 others: version 8, whatever order they took.
      const versions = rowsOf<{ entity_id: string; version: number }>(
        await t.db.system((tx) =>
          tx.execute(
            sql`select entity_id, version from integration_entities where tenant = 'acme' and entity_id like ${`R${rodada}-%`} order by entity_id`,
          ),
        ),
      );
      expect(versions.map((v) => [v.entity_id, Number(v.version)])).toEqual(ids.map((id) => [id, 8]));
    }
  });
});
