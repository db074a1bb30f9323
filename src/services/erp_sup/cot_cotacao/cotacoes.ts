import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { blobs } from '../../../platform/blobs/tables.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { action } from '../../../platform/core/registry.ts';
import { DateTime, Type } from '../../../platform/core/schema.ts';
import { skusExistentes } from '../../erp_agr/com_comum/contract.ts';
import { E } from './errors.ts';
import { MAX_ITENS, RecCotacaoItem } from './schemas.ts';
import { cotacao, cotacaoItem } from './tables.ts';

// criarCotacao and cancelarCotacao (spec 001 §4.1; docs/cot_cotacao.md): a quotation of purchase
// needs, each need in one open quotation at most, cancelled per need (recorded, never deleted).
// Both are events on the outbox, in the operation's transaction, so subscribed suppliers' systems
// receive them (docs/events.md). Attachments are files of the platform blob store uploaded through
// obterUrlUploadAnexo (as yms/agenda's are), checked to exist when the quotation is created.

/** Blob keys of quotation attachments. */
export const PREFIXO_ANEXO = 'erp_sup/cot_cotacao/anexos/';
const VALIDADE_URL_SEGUNDOS = 900;
const chave = (id: string) => `${PREFIXO_ANEXO}${id.toLowerCase()}`;
export const TOPICO_CRIADA = 'erp_sup/cot_cotacao/cotacaoCriada';
export const TOPICO_CANCELADA = 'erp_sup/cot_cotacao/cotacaoCancelada';

const quem = (ctx: Ctx) => (ctx.caller.keyId ? `${ctx.caller.kind}:${ctx.caller.keyId}` : ctx.caller.kind);

const sqlState = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.cause?.code ?? e?.code;
};

