import { and, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf } from '../../../platform/core/db/database.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action } from '../../../platform/core/registry.ts';
import { Enum, Int64, Type } from '../../../platform/core/schema.ts';
import { inserirSku, TIPOS_PRODUTO } from '../../erp_agr/com_comum/contract.ts';
import { E } from './errors.ts';
import { MAX_POSICOES, MAX_ULTIMA_SEQUENCIA, RecItensGeracaoSku } from './schemas.ts';
import { componente, mascara } from './tables.ts';

// gerarSku (spec 001 §4.9; docs/sku_produto.md "Generating a SKU"): each item names a mask of the
// company and family and gives it a value; each mask yields one segment of the code and one part of
// the description, in the order of the items. The SKU is written to the tenant's one catalogue
// (erp_agr/com_comum's, through its contract), in the same transaction.

type MascaraRow = typeof mascara.$inferSelect;
type Item = { codigoMascara: string; valor?: string | undefined };

interface Parte {
  segmento: string;
  descricao: string;
}

/** The segment of a mask that needs no counter, or undefined for an auto-increment mask. */
async function parteDe(ctx: Ctx, m: MascaraRow, item: Item, field: string): Promise<Parte | undefined> {
  const valor = item.valor?.trim();
  const exige = (motivo: string) => {
    if (!valor) throw E.valorObrigatorio({ field: `${field}.valor`, codigo: m.codigo, motivo });
    return valor;
  };
  if (m.utilizaComponentes === 'Sim') {
    const codigos = exige('it uses components: the component codes, comma separated')
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c !== '');
    if (codigos.length === 0)
      throw E.valorObrigatorio({
        field: `${field}.valor`,
        codigo: m.codigo,
        motivo: 'no component code in it',
      });
    const rows = await ctx.store.select(
      componente,
      and(eq(componente.mascaraId, String(m.id)), inArray(componente.codigo, codigos)),
    );
    const porCodigo = new Map(rows.map((c) => [c.codigo, c]));
    for (const c of codigos) {
      const row = porCodigo.get(c);
      if (!row) throw E.componenteNotFound({ field: `${field}.valor`, componente: c, codigo: m.codigo });
      if (row.situacao !== 'Ativo')
        throw E.componenteInativo({ field: `${field}.valor`, componente: c, codigo: m.codigo });
    }
    // spec 001 §2.11: the components compose the code in their `sequencia` order.
    const escolhidos = [...new Set(codigos)].map((c) => porCodigo.get(c)!);
    escolhidos.sort((a, b) => a.sequencia - b.sequencia || a.codigo.localeCompare(b.codigo));
    return {
      segmento: escolhidos.map((c) => c.codigo).join(''),
      descricao: escolhidos.map((c) => c.abreviatura).join(' '),
    };
  }
  if (m.tipoComposicao === 'Alfanumerico') {
    const v = exige('it is Alfanumerico');
    return { segmento: v, descricao: v };
  }
  if (m.tipoComposicao === 'SequenciaFixa')
    return { segmento: m.sequenciaFixa ?? '', descricao: m.abreviatura };
  if (m.autoIncrementavel === 'Sim') return undefined;
  const v = exige('it is Numerico without auto-increment');
  if (!/^\d+$/.test(v)) throw E.valorNaoNumerico({ field: `${field}.valor`, codigo: m.codigo });
  return { segmento: v.padStart(m.quantidadePosicoes, '0'), descricao: m.abreviatura };
}

/**
 * The next number of an auto-increment mask. One UPDATE moves the counter and locks the row until
 * the transaction ends (DESIGN.md "Persistence": a counter row, never read-then-write), so
 * concurrent generations on one mask take turns and never hand out one number twice; a failure
 * later in the transaction rolls the number back with everything else.
 */
async function proximoNumero(ctx: Ctx, m: MascaraRow, field: string): Promise<number> {
  const result = await ctx.tx.execute(sql`
    update sku_mascara set ultima_sequencia = coalesce(ultima_sequencia, 0) + greatest(coalesce(valor_incremento, 1), 1)
    where tenant = ${ctx.tenant.name} and id = ${m.id}
      and coalesce(ultima_sequencia, 0) + greatest(coalesce(valor_incremento, 1), 1) <= ${MAX_ULTIMA_SEQUENCIA}
    returning ultima_sequencia`);
  const [row] = rowsOf<{ ultima_sequencia: number | string }>(result);
  if (!row) {
    const [atual] = await ctx.store.select(mascara, eq(mascara.id, m.id));
    throw E.sequenciaEsgotada({
      field,
      codigo: m.codigo,
      ultima: atual?.ultimaSequencia ?? 0,
      passo: Math.max(atual?.valorIncremento ?? 1, 1),
      maximo: MAX_ULTIMA_SEQUENCIA,
    });
  }
  return Number(row.ultima_sequencia);
}

