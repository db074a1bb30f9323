import { and, count, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.ts';
import { inSavepoint } from '../../../platform/db/savepoint.ts';
import { ApiError } from '../../../platform/errors.ts';
import { E } from './errors.ts';
import type { ExecucaoRow } from './execucao.ts';
import {
  etapaAberta,
  execucaoEmAndamento,
  execucaoOf,
  ramoDaEtapa,
  ramoEmAndamento,
  sequenciasDe,
} from './execucao-consultas.ts';
import { avancarEtapa, finalizarExecucao, gravarVariaveis, retornarEtapa } from './execucao-etapas.ts';
import { iniciarRamo } from './execucao-inicio.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { execucaoCircuito, execucaoCircuitoVariavel } from './tables/execucoes.ts';
import { area, planta, vaga } from './tables/plantas.ts';
import { presencaPatio } from './tables/presencas.ts';
import { logRotina, rotina } from './tables/rotinas.ts';
import { composicaoVeiculo, motorista, veiculo } from './tables/veiculos.ts';
import { alocarVaga, liberarVaga } from './vagas.ts';

// Conditions and commands (docs/patio.md "Conditions and commands"): the built-in set, the
// tenant's own made of built-in parts, their evaluation against a scope (escopoRotina), the log of
// every run (logRotina, pushed as wsLogRotina) and the step automation: a step's condition guards
// entering it, a step's command runs once per visit of the step.

export type TipoRotina = 'CONDICAO' | 'COMANDO';
export const TIPOS_ROTINA = ['CONDICAO', 'COMANDO'] as const;
export const OPERADORES = ['TODAS', 'ALGUMA'] as const;
export const COMPARACOES = [
  'IGUAL',
  'DIFERENTE',
  'MAIOR',
  'MAIOR_IGUAL',
  'MENOR',
  'MENOR_IGUAL',
  'CONTEM',
  'EXISTE',
  'NAO_EXISTE',
] as const;

/** What a step automation may chain in one trigger before it stops (a circuit of self-advancing steps). */
export const MAX_PASSOS_AUTOMATICOS = 25;

export interface Parametro {
  nome: string;
  tipo: 'texto' | 'uuid' | 'url' | 'opcao';
  obrigatorio: boolean;
  descricao: string;
  valores?: string[];
}

/** escopoRotina (spec 000 §6 names it without fields): what a routine runs against. */
export interface Escopo {
  execucaoCircuitoId?: string | undefined;
  agendaId?: string | undefined;
  veiculoId?: string | undefined;
  motoristaId?: string | undefined;
  plantaId?: string | undefined;
  areaId?: string | undefined;
  sequenciaCircuitoId?: string | undefined;
  ws_users?: string | undefined;
}

/** The scope resolved: the execution it names (or the vehicle's or agenda's running one) fills the gaps. */
export interface Alcance {
  escopo: Escopo;
  execucao: ExecucaoRow | undefined;
  veiculoId: string | undefined;
  motoristaId: string | undefined;
  plantaId: string | undefined;
  areaId: string | undefined;
  sequenciaCircuitoId: string | undefined;
  /** The variables sent with the request; they win over the execution's. */
  variaveis: Map<string, string>;
  /** The routine being run, for history origins and messages. */
  rotina: string;
}

type Params = Record<string, string>;

interface Builtin<R> {
  descricao: string;
  parametros: Parametro[];
  run: (ctx: Ctx, alcance: Alcance, params: Params) => Promise<R>;
}
type Avaliacao = { resultado: boolean; mensagem: string };
type Efeito = { mensagem: string };

const p = (
  nome: string,
  tipo: Parametro['tipo'],
  obrigatorio: boolean,
  descricao: string,
  valores?: readonly string[],
): Parametro => ({ nome, tipo, obrigatorio, descricao, ...(valores ? { valores: [...valores] } : {}) });

function precisa<T>(value: T | undefined, rotinaNome: string, falta: string, campo: string): T {
  if (value === undefined || value === null) throw E.escopoIncompleto({ rotina: rotinaNome, falta, campo });
  return value;
}
const execucaoDo = (a: Alcance) =>
  precisa(a.execucao, a.rotina, 'uma execução de circuito', 'execucaoCircuitoId');
const veiculoDo = (a: Alcance) => precisa(a.veiculoId, a.rotina, 'um veículo', 'veiculoId');

/** A number written with a dot or a decimal comma (scales print 31500,5). */
function numero(text: string): number | undefined {
  const t = text.trim();
  const normal = t.includes(',') && !t.includes('.') ? t.replace(',', '.') : t;
  if (normal === '' || !/^[-+]?\d*\.?\d+(e[-+]?\d+)?$/i.test(normal)) return undefined;
  return Number(normal);
}

function comparar(atual: string | undefined, operador: string, esperado: string): boolean {
  if (operador === 'EXISTE') return atual !== undefined;
  if (operador === 'NAO_EXISTE') return atual === undefined;
  if (atual === undefined) return false;
  if (operador === 'CONTEM') return atual.toLowerCase().includes(esperado.toLowerCase());
  const [a, b] = [numero(atual), numero(esperado)];
  const cmp =
    a !== undefined && b !== undefined ? Math.sign(a - b) : atual < esperado ? -1 : atual > esperado ? 1 : 0;
  switch (operador) {
    case 'IGUAL':
      return cmp === 0;
    case 'DIFERENTE':
      return cmp !== 0;
    case 'MAIOR':
      return cmp > 0;
    case 'MAIOR_IGUAL':
      return cmp >= 0;
    case 'MENOR':
      return cmp < 0;
    default:
      return cmp <= 0;
  }
}

/** A variable's value: the request's, else the execution's on the target (the given, or the step's, or its area's), else on any target. */
async function valorDaVariavel(
  ctx: Ctx,
  a: Alcance,
  chave: string,
  alvoId: string | undefined,
): Promise<string | undefined> {
  if (a.variaveis.has(chave)) return a.variaveis.get(chave);
  if (!a.execucao) return undefined;
  const v = execucaoCircuitoVariavel;
  const rows = await ctx.store.select(v, and(eq(v.execucaoCircuitoId, a.execucao.id), eq(v.chave, chave)));
  if (alvoId) return rows.find((r) => r.alvoId === alvoId)?.valor;
  const preferidos = [a.sequenciaCircuitoId, a.areaId];
  for (const alvo of preferidos) {
    const row = rows.find((r) => r.alvoId === alvo);
    if (row) return row.valor;
  }
  return rows.sort((x, y) => y.alteradaEm.getTime() - x.alteradaEm.getTime())[0]?.valor;
}

async function bloqueioDoVeiculo(ctx: Ctx, a: Alcance): Promise<string | undefined> {
  const id = veiculoDo(a);
  const [v] = await ctx.store.select(veiculo, eq(veiculo.id, id));
  if (!v) throw E.veiculoNotFound({ id });
  if (v.bloqueado) return `veículo ${v.placa} bloqueado: ${v.motivoBloqueio ?? 'sem motivo'}`;
  const composicaoId = a.execucao?.composicaoVeiculoId;
  if (composicaoId) {
    const [c] = await ctx.store.select(composicaoVeiculo, eq(composicaoVeiculo.id, composicaoId));
    if (c?.motivoBloqueio) return `composição ${c.id} bloqueada: ${c.motivoBloqueio}`;
    const partes = (c?.reboqueIds ?? []) as string[];
    for (const parte of partes) {
      const [r] = await ctx.store.select(veiculo, eq(veiculo.id, parte));
      if (r?.bloqueado) return `reboque ${r.placa} bloqueado: ${r.motivoBloqueio ?? 'sem motivo'}`;
    }
  }
  return undefined;
}

export const CONDICOES: Record<string, Builtin<Avaliacao>> = {
  variavelCompara: {
    descricao:
      'Uma variável (enviada em variaveis, ou da execução: do alvo dado, da etapa atual, da sua área ou a mais ' +
      'recente) comparada a um valor; números comparam como números (vírgula decimal aceita)',
    parametros: [
      p('chave', 'texto', true, 'a variável'),
      p('operador', 'opcao', true, 'a comparação', COMPARACOES),
      p('valor', 'texto', false, 'o valor comparado (dispensado por EXISTE e NAO_EXISTE)'),
      p('alvoId', 'texto', false, 'o alvo (sequência ou área) de onde ler a variável'),
    ],
    run: async (ctx, a, params) => {
      const { chave, operador } = params as { chave: string; operador: string };
      if (params.valor === undefined && operador !== 'EXISTE' && operador !== 'NAO_EXISTE')
        throw E.rotinaParametro({
          rotina: 'variavelCompara',
          parametro: 'valor',
          rule: `é exigido por ${operador}`,
        });
      const atual = await valorDaVariavel(ctx, a, chave, params.alvoId);
      const resultado = comparar(atual, operador, params.valor ?? '');
      const visto = atual === undefined ? 'ausente' : `'${atual}'`;
      const alvo = params.valor === undefined ? '' : ` '${params.valor}'`;
      return { resultado, mensagem: `${chave} = ${visto} ${operador}${alvo}: ${resultado ? 'sim' : 'não'}` };
    },
  },
  veiculoNaoBloqueado: {
    descricao: 'O veículo do escopo, e cada parte da composição da execução, não está bloqueado',
    parametros: [],
    run: async (ctx, a) => {
      const bloqueio = await bloqueioDoVeiculo(ctx, a);
      return { resultado: !bloqueio, mensagem: bloqueio ?? 'veículo não bloqueado' };
    },
  },
  motoristaNaoBloqueado: {
    descricao: 'O motorista do escopo não está bloqueado',
    parametros: [],
    run: async (ctx, a) => {
      const id = precisa(a.motoristaId, a.rotina, 'um motorista', 'motoristaId');
      const [m] = await ctx.store.select(motorista, eq(motorista.id, id));
      if (!m) throw E.motoristaNotFound({ id });
      return m.bloqueado
        ? { resultado: false, mensagem: `motorista ${m.nome} bloqueado: ${m.motivoBloqueio ?? 'sem motivo'}` }
        : { resultado: true, mensagem: `motorista ${m.nome} não bloqueado` };
    },
  },
  vagaLivreNaArea: {
    descricao:
      'Há vaga livre (desocupada, ativa, desbloqueada) na área dada, ou na área do escopo ou da etapa',
    parametros: [p('areaId', 'uuid', false, 'a área; padrão: a do escopo ou da etapa atual')],
    run: async (ctx, a, params) => {
      const areaId = params.areaId ?? precisa(a.areaId, a.rotina, 'uma área', 'areaId');
      const [ar] = await ctx.store.select(area, eq(area.id, areaId));
      if (!ar) throw E.areaNotFound({ id: areaId });
      const [row] = await ctx.tx
        .select({ n: count() })
        .from(vaga)
        .where(
          ctx.store.scope(
            vaga,
            and(
              eq(vaga.areaId, areaId),
              eq(vaga.ocupada, false),
              eq(vaga.ativo, true),
              eq(vaga.bloqueio, false),
            ),
          ),
        );
      const n = row?.n ?? 0;
      return { resultado: n > 0, mensagem: `${n} vaga(s) livre(s) na área ${ar.codigo}` };
    },
  },
  veiculoNoPatio: {
    descricao: 'O veículo do escopo está no pátio (da planta do escopo, quando conhecida)',
    parametros: [],
    run: async (ctx, a) => {
      const id = veiculoDo(a);
      const [row] = await ctx.store.select(
        presencaPatio,
        and(eq(presencaPatio.veiculoId, id), isNull(presencaPatio.saidaEm)),
      );
      const resultado = !!row && (!a.plantaId || row.plantaId === a.plantaId);
      return {
        resultado,
        mensagem: resultado ? `no pátio desde ${row!.entradaEm.toISOString()}` : 'veículo fora do pátio',
      };
    },
  },
};

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
      if (atual) await liberarVaga(ctx, veiculoId);
      const v = await alocarVaga(ctx, areaId, veiculoId);
      return { mensagem: `vaga rua ${v.rua}, número ${v.numero} alocada` };
    },
  },
  liberarVaga: {
    descricao: 'Libera a vaga que o veículo ocupa, se alguma',
    parametros: [],
    run: async (ctx, a) => {
      const v = await liberarVaga(ctx, veiculoDo(a));
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
export interface Parte {
  nome: string;
  parametros?: Params;
}

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

/** Whether the error is the refusal of a rule (4xx) rather than a failure of the system. */
const recusa = (err: unknown): err is ApiError => err instanceof ApiError && err.status < 500;

export interface Execucao {
  tipo: TipoRotina;
  nome: string;
  parametros: Params;
  /** A condition's outcome (false when it could not be evaluated). */
  resultado?: boolean;
  sucesso: boolean;
  mensagem: string;
  detalhes?: Array<{ nome: string; resultado?: boolean; sucesso: boolean; mensagem: string }>;
  /** The refusal that made a run fail (the explicit events answer it). */
  erro?: ApiError;
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

/**
 * Resolves escopoRotina: the execution named (404), or else the running one of the agenda or the
 * vehicle; every id given must exist (422 naming it) and agree with the execution's (422).
 */
export async function resolverEscopo(
  ctx: Ctx,
  escopo: Escopo,
  variaveis: Map<string, string> = new Map(),
): Promise<Alcance> {
  let execucao: ExecucaoRow | undefined;
  if (escopo.execucaoCircuitoId) execucao = await execucaoOf(ctx, escopo.execucaoCircuitoId);
  else if (escopo.agendaId) execucao = await execucaoEmAndamento(ctx, { agendaId: escopo.agendaId });
  else if (escopo.veiculoId) execucao = await execucaoEmAndamento(ctx, { veiculoId: escopo.veiculoId });
  const confere = (campo: 'veiculoId' | 'motoristaId' | 'agendaId') => {
    const dado = escopo[campo];
    const daExecucao = execucao?.[campo];
    if (dado && daExecucao && dado !== daExecucao)
      throw E.escopoDivergente({ campo, valor: dado, execucaoId: execucao!.id, daExecucao });
  };
  confere('veiculoId');
  confere('motoristaId');
  confere('agendaId');
  const existe = async (
    table: typeof veiculo | typeof motorista | typeof area | typeof planta,
    campo: string,
    id?: string,
  ) => {
    if (!id) return;
    const [row] = await ctx.store.select(table, eq(table.id, id));
    if (!row) throw E.referenceNotFound({ record: campo.replace('Id', ''), id, field: `escopo.${campo}` });
  };
  await existe(veiculo, 'veiculoId', escopo.veiculoId);
  await existe(motorista, 'motoristaId', escopo.motoristaId);
  await existe(area, 'areaId', escopo.areaId);
  await existe(planta, 'plantaId', escopo.plantaId);
  let sequenciaCircuitoId = execucao?.sequenciaAtualId ?? undefined;
  let areaDaEtapa: string | undefined;
  if (escopo.sequenciaCircuitoId) {
    const [s] = await ctx.store.select(
      sequenciaCircuito,
      eq(sequenciaCircuito.id, escopo.sequenciaCircuitoId),
    );
    if (!s)
      throw E.referenceNotFound({
        record: 'sequência',
        id: escopo.sequenciaCircuitoId,
        field: 'escopo.sequenciaCircuitoId',
      });
    sequenciaCircuitoId = s.id;
    areaDaEtapa = s.areaId;
  } else if (sequenciaCircuitoId) {
    const [s] = await ctx.store.select(sequenciaCircuito, eq(sequenciaCircuito.id, sequenciaCircuitoId));
    areaDaEtapa = s?.areaId;
  }
  const areaId = escopo.areaId ?? areaDaEtapa;
  let plantaId = escopo.plantaId;
  if (!plantaId && execucao) {
    const [c] = await ctx.store.select(circuito, eq(circuito.id, execucao.circuitoId));
    plantaId = c?.plantaId;
  }
  if (!plantaId && areaId) {
    const [a] = await ctx.store.select(area, eq(area.id, areaId));
    plantaId = a?.plantaId;
  }
  return {
    escopo,
    execucao,
    veiculoId: escopo.veiculoId ?? execucao?.veiculoId ?? undefined,
    motoristaId: escopo.motoristaId ?? execucao?.motoristaId ?? undefined,
    plantaId,
    areaId,
    sequenciaCircuitoId,
    variaveis,
    rotina: '',
  };
}

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

async function sequenciaAtual(ctx: Ctx, exec: ExecucaoRow) {
  if (!exec.sequenciaAtualId) return undefined;
  const [s] = await ctx.store.select(sequenciaCircuito, eq(sequenciaCircuito.id, exec.sequenciaAtualId));
  return s;
}

async function ondeEsta(ctx: Ctx, exec: ExecucaoRow): Promise<string> {
  if (exec.situacao !== 'EXECUTANDO') return `execução ${exec.situacao}`;
  const s = await sequenciaAtual(ctx, exec);
  return `na sequência ${s?.ordem} (${s?.nome})`;
}

const SISTEMA = 'yms/patio';

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
