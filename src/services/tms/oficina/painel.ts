import { sql } from 'drizzle-orm';
import { rowsOf } from '../../../platform/core/db/database.ts';
import type { Ctx, JobDeclaration, Platform } from '../../../platform/core/declarations.ts';

// The refresh of visaoGeral's review counts (tables.ts painelVeiculo; docs/oficina.md "How it is
// fast"). Writes keep every count exact (the triggers of migration `painel`); only the clock moves a
// review into "due" without a write. A vehicle whose window has passed (revisoesAte ≤ now) is then
// counted by visaoGeral from its reviews, exact but slower, and visaoGeral asks for this job, which
// recounts those vehicles in small transactions (each locks only its own vehicles' rows, as a write
// of their items would). Asked at most once a minute per tenant and node; a second job finds nothing.
// "Outdated" and the recount are at the platform's clock (ctx.now()), the one visaoGeral judged the
// rows by, never the database's: the job refreshes the rows the dashboard found outdated, and a
// recounted row is never outdated again at that clock, so the loop ends whatever the two clocks say
// (migration `painel_relogio`). Tests fix the time through the app's `now`.

export const ATUALIZAR_PAINEL = 'atualizarPainel';
const KIND = `tms/oficina/${ATUALIZAR_PAINEL}`;
const LOTE = 500;
const INTERVALO_MS = 60_000;

const pedidos = new WeakMap<Platform, Map<string, number>>();

/**
 * Enqueues the refresh, once the request's reads are done (in a transaction of its own: the
 * request's reads write nothing), unless this node asked for it for this tenant in the last minute.
 */
export function pedirAtualizacao(ctx: Ctx): void {
  const porTenant = pedidos.get(ctx.platform) ?? new Map<string, number>();
  pedidos.set(ctx.platform, porTenant);
  const tenant = ctx.tenant.name;
  const agora = ctx.now().getTime();
  if ((porTenant.get(tenant) ?? -Infinity) > agora - INTERVALO_MS) return;
  porTenant.set(tenant, agora);
  ctx.afterCommit(async () => {
    await ctx.platform.db.tenant(tenant, (tx) => ctx.platform.jobs.enqueue(tx, tenant, KIND, {}));
    ctx.platform.jobs.wake();
  });
}

export const painelJobs: Record<string, JobDeclaration> = {
  [ATUALIZAR_PAINEL]: {
    transaction: 'none',
    maxAttempts: 3,
    handler: async (ctx) => {
      const tenant = ctx.tenant.name;
      let recontados = 0;
      for (;;) {
        ctx.signal.throwIfAborted();
        const agora = sql`(${ctx.now().toISOString()}::timestamptz at time zone 'UTC')`;
        const n = await ctx.platform.db.tenant(tenant, async (tx) => {
          const [row] = rowsOf<{ n: number }>(
            await tx.execute(sql`select cardinality(cds) as n, oficina_painel_recontar_revisoes(${tenant}, cds, ${agora})
              from (select array(
                select cd_veiculo from oficina_painel_veiculo
                where tenant = ${tenant} and revisoes_ate <= ${agora}
                order by cd_veiculo limit ${LOTE}) as cds) x`),
          );
          return Number(row?.n ?? 0);
        });
        recontados += n;
        if (n < LOTE) return { recontados };
      }
    },
  },
};
