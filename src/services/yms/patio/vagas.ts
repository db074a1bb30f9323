import { and, asc, count, desc, eq, type SQL, type SQLWrapper } from 'drizzle-orm';
import { statement } from '../../../platform/core/db/statement.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { Enum, Int64, Type } from '../../../platform/core/schema.ts';
import { compact, containsText } from './common.ts';
import { vaga as vagaEntity } from './entities.ts';
import { E } from './errors.ts';
import { area, vaga } from './tables/plantas.ts';
import { veiculo } from './tables/veiculos.ts';

// Parking spots: finding and allocating a free one, listing and filtering them (spec 000 §2.4,
// §4.1, §4.2; docs/patio.md "Spots"). A free spot is unoccupied, active and unblocked; the spot
// chosen is always the first free one by (rua, numero, id), so allocation is predictable on the
// yard board.

export type VagaRow = typeof vaga.$inferSelect;
/** What spot allocation needs of a context: the caller's transaction, as its tenant, and a clock. */
export type YardTx = Pick<Ctx, 'tx' | 'store' | 'now'>;

const livre = (areaId: string | SQLWrapper): SQL =>
  and(
    eq(vaga.areaId, areaId),
    eq(vaga.ocupada, false),
    eq(vaga.ativo, true),
    eq(vaga.bloqueio, false),
  ) as SQL;
const ordemAlocacao = [asc(vaga.rua), asc(vaga.numero), asc(vaga.id)];

/** buscaVagaLivre's read, built once (platform/core/db/statement.ts): the area's first free spot. */
const primeiraLivre = statement('yms.patio.buscaVagaLivre', (b) =>
  b.db
    .select()
    .from(vaga)
    .where(b.scope(vaga, livre(b.param('areaId'))))
    .orderBy(...ordemAlocacao)
    .limit(1),
);

/** The area, or 404 naming it. */
async function areaOf(ctx: YardTx, areaId: string) {
  const [row] = await ctx.store.select(area, eq(area.id, areaId));
  if (!row) throw E.areaNotFound({ id: areaId });
  return row;
}

/**
 * Picks the first free spot of the area and occupies it with the vehicle, in the caller's
 * transaction. The candidate row is locked with FOR UPDATE SKIP LOCKED (DESIGN.md "Persistence"):
 * concurrent allocations never wait on each other nor get the same spot; a spot another
 * transaction holds is skipped, one it occupied and committed no longer matches. No free spot:
 * 422 naming the area, and nothing changes.
 */
export async function alocarVaga(ctx: YardTx, areaId: string, veiculoId: string): Promise<VagaRow> {
  const a = await areaOf(ctx, areaId);
  const [v] = await ctx.store.select(veiculo, eq(veiculo.id, veiculoId));
  if (!v) throw E.veiculoNotFound({ id: veiculoId });
  const [atual] = await ctx.store.select(vaga, eq(vaga.veiculoId, veiculoId));
  if (atual)
    throw E.veiculoJaEmVaga({ placa: v.placa, rua: atual.rua, numero: atual.numero, areaId: atual.areaId });
  const row = await tomarVagaLivre(ctx, areaId, veiculoId, v.placa);
  if (!row) throw E.semVagaLivre({ codigo: a.codigo, id: a.id });
  return row;
}

/**
 * The first free spot of the area, locked and occupied by the vehicle, or undefined when none is
 * free; the checks of alocarVaga are the caller's. By default a spot another transaction holds is
 * skipped (SKIP LOCKED). The queues (fila.ts) hand spots on through it with `esperar`: they hold the
 * area's lock, so no other arrival competes, and a spot held for a moment by an edit is waited for
 * rather than skipped (a truck must not queue while a spot is free). A row that no longer matches
 * once the holder committed drops out of a LIMIT 1, so the pick is retried while a spot is free.
 */
export async function tomarVagaLivre(
  ctx: YardTx,
  areaId: string,
  veiculoId: string,
  placa: string,
  opcoes: { esperar?: boolean } = {},
): Promise<VagaRow | undefined> {
  const escolher = () =>
    ctx.tx
      .select({ id: vaga.id })
      .from(vaga)
      .where(ctx.store.scope(vaga, livre(areaId)))
      .orderBy(...ordemAlocacao)
      .limit(1);
  let [candidata] = await (opcoes.esperar
    ? escolher().for('update')
    : escolher().for('update', { skipLocked: true }));
  for (let tentativa = 0; opcoes.esperar && !candidata && tentativa < 5; tentativa++) {
    if ((await escolher()).length === 0) break;
    [candidata] = await escolher().for('update');
  }
  if (!candidata) return undefined;
  try {
    const [row] = await ctx.store
      .update(
        vaga,
        {
          ocupada: true,
          veiculoId,
          ocupadaEm: ctx.now(),
          lastModifiedBy: 'patio',
          lastModifiedDate: ctx.now(),
        },
        eq(vaga.id, candidata.id),
      )
      .returning();
    return row!;
  } catch (err) {
    vagaDoVeiculoRepetida(err, placa);
  }
}

/**
 * A vehicle holds one spot (the unique index patio_vaga_veiculo): when two transactions give it one
 * at once (an allocation, an execution's initial spot), the index refuses the second, which the
 * checks before could not see. That refusal is the 409 it stands for; anything else is rethrown.
 */
