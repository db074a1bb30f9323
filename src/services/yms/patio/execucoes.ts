import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { DateTime, Enum, Int64, Record as SpecRecord, Type } from '../../../platform/core/schema.ts';
import { exigirForaDeAgenda } from './agendas.ts';
import { mustExist } from './entities.ts';
import { E } from './errors.ts';
import { ExecucaoCircuito, type ExecucaoRow, lerExecucao, origemManual, SITUACOES } from './execucao.ts';
import {
  execucaoAtiva,
  execucaoEmAndamento,
  execucaoEmAndamentoOf,
  quantidadeEmAndamento,
} from './execucao-consultas.ts';
import { cancelarExecucao, gravarVariaveis } from './execucao-etapas.ts';
import { iniciarExecucao } from './execucao-inicio.ts';
import { liberarVagaDoVeiculo } from './fila.ts';
import { exigirCondicao } from './rotinas.ts';
import { atenderEntregas, processarEtapa } from './rotinas-etapas.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { execucaoCircuito, execucaoCircuitoImagem } from './tables/execucoes.ts';
import { area } from './tables/plantas.ts';
import { composicaoVeiculo } from './tables/veiculos.ts';
import { travarVeiculoMotorista } from './travas.ts';

// The queries and actions over circuit executions (spec 000 §4.1, §4.2; docs/patio.md
// "Executions"): finding them by sequence and vehicle, counting them, the controller in charge,
// variables and images, and cancelling one.

const Uuid = (description: string) => Type.String({ format: 'uuid', description });

/** How a variable's value was captured (spec 000 §2.5 names tipoCaptura; its values are our design). */
export const TIPOS_CAPTURA = ['MANUAL', 'BALANCA', 'CAMERA', 'LEITOR', 'INTEGRACAO', 'ROTINA'] as const;
/** tipoCaptura, a named definition of the documents. */
const TipoCaptura = SpecRecord(
  'tipoCaptura',
  Enum(TIPOS_CAPTURA, {
    description: 'how a value was captured: MANUAL, BALANCA, CAMERA, LEITOR, INTEGRACAO, ROTINA',
  }),
);
export const MAX_EXECUCOES_POR_VEICULO = 100;

export const ControladorAtual = SpecRecord(
  'controladorAtual',
  Type.Object({
    execucaoCircuitoId: Type.Optional(Uuid('the running execution')),
    agendaId: Type.Optional(Uuid('its agenda')),
    sequenciaCircuitoId: Type.Optional(Uuid('the step in charge')),
    nomeSequencia: Type.Optional(Type.String()),
    areaId: Type.Optional(Uuid('where the step happens')),
    nomeComando: Type.Optional(Type.String({ description: 'the command in charge of the step, if any' })),
    desde: Type.Optional(DateTime({ description: 'since when the step is in charge' })),
  }),
);

/** 422 unless `alvoId` is a sequence of the execution's circuit or an area of the circuit's plant. */
async function alvoDa(ctx: Ctx, row: ExecucaoRow, alvoId: string): Promise<void> {
  const [seq] = await ctx.store.select(
    sequenciaCircuito,
    and(sql`${sequenciaCircuito.id}::text = ${alvoId}`, eq(sequenciaCircuito.circuitoId, row.circuitoId)),
  );
  if (seq) return;
  const [a] = await ctx.tx
    .select({ id: area.id })
    .from(area)
    .innerJoin(circuito, eq(circuito.plantaId, area.plantaId))
    .where(and(ctx.store.scope(area, sql`${area.id}::text = ${alvoId}`), eq(circuito.id, row.circuitoId)));
  if (!a) throw E.referenceNotFound({ record: 'sequência ou área do circuito', id: alvoId, field: 'alvoId' });
}

