import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { forgetBlob } from '../../../platform/blobs/facts.ts';
import { advisoryLock } from '../../../platform/core/db/locks.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import type { BlobInfo } from '../../../platform/core/ports.ts';
import { query } from '../../../platform/core/registry.ts';
import { DateTime, Int64, type TSchema, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { escopoParceiro, parceiroDoUsuario, representacao, SUJEITOS } from './representacao.ts';
import { agenda } from './tables/agendas.ts';
import { anexo as anexoTable } from './tables/anexos.ts';

// Attachments (spec 000 §4.4, §4.6; docs/agenda.md "Attachments"): obterUrlUploadAnexo creates one
// version of a named file (the storage place) and answers a signed, expiring upload URL of the
// platform blob store; the bytes' facts are recorded when the upload completes; the `anexo` entity
// and the child collection `agenda/{parentId}/anexos` read, describe and delete them.

/** Blob keys of attachments; the platform tells this service when one is uploaded. */
export const PREFIXO_BLOB = 'yms/agenda/anexos/';
/** How long a signed attachment URL lasts. */
export const VALIDADE_URL_SEGUNDOS = 900;

const blobKey = (id: string) => `${PREFIXO_BLOB}${id}`;
/** A file name: no slash, backslash or control character; not `.` or `..`. */
const NOME = '^(?!\\.{1,2}$)[^/\\\\\\u0000-\\u001f\\u007f]+$';
const NomeAnexo = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: NOME,
  description: 'the file name (no slash): its versions count within the folder',
});
const opt = Type.Optional;
const ReadOnly = <T extends TSchema>(schema: T, what: string) =>
  opt({ ...schema, description: `read-only: ${what}; a value sent is ignored` } as T);

type AnexoRow = typeof anexoTable.$inferSelect;

/** The agenda `id` as the caller may see it (a partner's user: its partners' agendas); else 404. */
async function agendaVisivel(ctx: Ctx, id: string) {
  const [row] = await ctx.store.select(
    agenda,
    and(eq(agenda.id, id.toLowerCase()), await escopoParceiro(ctx, agenda.parceiroId)),
  );
  if (!row) throw E.agendaNotFound({ id });
  return row;
}

/**
 * The folder a name's versions count in, and the partner the attachment belongs to: the agenda's
 * when one is given; else a partner's user's own partner; else the tenant's internal folder.
 */
async function pastaDe(ctx: Ctx, agendaId: string | undefined) {
  if (agendaId) {
    const row = await agendaVisivel(ctx, agendaId);
    return { pasta: `agenda:${row.id}`, agendaId: row.id, parceiroId: row.parceiroId };
  }
  const rep = await representacao(ctx);
  if (!rep) return { pasta: 'tenant', agendaId: null, parceiroId: null };
  const parceiro = parceiroDoUsuario(rep, undefined);
  return { pasta: `parceiro:${parceiro.id}`, agendaId: null, parceiroId: parceiro.id };
}

const NoFolder = {
  agendaId: opt(
    Type.String({
      format: 'uuid',
      description: '(design) the agenda the attachment belongs to (its folder)',
    }),
  ),
};

