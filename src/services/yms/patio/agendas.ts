import { eq, or, sql } from 'drizzle-orm';
import { statement } from '../../../platform/core/db/statement.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineErrors } from '../../../platform/core/errors.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { DateOnly, Enum, Int64, type Static, Type } from '../../../platform/core/schema.ts';
import {
  Agenda,
  AgendaAlteracao,
  MAX_IDS_PESQUISA,
  SORT_FIELDS,
  StatusAgendamento,
} from '../agenda/contract.ts';
import { containsPattern, likeFolded } from './common.ts';
import { mustExist, normalizePlaca } from './entities.ts';
import { E as PatioE } from './errors.ts';
import { planta } from './tables/plantas.ts';
import { composicaoVeiculo, motorista, veiculo } from './tables/veiculos.ts';

// The yard's side of appointments (spec 000 §3, §4.2; docs/agenda.md): booking a truck that is
// already at the gate, searching and editing agendas. The agenda record belongs to yms/agenda and is
// reached only through ctx.call; this side checks its own records (plant, driver, composition,
// vehicle) and resolves the free text over plates and driver names.

const AGENDA = 'yms/agenda';
const Uuid = (description: string) => Type.String({ format: 'uuid', description });

const E = defineErrors({
  customInvalido: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'custom': must be the base64 of a JSON object ({problema})",
  },
  pesquisaAmpla: {
    reason: 'UNPROCESSABLE',
    message: 'pesquisa "{texto}" corresponde a mais de {max} {registros}: refine o texto',
  },
});

type AgendaOut = { agenda: Static<typeof Agenda> };
type Pagina = { agendas: Array<Static<typeof Agenda>>; totalElements: number; totalPages: number };

/** The custom fields sent as base64 of a JSON object (spec: `custom` string format byte). */
function decodeCustom(base64: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(base64, 'base64').toString('utf8'));
  } catch {
    throw E.customInvalido({ problema: 'not JSON' });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw E.customInvalido({
      problema: `a JSON ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`,
    });
  return value as Record<string, unknown>;
}

/** The plant's time zone; 404 for an unknown plant. */
async function plantaOf(ctx: Ctx, plantaId: string) {
  const [p] = await ctx.store.select(planta, eq(planta.id, plantaId));
  if (!p) throw PatioE.plantaNotFound({ id: plantaId });
  return p;
}

/** The vehicle of a composition (its tractor or truck); 422 when the composition does not exist. */
async function cavaloDe(ctx: Ctx, composicaoVeiculoId: string): Promise<string> {
  const [c] = await ctx.store.select(composicaoVeiculo, eq(composicaoVeiculo.id, composicaoVeiculoId));
  if (!c)
    throw PatioE.referenceNotFound({
      record: 'composicaoVeiculo',
      id: composicaoVeiculoId,
      field: 'composicaoVeiculoId',
    });
  return c.cavaloId;
}

/** pesquisaNoPatio's reads, built once (core/db/statement.ts): the patterns are `%text%`, escaped. */
const VEICULOS_POR_PLACA = statement('yms.patio.veiculosPorPlaca', (b) =>
  b.db
    .select({ id: veiculo.id })
    .from(veiculo)
    .where(b.scope(veiculo, sql`${veiculo.placa} ilike ${b.param('placa')}`))
    .limit(b.param('limite') as unknown as number),
);
function motoristasPorTexto(documento: boolean) {
  return statement(`yms.patio.motoristasPorTexto${documento ? '.documento' : ''}`, (b) =>
    b.db
      .select({ id: motorista.id })
      .from(motorista)
      .where(
        b.scope(
          motorista,
          or(
            likeFolded(motorista.nome, b.param('nome')),
            documento ? likeFolded(motorista.documento, b.param('documento')) : undefined,
          ),
        ),
      )
      .limit(b.param('limite') as unknown as number),
  );
}
const MOTORISTAS = { porNome: motoristasPorTexto(false), comDocumento: motoristasPorTexto(true) };

/** Ids of the vehicles whose plate, and of the drivers whose name or document, contain the text. */
async function pesquisaNoPatio(ctx: Ctx, texto: string) {
  const limite = MAX_IDS_PESQUISA + 1;
  const digitos = texto.replace(/\D/g, '');
  const documento = digitos.length >= 3 && digitos === texto.replace(/[.\-\s]/g, '');
  const [veiculos, motoristas] = await Promise.all([
    ctx.store.run(VEICULOS_POR_PLACA, { placa: containsPattern(normalizePlaca(texto)), limite }),
    ctx.store.run(documento ? MOTORISTAS.comDocumento : MOTORISTAS.porNome, {
      nome: containsPattern(texto),
      documento: `%${digitos}%`,
      limite,
    }),
  ]);
  if (veiculos.length > MAX_IDS_PESQUISA)
    throw E.pesquisaAmpla({ texto, max: MAX_IDS_PESQUISA, registros: 'placas' });
  if (motoristas.length > MAX_IDS_PESQUISA)
    throw E.pesquisaAmpla({ texto, max: MAX_IDS_PESQUISA, registros: 'motoristas' });
  return { pesquisaVeiculoIds: veiculos.map((v) => v.id), pesquisaMotoristaIds: motoristas.map((m) => m.id) };
}

