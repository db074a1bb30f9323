import { eq } from 'drizzle-orm';
import { requireReferenced } from '../../../platform/core/references.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { DateOnly, Enum, Int64, Type } from '../../../platform/core/schema.ts';
import { condicoes, type Filtros, leitura, MAX_PAGE_SIZE, pagina } from './busca.ts';
import { AgendaAlteracao, editable, MAX_IDS_PESQUISA, SORT_FIELDS, StatusAgendamento } from './contract.ts';
import { validarCustom } from './custom.ts';
import { agenda as agendaEntity } from './entities.ts';
import { E } from './errors.ts';
import { exigirLivresNaEdicao } from './ocupacao.ts';
import { exigirTipoDaPlanta } from './referencias.ts';
import { exigirParceiroAtivo } from './representacao.ts';
import {
  type AgendaRow,
  agendaParaAlterar,
  avisarAgenda,
  compact,
  FINALIZADOS,
  proximoCodigo,
  quem,
  registrarHistorico,
  type StatusAgendamento as Status,
} from './states.ts';
import { agenda } from './tables/agendas.ts';

// The create, update and search paths of the agenda record, called by yms/patio through ctx.call
// (docs/agenda.md "Operations"). They are PRIVATE actions of this service, not operations of the
// spec: the carriers' booking (the agenda entity, reserva.ts) checks slots and capacity; these do not.

const Agenda = agendaEntity.schema;
const Uuid = (description: string) => Type.String({ format: 'uuid', description });

/** A SQL state through drizzle's wrapping. */
const sqlState = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.cause?.code ?? e?.code;
};

const EDITABLE = Object.keys(editable) as Array<keyof typeof editable>;

/** The editable fields given, as column values (dates as Date). */
function valores(input: Record<string, unknown>): Partial<AgendaRow> {
  const out: Record<string, unknown> = {};
  for (const field of EDITABLE) {
    if (input[field] === undefined) continue;
    out[field] = field === 'dataEsperada' ? new Date(String(input[field])) : input[field];
  }
  return out as Partial<AgendaRow>;
}

/** Runs a write; a second agenda with the same chaveIntegracao is 409. */
async function guardarChave<T>(chave: string | null | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (sqlState(err) === '23505') throw E.chaveIntegracaoDuplicada({ chave: String(chave) });
    throw err;
  }
}

