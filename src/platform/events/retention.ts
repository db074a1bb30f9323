import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../core/db/database.ts';

// Outbox retention (docs/events.md "Retention"): an event is deleted once it is older than the
// retention period AND every current consumer of its tenant has passed it AND no webhook delivery
// that may still be sent (pending, or dead and so redeliverable) needs it. A consumer that has no
// cursor yet for a tenant counts as being at 0: nothing of that tenant goes before it read it.

/** Rows deleted per statement: short transactions, no long lock on a busy outbox. */
export const PRUNE_BATCH = 10_000;

export async function pruneOutbox(
  db: Db,
  options: { before: Date; consumers: string[]; batch?: number },
): Promise<number> {
  if (options.consumers.length === 0) return 0;
  const batch = options.batch ?? PRUNE_BATCH;
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with limites as (
        select t.tenant, min(coalesce(c.last_id, 0)) as ate
        from (select distinct tenant from outbox where created_at < ${options.before}) t
        cross join unnest(array[${sql.join(
          options.consumers.map((c) => sql`${c}`),
          sql`, `,
        )}]::text[]) as k(consumer)
        left join event_cursors c on c.tenant = t.tenant and c.consumer = k.consumer
        group by t.tenant
      ),
      vencidos as (
        select o.id from outbox o join limites l on l.tenant = o.tenant
        where o.created_at < ${options.before} and o.id <= l.ate
          and not exists (
            select 1 from webhook_deliveries d where d.event_id = o.id and d.state <> 'delivered')
        order by o.id
        limit ${batch}
      )
      delete from outbox where id in (select id from vencidos)
      returning id`);
    const n = rowsOf(result).length;
    total += n;
    if (n < batch) return total;
  }
}