type AgendaEmExecucao = { agenda?: { codigo: number; veiculoId?: string; motoristaId?: string } };

/**
 * 409 when the vehicle or the driver is in an EXECUTANDO agenda that runs without a yard execution
 * (yms/agenda's iniciarAgendamento without a circuit), other than `agendaId`: the yard does not put
 * to work a truck or a driver the schedule already has at work, as the agenda's start refuses one the
 * yard has (docs/patio.md "Executions"). Asked under the lock of the vehicle and the driver
 * (travas.ts), which the agenda's start takes too.
 */
export async function exigirForaDeAgenda(
  ctx: Ctx,
  o: { veiculoId?: string | null; motoristaId?: string | null; agendaId?: string | null },
): Promise<void> {
  if (!o.veiculoId && !o.motoristaId) return;
  const { agenda } = await ctx.call<AgendaEmExecucao>(`${AGENDA}/queries/agendaEmExecucaoSemPatio`, {
    ...(o.veiculoId ? { veiculoId: o.veiculoId } : {}),
    ...(o.motoristaId ? { motoristaId: o.motoristaId } : {}),
    ...(o.agendaId ? { exceto: o.agendaId } : {}),
  });
  if (!agenda) return;
  if (o.veiculoId && agenda.veiculoId === o.veiculoId) {
    const [v] = await ctx.store.select(veiculo, eq(veiculo.id, o.veiculoId));
    throw PatioE.veiculoEmAgenda({ placa: v?.placa ?? o.veiculoId, codigo: agenda.codigo });
  }
  const [m] = o.motoristaId ? await ctx.store.select(motorista, eq(motorista.id, o.motoristaId)) : [];
  throw PatioE.motoristaEmAgenda({ nome: m?.nome ?? String(o.motoristaId), codigo: agenda.codigo });
}

