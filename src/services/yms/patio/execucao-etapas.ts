import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { quem } from './common.ts';
import { E } from './errors.ts';
import type { ACOES_HISTORICO, ExecCtx, ExecucaoRow } from './execucao.ts';
import { sequenciasDe } from './execucao-consultas.ts';
import { execucaoCircuito, execucaoCircuitoVariavel, historicoExecucaoCircuito } from './tables/execucoes.ts';

// Moving a running execution through its sequences (docs/patio.md "Executions"): advance, revert,
// finish and cancel, each with its history row (registrarEtapa), and the variables set on its steps.
// The moves here check no step condition: avancar (rotinas.ts) does, before it moves.

/** Closes the open step of the history and opens the next one, at `quando`. */
export async function registrarEtapa(
  ctx: ExecCtx,
  execucaoId: string,
  step: { sequenciaCircuitoId: string | null; acao: (typeof ACOES_HISTORICO)[number]; origem: string },
  quando: Date,
  fechaAoAbrir = false,
) {
  await ctx.store.update(
    historicoExecucaoCircuito,
    { saidaEm: quando },
    and(
      eq(historicoExecucaoCircuito.execucaoCircuitoId, execucaoId),
      isNull(historicoExecucaoCircuito.saidaEm),
    ),
  );
  await ctx.store.insert(historicoExecucaoCircuito, [
    { execucaoCircuitoId: execucaoId, ...step, entradaEm: quando, saidaEm: fechaAoAbrir ? quando : null },
  ]);
}

export async function mover(
  ctx: ExecCtx,
  row: ExecucaoRow,
  set: Partial<typeof execucaoCircuito.$inferInsert>,
): Promise<ExecucaoRow> {
  const [updated] = await ctx.store
    .update(
      execucaoCircuito,
      { ...set, lastModifiedBy: quem(ctx as Ctx), lastModifiedDate: ctx.now() },
      eq(execucaoCircuito.id, row.id),
    )
    .returning();
  return updated!;
}

/** Finishes a running execution at its current sequence (FINALIZADO). */
export async function finalizarExecucao(
  ctx: ExecCtx,
  row: ExecucaoRow,
  origem: string,
  quando = ctx.now(),
): Promise<ExecucaoRow> {
  await registrarEtapa(
    ctx,
    row.id,
    { sequenciaCircuitoId: row.sequenciaAtualId, acao: 'FINALIZADA', origem },
    quando,
    true,
  );
  const finalizada = await mover(ctx, row, { situacao: 'FINALIZADO', finalizadaEm: quando });
  // yms/agenda concludes the agenda of a main execution on it (docs/patio.md "Executions").
  await ctx.emit('yms/patio/execucaoCircuitoFinalizada', {
    execucaoCircuitoId: row.id,
    circuitoId: row.circuitoId,
    ...(row.agendaId ? { agendaId: row.agendaId } : {}),
    ...(row.veiculoId ? { veiculoId: row.veiculoId } : {}),
    ...(row.motoristaId ? { motoristaId: row.motoristaId } : {}),
    ...(row.execucaoPaiId ? { execucaoPaiId: row.execucaoPaiId } : {}),
    finalizadaEm: quando.toISOString(),
  });
  return finalizada;
}

/**
 * Moves a running execution to its next sequence by ordem (or to `para`, a sequence of its circuit);
 * past the last sequence it finishes. One history row per step, with its times.
 */
