import { describe, expect, it } from 'vitest';
import { call, type Node, ok, started, tenantWithKey, testData } from './processes.ts';

// DESIGN.md "Quality bar": nothing the server acknowledged is lost when the process is killed. The
// real server takes creates of an entity and an action over 16 connections, is killed with SIGKILL
// in the middle, restarts on the same data, and every write it answered 200 is read back. On the
// run's engine: the embedded database's folder, or a fresh PostgreSQL database.

const CONNECTIONS = 16;
/** Writes attempted at most; the kill comes once KILL_AFTER of them were acknowledged. */
const PLANNED = 6_000;
const KILL_AFTER = 4_000;
const MOEDA = 'erp_agr/com_comum/entities/moeda';
const VINCULO = 'erp_agr/com_comum/actions/criarVinculoTransacao';
const LINKS = 'erp_agr/com_comum/queries/pesquisarVinculoTransacao';
const PROCESSO = 'RecebimentoProducao';

/** The i-th write: even ones create a currency (3-character code), odd ones link a transaction. */
function write(i: number): { address: string; body: Record<string, unknown>; key: string } {
  const code = i.toString(36).toUpperCase().padStart(3, '0');
  if (i % 2 === 0) return { address: MOEDA, body: { codigo: code, nome: `Moeda ${code}` }, key: code };
  return {
    address: VINCULO,
    body: { transacaoId: `T-${i}`, processo: PROCESSO },
    key: `T-${i}`,
  };
}

/** Every currency code of the tenant, page by page. */
async function moedas(node: Node, key: string): Promise<Set<string>> {
  const codes = new Set<string>();
  for (let page = 0; ; page++) {
    const res = await fetch(`${node.base}/t/acme/bridge/1.0/rest/${MOEDA}?offset=${page}&size=1000`, {
      headers: { authorization: key },
    });
    const rows = (await res.json()) as Array<{ codigo: string }>;
    for (const row of rows) codes.add(row.codigo);
    if (rows.length < 1000) return codes;
  }
}

describe('acknowledged writes after SIGKILL', () => {
  it('are all there when the server restarts on the same data', async () => {
    const { env, engine } = await testData('ponte-durability-');
    const first = await started(env);
    const key = await tenantWithKey(first, 'acme');

    const acknowledged: Array<{ address: string; key: string }> = [];
    const refused: string[] = [];
    let next = 0;
    let unanswered = 0;
    const connection = async () => {
      while (next < PLANNED && first.alive()) {
        const w = write(next++);
        if (acknowledged.length >= KILL_AFTER && first.alive()) first.child.kill('SIGKILL');
        try {
          const res = await call(first, 'acme', key, w.address, w.body);
          await res.arrayBuffer();
          if (res.status === 200) acknowledged.push(w);
          else refused.push(`${w.key}: ${res.status}`);
        } catch {
          unanswered++; // the connection died with the server: not acknowledged
        }
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, connection));
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
    // Every request the server answered, it accepted: the load is all valid writes.
    expect(refused).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const second = await started({ ...env, ADMIN_TOKEN: first.adminToken });
    const codes = await moedas(second, key);
    const { vinculos } = (await ok(second, 'acme', key, LINKS, { processo: PROCESSO })) as {
      vinculos: Array<{ transacaoId: string }>;
    };
    const links = new Set(vinculos.map((v) => v.transacaoId));
    const lost = acknowledged.filter((w) => !(w.address === MOEDA ? codes : links).has(w.key));
    console.log(
      `durability on ${engine}: ${acknowledged.length} writes acknowledged before SIGKILL ` +
        `(${unanswered} unanswered), ${lost.length} lost after restart`,
    );
    expect(lost.map((w) => w.key)).toEqual([]);
    await second.stop('SIGTERM');
  }, 120_000);
});
