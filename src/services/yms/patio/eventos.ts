import { and, desc, eq, isNull } from 'drizzle-orm';
import { advisoryLock } from '../../../platform/core/db/locks.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { event, query } from '../../../platform/core/registry.ts';
import { DateTime, Record as SpecRecord, type Static, Type } from '../../../platform/core/schema.ts';
import { exigirForaDeAgenda } from './agendas.ts';
import { normalizePlaca } from './entities.ts';
import { E } from './errors.ts';
import { ocuparOuEsperar, sairDeVagaEFila } from './eventos-vagas.ts';
import { type ExecucaoRow, origemEvento } from './execucao.ts';
import {
  execucaoAtiva,
  execucaoEmAndamento,
  execucaoEmAndamentoOf,
  sequenciasDe,
} from './execucao-consultas.ts';
import { finalizarExecucao } from './execucao-etapas.ts';
import { trocarMotorista } from './execucao-inicio.ts';
import { atenderEntregas, avancarSeProxima, processarEtapa } from './rotinas-etapas.ts';
import { area, planta } from './tables/plantas.ts';
import { controleArea, presencaPatio } from './tables/presencas.ts';
import { motorista, veiculo } from './tables/veiculos.ts';
import { travarVeiculoMotorista } from './travas.ts';

// The yard events (spec 000 §4.3, §6; docs/patio.md "Yard events"): a vehicle enters the yard, an
// area of it, leaves it; the driver of an execution changes. Each applies its effect in the
// operation's transaction and is then published to the outbox by the platform (docs/events.md);
// an inconsistent event (leaving a yard the vehicle is not in) is refused with a clear error and
// changes nothing.

/** Arrivals buscarHistoricoControleChegada answers: the latest ones, in arrival order. */
export const MAX_HISTORICO_CHEGADA = 1000;

const Uuid = (description: string) => Type.String({ format: 'uuid', description });

export const YardInput = SpecRecord(
  'yardInput',
  Type.Object({
    plantaId: Uuid('the plant whose yard it is'),
    areaId: Type.Optional(
      Uuid(
        'the area: the gate on entry, the area entered, the exit gate on exit (required by vehicleEnteredAreaInYard)',
      ),
    ),
    veiculoId: Type.Optional(Uuid('the vehicle; or placa')),
    placa: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{3}-?\\d[A-Za-z0-9]\\d{2}$',
        description: 'the plate read (ABC1234, ABC1D23); identifies the vehicle when veiculoId is absent',
      }),
    ),
    motoristaId: Type.Optional(Uuid('the driver')),
    dataHora: Type.Optional(
      DateTime({ description: 'when it happened, by the device; default: when received' }),
    ),
    origem: Type.Optional(
      Type.String({ maxLength: 100, description: 'who reported it: a gate camera, a reader, an operator' }),
    ),
  }),
);
type YardInput = Static<typeof YardInput>;

export const ControleArea = SpecRecord(
  'controleArea',
  Type.Object({
    id: Uuid('the arrival'),
    areaId: Uuid('the area'),
    veiculoId: Type.Optional(Uuid('the vehicle')),
    motoristaId: Type.Optional(Uuid('the driver')),
    execucaoCircuitoId: Type.Optional(Uuid('the execution the vehicle was running')),
    agendaId: Type.Optional(Uuid('its agenda')),
    placa: Type.String(),
    origem: Type.Optional(Type.String()),
    chegadaEm: DateTime({ description: 'arrival' }),
    saidaEm: Type.Optional(DateTime({ description: 'when it left for another area or the yard' })),
  }),
);

interface Fato {
  veiculo: typeof veiculo.$inferSelect;
  planta: typeof planta.$inferSelect;
  area: typeof area.$inferSelect | undefined;
  quando: Date;
  origem: string | null;
}

