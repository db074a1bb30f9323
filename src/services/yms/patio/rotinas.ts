import { and, eq } from 'drizzle-orm';
import { inSavepoint } from '../../../platform/core/db/savepoint.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import type { ExecucaoRow } from './execucao.ts';
import { ramoEmAndamento, sequenciasDe } from './execucao-consultas.ts';
import { avancarEtapa, finalizarExecucao, gravarVariaveis, retornarEtapa } from './execucao-etapas.ts';
import { iniciarRamo } from './execucao-inicio.ts';
import { entregarVagas, itemDoVeiculo, liberarVagaDoVeiculo, sairDaFila } from './fila.ts';
import { CONDICOES } from './rotinas-condicoes.ts';
import { type Alcance, execucaoDo, precisa, resolverEscopo, veiculoDo } from './rotinas-escopo.ts';
import { registrarLog } from './rotinas-log.ts';
import {
  type Builtin,
  type Efeito,
  type Execucao,
  type Params,
  type Parte,
  p,
  recusa,
  type TipoRotina,
} from './rotinas-tipos.ts';
import { sequenciaCircuito } from './tables/circuitos.ts';
import { vaga } from './tables/plantas.ts';
import { rotina } from './tables/rotinas.ts';
import { travarAreas } from './travas.ts';
import { alocarVaga } from './vagas.ts';

// Conditions and commands (docs/patio.md "Conditions and commands"): the built-in set, the
// tenant's own made of built-in parts, their evaluation against a scope (escopoRotina), the log of
// every run (logRotina, pushed as wsLogRotina) and the step automation: a step's condition guards
// entering it, a step's command runs once per visit of the step.
// This file is the engine: a routine looked up by name and its parameters checked, a condition
// evaluated, a command run, and the move guarded by the destination step's condition (avancar).
// The built-in commands live here too: avancarEtapa evaluates a condition through the engine, and
// the engine looks commands up; one file keeps the imports free of cycles (DESIGN.md "Layers").
// The rest: rotinas-tipos.ts (what a routine is), rotinas-escopo.ts (its scope), rotinas-condicoes.ts
// (the built-in conditions), rotinas-log.ts (the log) and rotinas-etapas.ts (the step automation).

