import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { Uuid } from './automacao-schemas.ts';
import { E } from './errors.ts';
import { ExecucaoCircuito, type ExecucaoRow, lerExecucao, origemManual } from './execucao.ts';
import { execucaoEmAndamentoOf, ramoEmAndamento } from './execucao-consultas.ts';
import { retornarEtapa } from './execucao-etapas.ts';
import { iniciarRamo } from './execucao-inicio.ts';
import { avancar } from './rotinas.ts';
import { processarEtapa, raiz } from './rotinas-etapas.ts';
import { sequenciaCircuito } from './tables/circuitos.ts';
import { execucaoCircuito } from './tables/execucoes.ts';

// Moving an execution's step by hand (docs/patio.md "Conditions and commands"): advance (the
// destination's condition must hold, unless the operator overrides it), revert, or branch into a
// sub-circuit; the step automation of the step reached follows each move.

/** The execution after a manual move, with the automation of the step it reached. */
async function depoisDoMovimento(ctx: Ctx, row: ExecucaoRow) {
  await processarEtapa(ctx, await raiz(ctx, row));
  const [atual] = await ctx.store.select(execucaoCircuito, eq(execucaoCircuito.id, row.id));
  return { execucaoCircuito: await lerExecucao(ctx, atual!) };
}

export const etapas = {
  avancarEtapaExecucaoCircuito: action({
    description:
      'Moves a running execution to its next step (or to sequenciaCircuitoId), by hand; the destination’s ' +
      'condition must hold (422) unless ignorarCondicao. Past the last step it finishes',
    input: Type.Object({
      execucaoCircuitoId: Uuid('the execution'),
      sequenciaCircuitoId: Type.Optional(Uuid('a step of its circuit to jump to; default the next')),
      ignorarCondicao: Type.Optional(
        Type.Boolean({ description: 'the operator overrides the step’s condition' }),
      ),
    }),
    output: Type.Object({ execucaoCircuito: ExecucaoCircuito }),
    handler: async (ctx, input) => {
      const row = await execucaoEmAndamentoOf(ctx, input.execucaoCircuitoId);
      const movida = await avancar(ctx, row, origemManual(ctx), {
        para: input.sequenciaCircuitoId,
        ignorarCondicao: input.ignorarCondicao ?? false,
      });
      return depoisDoMovimento(ctx, movida);
    },
  }),

  retornarEtapaExecucaoCircuito: action({
    description: 'Moves a running execution back to its previous step, by hand (409 at the first)',
    input: Type.Object({ execucaoCircuitoId: Uuid('the execution') }),
    output: Type.Object({ execucaoCircuito: ExecucaoCircuito }),
    handler: async (ctx, input) => {
      const row = await execucaoEmAndamentoOf(ctx, input.execucaoCircuitoId);
      const ramo = await ramoEmAndamento(ctx, row);
      if (ramo) throw E.ramoEmAndamento({ id: row.id, ramoId: ramo.id });
      return depoisDoMovimento(ctx, await retornarEtapa(ctx, row, origemManual(ctx)));
    },
  }),

  iniciarRamoExecucaoCircuito: action({
    description:
      'Branches a running execution into a sub-circuit of its plant (default: its step’s subCircuitoId); ' +
      'when the branch finishes the execution moves on to its next step',
    input: Type.Object({
      execucaoCircuitoId: Uuid('the execution'),
      subCircuitoId: Type.Optional(Uuid('the sub-circuit; default the current step’s')),
    }),
    output: Type.Object({ ramo: ExecucaoCircuito }),
    handler: async (ctx, input) => {
      const row = await execucaoEmAndamentoOf(ctx, input.execucaoCircuitoId);
      let sub = input.subCircuitoId;
      if (!sub && row.sequenciaAtualId) {
        const [s] = await ctx.store.select(sequenciaCircuito, eq(sequenciaCircuito.id, row.sequenciaAtualId));
        sub = s?.subCircuitoId ?? undefined;
      }
      if (!sub) throw E.semSubCircuito({ sequencia: row.sequenciaAtualId ?? '?' });
      const ramo = await iniciarRamo(ctx, row, sub, origemManual(ctx));
      await processarEtapa(ctx, await raiz(ctx, ramo));
      const [atual] = await ctx.store.select(execucaoCircuito, eq(execucaoCircuito.id, ramo.id));
      return { ramo: await lerExecucao(ctx, atual!) };
    },
  }),
};
