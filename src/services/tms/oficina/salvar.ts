import { eq, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { TenantTable } from '../../../platform/core/db/store.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action } from '../../../platform/core/registry.ts';
import type { Static } from '../../../platform/core/schema.ts';
import { E, falhas } from './errors.ts';
import { exists, itensNoSetor, REF, type Ref, veiculosNoCentro } from './refs.ts';
import * as R from './schemas.ts';
import { centroCusto, manutencao, pendencia, revisao, setor } from './tables.ts';

// The save and remove operations of tms/oficina (spec 001 §4.7: "not shown"; their records are in
// §2.9; docs/oficina.md "Saving and removing"). A save is an upsert by the record's code: a field
// sent replaces the stored one, a field left out keeps it. Each answers Rerros: ok false with the
// text in dsErro (spec 001 §7) when a reference it names does not exist or a removal would orphan
// records, and then nothing is written. A malformed request is a 400 genericError; a removal of a
// code the tenant does not hold is a 404.

export const OK = { ok: true, dsErro: '' } as const;
const falha = (dsErro: string) => ({ ok: false, dsErro });

export const who = (ctx: Ctx) =>
  ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind;

/** The first reference of `refs` (code → record) that does not exist, as dsErro. */
async function referenciaFaltando(
  ctx: Ctx,
  refs: Array<[Ref, number | undefined, (cd: number) => string]>,
): Promise<string | undefined> {
  for (const [ref, code, texto] of refs) {
    if (code !== undefined && !(await exists(ctx, ref, code))) return texto(code);
  }
  return undefined;
}

const given = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined));

/** INSERT … ON CONFLICT (tenant, code) DO UPDATE with the fields given: the unique key decides, no read first. */
export async function upsert(
  ctx: Ctx,
  table: TenantTable,
  code: PgColumn,
  row: Record<string, unknown>,
  defaults: Record<string, unknown> = {},
): Promise<void> {
  const values = given(row);
  const audit = { lastModifiedBy: who(ctx), lastModifiedDate: ctx.now() };
  await ctx.store
    .insert(table, [
      { ...defaults, ...values, ...audit, createdBy: who(ctx), createdDate: ctx.now() } as never,
    ])
    .onConflictDoUpdate({ target: [table.tenant, code], set: { ...values, ...audit } as never });
}

/** Deletes the row with `code`; 404 when the tenant has none. */
async function removeOne(
  ctx: Ctx,
  table: TenantTable,
  column: PgColumn,
  record: string,
  code: string | number,
) {
  const rows = await ctx.store.delete(table, eq(column, code)).returning({ id: sql`1` });
  if (rows.length === 0) throw E.naoEncontrado({ record, codigo: String(code) });
}

/** Locks the row with `code` for a removal (404 when absent): a save referencing it waits. */
async function lockOne(ctx: Ctx, table: TenantTable, column: PgColumn, record: string, code: number) {
  const rows = await ctx.store.select(table, eq(column, code), { forUpdate: true });
  if (rows.length === 0) throw E.naoEncontrado({ record, codigo: String(code) });
}

const dt = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

export const salvar = {
  salvaManutencao: action({
    description:
      'Saves a maintenance (RrsalvaManut) by cdManutencao: created when new (inStatus ABERTA by default), else the fields sent replace the stored ones',
    input: R.RrsalvaManut,
    output: R.Rerros,
    handler: async (ctx, m: Static<typeof R.RrsalvaManut>) => {
      const erro = await referenciaFaltando(ctx, [
        [REF.veiculo, m.cdVeiculo, falhas.veiculo],
        [REF.setor, m.cdSetor, falhas.setor],
        [REF.filial, m.cdEmpresa, falhas.filial],
      ]);
      if (erro) return falha(erro);
      await upsert(
        ctx,
        manutencao,
        manutencao.cdManutencao,
        {
          cdManutencao: m.cdManutencao.trim(),
          dsManutencao: m.dsManutencao,
          qtTempoPrevisto: m.qtTempoPrevisto,
          qtTempoRealizado: m.qtTempoRealizado,
          nrOs: m.nrOS,
          dtAberturaOs: dt(m.dtAberturaOS),
          veiculo: m.cdVeiculo,
          cdEmpresa: m.cdEmpresa,
          cdPlanoServico: m.cdPlanoServico,
          inStatus: m.inStatus,
          dtInicio: dt(m.dtInicio),
          setor: m.cdSetor,
        },
        { inStatus: 'ABERTA' },
      );
      return OK;
    },
  }),

  salvaCentroCusto: action({
    description: 'Saves a cost centre (RrsalvaCentroCusto) by cdCentroCusto; inExibePainelOfi 1 by default',
    input: R.RrsalvaCentroCusto,
    output: R.Rerros,
    handler: async (ctx, c) => {
      await upsert(ctx, centroCusto, centroCusto.cdCentroCusto, c, { inExibePainelOfi: 1 });
      return OK;
    },
  }),

  salvaSetor: action({
    description: 'Saves a sector (RsalvaSetor) by cdSetor',
    input: R.RsalvaSetor,
    output: R.Rerros,
    handler: async (ctx, s) => {
      await upsert(ctx, setor, setor.cdSetor, s);
      return OK;
    },
  }),

  removeCentroCusto: action({
    description: 'Removes a cost centre (RremoveCentroCusto); ok false while vehicles are in it',
    input: R.RremoveCentroCusto,
    output: R.Rerros,
    handler: async (ctx, { cdCentroCusto }) => {
      await lockOne(ctx, centroCusto, centroCusto.cdCentroCusto, 'centroCusto', cdCentroCusto);
      const n = await veiculosNoCentro(ctx, cdCentroCusto);
      if (n > 0) return falha(falhas.centroEmUso(cdCentroCusto, n));
      await removeOne(ctx, centroCusto, centroCusto.cdCentroCusto, 'centroCusto', cdCentroCusto);
      return OK;
    },
  }),

  removeSetor: action({
    description:
      'Removes a sector (RremoveSetor); ok false while pending items, reviews or maintenances are in it',
    input: R.RremoveSetor,
    output: R.Rerros,
    handler: async (ctx, { cdSetor }) => {
      await lockOne(ctx, setor, setor.cdSetor, 'setor', cdSetor);
      const n = await itensNoSetor(ctx, cdSetor);
      if (n > 0) return falha(falhas.setorEmUso(cdSetor, n));
      await removeOne(ctx, setor, setor.cdSetor, 'setor', cdSetor);
      return OK;
    },
  }),

  removeRevisao: action({
    description: 'Removes a review (RremoveRevisao): done or no longer due',
    input: R.RremoveRevisao,
    output: R.Rerros,
    handler: async (ctx, { cdRevisao }) => {
      await removeOne(ctx, revisao, revisao.cdRevisao, 'revisao', cdRevisao.trim());
      return OK;
    },
  }),

  removeManutencao: action({
    description: 'Removes a maintenance (RremoveManutencao); to close one, save it CONCLUIDA instead',
    input: R.RremoveManutencao,
    output: R.Rerros,
    handler: async (ctx, { cdManutencao }) => {
      await removeOne(ctx, manutencao, manutencao.cdManutencao, 'manutencao', cdManutencao.trim());
      return OK;
    },
  }),

  removePendencia: action({
    description: 'Removes (closes) a pending item (RremovePendencia)',
    input: R.RremovePendencia,
    output: R.Rerros,
    handler: async (ctx, { cdPendenciaPk }) => {
      await removeOne(ctx, pendencia, pendencia.cdPendenciaPk, 'pendencia', cdPendenciaPk.trim());
      return OK;
    },
  }),
};
