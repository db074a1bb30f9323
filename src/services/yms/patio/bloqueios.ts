import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { errors } from '../../../platform/core/errors.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { alteradoPor, compact } from './common.ts';
import { bloqueioDaComposicao, motorista as motoristaEntity, veiculo as veiculoEntity } from './entities.ts';
import { E } from './errors.ts';
import { composicaoVeiculo, motorista, veiculo } from './tables/veiculos.ts';

// Blocking vehicles, drivers and vehicle compositions (spec 000 §4.2; rules: docs/patio.md
// "Blocking"). Blocking only sets a marker with a reason (spec 000 §3); blocking an already blocked
// record replaces its reason, unblocking an unblocked one changes nothing: both answer 200. And the
// blocks as yms/agenda reads them before it starts an agenda (situacaoVeiculoMotorista).

const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const Motivo = (description: string) => Type.String({ minLength: 1, maxLength: 255, description });

/** A composition that has this vehicle as a part. */
const comPeca = (veiculoId: string) => {
  const c = composicaoVeiculo;
  return sql`(${c.cavaloId} = ${veiculoId} or ${veiculoId}::uuid = any(${c.reboqueIds}))`;
};

/**
 * Locks the compositions that have this vehicle as a part (FOR UPDATE, in id order) before the
 * vehicle's block changes: two block changes of parts of one composition take turns, so the second
 * recomputes it from what the first committed (docs/patio.md "Blocking"). Compositions before
 * vehicles, as the composition's own edits do (the engine's FOR UPDATE, then its parts FOR SHARE).
 */
async function travarComposicoes(ctx: Ctx, veiculoId: string): Promise<void> {
  const c = composicaoVeiculo;
  await ctx.tx
    .select({ id: c.id })
    .from(c)
    .where(ctx.store.scope(c, comPeca(veiculoId)))
    .orderBy(asc(c.id))
    .for('update');
}

/** Recomputes every composition that has this vehicle as a part (after the vehicle's block changed). */
async function recomputarComposicoes(ctx: Ctx, veiculoId: string): Promise<void> {
  const c = composicaoVeiculo;
  await ctx.store.update(
    c,
    {
      bloqueado: sql`${c.motivoBloqueio} is not null or exists (
        select 1 from ${veiculo} where ${veiculo.tenant} = ${c.tenant} and ${veiculo.bloqueado}
          and (${veiculo.id} = ${c.cavaloId} or ${veiculo.id} = any(${c.reboqueIds})))`,
    },
    comPeca(veiculoId),
  );
}

/** A reason to block, trimmed; blank is as bad as absent. */
function motivoDe(motivo: string): string {
  const trimmed = motivo.trim();
  if (!trimmed) throw errors.badRequest("Invalid field 'motivo': must not be blank");
  return trimmed;
}

async function bloquear(ctx: Ctx, veiculoId: string, motivo: string | null) {
  await travarComposicoes(ctx, veiculoId);
  const [row] = await ctx.store
    .update(
      veiculo,
      { bloqueado: motivo !== null, motivoBloqueio: motivo, ...alteradoPor(ctx) },
      eq(veiculo.id, veiculoId),
    )
    .returning();
  if (!row) throw E.veiculoNotFound({ id: veiculoId });
  await recomputarComposicoes(ctx, veiculoId);
  return { veiculo: compact(row) };
}

async function bloquearPessoa(ctx: Ctx, motoristaId: string, motivo: string | null) {
  const [row] = await ctx.store
    .update(
      motorista,
      { bloqueado: motivo !== null, motivoBloqueio: motivo, ...alteradoPor(ctx) },
      eq(motorista.id, motoristaId),
    )
    .returning();
  if (!row) throw E.motoristaNotFound({ id: motoristaId });
  return { motorista: compact(row) };
}

const Bloqueio = {
  bloqueado: Type.Boolean(),
  motivoBloqueio: Type.Optional(Type.String({ description: 'its own reason' })),
};

/**
 * A composition as a start sees it: blocked as the stored marker says (its own reason or a blocked
 * part, kept current by the blocking actions), with the first blocked part, in coupling order
 * (tractor first), to tell why when it has no reason of its own.
 */
async function situacaoDaComposicao(ctx: Ctx, id: string) {
  const [c] = await ctx.store.select(composicaoVeiculo, eq(composicaoVeiculo.id, id));
  if (!c) return undefined;
  const partes = [c.cavaloId, ...c.reboqueIds];
  const bloqueadas = c.bloqueado ? await ctx.store.select(veiculo, inArray(veiculo.id, partes)) : [];
  const parte = partes.map((p) => bloqueadas.find((v) => v.id === p && v.bloqueado)).find(Boolean);
  return {
    ...(c.descricao ? { descricao: c.descricao } : {}),
    bloqueado: c.bloqueado,
    ...(c.motivoBloqueio ? { motivoBloqueio: c.motivoBloqueio } : {}),
    ...(parte
      ? {
          parteBloqueada: {
            placa: parte.placa,
            ...(parte.motivoBloqueio ? { motivoBloqueio: parte.motivoBloqueio } : {}),
          },
        }
      : {}),
  };
}

