import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import {
  FinalizarProcessoInput,
  IniciarProcessoInput,
  IniciarProcessoOutput,
  InterromperProcessoInput,
  type Situacao,
} from './schemas.ts';
import { execucaoProcesso as ex } from './tables.ts';

// How an ERP reports its own runs (docs/gct_historicoprocesso.md "Reporting a run", the project's
// design: spec 001 §2.8 shows only the query). A run starts Iniciado and ends once: the ending is one
// conditional UPDATE (… where situacao = 'Iniciado'), so of two concurrent endings exactly one wins
// and the other is 409, never read-then-write. A start repeated with its chaveExecucao hits the
// unique index: one run, the repeat 409.

export const iniciarProcesso = action({
  description:
    'Records that a process of an empresa/filial started a run over a processing period; answers the run’s id',
  input: IniciarProcessoInput,
  output: IniciarProcessoOutput,
  handler: async (ctx, input) => {
    if (input.dataFinal < input.dataInicio)
      throw E.periodo({ field: 'dataFinal', dataFinal: input.dataFinal, dataInicial: input.dataInicio });
    const [row] = await ctx.store
      .insert(ex, [
        {
          empresa: input.empresa,
          filial: input.filial,
          processo: input.processo,
          chaveExecucao: input.chaveExecucao ?? null,
          dataInicio: input.dataInicio,
          dataFinal: input.dataFinal,
          inicioProcessamento: input.inicioProcessamento ? new Date(input.inicioProcessamento) : ctx.now(),
        },
      ])
      .onConflictDoNothing()
      .returning({ id: ex.id });
    if (!row)
      throw E.execucaoRepetida({
        processo: input.processo,
        empresa: input.empresa,
        filial: input.filial,
        chave: input.chaveExecucao ?? '',
      });
    return { id: row.id };
  },
});

/** Ends run `id` as `situacao`, once: 404 when unknown (another tenant's too), 409 when it has ended. */
async function encerrar(ctx: Ctx, id: string, situacao: Situacao, fim: Date, motivo?: string) {
  const ended = await ctx.store
    .update(
      ex,
      { situacao, fimProcessamento: fim, ...(motivo !== undefined ? { motivo } : {}) },
      and(eq(ex.id, id), eq(ex.situacao, 'Iniciado'), sql`${ex.inicioProcessamento} <= ${fim.toISOString()}`),
    )
    .returning({ id: ex.id });
  if (ended.length > 0) return {};
  const [row] = await ctx.store.select(ex, eq(ex.id, id));
  if (!row) throw E.execucaoNotFound({ id });
  if (row.situacao !== 'Iniciado') throw E.execucaoEncerrada({ id, situacao: row.situacao });
  throw E.fimAntesInicio({ fim: fim.toISOString(), inicio: row.inicioProcessamento.toISOString() });
}

export const finalizarProcesso = action({
  description: 'Records that a run ended well (Finalizado); a run ends once (409 after)',
  input: FinalizarProcessoInput,
  output: Type.Object({}),
  handler: async (ctx, input) =>
    encerrar(
      ctx,
      input.id,
      'Finalizado',
      input.fimProcessamento ? new Date(input.fimProcessamento) : ctx.now(),
    ),
});

export const interromperProcesso = action({
  description:
    'Records that a run stopped before its end (Interrompido), with why; a run ends once (409 after)',
  input: InterromperProcessoInput,
  output: Type.Object({}),
  handler: async (ctx, input) =>
    encerrar(
      ctx,
      input.id,
      'Interrompido',
      input.fimProcessamento ? new Date(input.fimProcessamento) : ctx.now(),
      input.motivo,
    ),
});