export const anexos = {
  obterUrlUploadAnexo: query({
    description:
      'Creates the storage place of a new version of the named file (of the agenda, when agendaId is given) and ' +
      'answers its signed upload URL (PUT the bytes, within 15 minutes)',
    get: true,
    // A query of the spec that writes: it records the new version (platform.md: queries only read).
    transaction: 'tenant',
    subjects: SUJEITOS,
    input: Type.Object({
      nomeAnexo: NomeAnexo,
      ...NoFolder,
      descricao: opt(Type.String({ maxLength: 255, description: '(design) what the file is' })),
    }),
    output: Type.Object({
      id: Type.String({ description: 'the attachment (anexo.id)' }),
      url: Type.String({ description: 'signed upload URL: PUT the bytes with their content type' }),
      nome: Type.String(),
      versao: Type.String({ description: 'the version of the name in its folder, from 1' }),
      expiraEm: DateTime({ description: '(design) when the URL stops working' }),
    }),
    handler: async (ctx, input) => {
      const { pasta, agendaId, parceiroId } = await pastaDe(ctx, input.agendaId);
      const nome = input.nomeAnexo;
      // One version number per (folder, name): concurrent uploads of one name queue on this lock.
      await advisoryLock(ctx.tx, 'yms/agenda/anexo', ctx.tenant.name, pasta, nome);
      const [ultima] = await ctx.tx
        .select({ versao: anexoTable.versao })
        .from(anexoTable)
        .where(ctx.store.scope(anexoTable, and(eq(anexoTable.pasta, pasta), eq(anexoTable.nome, nome))))
        .orderBy(desc(anexoTable.versao))
        .limit(1);
      const versao = (ultima?.versao ?? 0) + 1;
      const who = ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind;
      const [row] = await ctx.store
        .insert(anexoTable, [
          {
            nome,
            versao,
            pasta,
            agendaId,
            parceiroId,
            descricao: input.descricao ?? null,
            createdBy: who,
            lastModifiedBy: who,
            createdDate: ctx.now(),
            lastModifiedDate: ctx.now(),
          },
        ])
        .returning();
      const signed = ctx.platform.blobs.sign(
        ctx.tenant.name,
        blobKey(row!.id),
        'put',
        VALIDADE_URL_SEGUNDOS,
        {
          baseUrl: ctx.baseUrl,
        },
      );
      return { id: row!.id, url: signed.url, nome, versao: String(versao), expiraEm: signed.expiresAt };
    },
  }),

  obterUrlDownloadAnexo: query({
    description:
      'The signed download URL of the named file: its latest uploaded version in the folder (the agenda, when ' +
      'agendaId is given), or the version or attachment id asked',
    get: true,
    subjects: SUJEITOS,
    input: Type.Object({
      nomeAnexo: NomeAnexo,
      ...NoFolder,
      versao: opt(Int64({ minimum: 1, description: '(design) this version instead of the latest' })),
      id: opt(Type.String({ format: 'uuid', description: '(design) this attachment, in whatever folder' })),
    }),
    output: Type.Object({
      url: Type.String({ description: 'signed download URL' }),
      expiraEm: DateTime({ description: '(design) when the URL stops working' }),
    }),
    handler: async (ctx, input) => {
      const nome = input.nomeAnexo;
      const where = input.id
        ? eq(anexoTable.id, input.id.toLowerCase())
        : eq(anexoTable.pasta, (await pastaDe(ctx, input.agendaId)).pasta);
      const [row] = await ctx.tx
        .select()
        .from(anexoTable)
        .where(
          ctx.store.scope(
            anexoTable,
            and(
              where,
              eq(anexoTable.nome, nome),
              isNotNull(anexoTable.enviadoEm),
              input.versao !== undefined ? eq(anexoTable.versao, input.versao) : undefined,
              await escopoParceiro(ctx, anexoTable.parceiroId),
            ),
          ),
        )
        .orderBy(desc(anexoTable.versao))
        .limit(1);
      if (!row) throw E.anexoNotFound({ nome: input.versao ? `${nome} versão ${input.versao}` : nome });
      const signed = ctx.platform.blobs.sign(ctx.tenant.name, blobKey(row.id), 'get', VALIDADE_URL_SEGUNDOS, {
        baseUrl: ctx.baseUrl,
      });
      return { url: signed.url, expiraEm: signed.expiresAt };
    },
  }),
};

/** Told by the platform when an attachment's bytes arrived: records their facts on the version. */
export async function anexoEnviado(ctx: Ctx, blob: BlobInfo): Promise<void> {
  const id = blob.key.slice(PREFIXO_BLOB.length);
  await ctx.store.update(
    anexoTable,
    {
      tamanho: blob.size,
      contentType: blob.contentType,
      sha256: blob.sha256,
      enviadoEm: new Date(blob.uploadedAt),
    },
    eq(anexoTable.id, id),
  );
}

const SOMENTE_LEITURA = [
  'nome',
  'versao',
  'agendaId',
  'parceiroId',
  'pasta',
  'tamanho',
  'contentType',
  'sha256',
  'enviadoEm',
] as const;

export const anexoEntity = defineEntity({
  name: 'anexo',
  description:
    'Attachments: one row per version of a named file, created by obterUrlUploadAnexo; only descricao changes',
  table: anexoTable,
  subjects: SUJEITOS,
  fields: Type.Object({
    nome: ReadOnly(Type.String(), 'the file name, given to obterUrlUploadAnexo'),
    versao: ReadOnly(Int64(), 'version of the name in its folder, from 1'),
    agendaId: ReadOnly(Type.String({ format: 'uuid' }), 'the agenda it belongs to'),
    parceiroId: ReadOnly(Type.String({ format: 'uuid' }), 'the partner it belongs to'),
    pasta: ReadOnly(Type.String(), 'the folder: agenda:<id>, parceiro:<id> or tenant'),
    descricao: opt(Type.String({ maxLength: 255 })),
    tamanho: ReadOnly(Int64(), 'size in bytes, once uploaded'),
    contentType: ReadOnly(Type.String(), 'content type of the upload'),
    sha256: ReadOnly(Type.String(), 'SHA-256 of the bytes (hex)'),
    enviadoEm: ReadOnly(DateTime(), 'when the bytes arrived; absent while the upload is pending'),
  }),
  // Born of obterUrlUploadAnexo only: no POST route (405 saying so; left out of the documents).
  refuses: { creates: E.anexoPeloUpload().message },
  hooks: {
    rowScope: (ctx) => escopoParceiro(ctx, anexoTable.parceiroId),
    beforeSave: async (_ctx, next, previous) => {
      for (const f of SOMENTE_LEITURA) next[f] = previous![f] ?? null;
    },
    beforeDelete: async (ctx, row) => {
      // The version stops being downloadable with it (the signed URL checks the blob's record).
      await forgetBlob(ctx.store.tx, ctx.store.tenant, blobKey(String(row.id)), ctx.now());
    },
  },
});

export type { AnexoRow };
