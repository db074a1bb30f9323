import { and, eq } from 'drizzle-orm';
import { inSavepoint } from '../../../platform/core/db/savepoint.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import type { ExecucaoRow } from './execucao.ts';
import {
  etapaAberta,
  execucaoAtiva,
  execucaoEmAndamento,
  ramoDaEtapa,
  ramoEmAndamento,
  sequenciasDe,
} from './execucao-consultas.ts';
import { iniciarRamo } from './execucao-inicio.ts';
import { type Entrega, tomarEntregas } from './fila.ts';
import { avaliarCondicaoDaEtapa, avancar, executarComando, SISTEMA, sequenciaAtual } from './rotinas.ts';
import { resolverEscopo } from './rotinas-escopo.ts';
import { registrarLog } from './rotinas-log.ts';
import { execucaoCircuito } from './tables/execucoes.ts';
import { vaga } from './tables/plantas.ts';
import { logRotina } from './tables/rotinas.ts';

// The step automation (docs/patio.md "Conditions and commands"): at an execution's current step,
// the step's branch starts and the step's command runs, once per visit of the step.

/** What a step automation may chain in one trigger before it stops (a circuit of self-advancing steps). */
export const MAX_PASSOS_AUTOMATICOS = 25;

/** The top of an execution's branches: the automation runs from there. */
export async function raiz(ctx: Ctx, exec: ExecucaoRow): Promise<string> {
  let atual = exec;
  for (let depth = 0; atual.execucaoPaiId && depth < 10; depth++) {
    const [pai] = await ctx.store.select(execucaoCircuito, eq(execucaoCircuito.id, atual.execucaoPaiId));
    if (!pai) break;
    atual = pai;
  }
  return atual.id;
}

/** Whether the step's command already succeeded in this visit of the step (it runs once per visit). */
async function comandoJaExecutado(ctx: Ctx, execId: string, etapaN: number): Promise<boolean> {
  const [row] = await ctx.tx
    .select({ id: logRotina.id })
    .from(logRotina)
    .where(
      ctx.store.scope(
        logRotina,
        and(
          eq(logRotina.execucaoCircuitoId, execId),
          eq(logRotina.etapaN, etapaN),
          eq(logRotina.tipo, 'COMANDO'),
          eq(logRotina.sucesso, true),
        ),
      ),
    )
    .limit(1);
  return !!row;
}

/**
 * The step automation, run after anything that may move an execution (a yard event, a start, a
 * manual or commanded move, new variables, reprocessarRotinasPlanta). From the execution it goes
 * down to its running branch; at the current step it starts the step's branch (subCircuitoId)
 * once per visit, returns to the parent when that branch finished, and runs the step's command
 * once per visit (a refusal is logged and retried on the next trigger). It stops after
 * MAX_PASSOS_AUTOMATICOS moves.
 */
export async function processarEtapa(ctx: Ctx, execucaoId: string): Promise<void> {
  await processarDesde(ctx, execucaoId);
  // A command of the automation may have freed a spot that a queue handed on (fila.ts).
  await atenderEntregas(ctx);
}