export const agendas = {
  // PRIVATE queries yms/agenda asks (docs/agenda.md "iniciarAgendamento", "filtrarAgenda"): it reads the
  // yard's records only through them.
  pesquisarVeiculosMotoristas: query({
    description:
      'Internal (yms/agenda filtrarAgenda): ids of the vehicles whose plate and of the drivers whose name or ' +
      'document contain the text (at most 1000 each; more is 422)',
    input: Type.Object({ texto: Type.String({ minLength: 1, maxLength: 100 }) }),
    output: Type.Object({
      pesquisaVeiculoIds: Type.Array(Type.String({ format: 'uuid' })),
      pesquisaMotoristaIds: Type.Array(Type.String({ format: 'uuid' })),
    }),
    handler: (ctx, input) => pesquisaNoPatio(ctx, input.texto.trim()),
  }),

  cadastrarAgendamentoSimplificado: action({
    description:
      'Books an agenda for a truck already at the plant: AGENDADO, expected now, without shift or operation-limit ' +
      'checks; the vehicle is the tractor of the composition; custom is the base64 of a JSON object',
    input: Type.Object({
      tipoAgendamentoId: Uuid('the appointment type'),
      plantaId: Uuid('the plant'),
      descricao: Type.Optional(Type.String({ maxLength: 255 })),
      parceiroId: Type.Optional(Uuid('the external customer (externalTenant)')),
      motoristaId: Type.Optional(Uuid('the driver')),
      composicaoVeiculoId: Type.Optional(Uuid('the vehicle composition; its tractor is the agenda vehicle')),
      observacao: Type.Optional(Type.String({ maxLength: 2000 })),
      unscheduled: Type.Optional(
        Type.Boolean({ default: false, description: 'arrived without prior appointment; default false' }),
      ),
      custom: Type.Optional(
        Type.String({
          format: 'byte',
          maxLength: 65_536,
          description: 'custom fields: base64 of a JSON object',
        }),
      ),
    }),
    output: Type.Object({ agenda: Agenda }),
    handler: async (ctx, input) => {
      await plantaOf(ctx, input.plantaId);
      const custom = input.custom !== undefined ? decodeCustom(input.custom) : undefined;
      if (input.motoristaId) await mustExist(ctx, motorista, 'motorista', 'motoristaId', input.motoristaId);
      const veiculoId = input.composicaoVeiculoId
        ? await cavaloDe(ctx, input.composicaoVeiculoId)
        : undefined;
      // spec 000 §3: expected date is the moment of creation; shift and operation-limit checks are skipped.
      return ctx.call<AgendaOut>(`${AGENDA}/actions/criarAgendamento`, {
        plantaId: input.plantaId,
        tipoAgendamentoId: input.tipoAgendamentoId,
        dataEsperada: ctx.now().toISOString(),
        descricao: input.descricao,
        parceiroId: input.parceiroId,
        motoristaId: input.motoristaId,
        composicaoVeiculoId: input.composicaoVeiculoId,
        veiculoId,
        observacao: input.observacao,
        unscheduled: input.unscheduled,
        custom,
        motivo: 'cadastrarAgendamentoSimplificado (yms/patio)',
      });
    },
  }),

  filtrarAgenda: action({
    description:
      "Agendas by plant, description, the expected date's local day (the plant's time zone, else the tenant's), " +
      'state, driver, vehicle, types, code, integration key and free text (description, code, integration key, ' +
      'plate, driver name or document, partner name or CNPJ/CPF, appointment type), one page at a time; ' +
      'sortOrder 1 ascending (default), -1 descending',
    input: Type.Object({
      page: Int64({ minimum: 0, maximum: 1_000_000, description: 'page index, from 0' }),
      size: Int64({ minimum: 1, maximum: 1000, description: 'agendas per page' }),
      plantaId: Type.Optional(Uuid('agendas of this plant')),
      descricao: Type.Optional(Type.String({ maxLength: 255, description: 'part of the description' })),
      dataEsperada: Type.Optional(
        DateOnly({ description: "expected on this day, in the plant's time zone" }),
      ),
      status: Type.Optional(StatusAgendamento),
      motoristaId: Type.Optional(Uuid('the driver')),
      veiculoId: Type.Optional(Uuid('the vehicle')),
      tipoAgendamentoId: Type.Optional(Uuid('the appointment type')),
      pesquisa: Type.Optional(
        Type.String({
          maxLength: 100,
          description:
            'free text, ORed: description, integration key, code, plate, driver name or document, partner name ' +
            'or CNPJ/CPF, appointment type description or code',
        }),
      ),
      codigo: Type.Optional(Int64()),
      chaveIntegracao: Type.Optional(Type.String({ maxLength: 100 })),
      sortField: Type.Optional(Enum(SORT_FIELDS, { description: 'default dataEsperada; ties by codigo' })),
      sortOrder: Type.Optional(
        Int64({ minimum: -1, maximum: 1, description: '1 or 0 ascending, -1 descending' }),
      ),
      tiposAgendamento: Type.Optional(
        Type.Array(Type.String({ format: 'uuid' }), { maxItems: 100, description: 'any of these types' }),
      ),
    }),
    output: Type.Object({ agendas: Type.Array(Agenda), totalElements: Int64(), totalPages: Int64() }),
    handler: async (ctx, input) => {
      // Both type filters given: an agenda must satisfy both.
      let tipos = input.tiposAgendamento?.length ? input.tiposAgendamento : undefined;
      if (input.tipoAgendamentoId)
        tipos = (tipos ?? [input.tipoAgendamentoId]).filter((t) => t === input.tipoAgendamentoId);
      if (tipos?.length === 0) return { agendas: [], totalElements: 0, totalPages: 0 };
      const fusoHorario =
        input.dataEsperada && input.plantaId
          ? (await ctx.store.select(planta, eq(planta.id, input.plantaId)))[0]?.fusoHorario
          : undefined;
      const texto = input.pesquisa?.trim();
      const page = await ctx.call<Pagina>(`${AGENDA}/queries/pesquisarAgendas`, {
        page: input.page,
        size: input.size,
        plantaId: input.plantaId,
        descricao: input.descricao,
        dataEsperada: input.dataEsperada,
        fusoHorario: fusoHorario ?? ctx.tenant.timeZone,
        status: input.status ? [input.status] : undefined,
        motoristaId: input.motoristaId,
        veiculoId: input.veiculoId,
        tipoAgendamentoIds: tipos,
        pesquisa: texto || undefined,
        ...(texto ? await pesquisaNoPatio(ctx, texto) : {}),
        codigo: input.codigo,
        chaveIntegracao: input.chaveIntegracao,
        sortField: input.sortField,
        sortOrder: input.sortOrder,
      });
      return page;
    },
  }),

  atualizarAgenda: action({
    description:
      'Changes the editable fields of an agenda that are sent (absent ones are kept); the state changes only ' +
      'through the state actions (422); 404 for an unknown agenda, 409 for a finished one (CONCLUIDO, CANCELADO)',
    input: Type.Object({ agenda: AgendaAlteracao }),
    output: Type.Object({}),
    handler: async (ctx, input) => {
      const a = input.agenda;
      // The yard's own records must exist in the tenant (422 naming the field).
      if (a.plantaId) await mustExist(ctx, planta, 'planta', 'agenda.plantaId', a.plantaId);
      if (a.motoristaId) await mustExist(ctx, motorista, 'motorista', 'agenda.motoristaId', a.motoristaId);
      if (a.veiculoId) await mustExist(ctx, veiculo, 'veiculo', 'agenda.veiculoId', a.veiculoId);
      if (a.composicaoVeiculoId)
        await mustExist(
          ctx,
          composicaoVeiculo,
          'composicaoVeiculo',
          'agenda.composicaoVeiculoId',
          a.composicaoVeiculoId,
        );
      await ctx.call(`${AGENDA}/actions/atualizarAgendamento`, { agenda: a });
      return {};
    },
  }),
};
