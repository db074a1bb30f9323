import { sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { query } from '../../../platform/core/registry.ts';
import { dateIn } from '../../../platform/core/time.ts';
import { calcularParcelas } from '../../erp_agr/com_comum/contract.ts';
import { E } from './errors.ts';
import { fluxoDeCaixa } from './fluxo.ts';
import { ObterParcelasContratoVendaInput, ObterParcelasContratoVendaOutput } from './schemas.ts';
import { contratoVenda } from './tables.ts';

// obterParcelasContratoVenda (spec 001 §4.6; docs/ctr_contratos.md): each contract asked for, with
// the installments of its items under its payment condition, computed by com_comum's engine.

const chave = (empresa: number, filial: number, numero: number) => `${empresa}/${filial}/${numero}`;

export const obterParcelasContratoVenda = query({
  description:
    'The installments of each sales contract asked for, from its items and payment condition; an unknown contract is 404 naming it',
  declares401: false,
  get: true,
  input: ObterParcelasContratoVendaInput,
  output: ObterParcelasContratoVendaOutput,
  handler: async (ctx: Ctx, input) => {
    const t = contratoVenda;
    const tuples = sql.join(
      input.contratosVenda.map(
        (c) => sql`(${c.empresa}::bigint, ${c.filial}::bigint, ${c.contratoVenda}::bigint)`,
      ),
      sql`, `,
    );
    const rows = await ctx.store.rows<typeof t.$inferSelect>(
      t,
      sql`(${t.empresa}, ${t.filial}, ${t.contratoVenda}) in (${tuples})`,
    );
    const porChave = new Map(rows.map((r) => [chave(r.empresa, r.filial, r.contratoVenda), r]));
    const contratos = input.contratosVenda.map((c, index) => {
      const row = porChave.get(chave(c.empresa, c.filial, c.contratoVenda));
      if (!row) throw E.contratoNotFound({ index, ...c });
      return row;
    });
    const parcelas = await calcularParcelas(
      ctx,
      contratos.map((c) => ({
        condicaoPagamento: c.condicaoPagamento,
        dataBase: c.dataBase,
        itens: c.itens.map((i) => ({ sequenciaItem: i.sequenciaItem, produto: i.produto, valor: i.valor })),
      })),
    );
    const hoje = dateIn(ctx.tenant.timeZone, ctx.now());
    return {
      contratosVendaComParcelas: input.contratosVenda.map((c, i) => ({
        empresa: c.empresa,
        filial: c.filial,
        contratoVenda: c.contratoVenda,
        _discriminator: c._discriminator,
        parcelasContratoVenda: !input.calcularFluxoCaixa
          ? parcelas[i]!
          : contratos[i]!.situacao === 'Cancelado'
            ? []
            : fluxoDeCaixa(parcelas[i]!, hoje),
      })),
    };
  },
});