export const COMANDOS: Record<string, Builtin<Efeito>> = {
  avancarEtapa: {
    descricao:
      'Avança a execução para a próxima sequência (ou para a sequência dada); após a última, finaliza-a. A ' +
      'condição da sequência de destino precisa se cumprir',
    parametros: [p('sequenciaCircuitoId', 'uuid', false, 'a sequência de destino; padrão: a próxima')],
    run: async (ctx, a, params) => {
      const movida = await avancar(ctx, execucaoDo(a), `COMANDO:${a.rotina}`, {
        para: params.sequenciaCircuitoId,
      });
      return { mensagem: await ondeEsta(ctx, movida) };
    },
  },
  retornarEtapa: {
    descricao: 'Volta a execução para a sequência anterior',
    parametros: [],
    run: async (ctx, a) => {
      const movida = await retornarEtapa(ctx, execucaoDo(a), `COMANDO:${a.rotina}`);
      return { mensagem: await ondeEsta(ctx, movida) };
    },
  },
  alocarVaga: {
    descricao:
      'Aloca ao veículo a primeira vaga livre da área dada (ou da área do escopo ou da etapa); uma vaga que ele ' +
      'ocupe em outra área é liberada',
    parametros: [p('areaId', 'uuid', false, 'a área; padrão: a do escopo ou da etapa atual')],
    run: async (ctx, a, params) => {
      const veiculoId = veiculoDo(a);
      const areaId = params.areaId ?? precisa(a.areaId, a.rotina, 'uma área', 'areaId');
      const [atual] = await ctx.store.select(vaga, eq(vaga.veiculoId, veiculoId));
      if (atual?.areaId === areaId)
        return { mensagem: `já ocupa a vaga rua ${atual.rua}, número ${atual.numero}` };
      // Under the locks of the areas: the spot it leaves goes to the first one waiting there, and
      // those waiting here come first (docs/patio.md "Queues").
      const item = await itemDoVeiculo(ctx, veiculoId);
      await travarAreas(ctx, [atual?.areaId, item?.areaId, areaId]);
      if (item) await sairDaFila(ctx, veiculoId);
      if (atual) await liberarVagaDoVeiculo(ctx, veiculoId);
      await entregarVagas(ctx, areaId);
      const v = await alocarVaga(ctx, areaId, veiculoId);
      return { mensagem: `vaga rua ${v.rua}, número ${v.numero} alocada` };
    },
  },
  liberarVaga: {
    descricao: 'Libera a vaga que o veículo ocupa, se alguma',
    parametros: [],
    run: async (ctx, a) => {
      const v = await liberarVagaDoVeiculo(ctx, veiculoDo(a));
      return {
        mensagem: v ? `vaga rua ${v.rua}, número ${v.numero} liberada` : 'o veículo não ocupava vaga',
      };
    },
  },
  definirVariavel: {
    descricao: 'Grava uma variável da execução no alvo dado (padrão: a etapa atual), tipoCaptura ROTINA',
    parametros: [
      p('chave', 'texto', true, 'a variável'),
      p('valor', 'texto', true, 'o valor'),
      p('alvoId', 'texto', false, 'o alvo (sequência ou área); padrão: a etapa atual'),
    ],
    run: async (ctx, a, params) => {
      const exec = execucaoDo(a);
      const alvoId = params.alvoId ?? exec.sequenciaAtualId!;
      await gravarVariaveis(ctx, exec.id, alvoId, [[params.chave!, params.valor!]], {
        tipoCaptura: 'ROTINA',
        rotina: a.rotina,
      });
      return { mensagem: `${params.chave} = '${params.valor}'` };
    },
  },
  chamarWebhook: {
    descricao:
      'Envia (POST, JSON) o escopo, a execução e as variáveis a uma URL, como tarefa durável com novas ' +
      'tentativas; com segredo, assinado como os webhooks da plataforma (x-ponte-signature)',
    parametros: [
      p('url', 'url', true, 'http(s) URL de destino'),
      p('segredo', 'texto', false, 'segredo HMAC-SHA256 da assinatura'),
    ],
    run: async (ctx, a, params) => {
      const corpo = {
        comando: a.rotina,
        tenant: ctx.tenant.name,
        escopo: a.escopo,
        execucaoCircuitoId: a.execucao?.id,
        sequenciaCircuitoId: a.sequenciaCircuitoId,
        veiculoId: a.veiculoId,
        motoristaId: a.motoristaId,
        variaveis: Object.fromEntries(a.variaveis),
        enviadoEm: ctx.now().toISOString(),
      };
      const jobId = await ctx.enqueue(CHAMAR_WEBHOOK, { url: params.url, segredo: params.segredo, corpo });
      return { mensagem: `chamada a ${new URL(params.url!).host} agendada (tarefa ${jobId})` };
    },
  },
  iniciarRamo: {
    descricao:
      'Ramifica a execução no sub-circuito dado (padrão: o subCircuitoId da etapa atual); ao terminar o ramo, ' +
      'a execução principal segue para a próxima etapa',
    parametros: [p('subCircuitoId', 'uuid', false, 'o sub-circuito; padrão: o da etapa atual')],
    run: async (ctx, a, params) => {
      const exec = execucaoDo(a);
      const sub = params.subCircuitoId ?? (await sequenciaAtual(ctx, exec))?.subCircuitoId ?? undefined;
      if (!sub) throw E.semSubCircuito({ sequencia: exec.sequenciaAtualId ?? '?' });
      const ramo = await iniciarRamo(ctx, exec, sub, `COMANDO:${a.rotina}`);
      return { mensagem: `ramo ${ramo.id} iniciado` };
    },
  },
  finalizarExecucao: {
    descricao: 'Finaliza a execução na etapa em que está',
    parametros: [],
    run: async (ctx, a) => {
      const exec = execucaoDo(a);
      if (exec.situacao !== 'EXECUTANDO')
        throw E.execucaoNaoEmAndamento({ id: exec.id, situacao: exec.situacao });
      await finalizarExecucao(ctx, exec, `COMANDO:${a.rotina}`);
      return { mensagem: 'execução finalizada' };
    },
  },
};

export const CHAMAR_WEBHOOK = 'chamarWebhook';

const builtins = (tipo: TipoRotina) =>
  (tipo === 'CONDICAO' ? CONDICOES : COMANDOS) as Record<string, Builtin<unknown>>;
export const ehBuiltin = (tipo: TipoRotina, nome: string) => Object.hasOwn(builtins(tipo), nome);

