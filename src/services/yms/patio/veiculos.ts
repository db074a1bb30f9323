import { inArray } from 'drizzle-orm';
import { action, query } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { EntityEngine } from '../../../platform/entities/engine.ts';
import { composicaoVeiculo, normalizePlaca } from './entities.ts';
import { veiculo } from './tables/veiculos.ts';

// What yms/agenda asks of the yard's vehicles (docs/agenda.md "External partners and users",
// "cadastrarComposicaoVeiculo"): plates resolved to vehicles, and compositions created with the
// entity's own rules. PRIVATE, reached through ctx.call.

const composicoes = new EntityEngine(composicaoVeiculo);

export const veiculos = {
  veiculosPorPlaca: query({
    description: 'Internal (yms/agenda linkVehiclesToPartner): the vehicles of these plates, when they exist',
    input: Type.Object({
      placas: Type.Array(Type.String({ maxLength: 10 }), { minItems: 1, maxItems: 1000 }),
    }),
    output: Type.Object({
      veiculos: Type.Array(
        Type.Object({ id: Type.String({ format: 'uuid' }), placa: Type.String(), bloqueado: Type.Boolean() }),
      ),
    }),
    handler: async (ctx, input) => {
      const placas = [...new Set(input.placas.map(normalizePlaca))];
      const rows = await ctx.store.select(veiculo, inArray(veiculo.placa, placas));
      return { veiculos: rows.map((r) => ({ id: r.id, placa: r.placa, bloqueado: r.bloqueado })) };
    },
  }),

  criarComposicaoVeiculo: action({
    description:
      'Internal (yms/agenda cadastrarComposicaoVeiculo): creates a composition with the rules of the entity',
    input: Type.Object({ composicaoVeiculo: composicaoVeiculo.input }),
    output: Type.Object({ composicaoVeiculo: composicaoVeiculo.schema }),
    handler: async (ctx, input) => ({
      composicaoVeiculo: (await composicoes.create(ctx, input.composicaoVeiculo)) as never,
    }),
  }),
};
