import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { lockName } from '../src/platform/core/db/locks.ts';
import { APP_ROLE, TENANT_SETTING } from '../src/platform/core/db/tenancy.ts';
import { OUTBOX_LOCK } from '../src/platform/core/outbox.ts';
import type { BenchContext } from './entities.ts';
import { fmt, type Measured, post, ratio, scenario, TABLE_HEADER, tableRow } from './harness.ts';

// (t) erp_isl/int_pedidovenda's inserirPedidoVenda with 20 product items under load, one tenant,
// every request a new order (numbered by the load generator), against the same writes through raw
// pg in a tenant transaction: the header, the 20 items, a service item, the history row and the
// outbox event (docs/performance.md "Orders").

const ITENS = 20;
const ROUTE = '/t/:tenant/bridge/1.0/rest/erp_isl/int_pedidovenda/actions/inserirPedidoVenda';

const template = () =>
  JSON.stringify({
    codigoEmpresa: 1,
    codigoFilial: 1,
    numeroPedidoVenda: '__N__',
    sequenciaPedidoVenda: 1,
    data_emissao: '2026-11-20',
    codigo_cliente: 501,
    valorLiquido: 1000,
    valorTotal: 1050,
    itensPro: Array.from({ length: ITENS }, (_, i) => ({
      sequenciaEmbalagem: 1,
      sequenciaConteudo: i + 1,
      quantidade: 10,
      volume: 1,
      pesoBruto: 12.5,
      pesoLiquido: 12,
      obsProduto: '',
    })),
    itensSer: [
      {
        sequenciaItem: 1,
        codigoServico: 'FRT',
        servico: 'Frete',
        quantidade: 1,
        valorUnitario: 50,
        valorDesconto: 0,
        valorLiquido: 50,
        valorTotal: 50,
      },
    ],
  }).replace('"__N__"', '{n}');

interface Body {
  codigoEmpresa: number;
  codigoFilial: number;
  numeroPedidoVenda: number;
  sequenciaPedidoVenda: number;
  data_emissao: string;
  codigo_cliente: number;
  valorLiquido: number;
  valorTotal: number;
  itensPro: Array<Record<string, number | string>>;
  itensSer: Array<Record<string, number | string>>;
}