export const cotacoes = {
  obterUrlUploadAnexo: action({
    description:
      '(design) A signed URL to PUT an attachment of a quotation item to (15 minutes); its id is the recCotacaoItemAnexo.id',
    visibility: 'PUBLIC',
    transaction: 'none',
    input: Type.Object({ nomeArquivo: Type.String({ minLength: 1, maxLength: 100 }) }),
    output: Type.Object({
      id: Type.String({ description: 'the attachment id (36 characters)' }),
      url: Type.String({ description: 'signed upload URL: PUT the bytes with their content type' }),
      expiraEm: DateTime(),
    }),
    handler: async (ctx) => {
      const id = randomUUID();
      const signed = ctx.platform.blobs.sign(
        ctx.tenant.name,
        `${PREFIXO_ANEXO}${id}`,
        'put',
        VALIDADE_URL_SEGUNDOS,
        {
          baseUrl: ctx.baseUrl,
        },
      );
      return { id, url: signed.url, expiraEm: signed.expiresAt };
    },
  }),

  criarCotacao: action({
    description:
      'Creates a quotation of one or more purchase needs; each need may be in one open quotation only',
    visibility: 'PUBLIC',
    input: Type.Object({ cotacao: Type.Array(RecCotacaoItem, { minItems: 1, maxItems: MAX_ITENS }) }),
    output: Type.Object({ idCotacao: Type.String({ maxLength: 36 }) }),
    handler: async (ctx, input) => {
      const itens = input.cotacao;
      const primeiro = new Map<string, number>();
      itens.forEach((item, i) => {
        const antes = primeiro.get(item.idNecessidadeCompra);
        if (antes !== undefined)
          throw E.necessidadeRepetida({
            field: `cotacao[${i}].idNecessidadeCompra`,
            id: item.idNecessidadeCompra,
            primeiro: antes,
          });
        primeiro.set(item.idNecessidadeCompra, i);
      });
      const conhecidos = await skusExistentes(
        ctx.tx,
        ctx.tenant.name,
        itens.flatMap((item) => (item.codigoSKU ? [item.codigoSKU] : [])),
      );
      // The platform's record of uploaded blobs, read in this transaction (as platform/imports reads
      // an import's file): a key there is a file whose bytes arrived.
      const chaves = itens.flatMap((item) => (item.anexos ?? []).map((a) => chave(a.id)));
      const enviados = new Set(
        chaves.length === 0
          ? []
          : (await ctx.store.select(blobs, inArray(blobs.key, [...new Set(chaves)]))).map((b) => b.key),
      );
      for (const [i, item] of itens.entries()) {
        if (item.codigoSKU && !conhecidos.has(item.codigoSKU))
          throw E.skuDesconhecido({ field: `cotacao[${i}].codigoSKU`, codigo: item.codigoSKU });
        for (const [j, anexo] of (item.anexos ?? []).entries()) {
          if (!enviados.has(chave(anexo.id)))
            throw E.anexoNaoEnviado({ field: `cotacao[${i}].anexos[${j}].id`, id: anexo.id });
        }
      }
      const abertos = await ctx.store.select(
        cotacaoItem,
        and(
          inArray(cotacaoItem.idNecessidadeCompra, [...primeiro.keys()]),
          eq(cotacaoItem.situacao, 'Aberta'),
        ),
      );
      if (abertos[0]) {
        const i = primeiro.get(abertos[0].idNecessidadeCompra)!;
        throw E.necessidadeEmCotacao({
          field: `cotacao[${i}].idNecessidadeCompra`,
          id: abertos[0].idNecessidadeCompra,
          idCotacao: abertos[0].cotacaoId,
        });
      }
      const who = quem(ctx);
      const now = ctx.now();
      const audit = { createdBy: who, lastModifiedBy: who, createdDate: now, lastModifiedDate: now };
      const [nova] = await ctx.store
        .insert(cotacao, [
          {
            ...audit,
            quantidadeItens: itens.length,
            itens: itens.map((item) => ({ ...item, situacao: 'Aberta' })),
          },
        ])
        .returning({ id: cotacao.id });
      const idCotacao = String(nova!.id);
      try {
        await ctx.store.insert(
          cotacaoItem,
          itens.map((item) => ({ ...audit, ...item, cotacaoId: idCotacao })),
        );
      } catch (err) {
        // The unique index of open needs decides a race the read above could not see.
        if (sqlState(err) === '23505') throw E.necessidadeEmCotacaoCorrida();
        throw err;
      }
      await ctx.emit(TOPICO_CRIADA, { idCotacao, cotacao: itens });
      return { idCotacao };
    },
  }),

  cancelarCotacao: action({
    description:
      'Cancels the open quotation items of the given purchase needs (a quotation with no open item left is cancelled); ' +
      'a need already cancelled is left as it is; a need never quoted is 404',
    visibility: 'PUBLIC',
    input: Type.Object({
      idNecessidadeCompra: Type.Array(Type.String({ minLength: 1, maxLength: 36 }), {
        minItems: 1,
        maxItems: MAX_ITENS,
      }),
    }),
    output: Type.Object({}),
    handler: async (ctx, input) => {
      const ids = [...new Set(input.idNecessidadeCompra)];
      const itens = await ctx.store.select(cotacaoItem, inArray(cotacaoItem.idNecessidadeCompra, ids));
      const quotados = new Set(itens.map((i) => i.idNecessidadeCompra));
      const faltando = input.idNecessidadeCompra.findIndex((id) => !quotados.has(id));
      if (faltando >= 0)
        throw E.necessidadeNotFound({
          id: input.idNecessidadeCompra[faltando]!,
          field: `idNecessidadeCompra[${faltando}]`,
        });
      // The quotations touched are locked first, in id order: two cancellations of needs of one
      // quotation take turns, so the one that cancels the last open item sees the other's commit.
      const cotacaoIds = [
        ...new Set(itens.filter((i) => i.situacao === 'Aberta').map((i) => String(i.cotacaoId))),
      ];
      if (cotacaoIds.length === 0) return {};
      const travadas = await ctx.store.select(cotacao, inArray(cotacao.id, cotacaoIds.sort()), {
        forUpdate: true,
      });
      const now = ctx.now();
      const who = quem(ctx);
      const cancelados = await ctx.store
        .update(
          cotacaoItem,
          {
            situacao: 'Cancelada',
            canceladaEm: now,
            canceladaPor: who,
            lastModifiedDate: now,
            lastModifiedBy: who,
          },
          and(inArray(cotacaoItem.idNecessidadeCompra, ids), eq(cotacaoItem.situacao, 'Aberta')),
        )
        .returning({
          cotacaoId: cotacaoItem.cotacaoId,
          idNecessidadeCompra: cotacaoItem.idNecessidadeCompra,
        });
      const cancelada = new Set(cancelados.map((c) => c.idNecessidadeCompra));
      const fechada = new Set<string>();
      for (const c of travadas) {
        const itensLidos = c.itens.map((item) =>
          item.situacao === 'Aberta' && cancelada.has(String(item.idNecessidadeCompra))
            ? { ...item, situacao: 'Cancelada', canceladaEm: now.toISOString() }
            : item,
        );
        const todas = itensLidos.every((item) => item.situacao === 'Cancelada');
        if (todas) fechada.add(String(c.id));
        await ctx.store.update(
          cotacao,
          {
            itens: itensLidos,
            lastModifiedDate: now,
            lastModifiedBy: who,
            ...(todas ? { situacao: 'Cancelada' as const, canceladaEm: now } : {}),
          },
          eq(cotacao.id, String(c.id)),
        );
      }
      const porCotacao = new Map<string, string[]>();
      for (const c of cancelados) {
        const k = String(c.cotacaoId);
        porCotacao.set(k, [...(porCotacao.get(k) ?? []), c.idNecessidadeCompra]);
      }
      for (const [idCotacao, necessidades] of [...porCotacao.entries()].sort(([a], [b]) =>
        a < b ? -1 : 1,
      )) {
        await ctx.emit(TOPICO_CANCELADA, {
          idCotacao,
          idNecessidadeCompra: necessidades,
          cotacaoCancelada: fechada.has(idCotacao),
        });
      }
      return {};
    },
  }),
};
