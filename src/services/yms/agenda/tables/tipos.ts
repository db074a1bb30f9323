import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPrimaryKey } from '../../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entity } from './columns.ts';

/**
 * Appointment types (tipoAgendamento, docs/agenda.md "Appointment types"): what a booking is for
 * (loading or unloading at a plant, through a circuit), how long its slots are, how many fit in a
 * slot and how far ahead it must be booked. Active and blocked change only through their actions.
 */
export const tipoAgendamento = pgTable(
  'agenda_tipo_agendamento',
  {
    ...entity(),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    /** CARGA (loading) or DESCARGA (unloading). */
    operacao: text('operacao').notNull(),
    plantaId: uuid('planta_id').notNull(),
    /** The yard circuit (yms/patio circuito) the appointments of the type run. */
    circuitoId: uuid('circuito_id'),
    duracaoSlotMinutos: integer('duracao_slot_minutos').notNull(),
    /** Minutes per unit of associacaoAgendamento.quantidade: the execution time of a booking. */
    minutosPorUnidade: doublePrecision('minutos_por_unidade'),
    capacidadePorSlot: integer('capacidade_por_slot').notNull(),
    /** Lead time: a slot must start at least this many minutes after now to be booked. */
    antecedenciaMinutos: integer('antecedencia_minutos').notNull().default(0),
    ativo: boolean('ativo').notNull().default(true),
    bloqueado: boolean('bloqueado').notNull().default(false),
    motivoBloqueio: text('motivo_bloqueio'),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('agenda_tipo_agendamento_codigo').on(t.tenant, t.codigo),
    index('agenda_tipo_agendamento_planta').on(t.tenant, t.plantaId),
    tenantIsolation(t.tenant),
  ],
);