/** 422 naming the parameter when `params` do not fit the built-in's declaration. */
export function validarParametros(tipo: TipoRotina, nome: string, params: Params, onde = nome): void {
  const declarados = builtins(tipo)[nome]!.parametros;
  for (const key of Object.keys(params)) {
    if (!declarados.some((d) => d.nome === key))
      throw E.rotinaParametro({
        rotina: onde,
        parametro: key,
        rule: `não existe (use ${declarados.map((d) => d.nome).join(', ') || 'nenhum'})`,
      });
  }
  for (const d of declarados) {
    const value = params[d.nome];
    if (value === undefined) {
      if (d.obrigatorio) throw E.rotinaParametro({ rotina: onde, parametro: d.nome, rule: 'é obrigatório' });
      continue;
    }
    const rule =
      d.tipo === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
        ? 'deve ser um UUID'
        : d.tipo === 'url' && !/^https?:\/\/[^\s]+$/i.test(value)
          ? 'deve ser uma URL http(s)'
          : d.tipo === 'opcao' && !d.valores!.includes(value)
            ? `deve ser um de ${d.valores!.join(', ')}`
            : undefined;
    if (rule) throw E.rotinaParametro({ rotina: onde, parametro: d.nome, rule });
  }
}

type RotinaRow = typeof rotina.$inferSelect;

/** A named condition or command: a built-in, or the tenant's own (404 when neither; 422 when inactive). */
export async function resolverRotina(
  ctx: Ctx,
  tipo: TipoRotina,
  nome: string,
): Promise<{ builtin: true } | { builtin: false; row: RotinaRow }> {
  if (ehBuiltin(tipo, nome)) return { builtin: true };
  const [row] = await ctx.store.select(rotina, and(eq(rotina.tipo, tipo), eq(rotina.nome, nome)));
  const rotulo = tipo === 'CONDICAO' ? 'Condição' : 'Comando';
  if (!row) throw E.rotinaNotFound({ tipo: rotulo, nome });
  if (!row.ativo) throw E.rotinaInativa({ tipo: rotulo, nome });
  return { builtin: false, row };
}

/** Evaluates a condition (built-in, or the tenant's parts with TODAS / ALGUMA) against the scope. */
export async function avaliarCondicao(
  ctx: Ctx,
  alcance: Alcance,
  nome: string,
  parametros: Params = {},
): Promise<Execucao> {
  const base = { tipo: 'CONDICAO' as const, nome, parametros };
  try {
    const found = await resolverRotina(ctx, 'CONDICAO', nome);
    if (found.builtin) {
      validarParametros('CONDICAO', nome, parametros);
      const r = await CONDICOES[nome]!.run(ctx, { ...alcance, rotina: nome }, parametros);
      return { ...base, sucesso: true, ...r };
    }
    const partes = found.row.partes as Parte[];
    const detalhes: NonNullable<Execucao['detalhes']> = [];
    for (const parte of partes) {
      const params = parte.parametros ?? {};
      try {
        const r = await CONDICOES[parte.nome]!.run(
          ctx,
          { ...alcance, rotina: `${nome}.${parte.nome}` },
          params,
        );
        detalhes.push({ nome: parte.nome, sucesso: true, ...r });
      } catch (err) {
        if (!recusa(err)) throw err;
        detalhes.push({ nome: parte.nome, resultado: false, sucesso: false, mensagem: err.message });
      }
    }
    const todas = found.row.operador !== 'ALGUMA';
    const resultado = todas ? detalhes.every((d) => d.resultado) : detalhes.some((d) => d.resultado);
    const falhas = detalhes.filter((d) => !d.resultado).map((d) => `${d.nome}: ${d.mensagem}`);
    const mensagem = resultado
      ? `${todas ? 'todas' : 'alguma'} das ${detalhes.length} partes se cumpre${todas ? 'm' : ''}`
      : falhas.join('; ');
    return { ...base, resultado, sucesso: detalhes.every((d) => d.sucesso), mensagem, detalhes };
  } catch (err) {
    if (!recusa(err)) throw err;
    return { ...base, resultado: false, sucesso: false, mensagem: err.message, erro: err };
  }
}

