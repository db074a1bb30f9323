import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { isoDate } from '../../../platform/core/masks.ts';
import { action } from '../../../platform/core/registry.ts';
import type { Static } from '../../../platform/core/schema.ts';
import { uuid5 } from '../../../platform/core/uuid5.ts';
import { E } from './errors.ts';
import { ExcluirLigacao, Ligacao, Vazio } from './schemas.ts';
import { historicoLigacao, ligacao } from './tables.ts';

// The actions of erp_isl/int_ligacaoprodutodeposito (spec 001 §4.4), each in one transaction. An
// insert is decided by the key's unique index (409); a change or removal locks the link's row.
// Every one is a history row and an outbox event (docs/int_ligacaoprodutodeposito.md).

export const TOPICO = 'erp_isl/int_ligacaoprodutodeposito';
type Chave = Static<typeof ExcluirLigacao>;
type Row = typeof ligacao.$inferSelect;

const chaveDe = (k: Chave): Chave => ({
  codigoEmpresa: k.codigoEmpresa,
  codigoProduto: k.codigoProduto,
  codigoDerivacao: k.codigoDerivacao,
  codigoDeposito: k.codigoDeposito,
});
const quem = (ctx: Ctx) => (ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind);

/** The link's id: the name-based UUID of its key (docs "Ids"). */
export const idDaLigacao = (k: Chave) =>
  uuid5(`${TOPICO}/ligacao/${k.codigoEmpresa}/${k.codigoProduto}/${k.codigoDerivacao}/${k.codigoDeposito}`);

/** The link as events and obterLigacao show it: its fields without nulls, tenant or audit. */
export function retrato(row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null || k === 'tenant' || k.startsWith('created') || k.startsWith('lastModified')) continue;
    out[k] = v;
  }
  return out;
}

/** The fields sent, normalized as stored (DD/MM/YYYY as ISO); min days not above max days. */
function campos(input: Static<typeof Ligacao>, antes?: Row) {
  const { dataValidade, ...rest } = input;
  const min = input.quantidadeMinDias ?? antes?.quantidadeMinDias;
  const max = input.quantidadeMaxDias ?? antes?.quantidadeMaxDias;
  if (min != null && max != null && min > max) throw E.dias({ min, max });
  return { ...rest, ...(dataValidade === undefined ? {} : { dataValidade: isoDate(dataValidade)! }) };
}

async function travar(ctx: Ctx, k: Chave): Promise<Row | undefined> {
  const [row] = await ctx.tx
    .select()
    .from(ligacao)
    .where(ctx.store.scope(ligacao, porChave(k)))
    .for('update');
  return row;
}
const porChave = (k: Chave) =>
  and(
    eq(ligacao.codigoEmpresa, k.codigoEmpresa),
    eq(ligacao.codigoProduto, k.codigoProduto),
    eq(ligacao.codigoDerivacao, k.codigoDerivacao),
    eq(ligacao.codigoDeposito, k.codigoDeposito),
  );

async function historico(
  ctx: Ctx,
  row: Row,
  operacao: string,
  alteracoes: Record<string, { de: unknown; para: unknown }>,
) {
  const who = quem(ctx);
  const now = ctx.now();
  await ctx.store.insert(historicoLigacao, [
    {
      ligacaoId: row.id,
      ...chaveDe(row),
      operacao,
      alteracoes,
      createdBy: who,
      createdDate: now,
      lastModifiedBy: who,
      lastModifiedDate: now,
    },
  ]);
}

export const acoes = {
  inserirLigacao: action({
    description: 'Stores a product-to-warehouse link; a key that exists is 409 with nothing changed',
    input: Ligacao,
    output: Vazio,
    handler: async (ctx, input) => {
      const who = quem(ctx);
      const [row] = await ctx.store
        .insert(ligacao, [{ ...campos(input), id: idDaLigacao(input), createdBy: who, lastModifiedBy: who }])
        .onConflictDoNothing()
        .returning();
      if (!row) throw E.ligacaoExiste(chaveDe(input));
      const alteracoes = Object.fromEntries(
        Object.entries(retrato(row))
          .filter(([k]) => k !== 'id')
          .map(([k, v]) => [k, { de: null, para: v }]),
      );
      await historico(ctx, row, 'inserirLigacao', alteracoes);
      await ctx.emit(`${TOPICO}/ligacaoInserida`, { ...chaveDe(row), id: row.id, ligacao: retrato(row) });
      return {};
    },
  }),

  alterarLigacao: action({
    description:
      "Changes a link's fields (a field not sent keeps its value); an unknown link is 404 with nothing changed",
    input: Ligacao,
    output: Vazio,
    handler: async (ctx, input) => {
      const antes = await travar(ctx, input);
      if (!antes) throw E.ligacaoNaoEncontrada(chaveDe(input));
      const novos = campos(input, antes);
      const alteracoes: Record<string, { de: unknown; para: unknown }> = {};
      for (const [k, v] of Object.entries(novos)) {
        const de = (antes as Record<string, unknown>)[k] ?? null;
        if (v !== undefined && de !== v) alteracoes[k] = { de, para: v };
      }
      if (Object.keys(alteracoes).length === 0) return {};
      const [row] = await ctx.store
        .update(
          ligacao,
          { ...novos, lastModifiedBy: quem(ctx), lastModifiedDate: ctx.now() },
          eq(ligacao.id, antes.id),
        )
        .returning();
      await historico(ctx, row!, 'alterarLigacao', alteracoes);
      await ctx.emit(`${TOPICO}/ligacaoAlterada`, {
        ...chaveDe(row!),
        id: row!.id,
        alteracoes,
        ligacao: retrato(row!),
      });
      return {};
    },
  }),

  excluirLigacao: action({
    description: 'Removes a link; an unknown link is 404. Its history stays readable',
    input: ExcluirLigacao,
    output: Vazio,
    handler: async (ctx, input) => {
      const antes = await travar(ctx, input);
      if (!antes) throw E.ligacaoNaoEncontrada(chaveDe(input));
      await ctx.store.delete(ligacao, eq(ligacao.id, antes.id));
      await historico(ctx, antes, 'excluirLigacao', {});
      await ctx.emit(`${TOPICO}/ligacaoExcluida`, {
        ...chaveDe(antes),
        id: antes.id,
        ligacao: retrato(antes),
      });
      return {};
    },
  }),
};
