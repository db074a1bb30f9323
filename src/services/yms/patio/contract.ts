import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { rowsOf, type Tx } from '../../../platform/core/db/database.ts';
import { AuditSchema } from '../../../platform/core/entity.ts';
import { Type } from '../../../platform/core/schema.ts';
import { Id, ReadOnly, Str } from './common.ts';

// What yms/patio publishes to the other services (docs/patio.md "What yms/agenda and yms/patio
// share"): the only file of this service another one may import. Everything else of the yard is
// reached through its operations (`ctx.call('yms/patio/...')`).

// The lock of a vehicle and a driver put to work, taken the same way by every path that starts one
// (travas.ts says why): yms/agenda's iniciarAgendamento takes it before it asks the yard.
export { type Ocupantes, travarVeiculoMotorista } from './travas.ts';

// --- the vehicle composition ------------------------------------------------------------------

const opt = Type.Optional;

/** The fields of a vehicle composition (the entity composicaoVeiculo, entities.ts). */
export const ComposicaoVeiculoCampos = Type.Object({
  descricao: opt(Str(100)),
  cavaloId: Id('the tractor or truck (veiculo.id)'),
  reboqueIds: opt(
    Type.Array(Type.String({ format: 'uuid' }), {
      maxItems: 4,
      description: 'the trailers (veiculo.id), in order',
    }),
  ),
  bloqueado: ReadOnly(Type.Boolean(), 'derived: own reason or a blocked part'),
  motivoBloqueio: ReadOnly(Type.String(), 'own reason, set by atualizarBloqueioComposicaoVeiculo'),
});

/** A composition as the API shows it: its id, its fields and the audit fields (the entity's output). */
export const ComposicaoVeiculo = Type.Object(
  { id: Type.String({ format: 'uuid' }), ...ComposicaoVeiculoCampos.properties, ...AuditSchema },
  { title: 'composicaoVeiculo' },
);

/** A composition to create: its fields, the id optional (the entity's POST input, named as the entity names it). */
export const NovaComposicaoVeiculo = Type.Object(
  { ...ComposicaoVeiculoCampos.properties, id: Type.Optional(Type.String({ format: 'uuid' })) },
  { title: 'composicaoVeiculoInput' },
);

// --- the plant's code -------------------------------------------------------------------------

// Files name a plant by its code, never by id (docs/agenda.md "Imports and exports"). An import or
// export target runs with the job's tenant-scoped transaction only, not a Ctx to call this service
// through (platform/imports, platform/exports), so the two lookups it needs are published here as
// SQL over the plant table (tables.ts `planta`); contract.test.ts holds them to that table.

/** SQL: the code of the plant whose id is `plantaId` (a column or expression of the caller's query), or null. */
export const codigoDaPlanta = (plantaId: SQL | AnyPgColumn): SQL =>
  sql`(select p.codigo from patio_planta p where p.id = ${plantaId})`;

/** The ids of the plants of these codes in `tenant`, by code (an unknown code is absent). */
export async function plantasPorCodigo(
  tx: Tx,
  tenant: string,
  codigos: string[],
): Promise<Map<string, string>> {
  if (codigos.length === 0) return new Map();
  const found = rowsOf<{ id: string; codigo: string }>(
    await tx.execute(
      sql`select p.id, p.codigo from patio_planta p where p.tenant = ${tenant} and p.codigo in (${sql.join(
        codigos.map((c) => sql`${c}`),
        sql`, `,
      )})`,
    ),
  );
  return new Map(found.map((r) => [r.codigo, r.id]));
}