/** Runs a command (built-in, or the tenant's parts in order) in a savepoint: all of it or none. */
export async function executarComando(
  ctx: Ctx,
  alcance: Alcance,
  nome: string,
  parametros: Params = {},
): Promise<Execucao> {
  const base = { tipo: 'COMANDO' as const, nome, parametros };
  const detalhes: NonNullable<Execucao['detalhes']> = [];
  let composta = false;
  const outcome = await inSavepoint(ctx, async () => {
    const found = await resolverRotina(ctx, 'COMANDO', nome);
    if (found.builtin) {
      validarParametros('COMANDO', nome, parametros);
      return COMANDOS[nome]!.run(ctx, { ...alcance, rotina: nome }, parametros);
    }
    composta = true;
    let atual = alcance;
    for (const parte of found.row.partes as Parte[]) {
      try {
        const r = await COMANDOS[parte.nome]!.run(
          ctx,
          { ...atual, rotina: `${nome}.${parte.nome}` },
          parte.parametros ?? {},
        );
        detalhes.push({ nome: parte.nome, sucesso: true, mensagem: r.mensagem });
      } catch (err) {
        if (recusa(err)) detalhes.push({ nome: parte.nome, sucesso: false, mensagem: err.message });
        throw err;
      }
      // A part that moved the execution: the next part sees where it is now.
      if (atual.execucao)
        atual = await resolverEscopo(
          ctx,
          { ...atual.escopo, execucaoCircuitoId: atual.execucao.id },
          atual.variaveis,
        );
    }
    return { mensagem: detalhes.map((d) => `${d.nome}: ${d.mensagem}`).join('; ') };
  });
  const extra = composta ? { detalhes } : {};
  return outcome.ok
    ? { ...base, sucesso: true, mensagem: outcome.value.mensagem, ...extra }
    : { ...base, sucesso: false, mensagem: outcome.error.message, erro: outcome.error, ...extra };
}

export async function sequenciaAtual(ctx: Ctx, exec: ExecucaoRow) {
  if (!exec.sequenciaAtualId) return undefined;
  const [s] = await ctx.store.select(sequenciaCircuito, eq(sequenciaCircuito.id, exec.sequenciaAtualId));
  return s;
}

async function ondeEsta(ctx: Ctx, exec: ExecucaoRow): Promise<string> {
  if (exec.situacao !== 'EXECUTANDO') return `execução ${exec.situacao}`;
  const s = await sequenciaAtual(ctx, exec);
  return `na sequência ${s?.ordem} (${s?.nome})`;
}

export const SISTEMA = 'yms/patio';

/**
 * The step's condition (nomeCondicao) evaluated for the execution with the step as its scope, and
 * logged (origem ETAPA); undefined when the step has none.
 */
export async function avaliarCondicaoDaEtapa(
  ctx: Ctx,
  exec: ExecucaoRow,
  destino: typeof sequenciaCircuito.$inferSelect,
): Promise<Execucao | undefined> {
  if (!destino.nomeCondicao) return undefined;
  const alcance = await resolverEscopo(ctx, { execucaoCircuitoId: exec.id, sequenciaCircuitoId: destino.id });
  const inicio = ctx.now();
  const run = await avaliarCondicao(ctx, alcance, destino.nomeCondicao);
  await registrarLog(ctx, run, { servico: SISTEMA, alvo: destino.id, origem: 'ETAPA', alcance, inicio });
  return run;
}

/**
 * 422 condicaoNaoSatisfeita unless the step's condition (nomeCondicao) holds for the execution,
 * evaluated with the step as its scope; the evaluation is logged (origem ETAPA).
 */
export async function exigirCondicao(
  ctx: Ctx,
  exec: ExecucaoRow,
  destino: typeof sequenciaCircuito.$inferSelect,
): Promise<void> {
  const run = await avaliarCondicaoDaEtapa(ctx, exec, destino);
  if (run && !run.resultado && destino.nomeCondicao)
    throw E.condicaoNaoSatisfeita({
      sequencia: `${destino.ordem} (${destino.nome})`,
      condicao: destino.nomeCondicao,
      mensagem: run.mensagem,
    });
}

/**
 * Moves a running execution to its next sequence (or `para`) when the destination's condition
 * holds: the condition is evaluated and logged (origem ETAPA); not holding is 422
 * condicaoNaoSatisfeita and nothing moves. `ignorarCondicao` (an operator's decision) skips it.
 */
export async function avancar(
  ctx: Ctx,
  exec: ExecucaoRow,
  origem: string,
  options: { para?: string | undefined; quando?: Date; ignorarCondicao?: boolean } = {},
): Promise<ExecucaoRow> {
  if (exec.situacao !== 'EXECUTANDO')
    throw E.execucaoNaoEmAndamento({ id: exec.id, situacao: exec.situacao });
  const emCurso = await ramoEmAndamento(ctx, exec);
  if (emCurso) throw E.ramoEmAndamento({ id: exec.id, ramoId: emCurso.id });
  const sequencias = await sequenciasDe(ctx, exec.circuitoId);
  const i = sequencias.findIndex((s) => s.id === exec.sequenciaAtualId);
  const destino = options.para ? sequencias.find((s) => s.id === options.para) : sequencias[i + 1];
  if (destino && !options.ignorarCondicao) await exigirCondicao(ctx, exec, destino);
  return avancarEtapa(ctx, exec, origem, {
    ...(options.para ? { para: options.para } : {}),
    ...(options.quando ? { quando: options.quando } : {}),
  });
}
