import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { CNPJ_ESCRITO, CPF_ESCRITO, cpfOuCnpjValido, semPontuacao } from '../../../platform/core/cpf-cnpj.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { action, query } from '../../../platform/core/registry.ts';
import { Enum, NoInput, Record as Registro, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { type Parceiro, representacao, SUJEITOS } from './representacao.ts';
import { agenda } from './tables/agendas.ts';
import {
  externalTenant as parceiroTable,
  parceiroVeiculo,
  externalUser as usuarioTable,
} from './tables/parceiros.ts';

// External partners (externalTenant: carriers and customers by CNPJ or CPF), their users
// (externalUser, by e-mail) and the plates linked to them (docs/agenda.md "External partners and
// users"): their entities and operations. What a key bound to an external user may see and do
// (docs/authentication.md): representacao.ts.

const opt = Type.Optional;
const DOCUMENTO = `^(${CPF_ESCRITO}|${CNPJ_ESCRITO})$`;
/** Plates, old or Mercosul format, with or without the dash (as yms/patio's veiculo). */
const PLACA = /^[A-Za-z]{3}-?\d[A-Za-z0-9]\d{2}$/;

const normalizarPlaca = (placa: string) => placa.trim().replace('-', '').toUpperCase();

// ---------------------------------------------------------------------------------------------
// Entities

const flags = {
  ativo: opt(Type.Boolean({ description: 'default true; an inactive partner books nothing' })),
  permiteEdicaoMotorista: opt(
    Type.Boolean({ description: "default true: the partner's users may change the driver of an agenda" }),
  ),
  naoPermiteCriarAgendamentosAgrupado: opt(
    Type.Boolean({ description: 'default false: true forbids grouped bookings (codigoAgrupador)' }),
  ),
  preAgendaHabilitada: opt(
    Type.Boolean({
      description:
        "default false: the partner's users request pre-agendas (approved by the plant) instead of booking " +
        'agendas; without it they book agendas and cannot request pre-agendas',
    }),
  ),
};

export const externalTenantEntity = defineEntity({
  name: 'externalTenant',
  description: 'External partners (carriers, customers) by CNPJ or CPF, and what their users may do',
  table: parceiroTable,
  naturalKey: ['codigo'],
  fields: Type.Object({
    codigo: Type.String({
      pattern: DOCUMENTO,
      description:
        'CNPJ (numeric or alphanumeric) or CPF, punctuation allowed; stored without punctuation, letters upper case; unique in the tenant',
    }),
    nome: Type.String({ minLength: 1, maxLength: 150 }),
    ...flags,
  }),
  hooks: {
    beforeSave: async (_ctx, next) => {
      next.codigo = semPontuacao(String(next.codigo));
      if (!cpfOuCnpjValido(String(next.codigo))) throw E.documentoInvalido({ codigo: String(next.codigo) });
      next.ativo ??= true;
      next.permiteEdicaoMotorista ??= true;
      next.naoPermiteCriarAgendamentosAgrupado ??= false;
      next.preAgendaHabilitada ??= false;
    },
    beforeDelete: async (ctx, row) => {
      const id = String(row.id);
      const [[agendas], [usuarios]] = await Promise.all([
        ctx.tx
          .select({ n: count() })
          .from(agenda)
          .where(ctx.store.scope(agenda, eq(agenda.parceiroId, id))),
        ctx.tx
          .select({ n: count() })
          .from(usuarioTable)
          .where(ctx.store.scope(usuarioTable, sql`${id}::uuid = any(${usuarioTable.parceiroIds})`)),
      ]);
      if (agendas!.n || usuarios!.n)
        throw E.parceiroEmUso({ nome: String(row.nome), agendas: agendas!.n, usuarios: usuarios!.n });
    },
  },
});

export const externalUserEntity = defineEntity({
  name: 'externalUser',
  description: "Users of external partners by e-mail; a public key bound to one acts for the user's partners",
  table: usuarioTable,
  naturalKey: ['email'],
  fields: Type.Object({
    email: Type.String({
      format: 'email',
      maxLength: 254,
      description: 'unique in the tenant, stored lower case',
    }),
    nome: Type.String({ minLength: 1, maxLength: 150 }),
    ativo: opt(
      Type.Boolean({ description: 'default true; keys bound to an inactive user are refused (403)' }),
    ),
    parceiroIds: Type.Array(Type.String({ format: 'uuid' }), {
      minItems: 1,
      maxItems: 50,
      uniqueItems: true,
      description: 'the partners (externalTenant.id) the user acts for',
    }),
  }),
  hooks: {
    beforeSave: async (ctx, next) => {
      next.email = String(next.email).trim().toLowerCase();
      next.ativo ??= true;
      const ids = (next.parceiroIds as string[]).map((id) => id.toLowerCase());
      next.parceiroIds = ids;
      // Read FOR KEY SHARE until commit, as exigirParceiroAtivo reads an agenda's partner: a delete
      // of one of them (locked FOR UPDATE, refused while a user names it) waits for this write and
      // then sees the user, or came first and the partner is not found here (422).
      const rows = await ctx.tx
        .select({ id: parceiroTable.id })
        .from(parceiroTable)
        .where(ctx.store.scope(parceiroTable, inArray(parceiroTable.id, ids)))
        .orderBy(asc(parceiroTable.id))
        .for('key share');
      const fora = ids.find((id) => !rows.some((r) => r.id === id));
      if (fora) throw E.parceiroInexistente({ id: fora });
    },
  },
});

// ---------------------------------------------------------------------------------------------
// Operations

const ExternalTenant = externalTenantEntity.schema;
const ExternalUser = externalUserEntity.schema;
const parceiroOut = (row: Parceiro) => compactar(row);
function compactar(row: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (k !== 'tenant' && v !== null && v !== undefined) out[k] = v;
  return out as never;
}

const TenantRecord = Registro(
  'tenant',
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String({ description: 'the tenant name of the addresses' }),
    edition: Enum(['standard', 'light'] as const),
    timeZone: Type.String({ description: 'IANA zone of the tenant' }),
    createdAt: Type.String({ format: 'date-time' }),
  }),
);