/** Resolves and checks what a yardInput names: plant, area of that plant, vehicle (by id or plate), driver. */
async function fato(ctx: Ctx, input: YardInput): Promise<Fato> {
  const [p] = await ctx.store.select(planta, eq(planta.id, input.plantaId));
  if (!p) throw E.plantaNotFound({ id: input.plantaId });
  let a: typeof area.$inferSelect | undefined;
  if (input.areaId) {
    [a] = await ctx.store.select(area, eq(area.id, input.areaId));
    if (!a) throw E.areaNotFound({ id: input.areaId });
    if (a.plantaId !== p.id) throw E.areaDeOutraPlanta({ areaId: a.id, field: 'areaId', plantaId: p.id });
  }
  let v: typeof veiculo.$inferSelect | undefined;
  if (input.veiculoId) {
    [v] = await ctx.store.select(veiculo, eq(veiculo.id, input.veiculoId));
    if (!v) throw E.veiculoNotFound({ id: input.veiculoId });
    if (input.placa && normalizePlaca(input.placa) !== v.placa)
      throw E.placaDivergente({ placa: input.placa, veiculoId: v.id, placaVeiculo: v.placa });
  } else if (input.placa) {
    [v] = await ctx.store.select(veiculo, eq(veiculo.placa, normalizePlaca(input.placa)));
    if (!v) throw E.placaNaoCadastrada({ placa: normalizePlaca(input.placa) });
  } else throw E.veiculoNaoIdentificado();
  // The reports of one vehicle take turns (docs/patio.md "Yard events"): each reads the stay, the
  // arrival and the spot as the one before it left them. Taken before any area's lock (fila.ts).
  await advisoryLock(ctx.tx, 'yms/patio/presenca', ctx.store.tenant, v.id);
  if (input.motoristaId) {
    const [m] = await ctx.store.select(motorista, eq(motorista.id, input.motoristaId));
    if (!m) throw E.motoristaNotFound({ id: input.motoristaId });
  }
  const agora = ctx.now();
  const quando = input.dataHora ? new Date(input.dataHora) : agora;
  // A device's clock may run a little ahead of the platform's; one far ahead would date the truck's
  // stay in the future (docs/patio.md "Yard events").
  if (quando.getTime() - agora.getTime() > FUTURO_TOLERADO_MS)
    throw E.eventoNoFuturo({
      dataHora: quando.toISOString(),
      agora: agora.toISOString(),
      minutos: FUTURO_TOLERADO_MS / 60_000,
    });
  return { veiculo: v, planta: p, area: a, quando, origem: input.origem ?? null };
}

/** How far ahead of the platform's clock a device may date an event (its clock's drift). */
export const FUTURO_TOLERADO_MS = 5 * 60_000;

/** The vehicle's open stay in a yard (any plant), if any. */
async function presencaDe(ctx: Ctx, veiculoId: string) {
  const [row] = await ctx.store.select(
    presencaPatio,
    and(eq(presencaPatio.veiculoId, veiculoId), isNull(presencaPatio.saidaEm)),
  );
  return row;
}

/** The open stay in this plant's yard, or 409. */
async function presencaNaPlanta(ctx: Ctx, f: Fato) {
  const row = await presencaDe(ctx, f.veiculo.id);
  if (!row || row.plantaId !== f.planta.id)
    throw E.veiculoForaDoPatio({ placa: f.veiculo.placa, plantaId: f.planta.id });
  return row;
}

/**
 * A vehicle's events are recorded in the order they happened (docs/patio.md "Yard events"): one
 * dated (`dataHora`) before what is already recorded of it would close a stay or an arrival before
 * it began, or begin a stay before the last one ended. 409 naming both times.
 */
function emOrdem(f: Fato, registrados: Array<readonly [Date | null | undefined, string]>) {
  for (const [ultimo, onde] of registrados)
    if (ultimo && f.quando < ultimo)
      throw E.eventoForaDeOrdem({
        placa: f.veiculo.placa,
        dataHora: f.quando.toISOString(),
        ultimo: ultimo.toISOString(),
        onde,
      });
}

/** The event is not dated before the stay's entry, nor before the arrival in the area it is in. */
async function emOrdemNaPresenca(ctx: Ctx, f: Fato, presenca: { entradaEm: Date }) {
  const [chegada] = await ctx.store.select(
    controleArea,
    and(eq(controleArea.veiculoId, f.veiculo.id), isNull(controleArea.saidaEm)),
  );
  emOrdem(f, [
    [chegada?.chegadaEm, 'a chegada na área em que está'],
    [presenca.entradaEm, 'a entrada no pátio'],
  ]);
}

/** Closes the vehicle's open arrival (it left that area). */
const sairDaArea = (ctx: Ctx, veiculoId: string, quando: Date) =>
  ctx.store.update(
    controleArea,
    { saidaEm: quando },
    and(eq(controleArea.veiculoId, veiculoId), isNull(controleArea.saidaEm)),
  );