async function processarDesde(ctx: Ctx, execucaoId: string): Promise<void> {
  let id = execucaoId;
  for (let passo = 0; passo < MAX_PASSOS_AUTOMATICOS; passo++) {
    const [exec] = await ctx.tx
      .select()
      .from(execucaoCircuito)
      .where(ctx.store.scope(execucaoCircuito, eq(execucaoCircuito.id, id)))
      .for('update');
    if (!exec) return;
    if (exec.situacao !== 'EXECUTANDO') {
      // A finished branch hands over to its parent (which may now move on).
      if (exec.execucaoPaiId) {
        id = exec.execucaoPaiId;
        continue;
      }
      return;
    }
    const emCurso = await ramoEmAndamento(ctx, exec);
    if (emCurso) {
      id = emCurso.id;
      continue;
    }
    const seq = await sequenciaAtual(ctx, exec);
    if (!seq) return;
    const ramo = await ramoDaEtapa(ctx, exec);
    if (ramo) {
      if (ramo.situacao !== 'FINALIZADO') return; // cancelled: the operator decides
      // The next step's condition is evaluated (and logged) outside the savepoint, so a parent
      // that must wait says why.
      const sequencias = await sequenciasDe(ctx, exec.circuitoId);
      const destino = sequencias[sequencias.findIndex((s) => s.id === exec.sequenciaAtualId) + 1];
      const condicao = destino ? await avaliarCondicaoDaEtapa(ctx, exec, destino) : undefined;
      if (condicao && !condicao.resultado) return;
      const movida = await inSavepoint(ctx, () =>
        avancar(ctx, exec, `RAMO:${ramo.id}`, { ignorarCondicao: true }),
      );
      if (!movida.ok) return;
      continue;
    }
    if (seq.subCircuitoId) {
      const iniciado = await inSavepoint(ctx, () =>
        iniciarRamo(ctx, exec, seq.subCircuitoId!, `ETAPA:${seq.id}`),
      );
      if (!iniciado.ok) return;
      id = iniciado.value.id;
      continue;
    }
    if (!seq.nomeComando) return;
    const etapaN = await etapaAberta(ctx, exec.id);
    if (etapaN === undefined || (await comandoJaExecutado(ctx, exec.id, etapaN))) return;
    const alcance = await resolverEscopo(ctx, { execucaoCircuitoId: exec.id });
    const inicio = ctx.now();
    const run = await executarComando(ctx, alcance, seq.nomeComando);
    await registrarLog(ctx, run, {
      servico: SISTEMA,
      alvo: seq.id,
      origem: 'ETAPA',
      alcance,
      inicio,
      etapaN,
    });
    if (!run.sucesso) return;
  }
}

/**
 * Advances the execution when the area is where its next sequence happens (a vehicle's arrival
 * there). The truck is there whatever the step's condition says: a condition that does not hold
 * keeps the execution where it was, and the arrival is still recorded. The condition is evaluated
 * (and logged) outside the savepoint, so that the log of a refusal is kept.
 */
export async function avancarSeProxima(
  ctx: Ctx,
  exec: ExecucaoRow,
  areaId: string,
  quando: Date,
  origem: string,
): Promise<ExecucaoRow> {
  const sequencias = await sequenciasDe(ctx, exec.circuitoId);
  const i = sequencias.findIndex((s) => s.id === exec.sequenciaAtualId);
  const proxima = sequencias[i + 1];
  if (proxima?.areaId !== areaId) return exec;
  const condicao = await avaliarCondicaoDaEtapa(ctx, exec, proxima);
  if (condicao && !condicao.resultado) return exec;
  const movida = await inSavepoint(ctx, () => avancar(ctx, exec, origem, { quando, ignorarCondicao: true }));
  return movida.ok ? movida.value : exec;
}

/** The transactions running atenderEntregas (the automation it runs may hand more spots on). */
const ATENDENDO = Symbol('yms/patio: atendendo entregas');

/**
 * Runs the arrival automation of every vehicle a queue handed a spot to in this transaction
 * (docs/patio.md "Queues"), as if it had just arrived: its execution advances when the area is
 * its next step's, then the step automation runs.
 */
export async function atenderEntregas(ctx: Ctx): Promise<void> {
  const atendendo = ctx.transactionLocal(ATENDENDO, () => ({ agora: false }));
  if (atendendo.agora) return;
  atendendo.agora = true;
  try {
    for (let lote = tomarEntregas(ctx); lote.length > 0; lote = tomarEntregas(ctx))
      for (const e of lote) await chegadaPelaFila(ctx, e);
  } finally {
    atendendo.agora = false;
  }
}

async function chegadaPelaFila(ctx: Ctx, e: Entrega): Promise<void> {
  // A savepoint rolled back since may have undone the hand-over.
  const [ainda] = await ctx.store.select(vaga, and(eq(vaga.id, e.vagaId), eq(vaga.veiculoId, e.veiculoId)));
  if (!ainda) return;
  const principal = await execucaoEmAndamento(ctx, { veiculoId: e.veiculoId });
  if (!principal) return;
  await avancarSeProxima(ctx, await execucaoAtiva(ctx, principal), e.areaId, e.quando, `FILA:${e.areaId}`);
  await processarDesde(ctx, principal.id);
}