export async function avancarEtapa(
  ctx: ExecCtx,
  row: ExecucaoRow,
  origem: string,
  options: { para?: string; quando?: Date } = {},
): Promise<ExecucaoRow> {
  if (row.situacao !== 'EXECUTANDO') throw E.execucaoNaoEmAndamento({ id: row.id, situacao: row.situacao });
  const quando = options.quando ?? ctx.now();
  const sequencias = await sequenciasDe(ctx, row.circuitoId);
  const i = sequencias.findIndex((s) => s.id === row.sequenciaAtualId);
  const proxima = options.para ? sequencias.find((s) => s.id === options.para) : sequencias[i + 1];
  if (options.para && !proxima)
    throw E.sequenciaDeOutroCircuito({ id: options.para, field: 'para', circuitoId: row.circuitoId });
  if (!proxima) return finalizarExecucao(ctx, row, origem, quando);
  await registrarEtapa(ctx, row.id, { sequenciaCircuitoId: proxima.id, acao: 'AVANCOU', origem }, quando);
  return mover(ctx, row, { sequenciaAtualId: proxima.id, sequenciaAtualDesde: quando });
}

/** Moves a running execution back to its previous sequence by ordem; 409 at the first. */
export async function retornarEtapa(
  ctx: ExecCtx,
  row: ExecucaoRow,
  origem: string,
  quando = ctx.now(),
): Promise<ExecucaoRow> {
  if (row.situacao !== 'EXECUTANDO') throw E.execucaoNaoEmAndamento({ id: row.id, situacao: row.situacao });
  const sequencias = await sequenciasDe(ctx, row.circuitoId);
  const i = sequencias.findIndex((s) => s.id === row.sequenciaAtualId);
  const anterior = i > 0 ? sequencias[i - 1] : undefined;
  if (!anterior) throw E.semEtapaAnterior({ id: row.id });
  await registrarEtapa(ctx, row.id, { sequenciaCircuitoId: anterior.id, acao: 'RETORNOU', origem }, quando);
  return mover(ctx, row, { sequenciaAtualId: anterior.id, sequenciaAtualDesde: quando });
}

/** Cancels a running execution with its reason (CANCELADO); the caller frees the spot and emits. */
export async function cancelarExecucao(
  ctx: ExecCtx,
  row: ExecucaoRow,
  motivo: string | null,
  origem: string,
): Promise<ExecucaoRow> {
  if (row.situacao !== 'EXECUTANDO') throw E.execucaoNaoEmAndamento({ id: row.id, situacao: row.situacao });
  // A running branch is cancelled with its parent, first, for the same reason: left running it would
  // hold the truck in a circuit nobody follows (docs/patio.md "Branches").
  const ramos = await ctx.store.select(
    execucaoCircuito,
    and(eq(execucaoCircuito.execucaoPaiId, row.id), eq(execucaoCircuito.situacao, 'EXECUTANDO')),
    { forUpdate: true },
  );
  for (const ramo of ramos) await cancelarExecucao(ctx, ramo as ExecucaoRow, motivo, origem);
  const quando = ctx.now();
  await registrarEtapa(
    ctx,
    row.id,
    { sequenciaCircuitoId: row.sequenciaAtualId, acao: 'CANCELADA', origem },
    quando,
    true,
  );
  return mover(ctx, row, { situacao: 'CANCELADO', finalizadaEm: quando, motivoCancelamento: motivo });
}

/** Sets (or overwrites) variables of an execution on one target. */
export async function gravarVariaveis(
  ctx: ExecCtx,
  execucaoId: string,
  alvoId: string,
  valores: Array<[string, string]>,
  extra: { tipoCaptura?: string | null; rotina?: string | null } = {},
) {
  if (valores.length === 0) return;
  const v = execucaoCircuitoVariavel;
  await ctx.store
    .insert(
      v,
      valores.map(([chave, valor]) => ({
        execucaoCircuitoId: execucaoId,
        alvoId,
        chave,
        valor,
        tipoCaptura: extra.tipoCaptura ?? null,
        rotina: extra.rotina ?? null,
        alteradaEm: ctx.now(),
      })),
    )
    .onConflictDoUpdate({
      target: [v.tenant, v.execucaoCircuitoId, v.alvoId, v.chave],
      set: {
        valor: sql`excluded.valor`,
        tipoCaptura: sql`excluded.tipo_captura`,
        rotina: sql`excluded.rotina`,
        alteradaEm: sql`excluded.alterada_em`,
      },
    });
}