export const geracao = {
  gerarSku: action({
    description:
      'Generates a SKU code and product description from the masks of a company and family, one item per mask, and ' +
      "stores it in the tenant's SKU catalogue",
    input: Type.Object({
      codigoEmpresa: Int64({ minimum: 0 }),
      codigoFamilia: Type.String({ minLength: 1, maxLength: 20, description: 'product family' }),
      itens: Type.Optional(
        Type.Array(RecItensGeracaoSku, {
          maxItems: MAX_POSICOES,
          description: 'one item per mask, in code order; at least one',
        }),
      ),
      codigoUnidadeMedida: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 3,
          description: '(design) unit of the SKU in the catalogue; default UN',
        }),
      ),
      tipoProduto: Type.Optional(
        Enum(TIPOS_PRODUTO, {
          description: '(design) enumTipoSKUCOT of the SKU in the catalogue; default NaoClassificado',
        }),
      ),
    }),
    output: Type.Object({
      sku: Type.String({ description: 'the generated SKU code' }),
      descricao: Type.String({ description: 'the generated product description' }),
    }),
    handler: async (ctx, input) => {
      const itens = input.itens ?? [];
      if (itens.length === 0) throw E.itensObrigatorios();
      const primeiro = new Map<string, number>();
      itens.forEach((item, i) => {
        const antes = primeiro.get(item.codigoMascara);
        if (antes !== undefined)
          throw E.mascaraRepetida({
            field: `itens[${i}].codigoMascara`,
            codigo: item.codigoMascara,
            primeiro: antes,
          });
        primeiro.set(item.codigoMascara, i);
      });
      const rows = await ctx.store.select(
        mascara,
        and(
          eq(mascara.codigoEmpresa, input.codigoEmpresa),
          eq(mascara.codigoFamilia, input.codigoFamilia),
          inArray(mascara.codigo, [...primeiro.keys()]),
        ),
      );
      const porCodigo = new Map(rows.map((m) => [m.codigo, m]));
      const mascaras = itens.map((item, i) => {
        const field = `itens[${i}].codigoMascara`;
        const m = porCodigo.get(item.codigoMascara);
        if (!m)
          throw E.mascaraNotFound({
            codigo: item.codigoMascara,
            codigoEmpresa: input.codigoEmpresa,
            codigoFamilia: input.codigoFamilia,
            field,
          });
        if (m.situacao !== 'Ativo') throw E.mascaraInativa({ codigo: m.codigo, field });
        return m;
      });
      const partes: Array<Parte | undefined> = [];
      for (const [i, m] of mascaras.entries()) partes.push(await parteDe(ctx, m, itens[i]!, `itens[${i}]`));
      // The counters last, after every check, and in id order: two generations over the same
      // auto-increment masks lock them in the same order and never deadlock.
      const contadores = mascaras.flatMap((m, i) => (partes[i] ? [] : [{ m, i }]));
      contadores.sort((a, b) => (a.m.id < b.m.id ? -1 : 1));
      for (const { m, i } of contadores) {
        const n = await proximoNumero(ctx, m, `itens[${i}].codigoMascara`);
        partes[i] = { segmento: String(n).padStart(m.quantidadePosicoes, '0'), descricao: m.abreviatura };
      }
      partes.forEach((p, i) => {
        const m = mascaras[i]!;
        if (p!.segmento.length > m.quantidadePosicoes)
          throw E.valorNaoCabe({
            field: `itens[${i}].valor`,
            valor: p!.segmento,
            tamanho: p!.segmento.length,
            codigo: m.codigo,
            posicoes: m.quantidadePosicoes,
          });
      });
      const sku = partes.map((p) => p!.segmento).join('');
      if (sku.length > MAX_POSICOES)
        throw E.mascaraInvalida({
          field: 'itens',
          motivo: `the SKU ${sku} passes ${MAX_POSICOES} characters`,
        });
      const descricao =
        partes
          .map((p) => p!.descricao)
          .filter((d) => d !== '')
          .join(' ')
          .slice(0, 100) || mascaras[0]!.descricao.slice(0, 100);
      const quem = ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind;
      const id = await inserirSku(ctx.tx, ctx.tenant.name, {
        codigo: sku,
        descricao,
        codigoUnidadeMedida: input.codigoUnidadeMedida ?? 'UN',
        ...(input.tipoProduto ? { tipoProduto: input.tipoProduto } : {}),
        quem,
        agora: ctx.now(),
      });
      if (id === undefined) throw E.skuExiste({ sku });
      return { sku, descricao };
    },
  }),
};