/** The same writes on raw pg: one tenant transaction, multi-row inserts, no validation layer. */
async function rawPgInserts(databaseUrl: string): Promise<{ url: string; close: () => Promise<unknown> }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on('error', () => {});
  const app = Fastify({ logger: false });
  app.post(ROUTE, async (request, reply) => {
    const { tenant } = request.params as { tenant: string };
    const b = request.body as Body;
    const client = await pool.connect();
    try {
      await client.query(
        `begin; select set_config('${TENANT_SETTING}', '${tenant}', true), set_config('role', '${APP_ROLE}', true)`,
      );
      const id = randomUUID();
      const h = await client.query(
        `insert into isl_pedido_venda (id, created_by, last_modified_by, codigo_empresa, codigo_filial, numero_pedido_venda,
           sequencia_pedido_venda, data_emissao, codigo_cliente, valor_liquido, valor_total)
         values ($1, 'raw', 'raw', $2, $3, $4, $5, $6, $7, $8, $9) on conflict do nothing returning id`,
        [
          id,
          b.codigoEmpresa,
          b.codigoFilial,
          b.numeroPedidoVenda,
          b.sequenciaPedidoVenda,
          b.data_emissao,
          b.codigo_cliente,
          b.valorLiquido,
          b.valorTotal,
        ],
      );
      if (h.rowCount === 0) {
        await client.query('rollback');
        return reply.code(409).send({ message: 'exists', reason: 'UNPROCESSABLE' });
      }
      const values: unknown[] = [id];
      const rows = b.itensPro.map((p, i) => {
        values.push(
          i + 1,
          p.sequenciaEmbalagem,
          p.sequenciaConteudo,
          p.quantidade,
          p.volume,
          p.pesoBruto,
          p.pesoLiquido,
          p.obsProduto,
        );
        const k = 1 + i * 8;
        return `('raw','raw',$1,$${k + 1},$${k + 2},$${k + 3},$${k + 4},$${k + 5},$${k + 6},$${k + 7},$${k + 8},$${k + 4})`;
      });
      await client.query(
        `insert into isl_pedido_venda_item_pro (created_by, last_modified_by, pedido_venda_id, sequencia_item,
           sequencia_embalagem, sequencia_conteudo, quantidade, volume, peso_bruto, peso_liquido, obs_produto, quantidade_aberta)
         values ${rows.join(', ')}`,
        values,
      );
      const s = b.itensSer[0]!;
      await client.query(
        `insert into isl_pedido_venda_item_ser (created_by, last_modified_by, pedido_venda_id, sequencia_item, codigo_servico,
           servico, quantidade, valor_unitario, valor_desconto, valor_liquido, valor_total)
         values ('raw','raw',$1,$2,$3,$4,$5,$6,$7,$8,$9)`,
        [
          id,
          s.sequenciaItem,
          s.codigoServico,
          s.servico,
          s.quantidade,
          s.valorUnitario,
          s.valorDesconto,
          s.valorLiquido,
          s.valorTotal,
        ],
      );
      await client.query(
        `insert into isl_pedido_venda_historico (created_by, last_modified_by, pedido_venda_id, operacao, situacao_nova, alteracoes)
         values ('raw','raw',$1,'inserirPedidoVenda','AbertoTotal','{}')`,
        [id],
      );
      await client.query(
        `with l as (select pg_advisory_xact_lock(hashtextextended($3, 0)))
         insert into outbox (tenant, topic, payload) select $1, 'erp_isl/int_pedidovenda/pedidoVendaInserido', $2::jsonb from l`,
        [tenant, JSON.stringify(b), lockName(OUTBOX_LOCK, tenant)],
      );
      await client.query('commit');
      return {};
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  });
  app.addHook('onClose', () => pool.end());
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

export async function runPedidos(bench: BenchContext): Promise<void> {
  const { ponte, tenant, load, databaseUrl } = bench;
  const auth = { authorization: bench.apiKey };
  const path = ROUTE.replace(':tenant', tenant);
  const body = template();
  // One insert by hand first: the body must be accepted as it is.
  const first = await post(`${ponte}${path}`, JSON.parse(body.replace('{n}', '9')), auth);
  if (first.status !== 200) throw new Error(`inserirPedidoVenda answered ${first.status} ${first.text}`);
  const o1 = await scenario(`(t1) Ponte inserirPedidoVenda, ${ITENS} items`, `${ponte}${path}`, load, {
    template: body.replace('{n}', '1{n}'),
    headers: auth,
  });
  const raw = await rawPgInserts(databaseUrl);
  try {
    const o2 = await scenario(`(t2) raw pg, the same writes, ${ITENS} items`, `${raw.url}${path}`, load, {
      template: body.replace('{n}', '2{n}'),
    });
    console.log(
      [
        '',
        '## Results (o)',
        '',
        ...TABLE_HEADER,
        tableRow(o1),
        tableRow(o2),
        '',
        '| ratio | value |',
        '|---|---:|',
        `| Ponte req/s ÷ raw pg req/s | ${ratio(o1.requestsPerSecond, o2.requestsPerSecond)} |`,
        `| Ponte p99 ÷ raw pg p99 | ${ratio(o1.latencyP99, o2.latencyP99)} |`,
        `| orders written by Ponte in the run | ${fmt(o1.total)} |`,
      ].join('\n'),
    );
    failOnErrors(o1, o2);
  } finally {
    await raw.close();
  }
}

function failOnErrors(...runs: Measured[]): void {
  for (const m of runs)
    if (m.non2xx > 0 || m.errors > 0) throw new Error(`${m.name}: ${m.non2xx} non-2xx, ${m.errors} errors`);
}
