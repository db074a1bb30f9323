import type { Ctx } from '../../../platform/core/declarations.ts';
import type { Alcance } from './rotinas-escopo.ts';
import type { Execucao } from './rotinas-tipos.ts';
import { logRotina } from './tables/rotinas.ts';

// The log of every run of a condition or command (logRotina; docs/patio.md "Conditions and
// commands"): written in the run's transaction and pushed to the console as wsLogRotina.

export type OrigemLog = 'EXPLICITO' | 'ETAPA';

/** Writes the run's logRotina and pushes it as yms/patio/wsLogRotina to the scope's ws_users. */
export async function registrarLog(
  ctx: Ctx,
  run: Execucao,
  meta: {
    servico: string;
    alvo: string;
    origem: OrigemLog;
    alcance: Alcance;
    inicio: Date;
    etapaN?: number | undefined;
  },
) {
  const a = meta.alcance;
  const [row] = await ctx.store
    .insert(logRotina, [
      {
        tipo: run.tipo,
        nome: run.nome,
        servico: meta.servico,
        alvo: meta.alvo,
        origem: meta.origem,
        escopo: a.escopo,
        variaveis: a.variaveis.size ? Object.fromEntries(a.variaveis) : null,
        parametros: Object.keys(run.parametros).length ? run.parametros : null,
        resultado: run.tipo === 'CONDICAO' ? (run.resultado ?? false) : null,
        sucesso: run.sucesso,
        mensagem: run.mensagem,
        detalhes: run.detalhes ?? null,
        execucaoCircuitoId: a.execucao?.id ?? null,
        sequenciaCircuitoId: a.sequenciaCircuitoId ?? null,
        etapaN: meta.etapaN ?? null,
        inicio: meta.inicio,
        fim: ctx.now(),
      },
    ])
    .returning();
  const log = logDe(row!);
  await ctx.emit('yms/patio/wsLogRotina', {
    logRotina: log,
    ...(a.escopo.ws_users ? { ws_users: a.escopo.ws_users } : {}),
  });
  return log;
}

/** A logRotina row in the logRotina shape. */
export function logDe(row: typeof logRotina.$inferSelect) {
  const out: Record<string, unknown> = {
    id: row.id,
    tipo: row.tipo,
    nome: row.nome,
    servico: row.servico,
    alvo: row.alvo,
    origem: row.origem,
    escopo: row.escopo,
    sucesso: row.sucesso,
    mensagem: row.mensagem,
    inicio: row.inicio.toISOString(),
    fim: row.fim.toISOString(),
    duracaoMs: row.fim.getTime() - row.inicio.getTime(),
  };
  if (row.resultado !== null) out.resultado = row.resultado;
  if (row.variaveis) out.variaveis = row.variaveis;
  if (row.parametros) out.parametros = row.parametros;
  if (row.detalhes) out.detalhes = row.detalhes;
  if (row.execucaoCircuitoId) out.execucaoCircuitoId = row.execucaoCircuitoId;
  if (row.sequenciaCircuitoId) out.sequenciaCircuitoId = row.sequenciaCircuitoId;
  return out;
}
