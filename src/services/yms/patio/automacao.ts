import { and, asc, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { event, query } from '../../../platform/core/registry.ts';
import { Enum, Int64, Type } from '../../../platform/core/schema.ts';
import {
  ComandoDescritor,
  ComandoDetalhes,
  CondicaoDescritor,
  CondicaoDetalhes,
  EscopoRotina,
  FilaItem,
  LogRotina,
  Uuid,
} from './automacao-schemas.ts';
import { E } from './errors.ts';
import { parseVariaveis } from './execucoes.ts';
import { entregarVagasDaPlanta } from './fila.ts';
import { avaliarCondicao, COMANDOS, executarComando, resolverRotina, validarParametros } from './rotinas.ts';
import { CONDICOES } from './rotinas-condicoes.ts';
import { type Escopo, resolverEscopo } from './rotinas-escopo.ts';
import { atenderEntregas, processarEtapa, raiz } from './rotinas-etapas.ts';
import { logDe, registrarLog } from './rotinas-log.ts';
import { type OPERADORES, type Parte, TIPOS_ROTINA, type TipoRotina } from './rotinas-tipos.ts';
import { circuito } from './tables/circuitos.ts';
import { execucaoCircuito } from './tables/execucoes.ts';
import { planta } from './tables/plantas.ts';
import { logRotina, rotina as rotinaTable } from './tables/rotinas.ts';

// The operations of conditions and commands (spec 000 §4.1, §4.3, §6; docs/patio.md "Conditions and
// commands"): listing them, running them on demand, the tenant's own (entity `rotina`), their log,
// the pushes to the console (wsLogRotina, wsFilaItem), and moving a step by hand.
// Here: listing, running on demand, the log and the pushes. The records: automacao-schemas.ts; the
// tenant's own: rotinas-tenant.ts; moving a step by hand: etapas.ts; the webhook job: automacao-jobs.ts.

const rotinaInput = <K extends 'condicao' | 'comando'>(campo: K, descritorSchema: typeof CondicaoDescritor) =>
  Type.Object({
    servico: Type.String({ minLength: 1, maxLength: 100, description: 'the service owning it: yms/patio' }),
    ...({ [campo]: descritorSchema } as Record<K, typeof CondicaoDescritor>),
    alvo: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'who registered it (a step, a device, a user)',
    }),
    escopo: EscopoRotina,
    variaveis: Type.String({
      maxLength: 20000,
      description:
        'values for the run, a JSON object of key → value ("" or "{}" for none); they win over the execution’s',
    }),
  });

const SERVICOS = new Set(['yms/patio', 'patio']);

/**
 * executarCondicao / executarComando: resolve, run, log, push; a refused run answers its error (422,
 * 409, 404) with nothing changed but its log, which is kept (the run happened and failed).
 */
async function rodarExplicito(
  ctx: Ctx,
  tipo: TipoRotina,
  input: {
    servico: string;
    alvo: string;
    escopo: Escopo;
    variaveis: string;
    descritor: { nome: string; parametros?: Record<string, string> };
  },
) {
  if (!SERVICOS.has(input.servico)) throw E.servicoDeRotina({ servico: input.servico });
  const variaveis = new Map(parseVariaveis(input.variaveis));
  const { nome, parametros = {} } = input.descritor;
  const run = await ctx.inTransaction(async (c) => {
    const found = await resolverRotina(c, tipo, nome);
    if (found.builtin) validarParametros(tipo, nome, parametros);
    else if (Object.keys(parametros).length)
      throw E.rotinaParametro({
        rotina: nome,
        parametro: Object.keys(parametros)[0]!,
        rule: 'não existe: as partes têm os seus',
      });
    const alcance = await resolverEscopo(c, input.escopo, variaveis);
    const inicio = c.now();
    const r =
      tipo === 'CONDICAO'
        ? await avaliarCondicao(c, alcance, nome, parametros)
        : await executarComando(c, alcance, nome, parametros);
    await registrarLog(c, r, {
      servico: 'yms/patio',
      alvo: input.alvo,
      origem: 'EXPLICITO',
      alcance,
      inicio,
    });
    // A command that moved the execution: the new step's own automation follows.
    if (tipo === 'COMANDO' && r.sucesso && alcance.execucao)
      await processarEtapa(c, await raiz(c, alcance.execucao));
    return r;
  });
  if (run.erro) throw run.erro;
}

function detalheBuiltin(tipo: TipoRotina, nome: string) {
  const b = (tipo === 'CONDICAO' ? CONDICOES : COMANDOS)[nome]!;
  return { nome, descricao: b.descricao, origem: 'SISTEMA' as const, parametros: b.parametros, ativo: true };
}

async function listar(ctx: Ctx, tipo: TipoRotina) {
  const nomes = Object.keys(tipo === 'CONDICAO' ? CONDICOES : COMANDOS);
  const proprias = await ctx.tx
    .select()
    .from(rotinaTable)
    .where(ctx.store.scope(rotinaTable, eq(rotinaTable.tipo, tipo)))
    .orderBy(asc(rotinaTable.nome));
  return [
    ...nomes.map((n) => detalheBuiltin(tipo, n)),
    ...proprias.map((r) => ({
      nome: r.nome,
      descricao: r.descricao ?? '',
      origem: 'TENANT' as const,
      parametros: [],
      ...(r.operador ? { operador: r.operador as (typeof OPERADORES)[number] } : {}),
      partes: r.partes as Parte[],
      ativo: r.ativo,
    })),
  ];
}