/** `variaveis` of addVariavelCircuito: a JSON object of key → value (strings, numbers, booleans). */
export function parseVariaveis(text: string): Array<[string, string]> {
  if (!text.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw E.variaveisInvalidas({ rule: 'must be a JSON object of key → value' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw E.variaveisInvalidas({ rule: 'must be a JSON object of key → value' });
  return Object.entries(parsed).map(([k, value]) => {
    if (!k || k.length > 100)
      throw E.variaveisInvalidas({ rule: `key '${k}' must have 1 to 100 characters` });
    if (value === null || typeof value === 'object')
      throw E.variaveisInvalidas({ rule: `value of '${k}' must be a string, number or boolean` });
    return [k, String(value)];
  });
}

export const execucoes = {
  iniciarExecucaoCircuito: action({
    description:
      'Starts a circuit execution for a vehicle (and its driver, composition and agenda) at the first or the given ' +
      'sequence; yms/agenda calls it when an integration succeeds. A vehicle or driver already in a running ' +
      'execution, or in another agenda running without the yard, is 409',
    input: Type.Object({
      circuitoId: Uuid('the circuit'),
      veiculoId: Uuid('the vehicle'),
      agendaId: Type.Optional(Uuid('the agenda')),
      motoristaId: Type.Optional(Uuid('the driver')),
      composicaoVeiculoId: Type.Optional(
        Uuid("the agenda's composition: the one the yard's conditions (veiculoNaoBloqueado) look at"),
      ),
      sequenciaInicialId: Type.Optional(Uuid('the sequence to start at; default the first')),
      vagaInicialId: Type.Optional(Uuid('a spot the vehicle takes now')),
    }),
    output: Type.Object({ execucaoCircuito: ExecucaoCircuito }),
    handler: async (ctx, input) => {
      // Under the lock of the vehicle and the driver, as yms/agenda's iniciarAgendamento: neither may be
      // in an agenda running without the yard (its own agenda aside), nor in a running execution.
      await travarVeiculoMotorista(ctx, input);
      await exigirForaDeAgenda(ctx, input);
      if (input.composicaoVeiculoId)
        await mustExist(
          ctx,
          composicaoVeiculo,
          'composicaoVeiculo',
          'composicaoVeiculoId',
          input.composicaoVeiculoId,
        );
      const row = await iniciarExecucao(ctx, input);
      // The first step's condition guards the start as it guards any step (422, nothing starts).
      const [inicial] = await ctx.store.select(
        sequenciaCircuito,
        eq(sequenciaCircuito.id, row.sequenciaAtualId!),
      );
      await exigirCondicao(ctx, row, inicial!);
      await processarEtapa(ctx, row.id);
      const [atual] = await ctx.store.select(execucaoCircuito, eq(execucaoCircuito.id, row.id));
      return { execucaoCircuito: await lerExecucao(ctx, atual!) };
    },
  }),
  buscarExecucaoCircuitoPorSequencia: query({
    description:
      'The running execution at a sequence: the one there the longest (the next in line). 404 when none',
    get: true,
    input: Type.Object({ sequenciaCircuitoId: Uuid('the sequence') }),
    output: Type.Object({ execucaoCircuito: ExecucaoCircuito }),
    handler: async (ctx, input) => {
      const [row] = await ctx.tx
        .select()
        .from(execucaoCircuito)
        .where(
          ctx.store.scope(
            execucaoCircuito,
            and(
              eq(execucaoCircuito.sequenciaAtualId, input.sequenciaCircuitoId),
              eq(execucaoCircuito.situacao, 'EXECUTANDO'),
            ),
          ),
        )
        .orderBy(asc(execucaoCircuito.sequenciaAtualDesde), asc(execucaoCircuito.id))
        .limit(1);
      if (!row) throw E.nenhumaExecucaoNaSequencia({ id: input.sequenciaCircuitoId });
      return { execucaoCircuito: await lerExecucao(ctx, row) };
    },
  }),

  buscaExecucaoCircuitoPorVeiculo: query({
    description:
      'Executions of a vehicle, most recent first (up to 100); status narrows them (e.g. EXECUTANDO)',
    get: true,
    input: Type.Object({
      veiculoId: Uuid('the vehicle'),
      status: Type.Optional(Enum(SITUACOES, { description: 'only executions in this status' })),
    }),
    output: Type.Object({ execucoes: Type.Array(ExecucaoCircuito) }),
    handler: async (ctx, input) => {
      const rows = await ctx.tx
        .select()
        .from(execucaoCircuito)
        .where(
          ctx.store.scope(
            execucaoCircuito,
            and(
              eq(execucaoCircuito.veiculoId, input.veiculoId),
              input.status ? eq(execucaoCircuito.situacao, input.status) : undefined,
            ) as SQL,
          ),
        )
        .orderBy(desc(execucaoCircuito.iniciadaEm), desc(execucaoCircuito.id))
        .limit(MAX_EXECUCOES_POR_VEICULO);
      const execucoes = [];
      for (const row of rows) execucoes.push(await lerExecucao(ctx, row));
      return { execucoes };
    },
  }),

  quantidadeExecucaoCircuitoPorVeiculo: query({
    description: 'How many circuits the vehicle is running now',
    get: true,
    input: Type.Object({ veiculoId: Uuid('the vehicle') }),
    output: Type.Object({ quantidade: Int64() }),
    handler: async (ctx, input) => ({
      quantidade: await quantidadeEmAndamento(ctx, { veiculoId: input.veiculoId }),
    }),
  }),

  quantidadeExecucaoCircuitoPorMotorista: query({
    description: 'How many circuits the driver is running now',
    get: true,
    input: Type.Object({ motoristaId: Uuid('the driver') }),
    output: Type.Object({ quantidade: Int64() }),
    handler: async (ctx, input) => ({
      quantidade: await quantidadeEmAndamento(ctx, { motoristaId: input.motoristaId }),
    }),
  }),

  buscaControladorAtivo: query({
    description:
      'The step (and its command) in charge of a running execution, found by execucaoCircuitoId or else by ' +
      'agendaId (when both are sent only execucaoCircuitoId is evaluated; one of them is required, 400 ' +
      'without either); nomeComando: only when that ' +
      'command is in charge. controlador is empty when none is active',
    get: true,
    input: Type.Object({
      execucaoCircuitoId: Type.Optional(Uuid('the execution (wins over agendaId)')),
      agendaId: Type.Optional(Uuid('the agenda, when no execution id is sent')),
      nomeComando: Type.Optional(Type.String({ maxLength: 100 })),
    }),
    output: Type.Object({ controlador: ControladorAtual }),
    handler: async (ctx, input) => {
      let row: ExecucaoRow | undefined;
      // spec 000 §4.1: when both ids are sent only execucaoCircuitoId is evaluated.
      if (input.execucaoCircuitoId) {
        const [r] = await ctx.store.select(
          execucaoCircuito,
          eq(execucaoCircuito.id, input.execucaoCircuitoId),
        );
        row = r?.situacao === 'EXECUTANDO' ? r : undefined;
      } else if (input.agendaId) {
        row = await execucaoEmAndamento(ctx, { agendaId: input.agendaId });
      } else throw E.controladorSemId();
      // A running branch is where the truck is: its step is the one in charge.
      if (row) row = await execucaoAtiva(ctx, row);
      if (!row?.sequenciaAtualId) return { controlador: {} };
      const [seq] = await ctx.store.select(sequenciaCircuito, eq(sequenciaCircuito.id, row.sequenciaAtualId));
      if (!seq) return { controlador: {} };
      if (input.nomeComando !== undefined && seq.nomeComando !== input.nomeComando)
        return { controlador: {} };
      const controlador: Record<string, unknown> = {
        execucaoCircuitoId: row.id,
        sequenciaCircuitoId: seq.id,
        nomeSequencia: seq.nome,
        areaId: seq.areaId,
        desde: row.sequenciaAtualDesde ?? row.iniciadaEm,
      };
      if (row.agendaId) controlador.agendaId = row.agendaId;
      if (seq.nomeComando) controlador.nomeComando = seq.nomeComando;
      return { controlador };
    },
  }),

  adicionaVariavelExecucaoCircuito: action({
    description:
      'Sets a variable of a running execution on a target (a sequence of its circuit or an area of its plant); ' +
      'an existing key of that target is overwritten',
    input: Type.Object({
      execucaoCircuitoId: Uuid('the execution'),
      alvoId: Type.String({ minLength: 1, maxLength: 64, description: 'a sequence or area id' }),
      chave: Type.String({ minLength: 1, maxLength: 100 }),
      valor: Type.String({ maxLength: 4000 }),
    }),
    output: Type.Object({ execucaoCircuito: ExecucaoCircuito }),
    handler: async (ctx, input) => {
      const row = await execucaoEmAndamentoOf(ctx, input.execucaoCircuitoId);
      await alvoDa(ctx, row, input.alvoId);
      await gravarVariaveis(ctx, row.id, input.alvoId, [[input.chave, input.valor]], {
        tipoCaptura: 'MANUAL',
      });
      // A new value may satisfy a step's condition: the step automation runs again.
      await processarEtapa(ctx, row.execucaoPaiId ?? row.id);
      const [atual] = await ctx.store.select(execucaoCircuito, eq(execucaoCircuito.id, row.id));
      return { execucaoCircuito: await lerExecucao(ctx, atual!) };
    },
  }),

  adicionaImagemExecucaoCircuito: action({
    description: 'Records a camera image of a running execution on a target (a sequence or an area)',
    input: Type.Object({
      execucaoCircuitoId: Uuid('the execution'),
      alvoId: Type.String({ minLength: 1, maxLength: 64, description: 'a sequence or area id' }),
      cameraIp: Type.String({ minLength: 1, maxLength: 100, description: 'the camera (IP or host name)' }),
      imagemUrl: Type.String({ minLength: 1, maxLength: 2000, description: 'where the image is stored' }),
    }),
    output: Type.Object({ execucaoCircuito: ExecucaoCircuito }),
    handler: async (ctx, input) => {
      const row = await execucaoEmAndamentoOf(ctx, input.execucaoCircuitoId);
      await alvoDa(ctx, row, input.alvoId);
      await ctx.store.insert(execucaoCircuitoImagem, [
        {
          execucaoCircuitoId: row.id,
          alvoId: input.alvoId,
          cameraIp: input.cameraIp,
          imagemUrl: input.imagemUrl,
          capturadaEm: ctx.now(),
        },
      ]);
      return { execucaoCircuito: await lerExecucao(ctx, row) };
    },
  }),

  addVariavelCircuito: action({
    description:
      'Captures variables of a running execution: chave = valor (absent: empty) and every pair of variaveis ' +
      '(a JSON object), on the sequence given or else the current one, marked with how they were captured',
    input: Type.Object({
      id: Uuid('the execution'),
      tipo: TipoCaptura,
      chave: Type.String({ minLength: 1, maxLength: 100 }),
      valor: Type.Optional(Type.String({ maxLength: 4000 })),
      sequencia: Type.Optional(Uuid('the sequence the values belong to; default the current one')),
      rotina: Type.Optional(Type.String({ maxLength: 100, description: 'the routine that captured them' })),
      variaveis: Type.String({
        maxLength: 20000,
        description: 'more values, a JSON object of key → value ("" or "{}" for none)',
      }),
    }),
    output: Type.Object({ successo: Type.Boolean() }),
    handler: async (ctx, input) => {
      const valores: Array<[string, string]> = [
        [input.chave, input.valor ?? ''],
        ...parseVariaveis(input.variaveis),
      ];
      const row = await execucaoEmAndamentoOf(ctx, input.id);
      const alvoId = input.sequencia ?? row.sequenciaAtualId;
      if (input.sequencia) {
        const [seq] = await ctx.store.select(sequenciaCircuito, eq(sequenciaCircuito.id, input.sequencia));
        if (seq?.circuitoId !== row.circuitoId)
          throw E.sequenciaDeOutroCircuito({
            id: input.sequencia,
            field: 'sequencia',
            circuitoId: row.circuitoId,
          });
      }
      await gravarVariaveis(ctx, row.id, String(alvoId), valores, {
        tipoCaptura: input.tipo,
        rotina: input.rotina ?? null,
      });
      await processarEtapa(ctx, row.execucaoPaiId ?? row.id);
      return { successo: true };
    },
  }),

  cancelarExecucaoCircuito: action({
    description:
      'Cancels a running execution with its reason and frees the vehicle’s spot; publishes ' +
      'yms/patio/execucaoCircuitoCancelada (with agendaId), on which yms/agenda cancels the appointment',
    input: Type.Object({
      execucaoCircuitoId: Uuid('the execution'),
      motivo: Type.Optional(Type.String({ maxLength: 255, description: 'why it is cancelled' })),
    }),
    output: Type.Object({ circuitoCancelado: ExecucaoCircuito }),
    handler: async (ctx, input) => {
      const row = await execucaoEmAndamentoOf(ctx, input.execucaoCircuitoId);
      const motivo = input.motivo?.trim() || null;
      const cancelada = await cancelarExecucao(ctx, row, motivo, origemManual(ctx));
      const vaga = row.veiculoId ? await liberarVagaDoVeiculo(ctx, row.veiculoId) : undefined;
      await ctx.emit('yms/patio/execucaoCircuitoCancelada', {
        execucaoCircuitoId: row.id,
        circuitoId: row.circuitoId,
        ...(row.agendaId ? { agendaId: row.agendaId } : {}),
        ...(row.veiculoId ? { veiculoId: row.veiculoId } : {}),
        ...(row.motoristaId ? { motoristaId: row.motoristaId } : {}),
        ...(vaga ? { vagaLiberadaId: vaga.id } : {}),
        ...(motivo ? { motivo } : {}),
      });
      // The spot freed went to the first vehicle waiting there, whose automation runs now.
      await atenderEntregas(ctx);
      return { circuitoCancelado: await lerExecucao(ctx, cancelada) };
    },
  }),
};
