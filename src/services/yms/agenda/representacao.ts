import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Where } from '../../../platform/core/db/where.ts';
import type { Ctx, EntityRow } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import {
  externalTenant as parceiroTable,
  parceiroVeiculo,
  externalUser as usuarioTable,
} from './tables/parceiros.ts';

// What a key bound to an external user may see and do (docs/agenda.md "Keys acting for a partner's
// user", docs/authentication.md): whom it acts for, the rows it reaches, and the partner rules of
// the agendas and pre-agendas it writes. The partners and users themselves: parceiros.ts.

/** The kind of key subject yms/agenda resolves: `externalUser:<externalUser.id>`. */
export const SUJEITO_USUARIO_EXTERNO = 'externalUser';
export const SUJEITOS = [SUJEITO_USUARIO_EXTERNO] as const;

export type Parceiro = typeof parceiroTable.$inferSelect;
type Usuario = typeof usuarioTable.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Representacao {
  usuario: Usuario;
  /** The user's active partners (at least one). */
  parceiros: Parceiro[];
  ids: string[];
}

const representacoes = new WeakMap<Ctx, Promise<Representacao | undefined>>();

/**
 * The external user a key acts for and its active partners; undefined for every other caller (full
 * keys, public keys without a subject: no restriction). A bound key whose user is gone, inactive
 * or without an active partner is refused (403): it acts for no one.
 */
export function representacao(ctx: Ctx): Promise<Representacao | undefined> {
  const subject = ctx.caller.subject;
  if (subject?.kind !== SUJEITO_USUARIO_EXTERNO) return Promise.resolve(undefined);
  let found = representacoes.get(ctx);
  if (!found) {
    found = (async () => {
      const [usuario] = UUID.test(subject.id)
        ? await ctx.store.select(usuarioTable, eq(usuarioTable.id, subject.id.toLowerCase()))
        : [];
      const parceiros =
        usuario?.ativo && usuario.parceiroIds.length
          ? await ctx.store.select(
              parceiroTable,
              and(inArray(parceiroTable.id, usuario.parceiroIds), eq(parceiroTable.ativo, true)),
            )
          : [];
      if (!usuario || !parceiros.length) throw E.representacaoInvalida({ id: subject.id });
      parceiros.sort((a, b) => a.nome.localeCompare(b.nome) || a.id.localeCompare(b.id));
      return { usuario, parceiros, ids: parceiros.map((p) => p.id) };
    })();
    representacoes.set(ctx, found);
  }
  return found;
}

/** The rows of `column` (a partner id) the caller may reach; undefined: all of them. */
export async function escopoParceiro(ctx: Ctx, column: AnyPgColumn): Promise<SQL | undefined> {
  const rep = await representacao(ctx);
  return rep ? inArray(column, rep.ids) : undefined;
}

/** escopoParceiro as the last condition of a search's filters (platform where.ts). */
export async function noEscopoParceiro(ctx: Ctx, where: Where, column: AnyPgColumn): Promise<Where> {
  const rep = await representacao(ctx);
  if (!rep) return where;
  return rep.ids.length
    ? where.list('representados', rep.ids, (ids) => inArray(column, ids))
    : where.constant('ninguem', sql`false`);
}

/** The partner a partner's user acts for here: the one given (one of its own) or its only one. */
export function parceiroDoUsuario(rep: Representacao, parceiroId: string | null | undefined): Parceiro {
  if (parceiroId) {
    const parceiro = rep.parceiros.find((p) => p.id === parceiroId);
    if (!parceiro) throw E.parceiroNaoRepresentado({ email: rep.usuario.email, id: parceiroId });
    return parceiro;
  }
  if (rep.parceiros.length > 1) throw E.parceiroObrigatorio({ email: rep.usuario.email });
  return rep.parceiros[0]!;
}

/**
 * The partner an agenda or a pre-agenda names, as every path that writes one checks it: a partner
 * of the tenant (another tenant's is as unknown as a missing one) and active, else 422. Read FOR KEY
 * SHARE until commit, as core/references.ts reads a declared reference: a delete of the partner
 * (locked FOR UPDATE, then refused while named) waits for the write and then sees it.
 */
