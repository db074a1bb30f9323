import { and, gte, inArray, lte } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import { condicaoPagamentoParcela, feriado } from './tables/calendario.ts';
import { condicaoPagamento } from './tables/financeiro.ts';

// The installment engine (docs/com_comum.md "Installments"): a value split by a payment condition's
// plan, due dates moved past weekends and the tenant's holidays. ped_pedidos and ctr_contratos call
// it through contract.ts with the items of an order or a contract.

/** What is split: one item of an order or contract and its value. */
export interface ItemParcelavel {
  sequenciaItem: number;
  /** true for a product item, false for a service item. */
  produto: boolean;
  valor: number;
}

/** One installment, with the six fields of recParcelaPedidoVenda / recParcelaContratoVenda. */
export interface Parcela {
  sequenciaParcela: number;
  valor: number;
  vencimento: string;
  vencimentoUtil: string;
  produto: boolean;
  sequenciaItem: number;
}

/** A value to split: the payment condition's code (none: cash, one installment at dataBase), its base date, its items. */
export interface Parcelamento {
  condicaoPagamento?: string | null;
  dataBase: string;
  itens: ItemParcelavel[];
}

/** One line of a plan: installment `sequencia` is due `dias` after the base date, `peso` its share. */
export interface LinhaPlano {
  sequencia: number;
  dias: number;
  peso: number;
}

const DAY = 86_400_000;
/** The most installments one request computes: past it, 422 (ask for fewer orders or contracts). */
export const MAX_PARCELAS = 200_000;
/** How far past the last due date holidays are read: a longer run of holidays is not a calendar. */
const FOLGA_FERIADOS = 31;

