import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { Int64, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { componenteFields, mascaraFields } from './schemas.ts';
import { componente as componenteTable, mascara as mascaraTable } from './tables.ts';

// The masks and their components as generic entities (spec 000 §2.3): the spec shows no way to
// create them, so these routes (and the imports, imports.ts) are how users do (docs/sku_produto.md
// "Creating masks"). The hooks check what the schema cannot: the fields one kind of mask needs.

type Row = Record<string, unknown>;

/**
 * The rules between the fields of a mask: the field broken and why, or undefined. Fills the
 * defaults and the derived codigoEmpresa.
 */
export function conferirMascara(next: Row): { field: string; motivo: string } | undefined {
  const empresa = next.empresa as { codigo: number };
  next.codigoEmpresa = empresa.codigo;
  next.selecionavelPeloUsuario ??= 'Nao';
  const posicoes = Number(next.quantidadePosicoes);
  if (next.tipoComposicao === 'SequenciaFixa' && next.utilizaComponentes !== 'Sim') {
    if (typeof next.sequenciaFixa !== 'string')
      return { field: 'sequenciaFixa', motivo: 'a SequenciaFixa mask needs it' };
    if (next.sequenciaFixa.length > posicoes)
      return { field: 'sequenciaFixa', motivo: `longer than the mask's ${posicoes} positions` };
  }
  const numerica = next.tipoComposicao === 'Numerico' && next.utilizaComponentes !== 'Sim';
  if (next.autoIncrementavel === 'Sim' && !numerica)
    return { field: 'autoIncrementavel', motivo: 'only a Numerico mask without components increments' };
  if (next.autoIncrementavel === 'Sim') {
    next.valorIncremento ??= 1;
    next.ultimaSequencia ??= 0;
  }
  return undefined;
}

export const mascaraSku = defineEntity({
  name: 'mascaraSku',
  description: 'SKU coding masks (recMascaraSku) of a company and product family',
  table: mascaraTable,
  naturalKey: ['codigoEmpresa', 'codigoFamilia', 'codigo'],
  fields: Type.Object({
    ...mascaraFields,
    codigoEmpresa: Type.Optional(
      Int64({ description: 'read-only: empresa.codigo; a value sent is ignored' }),
    ),
  }),
  hooks: {
    beforeSave: async (_ctx, next) => {
      const wrong = conferirMascara(next);
      if (wrong) throw E.mascaraInvalida(wrong);
    },
  },
});

async function mascaraDe(ctx: Ctx, id: unknown) {
  const [row] = await ctx.store.select(mascaraTable, eq(mascaraTable.id, String(id).toLowerCase()));
  return row;
}

export const mascaraSkuComponente = defineEntity({
  name: 'mascaraSkuComponente',
  description: 'Components of a SKU mask (recMascaraSkuComponente): the values a user picks in gerarSku',
  table: componenteTable,
  naturalKey: ['mascaraId', 'codigo'],
  fields: Type.Object({
    mascaraId: Type.String({ format: 'uuid', description: 'the mask (mascaraSku.id) it belongs to' }),
    ...componenteFields,
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      if (previous && next.mascaraId === previous.mascaraId) return;
      const mascara = await mascaraDe(ctx, next.mascaraId);
      if (!mascara)
        throw E.mascaraInvalida({ field: 'mascaraId', motivo: `mask ${next.mascaraId} does not exist` });
      if (mascara.utilizaComponentes !== 'Sim') throw E.mascaraSemComponentes({ codigo: mascara.codigo });
    },
  },
});

export const skuEntities = [mascaraSku, mascaraSkuComponente];
