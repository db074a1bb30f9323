import { and, asc, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.ts';
import { defineEntity } from '../../../platform/entities/entity.ts';
import { SIGNATURE_HEADER, sign, TIMESTAMP_HEADER } from '../../../platform/events/signature.ts';
import { action, event, type JobDeclaration, query } from '../../../platform/registry.ts';
import { DateTime, Enum, Int64, Record as SpecRecord, Type } from '../../../platform/schema.ts';
import { E } from './errors.ts';
import { ExecucaoCircuito, type ExecucaoRow, lerExecucao, origemManual } from './execucao.ts';
import { execucaoEmAndamentoOf, ramoEmAndamento } from './execucao-consultas.ts';
import { retornarEtapa } from './execucao-etapas.ts';
import { iniciarRamo } from './execucao-inicio.ts';
import { parseVariaveis } from './execucoes.ts';
import {
  avaliarCondicao,
  avancar,
  CHAMAR_WEBHOOK,
  COMANDOS,
  ehBuiltin,
  executarComando,
  resolverRotina,
  validarParametros,
} from './rotinas.ts';
import { CONDICOES } from './rotinas-condicoes.ts';
import { type Escopo, resolverEscopo } from './rotinas-escopo.ts';
import { processarEtapa } from './rotinas-etapas.ts';
import { logDe, registrarLog } from './rotinas-log.ts';
import { OPERADORES, type Parte, TIPOS_ROTINA, type TipoRotina } from './rotinas-tipos.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { execucaoCircuito } from './tables/execucoes.ts';
import { planta } from './tables/plantas.ts';
import { logRotina, rotina as rotinaTable } from './tables/rotinas.ts';

// The operations of conditions and commands (spec 000 §4.1, §4.3, §6; docs/patio.md "Conditions and
// commands"): listing them, running them on demand, the tenant's own (entity `rotina`), their log,
// the pushes to the console (wsLogRotina, wsFilaItem), and moving a step by hand.

const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const Parametros = Type.Record(
  Type.String({ minLength: 1, maxLength: 50 }),
  Type.String({ maxLength: 2000 }),
  {
    maxProperties: 20,
    description: 'parameter name → value (listCondicoes / listComandos say which)',
  },
);

const descritor = (tipo: 'condição' | 'comando') =>
  Type.Object({
    nome: Type.String({
      minLength: 1,
      maxLength: 100,
      description: `the ${tipo}'s name (built-in or the tenant's)`,
    }),
    parametros: Type.Optional(Parametros),
  });
export const CondicaoDescritor = SpecRecord('condicaoDescritor', descritor('condição'));
export const ComandoDescritor = SpecRecord('comandoDescritor', descritor('comando'));

export const EscopoRotina = SpecRecord(
  'escopoRotina',
  Type.Object({
    execucaoCircuitoId: Type.Optional(Uuid('the execution; wins over agendaId and veiculoId')),
    agendaId: Type.Optional(Uuid('the agenda: its running execution, when no execution is named')),
    veiculoId: Type.Optional(Uuid("the vehicle (else the execution's); finds its running execution")),
    motoristaId: Type.Optional(Uuid("the driver (else the execution's)")),
    plantaId: Type.Optional(Uuid("the plant (else the execution's circuit's, or the area's)")),
    areaId: Type.Optional(Uuid("the area (else the step's)")),
    sequenciaCircuitoId: Type.Optional(Uuid("the step (else the execution's current one)")),
    ws_users: Type.Optional(
      Type.String({
        maxLength: 2000,
        description: 'comma-separated users the run’s wsLogRotina is pushed to',
      }),
    ),
  }),
);

const ParametroDetalhe = Type.Object({
  nome: Type.String(),
  tipo: Type.String({ description: 'texto, uuid, url or opcao' }),
  obrigatorio: Type.Boolean(),
  descricao: Type.String(),
  valores: Type.Optional(Type.Array(Type.String(), { description: 'the values of an opcao' })),
});
const ParteSchema = Type.Object({
  nome: Type.String({ minLength: 1, maxLength: 100, description: 'a built-in of the same kind' }),
  parametros: Type.Optional(Parametros),
});
const detalhes = (name: string) =>
  SpecRecord(
    name,
    Type.Object({
      nome: Type.String(),
      descricao: Type.String(),
      origem: Enum(['SISTEMA', 'TENANT'] as const, { description: 'built-in, or the tenant’s own' }),
      parametros: Type.Array(ParametroDetalhe),
      operador: Type.Optional(Enum(OPERADORES)),
      partes: Type.Optional(Type.Array(ParteSchema)),
      ativo: Type.Boolean(),
    }),
  );
export const CondicaoDetalhes = detalhes('condicaoDetalhes');
export const ComandoDetalhes = detalhes('comandoDetalhes');

export const LogRotina = SpecRecord(
  'logRotina',
  Type.Object({
    id: Type.Optional(Type.String()),
    tipo: Enum(TIPOS_ROTINA),
    nome: Type.String({ minLength: 1, maxLength: 100 }),
    servico: Type.Optional(Type.String({ maxLength: 100 })),
    alvo: Type.Optional(Type.String({ maxLength: 200 })),
    origem: Type.Optional(Type.String({ maxLength: 20, description: 'EXPLICITO or ETAPA' })),
    escopo: Type.Optional(Type.Object({}, { additionalProperties: true })),
    variaveis: Type.Optional(Type.Record(Type.String(), Type.String())),
    parametros: Type.Optional(Type.Record(Type.String(), Type.String())),
    resultado: Type.Optional(Type.Boolean({ description: "a condition's outcome" })),
    sucesso: Type.Boolean({ description: 'false: it could not be evaluated or the command was refused' }),
    mensagem: Type.String({ maxLength: 4000 }),
    detalhes: Type.Optional(
      Type.Array(
        Type.Object({
          nome: Type.String(),
          resultado: Type.Optional(Type.Boolean()),
          sucesso: Type.Boolean(),
          mensagem: Type.String(),
        }),
      ),
    ),
    execucaoCircuitoId: Type.Optional(Type.String()),
    sequenciaCircuitoId: Type.Optional(Type.String()),
    inicio: Type.Optional(DateTime()),
    fim: Type.Optional(DateTime()),
    duracaoMs: Type.Optional(Int64()),
  }),
);

export const FilaItem = SpecRecord(
  'filaItem',
  Type.Object({
    id: Type.String({ minLength: 1, maxLength: 100, description: 'the item in the queue' }),
    posicao: Type.Optional(Int64({ minimum: 0, description: 'its place in the queue, from 1' })),
    placa: Type.Optional(Type.String({ maxLength: 10 })),
    veiculoId: Type.Optional(Uuid('the vehicle')),
    motoristaId: Type.Optional(Uuid('the driver')),
    agendaId: Type.Optional(Uuid('the agenda')),
    execucaoCircuitoId: Type.Optional(Uuid('the execution')),
    sequenciaCircuitoId: Type.Optional(Uuid('the step it waits for')),
    descricao: Type.Optional(Type.String({ maxLength: 255 })),
    desde: Type.Optional(DateTime({ description: 'since when it is in the queue' })),
  }),
);

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

/** The top of an execution's branches: the automation runs from there. */
async function raiz(ctx: Ctx, exec: ExecucaoRow): Promise<string> {
  let atual = exec;
  for (let depth = 0; atual.execucaoPaiId && depth < 10; depth++) {
    const [pai] = await ctx.store.select(execucaoCircuito, eq(execucaoCircuito.id, atual.execucaoPaiId));
    if (!pai) break;
    atual = pai;
  }
  return atual.id;
}

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

/** The execution after a manual move, with the automation of the step it reached. */
async function depoisDoMovimento(ctx: Ctx, row: ExecucaoRow) {
  await processarEtapa(ctx, await raiz(ctx, row));
  const [atual] = await ctx.store.select(execucaoCircuito, eq(execucaoCircuito.id, row.id));
  return { execucaoCircuito: await lerExecucao(ctx, atual!) };
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

/** The tenant's own conditions and commands, made of built-in parts. */
export const rotina = defineEntity({
  name: 'rotina',
  description:
    'A tenant’s own condition (its parts ANDed with TODAS or ORed with ALGUMA) or command (its parts run in ' +
    'order, all or nothing), made of built-in conditions or commands with their parameters',
  table: rotinaTable,
  naturalKey: ['tipo', 'nome'],
  fields: Type.Object({
    tipo: Enum(TIPOS_ROTINA),
    nome: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[A-Za-z][A-Za-z0-9_]*$',
      description: 'unique per kind; not a built-in’s name',
    }),
    descricao: Type.Optional(Type.String({ maxLength: 255 })),
    operador: Type.Optional(Enum(OPERADORES, { description: 'a condition’s: TODAS (default) or ALGUMA' })),
    partes: Type.Array(ParteSchema, { minItems: 1, maxItems: 20 }),
    ativo: Type.Optional(Type.Boolean({ description: 'default true; an inactive one cannot run' })),
  }),
  hooks: {
    beforeSave: async (_ctx, next, previous) => {
      const tipo = next.tipo as TipoRotina;
      const nome = String(next.nome);
      if (ehBuiltin(tipo, nome))
        throw E.rotinaNomeReservado({ nome, tipo: tipo === 'CONDICAO' ? 'condição' : 'comando' });
      if (previous && (previous.tipo !== tipo || previous.nome !== nome))
        await naoUsada(_ctx, previous.tipo as TipoRotina, String(previous.nome));
      if (tipo === 'COMANDO' && next.operador)
        throw E.rotinaParteInvalida({ field: 'operador', rule: 'só condições têm operador' });
      if (tipo === 'CONDICAO') next.operador ??= 'TODAS';
      next.ativo ??= true;
      (next.partes as Parte[]).forEach((parte, i) => {
        if (!ehBuiltin(tipo, parte.nome))
          throw E.rotinaNomeDesconhecido({
            field: `partes[${i}].nome`,
            nome: parte.nome,
            tipo: tipo === 'CONDICAO' ? 'condição do sistema' : 'comando do sistema',
          });
        validarParametros(tipo, parte.nome, parte.parametros ?? {}, `partes[${i}] (${parte.nome})`);
      });
    },
    beforeDelete: async (ctx, row) => naoUsada(ctx, row.tipo as TipoRotina, String(row.nome)),
  },
});

