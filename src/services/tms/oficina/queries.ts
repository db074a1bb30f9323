import { and, asc, eq, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { query } from '../../../platform/core/registry.ts';
import { Int64, type Static, Type } from '../../../platform/core/schema.ts';
import {
  CdSetores,
  dbl,
  empresaDe,
  falhaDosFiltros,
  iso,
  like,
  naLista,
  Page,
  pageOf,
  placa,
  record,
  when,
} from './busca.ts';
import { ordem } from './ordem.ts';
import { ManutencaoRec, PendenciaRec, RevisaoRec, Str } from './schemas.ts';
import { manutencao, pendencia, revisao, veiculo } from './tables.ts';

// buscaPendencias, buscaRevisoes, buscaManutencoes (spec 001 §4.7): a vehicle's workshop items with
// the vehicle's plate and last movement, and the computed fields computed in SQL: qtDias (days since
// the item was opened, at the request's clock), kmDiferenca (km left to a review: its nrHodometro −
// the vehicle's odometer), qtDiferenca (hours done − planned). Filters: busca.ts.

const opt = Type.Optional;
const Ok = { ok: Type.Boolean(), dsErro: opt(Type.String()) };
const v = alias(veiculo, 'v');
/** The item's vehicle, in the same tenant. */
const doVeiculo = (item: typeof pendencia | typeof revisao | typeof manutencao) =>
  and(eq(v.tenant, item.tenant), eq(v.cdVeiculo, item.veiculo));

export const itens = {
  buscaPendencias: query({
    description: "Pending items of the fleet's vehicles, by any of the optional filters, ANDed",
    get: true,
    input: Type.Object({
      cdPendencia: opt(Str(40, 'the item: its cdPendenciaPk, or its cdPendencia')),
      cdVeiculo: opt(Int64()),
      dsPendencia: opt(Str(200, 'part of the description, case-insensitive')),
      qtTempoPrevisto: opt(Str(20, 'exact planned time')),
      inPrioridade: opt(Int64()),
      cdEmpresa: opt(Int64({ description: "the item's branch (its vehicle's, when it names none)" })),
      dsMovimentacao: opt(Str(200, "part of the vehicle's last movement")),
      cdSetores: CdSetores(),
      ...Page,
    }),
    output: Type.Object({ ...Ok, listaPendencias: Type.Array(PendenciaRec) }),
    handler: async (ctx, input) => {
      const falha = await falhaDosFiltros(ctx, input);
      if (falha) return { ok: false, dsErro: falha, listaPendencias: [] };
      const p = pendencia;
      const cd = input.cdPendencia?.trim();
      const where = ctx.store.scope(
        p,
        and(
          when(cd, (c) =>
            or(eq(p.cdPendenciaPk, c), /^\d{1,15}$/.test(c) ? eq(p.cdPendencia, Number(c)) : undefined),
          ),
          when(input.cdVeiculo, (c) => eq(p.veiculo, c)),
          like(p.dsPendencia, input.dsPendencia),
          when(input.qtTempoPrevisto, (q) => eq(p.qtTempoPrevisto, q)),
          when(input.inPrioridade, (i) => eq(p.inPrioridade, i)),
          empresaDe(p.cdEmpresa, v.cdEmpresa, input.cdEmpresa),
          like(v.dsMovimentacao, input.dsMovimentacao),
          naLista(p.setor, input.cdSetores),
        ),
      );
      const { limit, offset } = pageOf(input);
      const campos = {
        cdPendenciapk: p.cdPendenciaPk,
        cdPendencia: p.cdPendencia,
        cdEmpresa: sql<number | null>`coalesce(${p.cdEmpresa}, ${v.cdEmpresa})`.mapWith(Number),
        cdVeiculo: p.veiculo,
        nrPlaca: v.nrPlaca,
        dsPendencia: p.dsPendencia,
        qtTempoPrevisto: p.qtTempoPrevisto,
        inPrioridade: p.inPrioridade,
        inNotificacao: p.inNotificacao,
        dsMovimentacao: v.dsMovimentacao,
        hrMovimentacao: iso(v.hrMovimentacao),
        dtAberturaPen: iso(p.dtAbertura),
        qtDias: dbl(
          sql`extract(epoch from (${ctx.now().toISOString()}::timestamptz - ${p.dtAbertura})) / 86400`,
        ),
        cdSetor: p.setor,
      };
      const rows = await ctx.tx
        .select(campos)
        .from(p)
        .leftJoin(v, doVeiculo(p))
        .where(where)
        .orderBy(...ordem(input.orderBy, campos, 'PendenciaRec', [asc(p.dtAbertura), asc(p.cdPendenciaPk)]))
        .limit(limit)
        .offset(offset);
      return { ok: true, listaPendencias: rows.map((r) => record<Static<typeof PendenciaRec>>(r)) };
    },
  }),

  buscaRevisoes: query({
    description: "Reviews of the fleet's vehicles with the km left to each, by any of the optional filters",
    get: true,
    input: Type.Object({
      idRevisao: opt(Int64({ description: "the review's id (the revisao entity's)" })),
      cdRevisao: opt(Str(40)),
      cdVeiculo: opt(Int64()),
      nrPlaca: opt(Str(10, 'plate, case-insensitive')),
      dsRevisao: opt(Str(200, 'part of the description, case-insensitive')),
      cdEmpresa: opt(Int64()),
      cdSetores: CdSetores(),
      ...Page,
    }),
    output: Type.Object({ ...Ok, listaRevisoes: Type.Array(RevisaoRec) }),
    handler: async (ctx, input) => {
      const falha = await falhaDosFiltros(ctx, input);
      if (falha) return { ok: false, dsErro: falha, listaRevisoes: [] };
      const r = revisao;
      const where = ctx.store.scope(
        r,
        and(
          when(input.idRevisao, (id) => eq(r.id, id)),
          when(input.cdRevisao?.trim(), (c) => eq(r.cdRevisao, c)),
          when(input.cdVeiculo, (c) => eq(r.veiculo, c)),
          placa(v.nrPlaca, input.nrPlaca),
          like(r.dsRevisao, input.dsRevisao),
          empresaDe(r.cdEmpresa, v.cdEmpresa, input.cdEmpresa),
          naLista(r.setor, input.cdSetores),
        ),
      );
      const { limit, offset } = pageOf(input);
      const campos = {
        cdRevisao: r.cdRevisao,
        cdVeiculo: r.veiculo,
        dtPrevisao: iso(r.dtPrevisao),
        nrPlaca: v.nrPlaca,
        dsRevisao: r.dsRevisao,
        qtTempoPrevisto: r.qtTempoPrevisto,
        nrHodometro: r.nrHodometro,
        qtKmAviso: r.qtKmAviso,
        nrDias: r.nrDias,
        inCondicao: r.inCondicao,
        nrHodHor: r.nrHodHor,
        hrMovimentacao: iso(v.hrMovimentacao),
        dsMovimentacao: v.dsMovimentacao,
        kmDiferenca: dbl(sql`${r.nrHodometro} - ${v.nrHodometro}`),
        cdEmpresa: sql<number | null>`coalesce(${r.cdEmpresa}, ${v.cdEmpresa})`.mapWith(Number),
        cdSetor: r.setor,
      };
      const rows = await ctx.tx
        .select(campos)
        .from(r)
        .leftJoin(v, doVeiculo(r))
        .where(where)
        .orderBy(...ordem(input.orderBy, campos, 'RevisaoRec', [asc(r.dtPrevisao), asc(r.cdRevisao)]))
        .limit(limit)
        .offset(offset);
      return { ok: true, listaRevisoes: rows.map((x) => record<Static<typeof RevisaoRec>>(x)) };
    },
  }),

  buscaManutencoes: query({
    description: "Maintenances and work orders of the fleet's vehicles, by any of the optional filters",
    get: true,
    input: Type.Object({
      cdManutencao: opt(Str(40)),
      cdEmpresa: opt(Int64()),
      dsManutencao: opt(Str(200, 'part of the description, case-insensitive')),
      cdVeiculo: opt(Int64()),
      nrPlaca: opt(Str(10, 'plate, case-insensitive')),
      cdSetores: CdSetores(),
      ...Page,
    }),
    output: Type.Object({ ...Ok, listaManutencoes: Type.Array(ManutencaoRec) }),
    handler: async (ctx, input) => {
      const falha = await falhaDosFiltros(ctx, input);
      if (falha) return { ok: false, dsErro: falha, listaManutencoes: [] };
      const m = manutencao;
      const where = ctx.store.scope(
        m,
        and(
          when(input.cdManutencao?.trim(), (c) => eq(m.cdManutencao, c)),
          empresaDe(m.cdEmpresa, v.cdEmpresa, input.cdEmpresa),
          like(m.dsManutencao, input.dsManutencao),
          when(input.cdVeiculo, (c) => eq(m.veiculo, c)),
          placa(v.nrPlaca, input.nrPlaca),
          naLista(m.setor, input.cdSetores),
        ),
      );
      const { limit, offset } = pageOf(input);
      const campos = {
        cdManutencao: m.cdManutencao,
        dsManutencao: m.dsManutencao,
        qtTempoPrevisto: m.qtTempoPrevisto,
        qtTempoRealizado: m.qtTempoRealizado,
        nrOS: m.nrOs,
        dtAberturaOS: iso(m.dtAberturaOs),
        cdVeiculo: m.veiculo,
        nrPlaca: v.nrPlaca,
        cdEmpresa: sql<number | null>`coalesce(${m.cdEmpresa}, ${v.cdEmpresa})`.mapWith(Number),
        cdPlanoServico: m.cdPlanoServico,
        qtDiferenca: dbl(sql`${m.qtTempoRealizado} - ${m.qtTempoPrevisto}`),
        inStatus: m.inStatus,
        // When it should be done: its start plus the planned hours.
        dtPrevisao: iso(sql`${m.dtInicio} + ${m.qtTempoPrevisto} * interval '1 hour'` as never),
        dtInicio: iso(m.dtInicio),
      };
      const rows = await ctx.tx
        .select(campos)
        .from(m)
        .leftJoin(v, doVeiculo(m))
        .where(where)
        .orderBy(...ordem(input.orderBy, campos, 'ManutencaoRec', [asc(m.dtAberturaOs), asc(m.cdManutencao)]))
        .limit(limit)
        .offset(offset);
      return { ok: true, listaManutencoes: rows.map((x) => record<Static<typeof ManutencaoRec>>(x)) };
    },
  }),
};