export const bloqueios = {
  situacaoVeiculoMotorista: query({
    description:
      'Internal (yms/agenda, before it starts an agenda): plate, name and block of a vehicle, a driver and a ' +
      'composition (blocked by its own reason or a blocked part, which is named); absent when unknown',
    input: Type.Object({
      veiculoId: Type.Optional(Uuid('the vehicle')),
      motoristaId: Type.Optional(Uuid('the driver')),
      composicaoVeiculoId: Type.Optional(Uuid('the vehicle composition')),
    }),
    output: Type.Object({
      veiculo: Type.Optional(Type.Object({ placa: Type.String(), ...Bloqueio })),
      motorista: Type.Optional(Type.Object({ nome: Type.String(), ...Bloqueio })),
      composicao: Type.Optional(
        Type.Object({
          descricao: Type.Optional(Type.String()),
          ...Bloqueio,
          parteBloqueada: Type.Optional(
            Type.Object({
              placa: Type.String(),
              motivoBloqueio: Type.Optional(Type.String()),
            }),
          ),
        }),
      ),
    }),
    handler: async (ctx, input) => {
      const [v] = input.veiculoId ? await ctx.store.select(veiculo, eq(veiculo.id, input.veiculoId)) : [];
      const [m] = input.motoristaId
        ? await ctx.store.select(motorista, eq(motorista.id, input.motoristaId))
        : [];
      const c = input.composicaoVeiculoId
        ? await situacaoDaComposicao(ctx, input.composicaoVeiculoId)
        : undefined;
      const motivo = (r: { motivoBloqueio: string | null }) =>
        r.motivoBloqueio ? { motivoBloqueio: r.motivoBloqueio } : {};
      return {
        ...(v ? { veiculo: { placa: v.placa, bloqueado: v.bloqueado, ...motivo(v) } } : {}),
        ...(m ? { motorista: { nome: m.nome, bloqueado: m.bloqueado, ...motivo(m) } } : {}),
        ...(c ? { composicao: c } : {}),
      };
    },
  }),
  bloquearVeiculo: action({
    description:
      'Blocks a vehicle with a reason (an already blocked vehicle gets the new reason); its compositions become blocked',
    input: Type.Object({ veiculoId: Uuid('the vehicle'), motivo: Motivo('why the vehicle is blocked') }),
    output: Type.Object({ veiculo: veiculoEntity.schema }),
    handler: (ctx, input) => bloquear(ctx, input.veiculoId, motivoDe(input.motivo)),
  }),
  desbloquearVeiculo: action({
    description: 'Unblocks a vehicle; its compositions are recomputed',
    input: Type.Object({ veiculoId: Uuid('the vehicle') }),
    output: Type.Object({ veiculo: veiculoEntity.schema }),
    handler: (ctx, input) => bloquear(ctx, input.veiculoId, null),
  }),
  bloquearMotorista: action({
    description: 'Blocks a driver with a reason (an already blocked driver gets the new reason)',
    input: Type.Object({ motoristaId: Uuid('the driver'), motivo: Motivo('why the driver is blocked') }),
    output: Type.Object({ motorista: motoristaEntity.schema }),
    handler: (ctx, input) => bloquearPessoa(ctx, input.motoristaId, motivoDe(input.motivo)),
  }),
  desbloquearMotorista: action({
    description: 'Unblocks a driver',
    input: Type.Object({ motoristaId: Uuid('the driver') }),
    output: Type.Object({ motorista: motoristaEntity.schema }),
    handler: (ctx, input) => bloquearPessoa(ctx, input.motoristaId, null),
  }),
  atualizarBloqueioComposicaoVeiculo: action({
    description:
      'Sets the composition’s own block: motivo given blocks it; absent (or blank) removes its own reason, ' +
      'and it stays blocked only while a part (vehicle) is blocked. Answers whether it ended blocked',
    input: Type.Object({
      composicaoVeiculoId: Uuid('the vehicle composition'),
      motivo: Type.Optional(Type.String({ maxLength: 255, description: 'reason to block; absent: unblock' })),
    }),
    output: Type.Object({
      statusComposicaoVeiculo: Type.Boolean({ description: 'true when the composition ended blocked' }),
    }),
    handler: async (ctx, input) => {
      // Locked, then its parts read FOR SHARE: a part's block changing meanwhile waits, or is seen.
      const [atual] = await ctx.tx
        .select()
        .from(composicaoVeiculo)
        .where(ctx.store.scope(composicaoVeiculo, eq(composicaoVeiculo.id, input.composicaoVeiculoId)))
        .for('update');
      if (!atual) throw E.composicaoNotFound({ id: input.composicaoVeiculoId });
      const motivo = input.motivo?.trim() ? input.motivo.trim() : null;
      const { bloqueado } = await bloqueioDaComposicao(ctx, [atual.cavaloId, ...atual.reboqueIds], motivo);
      await ctx.store.update(
        composicaoVeiculo,
        { bloqueado, motivoBloqueio: motivo, ...alteradoPor(ctx) },
        eq(composicaoVeiculo.id, atual.id),
      );
      return { statusComposicaoVeiculo: bloqueado };
    },
  }),
};
