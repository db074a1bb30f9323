import { eq } from 'drizzle-orm';
import { query } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { area, planta, vaga } from './tables/plantas.ts';

// The yard's records yms/agenda names by id (docs/agenda.md "References"): a plant, a circuit, a
// sequence, a spot. yms/agenda reads them only through this PRIVATE query (it imports none of these
// tables) and decides with its own messages, naming its own fields. Each is looked up in the
// caller's tenant only: another tenant's id is answered exactly as an id that exists nowhere.

const Uuid = (description: string) => Type.String({ format: 'uuid', description });

export const referencias = {
  referenciasDoPatio: query({
    description:
      'Internal (yms/agenda: aguardarIntegracao, tipoAgendamento, preAgenda): the plant, circuit, sequence and ' +
      'spot of these ids in the tenant, each with what it belongs to; absent when it does not exist',
    input: Type.Object({
      plantaId: Type.Optional(Uuid('a plant')),
      circuitoId: Type.Optional(Uuid('a circuit')),
      sequenciaId: Type.Optional(Uuid('a sequence of a circuit')),
      vagaId: Type.Optional(Uuid('a spot')),
    }),
    output: Type.Object({
      planta: Type.Optional(Type.Object({ id: Uuid('the plant'), codigo: Type.String() })),
      circuito: Type.Optional(
        Type.Object({
          id: Uuid('the circuit'),
          codigo: Type.String(),
          plantaId: Uuid('its plant'),
          ativo: Type.Boolean(),
        }),
      ),
      sequencia: Type.Optional(Type.Object({ id: Uuid('the sequence'), circuitoId: Uuid('its circuit') })),
      vaga: Type.Optional(
        Type.Object({ id: Uuid('the spot'), areaId: Uuid('its area'), plantaId: Uuid("its area's plant") }),
      ),
    }),
    handler: async (ctx, input) => {
      const [p] = input.plantaId ? await ctx.store.select(planta, eq(planta.id, input.plantaId)) : [];
      const [c] = input.circuitoId ? await ctx.store.select(circuito, eq(circuito.id, input.circuitoId)) : [];
      const [s] = input.sequenciaId
        ? await ctx.store.select(sequenciaCircuito, eq(sequenciaCircuito.id, input.sequenciaId))
        : [];
      const [v] = input.vagaId
        ? await ctx.tx
            .select({ id: vaga.id, areaId: vaga.areaId, plantaId: area.plantaId })
            .from(vaga)
            .innerJoin(area, eq(area.id, vaga.areaId))
            .where(ctx.store.scope(vaga, eq(vaga.id, input.vagaId)))
        : [];
      return {
        ...(p ? { planta: { id: p.id, codigo: p.codigo } } : {}),
        ...(c ? { circuito: { id: c.id, codigo: c.codigo, plantaId: c.plantaId, ativo: c.ativo } } : {}),
        ...(s ? { sequencia: { id: s.id, circuitoId: s.circuitoId } } : {}),
        ...(v ? { vaga: v } : {}),
      };
    },
  }),
};
