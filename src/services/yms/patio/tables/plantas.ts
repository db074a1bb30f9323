import { sql } from 'drizzle-orm';
import { boolean, date, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../../platform/core/db/keys.ts';
import { trigramIndex } from '../../../../platform/core/db/search.ts';
import { tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { entity, int64, ref } from './columns.ts';
import { veiculo } from './veiculos.ts';

// A plant and its yard (docs/patio.md "The yard model"): its areas, their parking spots, its shifts.
// The conventions of every table: columns.ts.

export const planta = pgTable(
  'patio_planta',
  {
    ...entity(),
    codigo: text('codigo').notNull(),
    nome: text('nome').notNull(),
    /** 14 digits, unique in the tenant (yms/agenda names a plant by it); several plants may have none. */
    cnpj: text('cnpj'),
    /** IANA time zone: shifts and "today" of the plant are computed in it. */
    fusoHorario: text('fuso_horario').notNull().default('America/Sao_Paulo'),
    ativo: boolean('ativo').notNull().default(true),
  },
  (t) => [
    tenantPrimaryKey(t),
    uniqueIndex('patio_planta_codigo').on(t.tenant, t.codigo),
    // Nulls are distinct: plants without a CNPJ do not collide.
    uniqueIndex('patio_planta_cnpj').on(t.tenant, t.cnpj),
    trigramIndex('patio_planta_nome_trgm', t.nome),
    tenantIsolation(t.tenant),
  ],
);

export const area = pgTable(
  'patio_area',
  {
    ...entity(),
    plantaId: ref('planta_id').notNull(),
    codigo: text('codigo').notNull(),
    descricao: text('descricao').notNull(),
    tipo: text('tipo').notNull(),
    ativo: boolean('ativo').notNull().default(true),
    /**
     * Who gets the area's queue events (wsFilaItem): comma-separated user names; empty, every
     * console watching the yard (docs/patio.md "Queues").
     */
    ws_users: text('ws_users'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_area_planta_fk', t, t.plantaId, planta),
    uniqueIndex('patio_area_codigo').on(t.tenant, t.plantaId, t.codigo),
    trigramIndex('patio_area_descricao_trgm', t.descricao),
    tenantIsolation(t.tenant),
  ],
);

export const vaga = pgTable(
  'patio_vaga',
  {
    ...entity(),
    areaId: ref('area_id').notNull(),
    rua: int64('rua').notNull(),
    numero: int64('numero').notNull(),
    descricao: text('descricao'),
    ocupada: boolean('ocupada').notNull().default(false),
    ativo: boolean('ativo').notNull().default(true),
    bloqueio: boolean('bloqueio').notNull().default(false),
    motivoBloqueio: text('motivo_bloqueio'),
    /** The vehicle in the spot while ocupada. */
    veiculoId: ref('veiculo_id'),
    ocupadaEm: timestamp('ocupada_em', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_vaga_area_fk', t, t.areaId, area),
    tenantReference('patio_vaga_veiculo_fk', t, t.veiculoId, veiculo),
    uniqueIndex('patio_vaga_posicao').on(t.tenant, t.areaId, t.rua, t.numero),
    // The free spots of an area in allocation order (alocarVaga, buscaVagaLivre).
    index('patio_vaga_livre')
      .on(t.tenant, t.areaId, t.rua, t.numero)
      .where(sql`not ${t.ocupada} and ${t.ativo} and not ${t.bloqueio}`),
    // A vehicle holds at most one spot.
    uniqueIndex('patio_vaga_veiculo').on(t.tenant, t.veiculoId).where(sql`${t.veiculoId} is not null`),
    trigramIndex('patio_vaga_descricao_trgm', t.descricao),
    tenantIsolation(t.tenant),
  ],
);

export const turno = pgTable(
  'patio_turno',
  {
    ...entity(),
    plantaId: ref('planta_id').notNull(),
    data: date('data', { mode: 'string' }).notNull(),
    /** HH:mm in the plant's time zone; horaFim before horaInicio ends on the next day. */
    horaInicio: text('hora_inicio').notNull(),
    horaFim: text('hora_fim').notNull(),
    descricao: text('descricao'),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('patio_turno_planta_fk', t, t.plantaId, planta),
    uniqueIndex('patio_turno_janela').on(t.tenant, t.plantaId, t.data, t.horaInicio, t.horaFim),
    tenantIsolation(t.tenant),
  ],
);
