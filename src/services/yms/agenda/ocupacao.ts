import { and, eq, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { query } from '../../../platform/core/registry.ts';
import { Int64, Type } from '../../../platform/core/schema.ts';
import { type Ocupantes, travarVeiculoMotorista } from '../patio/contract.ts';
import { E } from './errors.ts';
import type { AgendaRow } from './states.ts';
import { agenda } from './tables/agendas.ts';

// Whether a vehicle or a driver is already running (docs/agenda.md "iniciarAgendamento", "Contended
// decisions" in docs/platform.md): in a yard execution (yms/patio's counts) or in an EXECUTANDO agenda.
// Every check runs under yms/patio's lock of the vehicle and the driver (published by its contract,
// patio/contract.ts), the one the yard's own starts take, so two starts of the same vehicle or
// driver, by any path, are decided one after the other and the second one sees the first.

const PATIO = 'yms/patio';
const Uuid = (description: string) => Type.String({ format: 'uuid', description });

/**
 * Another EXECUTANDO agenda of the vehicle or of the driver, other than `exceto`. `semPatio` narrows
 * it to those running without a yard execution (started without a circuit): the ones yms/patio
 * cannot see in its own table.
 */
export async function outraAgendaEmExecucao(
  ctx: Ctx,
  o: Ocupantes & { exceto?: string | undefined; semPatio?: boolean },
): Promise<Pick<AgendaRow, 'id' | 'codigo' | 'veiculoId' | 'motoristaId'> | undefined> {
  if (!o.veiculoId && !o.motoristaId) return undefined;
  const [outra] = await ctx.tx
    .select({
      id: agenda.id,
      codigo: agenda.codigo,
      veiculoId: agenda.veiculoId,
      motoristaId: agenda.motoristaId,
    })
    .from(agenda)
    .where(
      ctx.store.scope(
        agenda,
        and(
          eq(agenda.status, 'EXECUTANDO'),
          o.exceto ? ne(agenda.id, o.exceto) : undefined,
          o.semPatio ? isNull(agenda.inicioExecucao) : undefined,
          or(
            o.veiculoId ? eq(agenda.veiculoId, o.veiculoId) : undefined,
            o.motoristaId ? eq(agenda.motoristaId, o.motoristaId) : undefined,
          ),
        ) as SQL,
      ),
    )
    .limit(1);
  return outra;
}

type Bloqueio = { bloqueado: boolean; motivoBloqueio?: string };
type Situacao = {
  veiculo?: { placa: string } & Bloqueio;
  motorista?: { nome: string } & Bloqueio;
  composicao?: { descricao?: string; parteBloqueada?: { placa: string; motivoBloqueio?: string } } & Bloqueio;
};

/** What a start puts to work: the agenda's vehicle, driver and composition. */
type Partes = Pick<AgendaRow, 'codigo' | 'veiculoId' | 'motoristaId'> & {
  composicaoVeiculoId?: string | null;
};

/** Plate, name and blocks of the vehicle, the driver and the composition, asked to yms/patio. */
async function situacaoNoPatio(ctx: Ctx, p: Partes): Promise<Situacao> {
  if (!p.veiculoId && !p.motoristaId && !p.composicaoVeiculoId) return {};
  return ctx.call<Situacao>(`${PATIO}/queries/situacaoVeiculoMotorista`, {
    ...(p.veiculoId ? { veiculoId: p.veiculoId } : {}),
    ...(p.motoristaId ? { motoristaId: p.motoristaId } : {}),
    ...(p.composicaoVeiculoId ? { composicaoVeiculoId: p.composicaoVeiculoId } : {}),
  });
}

/**
 * 409 when the vehicle, the driver or the composition is blocked. A composition is blocked as
 * yms/patio says (docs/patio.md "Blocking"): by its own reason, or by a blocked part, then named.
 */
function recusarBloqueados(p: Partes, s: Situacao): void {
  const codigo = p.codigo;
  if (s.veiculo?.bloqueado)
    throw E.veiculoBloqueado({
      codigo,
      placa: s.veiculo.placa,
      motivo: s.veiculo.motivoBloqueio ?? 'sem motivo',
    });
  if (s.motorista?.bloqueado)
    throw E.motoristaBloqueado({
      codigo,
      nome: s.motorista.nome,
      motivo: s.motorista.motivoBloqueio ?? 'sem motivo',
    });
  const c = s.composicao;
  if (!c?.bloqueado) return;
  const parte = c.parteBloqueada;
  const motivo =
    c.motivoBloqueio ??
    (parte
      ? `o veículo ${parte.placa} está bloqueado: ${parte.motivoBloqueio ?? 'sem motivo'}`
      : 'sem motivo');
  throw E.composicaoBloqueada({ codigo, composicao: c.descricao ?? String(p.composicaoVeiculoId), motivo });
}

/**
 * The blocks alone: 409 when the vehicle, the driver or the composition is blocked. For the start
 * after a successful integration, which no caller validated (docs/agenda.md "Blocks on the
 * integration's start").
 */
export async function exigirDesbloqueados(ctx: Ctx, p: Partes): Promise<void> {
  recusarBloqueados(p, await situacaoNoPatio(ctx, p));
}

/**
 * Locks the agenda's vehicle and driver, then answers 409 when either is already running: in a yard
 * execution or in another EXECUTANDO agenda of the tenant; unless `validated`, also when the
 * vehicle, the driver or the composition is blocked. The lock lasts until the transaction ends, so
 * the start that follows is decided under it.
 */
export async function exigirLivres(
  ctx: Ctx,
  atual: Partes & Pick<AgendaRow, 'id'>,
  validated: boolean,
  acao = 'ser iniciada',
): Promise<void> {
  const { veiculoId, motoristaId } = atual;
  if (veiculoId || motoristaId) await travarVeiculoMotorista(ctx, { veiculoId, motoristaId });
  // A validated start reads no block: the composition is not asked for.
  const situacao = await situacaoNoPatio(ctx, validated ? { ...atual, composicaoVeiculoId: null } : atual);
  if (!validated) recusarBloqueados(atual, situacao);
  if (!veiculoId && !motoristaId) return;
  const placa = situacao.veiculo?.placa ?? String(veiculoId);
  const nome = situacao.motorista?.nome ?? String(motoristaId);
  const codigo = atual.codigo;
  const quantidade = async (op: string, body: unknown) =>
    (await ctx.call<{ quantidade: number }>(`${PATIO}/queries/${op}`, body)).quantidade;
  const onde = 'uma execução de circuito em andamento no pátio';
  if (veiculoId && (await quantidade('quantidadeExecucaoCircuitoPorVeiculo', { veiculoId })) > 0)
    throw E.veiculoEmExecucao({ codigo, acao, placa, onde });
  if (motoristaId && (await quantidade('quantidadeExecucaoCircuitoPorMotorista', { motoristaId })) > 0)
    throw E.motoristaEmExecucao({ codigo, acao, nome, onde });
  const outra = await outraAgendaEmExecucao(ctx, { veiculoId, motoristaId, exceto: atual.id });
  if (outra && veiculoId && outra.veiculoId === veiculoId)
    throw E.veiculoEmExecucao({ codigo, acao, placa, onde: `outra agenda em EXECUTANDO (${outra.codigo})` });
  if (outra)
    throw E.motoristaEmExecucao({ codigo, acao, nome, onde: `outra agenda em EXECUTANDO (${outra.codigo})` });
}

/**
 * An edit that gives a running (EXECUTANDO) agenda another vehicle or driver puts that one to work:
 * under the same lock, the new vehicle or driver must be free (409 as for a start). Blocks are not
 * read: an edit is no start. Any other state, or an unchanged or cleared vehicle or driver: nothing
 * to check.
 */
export async function exigirLivresNaEdicao(
  ctx: Ctx,
  atual: AgendaRow,
  novo: { veiculoId?: unknown; motoristaId?: unknown },
): Promise<void> {
  if (atual.status !== 'EXECUTANDO') return;
  const trocado = (v: unknown, antes: string | null) =>
    typeof v === 'string' && v.toLowerCase() !== antes ? v.toLowerCase() : null;
  const veiculoId = trocado(novo.veiculoId, atual.veiculoId);
  const motoristaId = trocado(novo.motoristaId, atual.motoristaId);
  if (!veiculoId && !motoristaId) return;
  const acao = 'trocar de veículo ou motorista em EXECUTANDO';
  await exigirLivres(ctx, { id: atual.id, codigo: atual.codigo, veiculoId, motoristaId }, true, acao);
}

export const ocupacao = {
  agendaEmExecucaoSemPatio: query({
    description:
      'Internal (yms/patio, before it starts an execution or changes its driver): an EXECUTANDO agenda of the ' +
      'vehicle or of the driver that runs without a yard execution (started without a circuit), other than ' +
      '`exceto`; empty when none. Ask it under the lock of the vehicle and the driver',
    input: Type.Object({
      veiculoId: Type.Optional(Uuid('the vehicle')),
      motoristaId: Type.Optional(Uuid('the driver')),
      exceto: Type.Optional(Uuid('the agenda the yard starts an execution for: not counted')),
    }),
    output: Type.Object({
      agenda: Type.Optional(
        Type.Object({
          id: Uuid('the agenda'),
          codigo: Int64(),
          veiculoId: Type.Optional(Uuid('its vehicle')),
          motoristaId: Type.Optional(Uuid('its driver')),
        }),
      ),
    }),
    handler: async (ctx, input) => {
      const outra = await outraAgendaEmExecucao(ctx, { ...input, semPatio: true });
      if (!outra) return {};
      return {
        agenda: {
          id: outra.id,
          codigo: outra.codigo,
          ...(outra.veiculoId ? { veiculoId: outra.veiculoId } : {}),
          ...(outra.motoristaId ? { motoristaId: outra.motoristaId } : {}),
        },
      };
    },
  }),
};