/** The arrival of the vehicle in an area: the arrival row, and the execution's step when it is next. */
async function chegarNaArea(
  ctx: Ctx,
  f: Fato,
  areaId: string,
  motoristaId: string | null,
  evento: string,
  opcoes: { fechada?: boolean; naFila?: boolean } = {},
) {
  const fechada = opcoes.fechada ?? false;
  await sairDaArea(ctx, f.veiculo.id, f.quando);
  const principal = await execucaoEmAndamento(ctx, { veiculoId: f.veiculo.id });
  // A running branch is where the truck is in its circuit: it is the one that moves. A truck
  // waiting in the area's queue has not reached the step yet: it moves when it gets its spot.
  let exec = principal ? await execucaoAtiva(ctx, principal) : undefined;
  if (exec && !opcoes.naFila)
    exec = await avancarSeProxima(ctx, exec, areaId, f.quando, origemEvento(evento));
  if (principal) await processarEtapa(ctx, principal.id);
  await ctx.store.insert(controleArea, [
    {
      areaId,
      veiculoId: f.veiculo.id,
      motoristaId: motoristaId ?? exec?.motoristaId ?? null,
      execucaoCircuitoId: exec?.id ?? null,
      agendaId: exec?.agendaId ?? null,
      placa: f.veiculo.placa,
      origem: f.origem,
      chegadaEm: f.quando,
      saidaEm: fechada ? f.quando : null,
    },
  ]);
  return exec;
}

const unique = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return (e.cause?.code ?? e.code) === '23505';
};