export const automacao = {
  listCondicoes: query({
    description: 'The conditions a step or a routine can use: the built-in ones and the tenant’s own',
    get: true,
    input: Type.Object({}),
    output: Type.Object({ condicoes: Type.Array(CondicaoDetalhes) }),
    handler: async (ctx) => ({ condicoes: await listar(ctx, 'CONDICAO') }),
  }),

  listComandos: query({
    description: 'The commands a step or a routine can run: the built-in ones and the tenant’s own',
    get: true,
    input: Type.Object({}),
    output: Type.Object({ comandos: Type.Array(ComandoDetalhes) }),
    handler: async (ctx) => ({ comandos: await listar(ctx, 'COMANDO') }),
  }),

  executarCondicao: event({
    description:
      'Evaluates a condition against a scope and its variables; the run is logged (logRotina) and pushed ' +
      '(wsLogRotina). A condition that cannot be evaluated (its scope lacks what it needs) answers 422',
    input: rotinaInput('condicao', CondicaoDescritor),
    transaction: 'none',
    handler: async (ctx, input) => {
      await rodarExplicito(ctx, 'CONDICAO', { ...input, descritor: input.condicao });
      return undefined as never;
    },
  }),

  executarComando: event({
    description:
      'Runs a command against a scope and its variables, all of it or nothing; the run is logged and pushed. ' +
      'A refused command (no free spot, execution not running…) answers its error and changes nothing but the log',
    input: rotinaInput('comando', ComandoDescritor),
    // The command chamarWebhook calls its URL as a durable job.
    enqueues: true,
    transaction: 'none',
    handler: async (ctx, input) => {
      await rodarExplicito(ctx, 'COMANDO', { ...input, descritor: input.comando });
      return undefined as never;
    },
  }),

  wsLogRotina: event({
    description: 'Pushes a routine log to the users in ws_users (comma-separated) through the live stream',
    input: Type.Object({
      logRotina: LogRotina,
      ws_users: Type.String({ minLength: 1, maxLength: 2000, description: 'comma-separated recipients' }),
    }),
    // Its effect is its publication (yms/patio/wsLogRotina), addressed to ws_users.
    handler: async () => undefined as never,
  }),

  wsFilaItem: event({
    description: 'Pushes a change of a queue item (CRIADO, ALTERADO, REMOVIDO) to the users in ws_users',
    input: Type.Object({
      operacao: Enum(['CRIADO', 'ALTERADO', 'REMOVIDO'] as const),
      fila: Type.String({ minLength: 1, maxLength: 100, description: 'the queue' }),
      filaItem: FilaItem,
      ws_users: Type.String({ minLength: 1, maxLength: 2000, description: 'comma-separated recipients' }),
    }),
    handler: async () => undefined as never,
  }),

  reprocessarRotinasPlanta: event({
    description:
      'Runs the step automation of every running execution of the plant: conditions now true let the ' +
      'steps’ commands run (after a spot was freed, a block lifted…). The spec lists this event first ' +
      'with only plantaId; its name is cut off (docs/patio.md)',
    input: Type.Object({ plantaId: Uuid('the plant') }),
    handler: async (ctx, input) => {
      const [p] = await ctx.store.select(planta, eq(planta.id, input.plantaId));
      if (!p) throw E.plantaNotFound({ id: input.plantaId });
      // Spots freed outside a hand-over go to the plant's queues first (docs/patio.md "Queues").
      await entregarVagasDaPlanta(ctx, p.id);
      await atenderEntregas(ctx);
      const rows = await ctx.tx
        .select({ id: execucaoCircuito.id })
        .from(execucaoCircuito)
        .innerJoin(circuito, eq(circuito.id, execucaoCircuito.circuitoId))
        .where(
          ctx.store.scope(
            execucaoCircuito,
            and(
              eq(circuito.plantaId, p.id),
              eq(execucaoCircuito.situacao, 'EXECUTANDO'),
              isNull(execucaoCircuito.execucaoPaiId),
            ) as SQL,
          ),
        )
        .orderBy(asc(execucaoCircuito.iniciadaEm), asc(execucaoCircuito.id));
      for (const row of rows) await processarEtapa(ctx, row.id);
      return undefined as never;
    },
  }),

  buscarLogRotina: query({
    description: 'The runs of conditions and commands, newest first, by execution, kind or name',
    get: true,
    input: Type.Object({
      execucaoCircuitoId: Type.Optional(Uuid('the execution')),
      tipo: Type.Optional(Enum(TIPOS_ROTINA)),
      nome: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      page: Int64({ minimum: 0, maximum: 1_000_000 }),
      size: Int64({ minimum: 1, maximum: 1000 }),
    }),
    output: Type.Object({ logs: Type.Array(LogRotina), totalElements: Int64(), totalPages: Int64() }),
    handler: async (ctx, input) => {
      const where = and(
        input.execucaoCircuitoId ? eq(logRotina.execucaoCircuitoId, input.execucaoCircuitoId) : undefined,
        input.tipo ? eq(logRotina.tipo, input.tipo) : undefined,
        input.nome ? eq(logRotina.nome, input.nome) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        ctx.tx
          .select()
          .from(logRotina)
          .where(ctx.store.scope(logRotina, where))
          .orderBy(desc(logRotina.n))
          .limit(input.size)
          .offset(input.page * input.size),
        ctx.tx.select({ n: count() }).from(logRotina).where(ctx.store.scope(logRotina, where)),
      ]);
      const totalElements = total?.n ?? 0;
      return {
        logs: rows.map(logDe) as never,
        totalElements,
        totalPages: Math.ceil(totalElements / input.size),
      };
    },
  }),
};
