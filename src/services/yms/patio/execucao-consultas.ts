import { and, asc, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { E } from './errors.ts';
import type { ExecCtx, ExecucaoRow } from './execucao.ts';
import { sequenciaCircuito } from './tables/circuitos.ts';
import { execucaoCircuito, historicoExecucaoCircuito } from './tables/execucoes.ts';

// Reading executions (docs/patio.md "Executions"): one by id, the running one of a vehicle, driver or
// agenda, the circuit's sequences, the current step visit and the branches. In the caller's
// transaction, as every execution function (execucao.ts).

/** The execution, or 404. */
export async function execucaoOf(ctx: ExecCtx, id: string): Promise<ExecucaoRow> {
  const [row] = await ctx.store.select(execucaoCircuito, eq(execucaoCircuito.id, id));
  if (!row) throw E.execucaoNotFound({ id });
  return row;
}

/** The execution, locked for the change about to be made, and running; 404 or 409 otherwise. */
export async function execucaoEmAndamentoOf(ctx: ExecCtx, id: string): Promise<ExecucaoRow> {
  const [row] = await ctx.tx
    .select()
    .from(execucaoCircuito)
    .where(ctx.store.scope(execucaoCircuito, eq(execucaoCircuito.id, id)))
    .for('update');
  if (!row) throw E.execucaoNotFound({ id });
  if (row.situacao !== 'EXECUTANDO') throw E.execucaoNaoEmAndamento({ id, situacao: row.situacao });
  return row;
}

const emAndamento = (where: SQL) =>
  and(where, eq(execucaoCircuito.situacao, 'EXECUTANDO'), isNull(execucaoCircuito.execucaoPaiId)) as SQL;

/** The running (main) execution of a vehicle, of a driver or of an agenda, if any. */
export async function execucaoEmAndamento(
  ctx: ExecCtx,
  by: { veiculoId: string } | { motoristaId: string } | { agendaId: string },
): Promise<ExecucaoRow | undefined> {
  const where =
    'veiculoId' in by
      ? eq(execucaoCircuito.veiculoId, by.veiculoId)
      : 'motoristaId' in by
        ? eq(execucaoCircuito.motoristaId, by.motoristaId)
        : eq(execucaoCircuito.agendaId, by.agendaId);
  const [row] = await ctx.tx
    .select()
    .from(execucaoCircuito)
    .where(ctx.store.scope(execucaoCircuito, emAndamento(where)))
    .orderBy(desc(execucaoCircuito.iniciadaEm))
    .limit(1);
  return row;
}

/** How many running (main) executions a vehicle or driver is in (0 or 1, by the unique indexes). */
export async function quantidadeEmAndamento(
  ctx: ExecCtx,
  by: { veiculoId: string } | { motoristaId: string },
): Promise<number> {
  const where =
    'veiculoId' in by
      ? eq(execucaoCircuito.veiculoId, by.veiculoId)
      : eq(execucaoCircuito.motoristaId, by.motoristaId);
  const [row] = await ctx.tx
    .select({ n: count() })
    .from(execucaoCircuito)
    .where(ctx.store.scope(execucaoCircuito, emAndamento(where)));
  return row?.n ?? 0;
}

/** The sequences of a circuit, in ordem. */
export function sequenciasDe(ctx: ExecCtx, circuitoId: string) {
  return ctx.tx
    .select()
    .from(sequenciaCircuito)
    .where(ctx.store.scope(sequenciaCircuito, eq(sequenciaCircuito.circuitoId, circuitoId)))
    .orderBy(asc(sequenciaCircuito.ordem));
}

/** The open step of an execution's history: its row number identifies the current step visit. */
export async function etapaAberta(ctx: ExecCtx, execucaoId: string): Promise<number | undefined> {
  const [row] = await ctx.tx
    .select({ n: historicoExecucaoCircuito.n })
    .from(historicoExecucaoCircuito)
    .where(
      ctx.store.scope(
        historicoExecucaoCircuito,
        and(
          eq(historicoExecucaoCircuito.execucaoCircuitoId, execucaoId),
          isNull(historicoExecucaoCircuito.saidaEm),
        ),
      ),
    )
    .orderBy(desc(historicoExecucaoCircuito.n))
    .limit(1);
  return row?.n ?? undefined;
}

/** The branch started from the execution's current step visit, if any (running or not). */
export async function ramoDaEtapa(ctx: ExecCtx, pai: ExecucaoRow): Promise<ExecucaoRow | undefined> {
  const n = await etapaAberta(ctx, pai.id);
  if (n === undefined) return undefined;
  const [row] = await ctx.store.select(
    execucaoCircuito,
    and(eq(execucaoCircuito.execucaoPaiId, pai.id), eq(execucaoCircuito.ramoEtapaN, n)),
  );
  return row;
}

/** The running branch of an execution, if any (one at a time). */
export async function ramoEmAndamento(ctx: ExecCtx, pai: ExecucaoRow): Promise<ExecucaoRow | undefined> {
  const [row] = await ctx.store.select(
    execucaoCircuito,
    and(eq(execucaoCircuito.execucaoPaiId, pai.id), eq(execucaoCircuito.situacao, 'EXECUTANDO')),
  );
  return row;
}

/** The running branch at the bottom of an execution (itself when it has none). */
export async function execucaoAtiva(ctx: ExecCtx, row: ExecucaoRow): Promise<ExecucaoRow> {
  let atual = row;
  for (let depth = 0; depth < 10; depth++) {
    const ramo = await ramoEmAndamento(ctx, atual);
    if (!ramo) return atual;
    atual = ramo;
  }
  return atual;
}
