import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { Int64, Type } from '../../../platform/core/schema.ts';
import { Id, Str } from './common.ts';
import { mustExist } from './entities.ts';
import { E } from './errors.ts';
import { rotinaConhecida } from './rotinas-tenant.ts';
import { circuito as circuitoTable, sequenciaCircuito as sequenciaTable } from './tables/circuitos.ts';
import { area as areaTable, planta as plantaTable } from './tables/plantas.ts';

// Circuits (docs/patio.md "Circuits"): a plant's route for one appointment type, an ordered list of
// sequences, each at an area of that plant. Sequences are a child collection of the circuit
// (spec 000 §2.3: /circuito/{parentId}/sequencias), so a sequence is only ever reached under its
// circuit and the rule "its area belongs to the circuit's plant" has the plant at hand.

const opt = Type.Optional;

async function circuitoOf(ctx: Ctx, id: string) {
  const [row] = await ctx.store.select(circuitoTable, eq(circuitoTable.id, id));
  if (!row) throw E.referenceNotFound({ record: 'circuito', id, field: 'circuitoId' });
  return row;
}

/** 422 unless the area exists in the tenant and belongs to the plant. */
async function areaDaPlanta(ctx: Ctx, areaId: string, plantaId: string, field: string) {
  const [row] = await ctx.store.select(areaTable, eq(areaTable.id, areaId));
  if (!row) throw E.referenceNotFound({ record: 'area', id: areaId, field });
  if (row.plantaId !== plantaId) throw E.areaDeOutraPlanta({ areaId, field, plantaId });
  return row;
}

export const sequenciaCircuito = defineEntity({
  name: 'sequenciaCircuito',
  description:
    'A step of a circuit, at an area of the circuit’s plant; ordem orders the steps (unique in the circuit)',
  table: sequenciaTable,
  naturalKey: ['circuitoId', 'ordem'],
  fields: Type.Object({
    circuitoId: opt(Id('the circuit; set from the parent path')),
    ordem: Int64({ minimum: 0, maximum: 9999, description: 'position of the step in the circuit' }),
    areaId: Id('where the step happens: an area of the circuit’s plant'),
    nome: Str(100, 'name of the step, as the yard calls it', 1),
    descricao: opt(Str(255)),
    nomeCondicao: opt(Str(100, 'condition (listCondicoes) that must hold to enter this step')),
    nomeComando: opt(Str(100, 'command (listComandos) in charge of this step')),
    subCircuitoId: opt(Id('a circuit of the same plant this step branches into (ramoExecucao)')),
  }),
  hooks: {
    beforeSave: async (ctx, next) => {
      const c = await circuitoOf(ctx, String(next.circuitoId));
      // A sequence happens in the circuit's plant: an area of another plant is 422.
      await areaDaPlanta(ctx, String(next.areaId), c.plantaId, 'areaId');
      if (next.nomeCondicao)
        await rotinaConhecida(ctx, 'CONDICAO', String(next.nomeCondicao), 'nomeCondicao');
      if (next.nomeComando) await rotinaConhecida(ctx, 'COMANDO', String(next.nomeComando), 'nomeComando');
      if (next.subCircuitoId) {
        const [sub] = await ctx.store.select(circuitoTable, eq(circuitoTable.id, String(next.subCircuitoId)));
        if (!sub || sub.id === c.id || sub.plantaId !== c.plantaId)
          throw E.subCircuitoInvalido({ id: String(next.subCircuitoId) });
      }
    },
  },
});

export const circuito = defineEntity({
  name: 'circuito',
  description:
    'A plant’s route for an appointment type: its steps are the child collection sequencias, in ordem',
  table: circuitoTable,
  naturalKey: ['plantaId', 'codigo'],
  fields: Type.Object({
    plantaId: Id('the plant (planta.id)'),
    tipoAgendamentoId: opt(Str(64, 'the appointment type it serves (yms/agenda tipoAgendamento id)')),
    codigo: Str(20, 'circuit code, unique in the plant', 1),
    nome: Str(100, undefined, 1),
    descricao: opt(Str(255)),
    ativo: opt(Type.Boolean({ description: 'default true; an inactive circuit starts no execution' })),
  }),
  children: { sequencias: { entity: sequenciaCircuito, parentField: 'circuitoId' } },
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.ativo ??= true;
      if (next.plantaId === previous?.plantaId) return;
      await mustExist(ctx, plantaTable, 'planta', 'plantaId', next.plantaId);
      // Its sequences are at areas of the old plant: moving would break the rule above.
      if (previous) {
        const [seq] = await ctx.store.select(
          sequenciaTable,
          eq(sequenciaTable.circuitoId, String(previous.id)),
        );
        if (seq)
          throw E.circuitoPlantaComSequencias({
            codigo: String(previous.codigo),
            plantaId: String(previous.plantaId),
          });
      }
    },
  },
});
