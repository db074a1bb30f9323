import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../../platform/core/db/database.ts';
import { TIPOS_PRODUTO } from './schemas.ts';

// What erp_agr/com_comum publishes to the other services (docs/com_comum.md "The SKU catalogue"):
// the only file of this service another one may import. The SKU catalogue is one per tenant and
// shared: erp_est/sku_produto's gerarSku writes the SKUs it generates into it, erp_sup/cot_cotacao
// reads it (obterSku, and the codigoSKU of a quotation item). Every function takes the caller's
// transaction and tenant, so what it does commits or rolls back with the caller's operation. A
// contract brings no tables along (.dependency-cruiser.cjs), so these are SQL over com_sku and
// com_empresa (tables/produtos.ts, tables/empresas.ts); contract.test.ts holds them to those tables.

export { TIPOS_PRODUTO };
export type TipoProduto = (typeof TIPOS_PRODUTO)[number];

/** A SKU of the catalogue as the other services see it. */
export interface SkuCatalogo {
  id: number;
  codigo: string;
  descricao: string;
  codigoProduto: string | null;
  tipoProduto: TipoProduto;
  ativo: boolean;
}

/** The SKU `codigo` of `tenant`, or undefined. */
export async function skuPorCodigo(tx: Tx, tenant: string, codigo: string): Promise<SkuCatalogo | undefined> {
  const [row] = rowsOf<SkuCatalogo & { id: number | string }>(
    await tx.execute(sql`
      select id, codigo, descricao, codigo_produto as "codigoProduto", tipo_produto as "tipoProduto", ativo
      from com_sku where tenant = ${tenant} and codigo = ${codigo}`),
  );
  return row && { ...row, id: Number(row.id) };
}

/** Which of `codigos` the catalogue of `tenant` holds. */
export async function skusExistentes(tx: Tx, tenant: string, codigos: string[]): Promise<Set<string>> {
  if (codigos.length === 0) return new Set();
  const rows = rowsOf<{ codigo: string }>(
    await tx.execute(
      sql`select codigo from com_sku where tenant = ${tenant} and codigo in (${sql.join(
        [...new Set(codigos)].map((c) => sql`${c}`),
        sql`, `,
      )})`,
    ),
  );
  return new Set(rows.map((r) => r.codigo));
}

export interface NovoSku {
  codigo: string;
  descricao: string;
  codigoUnidadeMedida: string;
  tipoProduto?: TipoProduto;
  /** Who creates it (the audit fields createdBy and lastModifiedBy). */
  quem: string;
  agora: Date;
}

/**
 * Adds a SKU to the catalogue of `tenant`: its id, or undefined when the code is already there (the
 * unique key (tenant, codigo) decides, so two concurrent inserts of one code never both succeed).
 */
export async function inserirSku(tx: Tx, tenant: string, novo: NovoSku): Promise<number | undefined> {
  const agora = novo.agora.toISOString();
  const [row] = rowsOf<{ id: number | string }>(
    await tx.execute(sql`
      insert into com_sku (tenant, codigo, descricao, codigo_unidade_medida, tipo_produto,
                           created_by, last_modified_by, created_date, last_modified_date)
      values (${tenant}, ${novo.codigo}, ${novo.descricao}, ${novo.codigoUnidadeMedida},
              ${novo.tipoProduto ?? 'NaoClassificado'}, ${novo.quem}, ${novo.quem}, ${agora}, ${agora})
      on conflict (tenant, codigo) do nothing
      returning id`),
  );
  return row === undefined ? undefined : Number(row.id);
}

/** Whether the company `codigo` exists in `tenant` (companies are com_comum's `empresa`). */
export async function empresaExiste(tx: Tx, tenant: string, codigo: string): Promise<boolean> {
  const rows = rowsOf(
    await tx.execute(sql`select 1 from com_empresa where tenant = ${tenant} and codigo = ${codigo}`),
  );
  return rows.length > 0;
}

// The installment engine (parcelamento.ts, docs/com_comum.md "Installments"): ped_pedidos
// and ctr_contratos split the items of an order or a contract by a payment condition's plan, in
// their own transaction, with due dates moved past weekends and the tenant's holidays.
export {
  calcularParcelas,
  dividir,
  type ItemParcelavel,
  type Parcela,
  type Parcelamento,
} from './parcelamento.ts';