export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** The first day on or after `date` that is neither Saturday, Sunday nor a holiday. */
export function diaUtil(date: string, feriados: ReadonlySet<string>): string {
  let d = date;
  for (;;) {
    const weekday = new Date(`${d}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6 && !feriados.has(d)) return d;
    d = addDays(d, 1);
  }
}

/**
 * Splits `valor` by the weights of `plano` to the cent, by the largest remainders: each share is its
 * exact part rounded down, and the cents left over go one each to the shares that lost the most,
 * the later ones first on a tie (so 100 in three is 33.33, 33.33, 33.34, the difference in the last
 * installment as ERPs put it). The shares add up to `valor` exactly, none is negative, none is a
 * cent or more from its exact part, and a weight of 0 is a share of 0. (Was: the last took the whole
 * rest, up to one cent less per other share: 1,000.07 in 12 was 83.33 eleven times and 83.44.)
 */
export function dividir(valor: number, pesos: readonly number[]): number[] {
  const cents = Math.round(Math.abs(valor) * 100);
  const sign = valor < 0 ? -1 : 1;
  const total = pesos.reduce((a, b) => a + b, 0);
  const exatos = pesos.map((peso) => (cents * peso) / total);
  const shares = exatos.map(Math.floor);
  const sobra = cents - shares.reduce((a, b) => a + b, 0);
  const ordem = exatos
    .map((exato, i) => ({ i, perda: exato - Math.floor(exato) }))
    .sort((a, b) => b.perda - a.perda || b.i - a.i);
  for (const { i } of ordem.slice(0, sobra)) shares[i] = (shares[i] as number) + 1;
  return shares.map((share) => (sign * share) / 100);
}

/** The installments of `itens` under `plano` from `dataBase`; each item split on its own. */
export function parcelar(
  itens: readonly ItemParcelavel[],
  plano: readonly LinhaPlano[],
  dataBase: string,
  feriados: ReadonlySet<string>,
): Parcela[] {
  const pesos = plano.map((l) => l.peso);
  const parcelas: Parcela[] = [];
  for (const item of itens) {
    const valores = dividir(item.valor, pesos);
    plano.forEach((linha, i) => {
      const vencimento = addDays(dataBase, linha.dias);
      parcelas.push({
        sequenciaParcela: linha.sequencia,
        valor: valores[i]!,
        vencimento,
        vencimentoUtil: diaUtil(vencimento, feriados),
        produto: item.produto,
        sequenciaItem: item.sequenciaItem,
      });
    });
  }
  return parcelas;
}

type Condicao = typeof condicaoPagamento.$inferSelect;
type Linha = typeof condicaoPagamentoParcela.$inferSelect;

/**
 * A condition's plan: its lines when it has any (their percentages must add up to 100), else
 * quantidadeParcelas equal installments, the first diasPrimeiraParcela days after the base date
 * and the next ones intervaloDias apart.
 */
export function planoDe(condicao: Condicao, linhas: readonly Linha[]): LinhaPlano[] {
  if (linhas.length > 0) {
    const soma = linhas.reduce((a, l) => a + l.percentual, 0);
    if (Math.abs(soma - 100) > 1e-6)
      throw E.planoIncompleto({ codigo: condicao.codigo, soma: String(Math.round(soma * 1e6) / 1e6) });
    return [...linhas]
      .sort((a, b) => a.sequencia - b.sequencia)
      .map((l) => ({ sequencia: l.sequencia, dias: l.dias, peso: l.percentual }));
  }
  return Array.from({ length: condicao.quantidadeParcelas }, (_, i) => ({
    sequencia: i + 1,
    dias: condicao.diasPrimeiraParcela + i * condicao.intervaloDias,
    peso: 1,
  }));
}

const A_VISTA: LinhaPlano[] = [{ sequencia: 1, dias: 0, peso: 1 }];

/**
 * The installments of each of `pedidos`, in their order: the conditions, their plans and the
 * holidays are read in three queries whatever their number. An unknown condition is 422.
 */
export async function calcularParcelas(ctx: Ctx, pedidos: readonly Parcelamento[]): Promise<Parcela[][]> {
  const codigos = [...new Set(pedidos.map((p) => p.condicaoPagamento).filter((c): c is string => !!c))];
  const planos = new Map<string, LinhaPlano[]>();
  if (codigos.length > 0) {
    const condicoes = await ctx.store.select(condicaoPagamento, inArray(condicaoPagamento.codigo, codigos));
    const linhas = await ctx.store.select(
      condicaoPagamentoParcela,
      inArray(condicaoPagamentoParcela.codigoCondicaoPagamento, codigos),
    );
    for (const c of condicoes)
      planos.set(
        c.codigo,
        planoDe(
          c,
          linhas.filter((l) => l.codigoCondicaoPagamento === c.codigo),
        ),
      );
    for (const codigo of codigos)
      if (!planos.has(codigo))
        throw E.referenceNotFound({ record: 'condicaoPagamento', codigo, field: 'condicaoPagamento' });
  }
  const planoOf = (p: Parcelamento) => (p.condicaoPagamento ? planos.get(p.condicaoPagamento)! : A_VISTA);
  const total = pedidos.reduce((n, p) => n + p.itens.length * planoOf(p).length, 0);
  if (total > MAX_PARCELAS) throw E.muitasParcelas({ total, max: MAX_PARCELAS });
  // The span of due dates asked for, to read only the holidays that can move one.
  let first: string | undefined;
  let last: string | undefined;
  for (const p of pedidos) {
    if (p.itens.length === 0) continue;
    for (const l of planoOf(p)) {
      const d = addDays(p.dataBase, l.dias);
      if (!first || d < first) first = d;
      if (!last || d > last) last = d;
    }
  }
  const feriados = new Set<string>();
  if (first && last) {
    const rows = await ctx.store.select(
      feriado,
      and(gte(feriado.data, first), lte(feriado.data, addDays(last, FOLGA_FERIADOS))),
    );
    for (const r of rows) feriados.add(r.data);
  }
  return pedidos.map((p) => parcelar(p.itens, planoOf(p), p.dataBase, feriados));
}