export const eventos = {
  vehicleEnteredYard: event({
    description:
      "A vehicle entered the plant's yard (through the gate areaId, when given): its stay begins and, at the " +
      'gate, an arrival is recorded. 409 when the vehicle is already in a yard',
    input: YardInput,
    handler: async (ctx, input) => {
      const f = await fato(ctx, input);
      const aberta = await presencaDe(ctx, f.veiculo.id);
      if (aberta)
        throw E.veiculoJaNoPatio({
          placa: f.veiculo.placa,
          plantaId: aberta.plantaId,
          desde: aberta.entradaEm.toISOString(),
        });
      const [anterior] = await ctx.tx
        .select({ saidaEm: presencaPatio.saidaEm })
        .from(presencaPatio)
        .where(ctx.store.scope(presencaPatio, eq(presencaPatio.veiculoId, f.veiculo.id)))
        .orderBy(desc(presencaPatio.saidaEm))
        .limit(1);
      emOrdem(f, [[anterior?.saidaEm, 'a saída do pátio anterior']]);
      try {
        await ctx.store.insert(presencaPatio, [
          {
            plantaId: f.planta.id,
            veiculoId: f.veiculo.id,
            motoristaId: input.motoristaId ?? null,
            placa: f.veiculo.placa,
            areaEntradaId: f.area?.id ?? null,
            origemEntrada: f.origem,
            entradaEm: f.quando,
          },
        ]);
      } catch (err) {
        // The same vehicle entering twice at once: the unique index keeps one stay.
        if (unique(err))
          throw E.veiculoJaNoPatio({ placa: f.veiculo.placa, plantaId: f.planta.id, desde: 'agora' });
        throw err;
      }
      if (f.area) await chegarNaArea(ctx, f, f.area.id, input.motoristaId ?? null, 'vehicleEnteredYard');
      return undefined as never;
    },
  }),

  vehicleEnteredAreaInYard: event({
    description:
      'A vehicle in the yard entered an area: the arrival is recorded, a spot is taken when the area has spots ' +
      '(the first free one; 422 when none is free), and its running execution advances when the area is its ' +
      'next sequence’s. 409 when the vehicle is not in this plant’s yard',
    input: YardInput,
    handler: async (ctx, input) => {
      if (!input.areaId) throw E.areaObrigatoria({ evento: 'vehicleEnteredAreaInYard' });
      const f = await fato(ctx, input);
      const a = f.area!;
      const presenca = await presencaNaPlanta(ctx, f);
      await emOrdemNaPresenca(ctx, f, presenca);
      const motoristaId = input.motoristaId ?? presenca.motoristaId ?? null;
      const naFila = await ocuparOuEsperar(ctx, f, a.id, motoristaId);
      // Read under the area's lock (taken just above): a repeated report (a retry, a second camera)
      // of a truck whose arrival there stands records nothing more.
      const [aberta] = await ctx.store.select(
        controleArea,
        and(eq(controleArea.veiculoId, f.veiculo.id), isNull(controleArea.saidaEm)),
      );
      if (aberta?.areaId === a.id) return undefined as never;
      await chegarNaArea(ctx, f, a.id, motoristaId, 'vehicleEnteredAreaInYard', { naFila });
      await atenderEntregas(ctx);
      return undefined as never;
    },
  }),

  vehicleExitedYard: event({
    description:
      "A vehicle left the plant's yard (through the exit areaId, when given): its spot is freed, its arrival " +
      'closed, its stay ended; a running execution at its last sequence finishes. 409 when the vehicle is not ' +
      'in this plant’s yard',
    input: YardInput,
    handler: async (ctx, input) => {
      const f = await fato(ctx, input);
      const presenca = await presencaNaPlanta(ctx, f);
      await emOrdemNaPresenca(ctx, f, presenca);
      await sairDeVagaEFila(ctx, f.veiculo.id);
      let exec: ExecucaoRow | undefined;
      if (f.area)
        exec = await chegarNaArea(ctx, f, f.area.id, input.motoristaId ?? null, 'vehicleExitedYard', {
          fechada: true,
        });
      else {
        await sairDaArea(ctx, f.veiculo.id, f.quando);
        exec = await execucaoEmAndamento(ctx, { veiculoId: f.veiculo.id });
      }
      if (exec?.situacao === 'EXECUTANDO') {
        const sequencias = await sequenciasDe(ctx, exec.circuitoId);
        if (sequencias.at(-1)?.id === exec.sequenciaAtualId)
          await finalizarExecucao(ctx, exec, origemEvento('vehicleExitedYard'), f.quando);
      }
      await ctx.store.update(
        presencaPatio,
        { saidaEm: f.quando, areaSaidaId: f.area?.id ?? null, origemSaida: f.origem },
        eq(presencaPatio.id, presenca.id),
      );
      await atenderEntregas(ctx);
      return undefined as never;
    },
  }),

  motoristaAlteradoEmExecucao: event({
    description:
      'The driver of a running execution changed: motoristaNovoId takes over (409 when that driver is in ' +
      'another running execution, or when motoristaAntigoId is no longer the execution’s driver)',
    input: Type.Object({
      agendaId: Uuid('the agenda of the execution'),
      execucaoCircuitoid: Uuid('the execution (spelled as in the spec)'),
      motoristaAntigoId: Uuid('the driver being replaced'),
      motoristaNovoId: Uuid('the new driver'),
      motivo: Type.Optional(Type.String({ maxLength: 400, description: 'why the driver changed' })),
    }),
    handler: async (ctx, input) => {
      const exec = await execucaoEmAndamentoOf(ctx, input.execucaoCircuitoid);
      if (exec.agendaId !== input.agendaId)
        throw E.agendaDivergente({
          id: exec.id,
          agendaExecucao: exec.agendaId ?? '(nenhuma)',
          agendaId: input.agendaId,
        });
      // An execution started without a driver takes any motoristaAntigoId.
      if (exec.motoristaId && exec.motoristaId !== input.motoristaAntigoId)
        throw E.motoristaAntigoDivergente({
          id: exec.id,
          atual: exec.motoristaId,
          antigo: input.motoristaAntigoId,
        });
      if (exec.motoristaId !== input.motoristaNovoId) {
        await travarVeiculoMotorista(ctx, { motoristaId: input.motoristaNovoId });
        await exigirForaDeAgenda(ctx, { motoristaId: input.motoristaNovoId, agendaId: exec.agendaId });
      }
      await trocarMotorista(ctx, exec, input.motoristaNovoId, origemEvento('motoristaAlteradoEmExecucao'));
      if (exec.veiculoId)
        await ctx.store.update(
          presencaPatio,
          { motoristaId: input.motoristaNovoId },
          and(eq(presencaPatio.veiculoId, exec.veiculoId), isNull(presencaPatio.saidaEm)),
        );
      return undefined as never;
    },
  }),

  buscarHistoricoControleChegada: query({
    description: `The arrivals in an area in arrival order (the latest ${MAX_HISTORICO_CHEGADA})`,
    get: true,
    input: Type.Object({ areaId: Uuid('the area') }),
    output: Type.Object({ content: Type.Array(ControleArea) }),
    handler: async (ctx, input) => {
      const [a] = await ctx.store.select(area, eq(area.id, input.areaId));
      if (!a) throw E.areaNotFound({ id: input.areaId });
      const rows = await ctx.tx
        .select()
        .from(controleArea)
        .where(ctx.store.scope(controleArea, eq(controleArea.areaId, a.id)))
        .orderBy(desc(controleArea.chegadaEm), desc(controleArea.id))
        .limit(MAX_HISTORICO_CHEGADA);
      rows.reverse();
      return {
        content: rows.map((r) => {
          const { tenant: _t, ...rest } = r;
          return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== null)) as never;
        }),
      };
    },
  }),
};