/** 422 when a circuit's step names the routine (deleting or renaming it would break the step). */
async function naoUsada(ctx: Ctx, tipo: TipoRotina, nome: string) {
  const coluna = tipo === 'CONDICAO' ? sequenciaCircuito.nomeCondicao : sequenciaCircuito.nomeComando;
  const [s] = await ctx.store.select(sequenciaCircuito, eq(coluna, nome));
  if (s)
    throw E.rotinaEmUso({
      tipo: tipo === 'CONDICAO' ? 'A condição' : 'O comando',
      nome,
      sequencia: `${s.ordem} (${s.nome})`,
      circuitoId: s.circuitoId,
    });
}

/** 422 unless `nome` is a built-in or the tenant's routine of that kind (a step names it). */
export async function rotinaConhecida(ctx: Ctx, tipo: TipoRotina, nome: string, field: string) {
  if (ehBuiltin(tipo, nome)) return;
  const [row] = await ctx.store.select(
    rotinaTable,
    and(eq(rotinaTable.tipo, tipo), eq(rotinaTable.nome, nome)),
  );
  if (!row)
    throw E.rotinaNomeDesconhecido({ field, nome, tipo: tipo === 'CONDICAO' ? 'condição' : 'comando' });
}

export const automacaoJobs: Record<string, JobDeclaration> = {
  /** The chamarWebhook command's call: retried with the queue's backoff until the receiver answers 2xx. */
  [CHAMAR_WEBHOOK]: {
    transaction: 'none',
    maxAttempts: 8,
    handler: async (ctx, payload) => {
      const { url, segredo, corpo } = payload as { url: string; segredo?: string; corpo: unknown };
      const body = JSON.stringify(corpo);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'x-ponte-tenant': ctx.tenant.name,
      };
      if (segredo) {
        const timestamp = Math.floor(Date.now() / 1000);
        headers[TIMESTAMP_HEADER] = String(timestamp);
        headers[SIGNATURE_HEADER] = sign(segredo, timestamp, body);
      }
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(ctx.platform.config.webhookTimeoutMs),
      });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      return { status: response.status };
    },
  },
};