export const agendas = {
  criarAgendamento: action({
    description:
      'Internal create path (yms/patio cadastrarAgendamentoSimplificado): an agenda in AGENDADO with the next ' +
      'code of the tenant and its history row, without shift or operation-limit checks',
    input: Type.Object({
      ...editable,
      motivo: Type.Optional(Type.String({ maxLength: 255, description: 'why, for the history' })),
    }),
    output: Type.Object({ agenda: Agenda }),
    handler: async (ctx, input) => {
      await validarCustom(ctx, 'agenda', input.custom ?? {});
      // What it names: a type of that plant, and the yard's records of the tenant (core/references.ts).
      await exigirTipoDaPlanta(ctx, input.tipoAgendamentoId, input.plantaId);
      await requireReferenced(ctx, agendaEntity, input);
      // The partner, as the entity checks it (an active externalTenant of the tenant, else 422).
      if (input.parceiroId) await exigirParceiroAtivo(ctx, input.parceiroId);
      const now = ctx.now();
      const who = quem(ctx);
      const codigo = await proximoCodigo(ctx);
      const [row] = await guardarChave(input.chaveIntegracao, () =>
        ctx.store
          .insert(agenda, [
            {
              ...valores(input),
              plantaId: input.plantaId,
              tipoAgendamentoId: input.tipoAgendamentoId,
              dataEsperada: new Date(input.dataEsperada),
              custom: (input.custom as Record<string, unknown> | undefined) ?? {},
              unscheduled: input.unscheduled ?? false,
              codigo,
              status: 'AGENDADO',
              createdBy: who,
              createdDate: now,
              lastModifiedBy: who,
              lastModifiedDate: now,
            },
          ])
          .returning(),
      );
      await registrarHistorico(ctx, row!, undefined, 'AGENDADO', input.motivo);
      return { agenda: compact(row!) };
    },
  }),

  atualizarAgendamento: action({
    description:
      'Internal update path (yms/patio atualizarAgenda): changes the editable fields sent; the state only ' +
      'through the state actions (422); a finished agenda (CONCLUIDO, CANCELADO) is 409',
    input: Type.Object({ agenda: AgendaAlteracao }),
    output: Type.Object({ agenda: Agenda }),
    handler: async (ctx, input) => {
      const atual = await agendaParaAlterar(ctx, input.agenda.id);
      const status = atual.status as Status;
      if (FINALIZADOS.includes(status)) throw E.agendaFinalizada({ codigo: atual.codigo, status });
      if (input.agenda.status !== undefined && input.agenda.status !== status)
        throw E.statusSomenteLeitura({ codigo: atual.codigo, de: status, para: input.agenda.status });
      if (input.agenda.custom !== undefined)
        await validarCustom(ctx, 'agenda', input.agenda.custom, atual.custom);
      const changes = valores(input.agenda);
      if (changes.tipoAgendamentoId || changes.plantaId)
        await exigirTipoDaPlanta(
          ctx,
          changes.tipoAgendamentoId ?? atual.tipoAgendamentoId,
          changes.plantaId ?? atual.plantaId,
        );
      await requireReferenced(ctx, agendaEntity, { ...atual, ...changes }, atual);
      if (changes.parceiroId && changes.parceiroId !== atual.parceiroId)
        await exigirParceiroAtivo(ctx, changes.parceiroId);
      await exigirLivresNaEdicao(ctx, atual, changes);
      const [row] = await guardarChave(input.agenda.chaveIntegracao, () =>
        ctx.store
          .update(
            agenda,
            { ...changes, lastModifiedBy: quem(ctx), lastModifiedDate: ctx.now() },
            eq(agenda.id, atual.id),
          )
          .returning(),
      );
      await avisarAgenda(ctx, row!, 'ALTERADA', { status });
      return { agenda: compact(row!) };
    },
  }),

  pesquisarAgendas: query({
    description:
      'Internal search (yms/patio filtrarAgenda): agendas by plant, local day of the expected date, state, ' +
      'vehicle, driver, types, code, integration key and free text, one page at a time, in a stable order',
    input: Type.Object({
      page: Int64({ minimum: 0, maximum: 1_000_000, description: 'page index, from 0' }),
      size: Int64({ minimum: 1, maximum: MAX_PAGE_SIZE }),
      plantaId: Type.Optional(Uuid('agendas of this plant')),
      descricao: Type.Optional(Type.String({ maxLength: 255, description: 'part of the description' })),
      dataEsperada: Type.Optional(
        DateOnly({ description: 'the local day (in fusoHorario) of the expected date' }),
      ),
      fusoHorario: Type.Optional(Type.String({ maxLength: 64, description: 'IANA zone of dataEsperada' })),
      status: Type.Optional(Type.Array(StatusAgendamento, { maxItems: 6 })),
      motoristaId: Type.Optional(Uuid('the driver')),
      veiculoId: Type.Optional(Uuid('the vehicle')),
      tipoAgendamentoIds: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 100 })),
      pesquisa: Type.Optional(
        Type.String({
          maxLength: 100,
          description: 'part of description, integration key or group; or the code',
        }),
      ),
      pesquisaVeiculoIds: Type.Optional(
        Type.Array(Type.String({ format: 'uuid' }), {
          maxItems: MAX_IDS_PESQUISA,
          description: 'vehicles whose plate matched pesquisa (ORed with the text)',
        }),
      ),
      pesquisaMotoristaIds: Type.Optional(
        Type.Array(Type.String({ format: 'uuid' }), {
          maxItems: MAX_IDS_PESQUISA,
          description: 'drivers whose name or document matched pesquisa (ORed with the text)',
        }),
      ),
      codigo: Type.Optional(Int64()),
      chaveIntegracao: Type.Optional(Type.String({ maxLength: 100 })),
      sortField: Type.Optional(Enum(SORT_FIELDS, { description: 'default dataEsperada' })),
      sortOrder: Type.Optional(
        Int64({ minimum: -1, maximum: 1, description: '1 or 0 ascending, -1 descending' }),
      ),
    }),
    output: Type.Object({ agendas: Type.Array(Agenda), totalElements: Int64(), totalPages: Int64() }),
    handler: async (ctx, input) => {
      const texto = input.pesquisa?.trim();
      const filtros: Filtros = {
        plantaId: input.plantaId,
        descricao: input.descricao,
        dia:
          input.dataEsperada !== undefined
            ? { data: input.dataEsperada, fuso: input.fusoHorario ?? ctx.tenant.timeZone }
            : undefined,
        status: input.status,
        motoristaId: input.motoristaId,
        veiculoId: input.veiculoId,
        tipoAgendamentoIds: input.tipoAgendamentoIds,
        codigo: input.codigo,
        chaveIntegracao: input.chaveIntegracao,
        pesquisa: texto
          ? {
              texto,
              veiculoIds: input.pesquisaVeiculoIds ?? [],
              motoristaIds: input.pesquisaMotoristaIds ?? [],
            }
          : undefined,
      };
      return pagina(ctx, await condicoes(ctx, filtros), input, leitura(filtros));
    },
  }),
};
