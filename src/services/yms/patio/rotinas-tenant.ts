import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { Enum, Type } from '../../../platform/core/schema.ts';
import { ParteSchema } from './automacao-schemas.ts';
import { E } from './errors.ts';
import { ehBuiltin, validarParametros } from './rotinas.ts';
import { OPERADORES, type Parte, TIPOS_ROTINA, type TipoRotina } from './rotinas-tipos.ts';
import { sequenciaCircuito } from './tables/circuitos.ts';
import { rotina as rotinaTable } from './tables/rotinas.ts';

// A tenant's own conditions and commands (origem TENANT in listCondicoes / listComandos; docs/patio.md
// "Conditions and commands"): the entity `rotina`, made of built-in parts, and the checks of a name a
// circuit's step gives.

/** The tenant's own conditions and commands, made of built-in parts. */
export const rotina = defineEntity({
  name: 'rotina',
  description:
    'A tenant’s own condition (its parts ANDed with TODAS or ORed with ALGUMA) or command (its parts run in ' +
    'order, all or nothing), made of built-in conditions or commands with their parameters',
  table: rotinaTable,
  naturalKey: ['tipo', 'nome'],
  fields: Type.Object({
    tipo: Enum(TIPOS_ROTINA),
    nome: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[A-Za-z][A-Za-z0-9_]*$',
      description: 'unique per kind; not a built-in’s name',
    }),
    descricao: Type.Optional(Type.String({ maxLength: 255 })),
    operador: Type.Optional(Enum(OPERADORES, { description: 'a condition’s: TODAS (default) or ALGUMA' })),
    partes: Type.Array(ParteSchema, { minItems: 1, maxItems: 20 }),
    ativo: Type.Optional(Type.Boolean({ description: 'default true; an inactive one cannot run' })),
  }),
  hooks: {
    beforeSave: async (_ctx, next, previous) => {
      const tipo = next.tipo as TipoRotina;
      const nome = String(next.nome);
      if (ehBuiltin(tipo, nome))
        throw E.rotinaNomeReservado({ nome, tipo: tipo === 'CONDICAO' ? 'condição' : 'comando' });
      if (previous && (previous.tipo !== tipo || previous.nome !== nome))
        await naoUsada(_ctx, previous.tipo as TipoRotina, String(previous.nome));
      if (tipo === 'COMANDO' && next.operador)
        throw E.rotinaParteInvalida({ field: 'operador', rule: 'só condições têm operador' });
      if (tipo === 'CONDICAO') next.operador ??= 'TODAS';
      next.ativo ??= true;
      (next.partes as Parte[]).forEach((parte, i) => {
        if (!ehBuiltin(tipo, parte.nome))
          throw E.rotinaNomeDesconhecido({
            field: `partes[${i}].nome`,
            nome: parte.nome,
            tipo: tipo === 'CONDICAO' ? 'condição do sistema' : 'comando do sistema',
          });
        validarParametros(tipo, parte.nome, parte.parametros ?? {}, `partes[${i}] (${parte.nome})`);
      });
    },
    beforeDelete: async (ctx, row) => naoUsada(ctx, row.tipo as TipoRotina, String(row.nome)),
  },
});

/** 422 when a circuit's step names the routine (deleting or renaming it would break the step). */
async function naoUsada(ctx: Ctx, tipo: TipoRotina, nome: string) {
  const coluna = tipo === 'CONDICAO' ? sequenciaCircuito.nomeCondicao : sequenciaCircuito.nomeComando;
  const [s] = await ctx.store.select(sequenciaCircuito, eq(coluna, nome));
  if (s)
    throw E.rotinaEmUso({
      tipo: tipo === 'CONDICAO' ? 'A condição' : 'O comando',
      nome,
      sequencia: `${s.ordem} (${s.nome})`,
      circuitoId: s.circuitoId,
    });
}

/** 422 unless `nome` is a built-in or the tenant's routine of that kind (a step names it). */
export async function rotinaConhecida(ctx: Ctx, tipo: TipoRotina, nome: string, field: string) {
  if (ehBuiltin(tipo, nome)) return;
  const [row] = await ctx.store.select(
    rotinaTable,
    and(eq(rotinaTable.tipo, tipo), eq(rotinaTable.nome, nome)),
  );
  if (!row)
    throw E.rotinaNomeDesconhecido({ field, nome, tipo: tipo === 'CONDICAO' ? 'condição' : 'comando' });
}
