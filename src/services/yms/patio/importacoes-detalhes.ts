import { sql } from 'drizzle-orm';
import { Store } from '../../../platform/core/db/store.ts';
import type { ExportTarget } from '../../../platform/core/export-target.ts';
import { type ImportTarget, type Refusal, refuse } from '../../../platform/core/import-target.ts';
import { DateTime, Enum, Type } from '../../../platform/core/schema.ts';
import { distinct, key, type Row, str } from './importacoes-codigos.ts';
import { execucaoEncerrada, execucoes, idsEmAndamento, quando, Uuid } from './importacoes-execucoes.ts';
import { execucaoCircuitoImagem, execucaoCircuitoVariavel } from './tables/execucoes.ts';

// The variables and camera images of finished executions, both ways, in one file
// (ExecucaoCircuitoDetalhe; spec 000 §4.3, docs/patio.md "Imports and exports").

/** Variables upsert on (execution, alvoId, chave), images on their id; both of finished executions. */
export const detalheImport: ImportTarget = {
  table: execucaoCircuitoVariavel,
  row: Type.Object({
    id: Uuid('the variable or image, kept when new'),
    execucaoCircuitoId: Uuid('a finished or cancelled execution of the tenant'),
    tipo: Enum(['VARIAVEL', 'IMAGEM'] as const),
    alvoId: Type.String({ minLength: 1, maxLength: 100, description: 'the step or area it was taken at' }),
    chave: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    valor: Type.Optional(Type.String({ maxLength: 4000 })),
    tipoCaptura: Type.Optional(Type.String({ maxLength: 50 })),
    rotina: Type.Optional(Type.String({ maxLength: 200 })),
    cameraIp: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    imagemUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    em: DateTime({ description: 'when the value was set or the image taken' }),
  }),
  naturalKey: ['id'],
  prepare: (row) => ({ ...row, em: quando(row.em) }),
  resolve: async (tx, rows, tenant) => {
    const found = await execucoes(tx, tenant, distinct(rows, 'execucaoCircuitoId'));
    const imagens = rows.filter((r) => r.tipo === 'IMAGEM');
    const emAndamento = await idsEmAndamento(tx, tenant, execucaoCircuitoImagem, distinct(imagens, 'id'));
    return rows.map((row): Row | Refusal => {
      const recusa = execucaoEncerrada(found, row.execucaoCircuitoId);
      if (recusa) return recusa;
      if (row.tipo === 'VARIAVEL') {
        if (row.chave === undefined) return refuse('chave', 'Informe chave de uma VARIAVEL');
        if (row.valor === undefined) return refuse('valor', 'Informe valor de uma VARIAVEL');
        return row;
      }
      if (row.cameraIp === undefined) return refuse('cameraIp', 'Informe cameraIp de uma IMAGEM');
      if (row.imagemUrl === undefined) return refuse('imagemUrl', 'Informe imagemUrl de uma IMAGEM');
      if (emAndamento.has(String(row.id)))
        return refuse('id', `imagem ${String(row.id)} é de uma execução em andamento`);
      return row;
    });
  },
  write: async (tx, tenant, rows, { update }) => {
    const last = <T>(list: T[], k: (r: T) => string) => [...new Map(list.map((r) => [k(r), r])).values()];
    const store = new Store(tx, tenant);
    const v = execucaoCircuitoVariavel;
    const variaveis = last(
      rows.filter((r) => r.tipo === 'VARIAVEL'),
      (r) => key(r.execucaoCircuitoId, r.alvoId, r.chave),
    ).map((r) => ({
      id: String(r.id),
      execucaoCircuitoId: String(r.execucaoCircuitoId),
      alvoId: String(r.alvoId),
      chave: String(r.chave),
      valor: String(r.valor),
      tipoCaptura: (r.tipoCaptura as string | undefined) ?? null,
      rotina: (r.rotina as string | undefined) ?? null,
      alteradaEm: r.em as Date,
    }));
    if (variaveis.length) {
      const insert = store.insert(v, variaveis);
      const target = [v.tenant, v.execucaoCircuitoId, v.alvoId, v.chave];
      await (update
        ? insert.onConflictDoUpdate({
            target,
            set: {
              valor: sql`excluded."valor"`,
              tipoCaptura: sql`excluded."tipo_captura"`,
              rotina: sql`excluded."rotina"`,
              alteradaEm: sql`excluded."alterada_em"`,
            },
          })
        : insert.onConflictDoNothing({ target }));
    }
    const i = execucaoCircuitoImagem;
    const imagens = last(
      rows.filter((r) => r.tipo === 'IMAGEM'),
      (r) => String(r.id),
    ).map((r) => ({
      id: String(r.id),
      execucaoCircuitoId: String(r.execucaoCircuitoId),
      alvoId: String(r.alvoId),
      cameraIp: String(r.cameraIp),
      imagemUrl: String(r.imagemUrl),
      capturadaEm: r.em as Date,
    }));
    if (imagens.length) {
      const insert = store.insert(i, imagens);
      const target = [i.tenant, i.id];
      await (update
        ? insert.onConflictDoUpdate({
            target,
            set: {
              execucaoCircuitoId: sql`excluded."execucao_circuito_id"`,
              alvoId: sql`excluded."alvo_id"`,
              cameraIp: sql`excluded."camera_ip"`,
              imagemUrl: sql`excluded."imagem_url"`,
              capturadaEm: sql`excluded."capturada_em"`,
            },
          })
        : insert.onConflictDoNothing({ target }));
    }
  },
};

/** Variables and camera images of executions, one file: `tipo` says which a row is. */
export const detalhe: ExportTarget = (() => {
  const v = execucaoCircuitoVariavel;
  const i = execucaoCircuitoImagem;
  const d = (column: string) => sql.raw(`d."${column}"`);
  return {
    from: sql`(
      select ${v.id} as id, ${v.tenant} as tenant, ${v.execucaoCircuitoId} as "execucaoCircuitoId",
        'VARIAVEL' as tipo, ${v.alvoId} as "alvoId", ${v.chave} as chave, ${v.valor} as valor,
        ${v.tipoCaptura} as "tipoCaptura", ${v.rotina} as rotina, null::text as "cameraIp",
        null::text as "imagemUrl", ${v.alteradaEm} as em
      from ${v}
      union all
      select ${i.id}, ${i.tenant}, ${i.execucaoCircuitoId}, 'IMAGEM', ${i.alvoId}, null, null, null, null,
        ${i.cameraIp}, ${i.imagemUrl}, ${i.capturadaEm}
      from ${i}) d`,
    tenant: d('tenant'),
    key: [d('id')],
    fields: {
      id: { sql: d('id'), type: 'uuid' },
      execucaoCircuitoId: { sql: d('execucaoCircuitoId'), type: 'uuid' },
      tipo: str(d('tipo')),
      alvoId: str(d('alvoId')),
      chave: str(d('chave')),
      valor: str(d('valor')),
      tipoCaptura: str(d('tipoCaptura')),
      rotina: str(d('rotina')),
      cameraIp: str(d('cameraIp')),
      imagemUrl: str(d('imagemUrl')),
      em: { sql: d('em'), type: 'datetime' },
    },
  };
})();
