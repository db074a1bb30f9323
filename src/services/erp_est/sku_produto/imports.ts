import { and, eq, inArray } from 'drizzle-orm';
import { importTargetOf } from '../../../platform/core/entity.ts';
import { type ImportTarget, refuse } from '../../../platform/core/import-target.ts';
import { Int64, Type } from '../../../platform/core/schema.ts';
import { conferirMascara, mascaraSku, mascaraSkuComponente } from './entities.ts';
import { componenteFields, type mascaraFields } from './schemas.ts';
import { mascara } from './tables.ts';

// The imports of erp_est/sku_produto (docs/sku_produto.md "Creating masks"): platform/imports'
// startImport with service erp_est/sku_produto and kind MascaraSku or MascaraSkuComponente. A file
// names a component's mask by its natural key (company, family, code), never by id.

const { codigoEmpresa: _derived, ...mascaraRow } = mascaraSku.fields.properties as Record<string, never>;

export const skuImports: Record<string, ImportTarget> = {
  MascaraSku: {
    ...importTargetOf(mascaraSku),
    row: Type.Object(mascaraRow as unknown as typeof mascaraFields),
    resolve: async (_tx, rows) =>
      rows.map((row) => {
        const out = { ...row };
        const wrong = conferirMascara(out);
        return wrong ? refuse(wrong.field, wrong.motivo) : out;
      }),
  },
  MascaraSkuComponente: {
    ...importTargetOf(mascaraSkuComponente),
    row: Type.Object({
      codigoEmpresa: Int64({ minimum: 0, description: 'the company of the mask' }),
      codigoFamilia: Type.String({ minLength: 1, maxLength: 20 }),
      codigoMascara: Type.String({ minLength: 1, maxLength: 20 }),
      ...componenteFields,
    }),
    resolve: async (tx, rows, tenant) => {
      const codigos = [...new Set(rows.map((r) => String(r.codigoMascara)))];
      const found = await tx
        .select({
          id: mascara.id,
          codigo: mascara.codigo,
          codigoEmpresa: mascara.codigoEmpresa,
          codigoFamilia: mascara.codigoFamilia,
          utilizaComponentes: mascara.utilizaComponentes,
        })
        .from(mascara)
        .where(and(eq(mascara.tenant, tenant), inArray(mascara.codigo, codigos)));
      const key = (e: unknown, f: unknown, c: unknown) => `${e}\n${f}\n${c}`;
      const byKey = new Map(found.map((m) => [key(m.codigoEmpresa, m.codigoFamilia, m.codigo), m]));
      return rows.map((r) => {
        const m = byKey.get(key(r.codigoEmpresa, r.codigoFamilia, r.codigoMascara));
        if (!m)
          return refuse(
            'codigoMascara',
            `mask ${r.codigoMascara} does not exist for company ${r.codigoEmpresa} and family ${r.codigoFamilia}`,
          );
        if (m.utilizaComponentes !== 'Sim')
          return refuse('codigoMascara', `mask ${m.codigo} does not use components`);
        const { codigoEmpresa: _e, codigoFamilia: _f, codigoMascara: _c, ...rest } = r;
        return { ...rest, mascaraId: m.id };
      });
    },
  },
};