export function vagaDoVeiculoRepetida(err: unknown, placa: string): never {
  const e = err as { code?: string; cause?: { code?: string } };
  if ((e.cause?.code ?? e.code) === '23505') throw E.veiculoJaEmOutraVaga({ placa });
  throw err;
}

/** Frees the spot the vehicle holds, if any; returns it (undefined when it held none). */
export async function liberarVaga(ctx: YardTx, veiculoId: string): Promise<VagaRow | undefined> {
  const [row] = await ctx.store
    .update(
      vaga,
      {
        ocupada: false,
        veiculoId: null,
        ocupadaEm: null,
        lastModifiedBy: 'patio',
        lastModifiedDate: ctx.now(),
      },
      eq(vaga.veiculoId, veiculoId),
    )
    .returning();
  return row;
}

export const SORT_FIELDS = [
  'rua',
  'numero',
  'descricao',
  'areaId',
  'ocupada',
  'ativo',
  'bloqueio',
  'createdDate',
  'lastModifiedDate',
] as const;
export const MAX_PAGE_SIZE = 1000;

const Vaga = vagaEntity.schema;
const Uuid = (description: string) => Type.String({ format: 'uuid', description });

export const vagas = {
  buscaVagaLivre: query({
    description:
      'The first free spot (unoccupied, active, unblocked) of an area by rua, numero; it is not reserved ' +
      '(allocation happens when the vehicle enters the area). 422 when the area has no free spot',
    get: true,
    input: Type.Object({ areaId: Uuid('the area') }),
    output: Type.Object({ vaga: Vaga }),
    handler: async (ctx, input) => {
      // One round trip when a spot is free (a spot of the area proves the area); the area is read
      // only to tell an unknown area (404) from a full one (422).
      const [row] = await ctx.store.run(primeiraLivre, { areaId: input.areaId });
      if (row) return { vaga: compact(row) };
      const a = await areaOf(ctx, input.areaId);
      throw E.semVagaLivre({ codigo: a.codigo, id: a.id });
    },
  }),

  vagaChangeAll: action({
    description: 'Every spot of the tenant, by area, rua and numero',
    input: Type.Object({}),
    output: Type.Object({ vaga: Type.Array(Vaga) }),
    handler: async (ctx) => {
      const rows = await ctx.tx
        .select()
        .from(vaga)
        .where(ctx.store.scope(vaga))
        .orderBy(asc(vaga.areaId), ...ordemAlocacao);
      return { vaga: rows.map(compact) };
    },
  }),

  filtrarVaga: action({
    description:
      'Spots by description (partial, case-insensitive), position, area and flags, one page at a time; ' +
      'sortOrder 1 ascending (default), -1 descending; ties by rua, numero, id',
    input: Type.Object({
      page: Int64({ minimum: 0, maximum: 1_000_000, description: 'page index, from 0' }),
      size: Int64({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'spots per page' }),
      descricao: Type.Optional(Type.String({ maxLength: 100, description: 'part of the description' })),
      rua: Type.Optional(Int64()),
      numero: Type.Optional(Int64()),
      areaId: Type.Optional(Uuid('spots of this area')),
      ocupada: Type.Optional(Type.Boolean()),
      ativo: Type.Optional(Type.Boolean()),
      bloqueio: Type.Optional(Type.Boolean()),
      sortField: Type.Optional(Enum(SORT_FIELDS, { description: 'default rua (then numero)' })),
      sortOrder: Type.Optional(
        Int64({ minimum: -1, maximum: 1, description: '1 or 0 ascending, -1 descending' }),
      ),
    }),
    output: Type.Object({ vagas: Type.Array(Vaga), totalElements: Int64(), totalPages: Int64() }),
    handler: async (ctx, input) => {
      const texto = input.descricao?.trim();
      const where = ctx.store.scope(
        vaga,
        and(
          texto ? containsText(vaga.descricao, texto) : undefined,
          input.rua !== undefined ? eq(vaga.rua, input.rua) : undefined,
          input.numero !== undefined ? eq(vaga.numero, input.numero) : undefined,
          input.areaId !== undefined ? eq(vaga.areaId, input.areaId) : undefined,
          input.ocupada !== undefined ? eq(vaga.ocupada, input.ocupada) : undefined,
          input.ativo !== undefined ? eq(vaga.ativo, input.ativo) : undefined,
          input.bloqueio !== undefined ? eq(vaga.bloqueio, input.bloqueio) : undefined,
        ),
      );
      // The chosen field in the asked direction (the default, rua, with numero), then the allocation order.
      const direction = input.sortOrder === -1 ? desc : asc;
      const field = input.sortField ?? 'rua';
      const order = [
        direction(vaga[field]),
        ...(field === 'rua' ? [direction(vaga.numero)] : []),
        ...ordemAlocacao,
      ];
      const [rows, [total]] = await Promise.all([
        ctx.tx
          .select()
          .from(vaga)
          .where(where)
          .orderBy(...order)
          .limit(input.size)
          .offset(input.page * input.size),
        ctx.tx.select({ n: count() }).from(vaga).where(where),
      ]);
      const totalElements = total?.n ?? 0;
      return { vagas: rows.map(compact), totalElements, totalPages: Math.ceil(totalElements / input.size) };
    },
  }),
};
