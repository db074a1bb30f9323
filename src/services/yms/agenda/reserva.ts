import { advisoryLocks, lockName } from '../../../platform/core/db/locks.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import { tipoExistente } from './referencias.ts';
import {
  addDias,
  contar,
  DESCRICOES,
  local,
  MIN,
  type Motivo,
  motivoDe,
  slotsDaExecucao,
  slotsDe,
  turnosDaPlanta,
} from './slots.ts';

// The checked booking of the carriers (docs/agenda.md "The checked booking"): the agenda entity
// takes a slot's place through it, decided under an advisory lock. The slots: slots.ts.

export interface Reserva {
  tipoAgendamentoId: string;
  plantaId: string;
  dataEsperada: Date;
  associacaoAgendamento?: unknown;
  /** The agenda being moved: not counted. */
  agendaId?: string;
  /**
   * The plant's own booking (a pre-agenda's conversion): the lead time is the carriers' rule, and
   * the request was made in time; everything else holds.
   */
  semAntecedencia?: boolean;
}

/**
 * Checks a booking of the carriers (the agenda entity: POST, and PUT/PATCH that move it) and
 * returns the end of its execution: the type exists, is active, unblocked and of the plant; the
 * instant is the start of a slot of the plant's open time, outside the lead time; every slot the
 * execution takes has a free place. The places are decided under transaction-scoped advisory
 * locks on (type, slot start) of the tenant (core/db/locks.ts), taken in one statement in time
 * order (their names sort as the ISO instants do): a concurrent booking of the same slot waits for
 * this transaction, then counts again and sees this one (DESIGN.md "Persistence").
 */
export async function verificarReserva(ctx: Ctx, r: Reserva): Promise<Date> {
  const tipo = await tipoExistente(ctx, r.tipoAgendamentoId);
  if (tipo.plantaId !== r.plantaId)
    throw E.tipoOutraPlanta({ codigo: tipo.codigo, plantaTipo: tipo.plantaId, planta: r.plantaId });
  const ms = r.dataEsperada.getTime();
  const inicioIso = r.dataEsperada.toISOString();
  const indisponivel = (motivo: Motivo, detalhe: string) =>
    E.horarioIndisponivel({ inicio: inicioIso, codigo: tipo.codigo, motivo, detalhe });
  // The type's own state first: no slot of an inactive or blocked type is bookable.
  if (!tipo.ativo) throw indisponivel('TIPO_INATIVO', DESCRICOES.TIPO_INATIVO(tipo, 1));
  if (tipo.bloqueado) throw indisponivel('TIPO_BLOQUEADO', DESCRICOES.TIPO_BLOQUEADO(tipo, 1));
  const k = slotsDaExecucao(tipo, r.associacaoAgendamento);
  const utc = inicioIso.slice(0, 10);
  // Every zone is within a day of UTC: the local day is one of these three, its eve one more.
  const t = await turnosDaPlanta(ctx, r.plantaId, addDias(utc, -2), addDias(utc, 2));
  const slots = slotsDe(t, tipo.duracaoSlotMinutos, addDias(utc, -1), addDias(utc, 2));
  const i = slots.findIndex((s) => s.inicio === ms);
  if (i < 0) {
    const { data, hora } = local(ms, t.fusoHorario);
    throw indisponivel(
      'FECHADO',
      `${data} ${hora} (${t.fusoHorario}) não é o início de um horário: a planta está fechada ou os horários ` +
        `de ${tipo.duracaoSlotMinutos} minutos começam na abertura do turno (consulte horarioOperacao)`,
    );
  }
  const agora = ctx.now().getTime();
  const regras = r.semAntecedencia ? { ...tipo, antecedenciaMinutos: 0 } : tipo;
  const antes = motivoDe(regras, slots, i, k, agora, t.ativo);
  if (antes && antes !== 'LOTADO') throw indisponivel(antes, DESCRICOES[antes](tipo, k));
  const ocupados = slots.slice(i, i + k);
  await advisoryLocks(
    ctx.tx,
    ocupados.map((s) =>
      lockName('yms/agenda/reserva', ctx.tenant.name, tipo.id, new Date(s.inicio).toISOString()),
    ),
  );
  await contar(ctx, tipo.id, ocupados, r.agendaId);
  const cheio = ocupados.find((s) => s.agendados >= tipo.capacidadePorSlot);
  if (cheio)
    throw E.horarioLotado({
      inicio: new Date(cheio.inicio).toISOString(),
      codigo: tipo.codigo,
      agendados: cheio.agendados,
      capacidade: tipo.capacidadePorSlot,
    });
  return new Date(ms + k * tipo.duracaoSlotMinutos * MIN);
}