export async function exigirParceiroAtivo(ctx: Ctx, id: string): Promise<Parceiro> {
  const [row] = await ctx.tx
    .select()
    .from(parceiroTable)
    .where(ctx.store.scope(parceiroTable, eq(parceiroTable.id, id)))
    .for('key share');
  if (!row) throw E.parceiroInexistente({ id });
  if (!row.ativo) throw E.parceiroInativo({ nome: row.nome, codigo: row.codigo });
  return row;
}

/** Vehicles among `veiculoIds` that are linked to none of the partners. */
export async function veiculosNaoVinculados(ctx: Ctx, parceiroIds: string[], veiculoIds: string[]) {
  if (!veiculoIds.length) return [];
  const rows = await ctx.store.select(
    parceiroVeiculo,
    and(inArray(parceiroVeiculo.parceiroId, parceiroIds), inArray(parceiroVeiculo.veiculoId, veiculoIds)),
  );
  const vinculados = new Set(rows.map((r) => r.veiculoId));
  return veiculoIds.filter((id) => !vinculados.has(id));
}

/**
 * The partner rules of an agenda being written (the entity's beforeSave): the partner exists and
 * is active; a partner's user books only for its partners, with their linked vehicles, grouped
 * only where allowed, and changes the driver only where allowed.
 */
export async function regrasDoParceiro(
  ctx: Ctx,
  next: Record<string, unknown>,
  previous: EntityRow | undefined,
): Promise<void> {
  const rep = await representacao(ctx);
  let parceiro: Parceiro | undefined;
  if (rep) {
    parceiro = parceiroDoUsuario(rep, (next.parceiroId as string | null | undefined) ?? undefined);
    next.parceiroId = parceiro.id;
  } else if (next.parceiroId && next.parceiroId !== previous?.parceiroId) {
    parceiro = await exigirParceiroAtivo(ctx, String(next.parceiroId));
  }
  if (!rep || !parceiro) return;
  // A partner with preAgendaHabilitada books through pre-agendas, approved by the plant.
  if (parceiro.preAgendaHabilitada && parceiro.id !== previous?.parceiroId)
    throw E.preAgendaObrigatoria({ nome: parceiro.nome });
  if (next.veiculoId && next.veiculoId !== previous?.veiculoId) {
    const [fora] = await veiculosNaoVinculados(ctx, [parceiro.id], [String(next.veiculoId)]);
    if (fora) throw E.veiculoNaoVinculado({ veiculoId: fora, nome: parceiro.nome });
  }
  if (parceiro.naoPermiteCriarAgendamentosAgrupado && next.codigoAgrupador && !previous?.codigoAgrupador)
    throw E.agrupamentoNaoPermitido({ nome: parceiro.nome });
  if (
    previous &&
    !parceiro.permiteEdicaoMotorista &&
    (next.motoristaId ?? null) !== (previous.motoristaId ?? null)
  )
    throw E.edicaoMotoristaNaoPermitida({ nome: parceiro.nome, codigo: Number(previous.codigo) });
}

/**
 * The partner rules of a pre-agenda being written (the preAgenda entity's beforeSave). A partner's
 * user asks only for its partners (forced when it has one), only for a partner with
 * preAgendaHabilitada, and only with vehicles linked to it. Internal callers may name any active
 * partner of the tenant (the plant books for whom it wants).
 */
export async function regrasDaPreAgenda(
  ctx: Ctx,
  next: Record<string, unknown>,
  previous: EntityRow | undefined,
): Promise<void> {
  const rep = await representacao(ctx);
  if (!rep) {
    if (next.externalTenantId && next.externalTenantId !== previous?.externalTenantId)
      await exigirParceiroAtivo(ctx, String(next.externalTenantId));
    return;
  }
  const parceiro = parceiroDoUsuario(rep, (next.externalTenantId as string | null | undefined) ?? undefined);
  next.externalTenantId = parceiro.id;
  if (!parceiro.preAgendaHabilitada && parceiro.id !== previous?.externalTenantId)
    throw E.preAgendaNaoHabilitada({ nome: parceiro.nome });
  if (next.veiculoId && next.veiculoId !== previous?.veiculoId) {
    const [fora] = await veiculosNaoVinculados(ctx, [parceiro.id], [String(next.veiculoId)]);
    if (fora) throw E.veiculoNaoVinculado({ veiculoId: fora, nome: parceiro.nome });
  }
}
