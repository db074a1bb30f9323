import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantPrimaryKey, tenantReference } from '../../../../platform/core/db/keys.ts';
import { tenantIsolation } from '../../../../platform/core/db/tenancy.ts';
import { agenda } from './agendas.ts';
import { entity } from './columns.ts';

// Attachments (docs/agenda.md "Attachments").

/**
 * One version of an attachment: created by obterUrlUploadAnexo (the storage place, blob
 * `yms/agenda/anexos/<id>`), its facts filled when the bytes arrive. The name's versions count
 * within its folder: the agenda, else the caller's partner, else the tenant.
 */
export const anexo = pgTable(
  'agenda_anexo',
  {
    ...entity(),
    nome: text('nome').notNull(),
    versao: bigint('versao', { mode: 'number' }).notNull(),
    agendaId: uuid('agenda_id'),
    /** The partner whose user created it (none for internal callers). */
    parceiroId: uuid('parceiro_id'),
    /** The folder the versions of a name count in: `agenda:<id>`, `parceiro:<id>` or `tenant`. */
    pasta: text('pasta').notNull(),
    descricao: text('descricao'),
    tamanho: bigint('tamanho', { mode: 'number' }),
    contentType: text('content_type'),
    sha256: text('sha256'),
    enviadoEm: timestamp('enviado_em', { withTimezone: true }),
  },
  (t) => [
    tenantPrimaryKey(t),
    tenantReference('agenda_anexo_agenda_fk', t, t.agendaId, agenda).onDelete('cascade'),
    uniqueIndex('agenda_anexo_versao').on(t.tenant, t.pasta, t.nome, t.versao),
    index('agenda_anexo_agenda').on(t.tenant, t.agendaId),
    tenantIsolation(t.tenant),
  ],
);