export const MOTIVOS_NAO_VINCULADA = ['INVALID_PLATE', 'VEHICLE_NOT_FOUND'] as const;

export const parceiros = {
  isClienteExterno: query({
    description:
      "Whether the caller acts for external partners (a public key bound to an external user), the partners' " +
      'settings and the user; an internal caller gets isClienteExterno false',
    get: true,
    subjects: SUJEITOS,
    input: NoInput(),
    output: Type.Object({
      isClienteExterno: Type.Boolean(),
      permiteEdicaoMotorista: Type.Boolean({ description: 'every partner allows it' }),
      naoPermiteCriarAgendamentosAgrupado: Type.Boolean({ description: 'some partner forbids it' }),
      preAgendaHabilitada: Type.Boolean({ description: 'some partner requests pre-agendas' }),
      parceiros: Type.Array(ExternalTenant),
      usuario: Type.Partial(ExternalUser, {
        title: 'externalUserPartial',
        description: 'the external user; empty for an internal caller',
      }),
    }),
    handler: async (ctx) => {
      const rep = await representacao(ctx);
      if (!rep)
        return {
          isClienteExterno: false,
          permiteEdicaoMotorista: true,
          naoPermiteCriarAgendamentosAgrupado: false,
          preAgendaHabilitada: false,
          parceiros: [],
          usuario: {},
        };
      return {
        isClienteExterno: true,
        permiteEdicaoMotorista: rep.parceiros.every((p) => p.permiteEdicaoMotorista),
        naoPermiteCriarAgendamentosAgrupado: rep.parceiros.some((p) => p.naoPermiteCriarAgendamentosAgrupado),
        preAgendaHabilitada: rep.parceiros.some((p) => p.preAgendaHabilitada),
        parceiros: rep.parceiros.map(parceiroOut),
        usuario: compactar(rep.usuario),
      };
    },
  }),

  verificaUsuario: query({
    description:
      'Checks an external user by e-mail (e.g. on a login page): ativo when the user is active and acts for an ' +
      'active partner; an unknown e-mail is 404',
    visibility: 'PUBLIC',
    anonymous: true,
    input: Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }) }),
    output: Type.Object({
      email: Type.String(),
      ativo: Type.Boolean({ description: 'active, with at least one active partner' }),
    }),
    handler: async (ctx, input) => {
      const email = input.email.trim().toLowerCase();
      const [usuario] = await ctx.store.select(usuarioTable, eq(usuarioTable.email, email));
      if (!usuario) throw E.usuarioNotFound({ email });
      const [ativos] = usuario.ativo
        ? await ctx.tx
            .select({ n: count() })
            .from(parceiroTable)
            .where(
              ctx.store.scope(
                parceiroTable,
                and(inArray(parceiroTable.id, usuario.parceiroIds), eq(parceiroTable.ativo, true)),
              ),
            )
        : [{ n: 0 }];
      return { email, ativo: usuario.ativo && (ativos?.n ?? 0) > 0 };
    },
  }),

  buscaTenantPorNome: query({
    description:
      "The tenant of the address by its name (a login page's lookup); any other name is 404, so tenants can't be probed",
    visibility: 'PUBLIC',
    anonymous: true,
    get: true,
    transaction: 'none',
    input: Type.Object({ tenantNome: Type.String({ minLength: 1, maxLength: 63 }) }),
    output: TenantRecord,
    handler: async (ctx, input) => {
      const nome = input.tenantNome.trim().toLowerCase();
      if (nome !== ctx.tenant.name) throw E.tenantNotFound({ nome: input.tenantNome });
      const { id, name, edition, timeZone, createdAt } = ctx.tenant;
      return { id, name, edition, timeZone, createdAt };
    },
  }),

  linkVehiclesToPartner: action({
    description:
      'Links vehicles (yms/patio, by plate) to a partner (CNPJ or CPF); answers the plates not linked and why',
    visibility: 'PUBLIC',
    input: Type.Object({
      code: Type.String({ minLength: 1, maxLength: 18, description: 'CNPJ or CPF of the partner' }),
      plates: Type.Array(Type.String({ maxLength: 10 }), { minItems: 1, maxItems: 1000 }),
    }),
    output: Type.Object({
      platesNotLinked: Type.Array(Type.String(), { description: 'the plates not linked, as sent' }),
      reasons: Type.Array(
        Type.Object({
          plate: Type.String(),
          reason: Enum(MOTIVOS_NAO_VINCULADA, {
            description: 'INVALID_PLATE: not a plate; VEHICLE_NOT_FOUND: no yms/patio vehicle has it',
          }),
        }),
        { description: '(design) why each plate of platesNotLinked was not linked' },
      ),
    }),
    handler: async (ctx, input) => {
      const codigo = semPontuacao(input.code);
      const rep = await representacao(ctx);
      const [parceiro] = codigo
        ? await ctx.store.select(parceiroTable, eq(parceiroTable.codigo, codigo))
        : [];
      // A partner's user links only to its own partners; another partner is as unknown as a missing one.
      if (!parceiro || (rep && !rep.ids.includes(parceiro.id))) throw E.parceiroNotFound({ ref: input.code });
      if (!parceiro.ativo) throw E.parceiroInativo({ nome: parceiro.nome, codigo: parceiro.codigo });

      const reasons: Array<{ plate: string; reason: (typeof MOTIVOS_NAO_VINCULADA)[number] }> = [];
      const validas = input.plates.filter((plate) => {
        if (PLACA.test(plate.trim())) return true;
        reasons.push({ plate, reason: 'INVALID_PLATE' });
        return false;
      });
      const porPlaca = new Map<string, string>();
      if (validas.length) {
        const { veiculos } = await ctx.call<{ veiculos: Array<{ id: string; placa: string }> }>(
          'yms/patio/queries/veiculosPorPlaca',
          { placas: validas.map(normalizarPlaca) },
        );
        for (const v of veiculos) porPlaca.set(v.placa, v.id);
      }
      const links = new Map<string, string>();
      for (const plate of validas) {
        const placa = normalizarPlaca(plate);
        const veiculoId = porPlaca.get(placa);
        if (veiculoId) links.set(veiculoId, placa);
        else reasons.push({ plate, reason: 'VEHICLE_NOT_FOUND' });
      }
      if (links.size) {
        await ctx.store
          .insert(
            parceiroVeiculo,
            [...links].map(([veiculoId, placa]) => ({
              parceiroId: parceiro.id,
              veiculoId,
              placa,
              createdBy: ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind,
              createdDate: ctx.now(),
            })),
          )
          .onConflictDoNothing();
      }
      // In the order sent.
      const order = new Map(input.plates.map((p, i) => [p, i]));
      reasons.sort((a, b) => order.get(a.plate)! - order.get(b.plate)!);
      return { platesNotLinked: reasons.map((r) => r.plate), reasons };
    },
  }),
};

export const parceiroEntities = [externalTenantEntity, externalUserEntity];
