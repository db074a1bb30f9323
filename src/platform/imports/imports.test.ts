import { sql } from 'drizzle-orm';
import { boolean, date, doublePrecision, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { importFile as runImport, upload as uploadFile } from '../../../test/transfers.ts';
import { allServices } from '../../services/index.ts';
import { blobs } from '../blobs/tables.ts';
import { rowsOf } from '../core/db/database.ts';
import { tenantColumn } from '../core/db/tenancy.ts';
import { fieldOf } from '../core/export-target.ts';
import { defineService } from '../core/registry.ts';
import { DateOnly, Double, Int64, Type } from '../core/schema.ts';
import { transferEvents } from '../core/transfer-events.ts';
import { outbox } from '../events/tables.ts';
import { exportActions } from '../exports/actions.ts';
import { importActions } from './actions.ts';

// Imports end to end: upload through a signed URL, import<X>, the durable job, progress, row errors.

const pessoas = pgTable(
  'test_pessoas',
  {
    tenant: tenantColumn(),
    codigo: integer('codigo').notNull(),
    nome: text('nome').notNull(),
    nascimento: date('nascimento'),
    ativo: boolean('ativo'),
    renda: doublePrecision('renda'),
  },
  (t) => [uniqueIndex('test_pessoas_codigo').on(t.tenant, t.codigo)],
);

const cadastro = defineService({
  domain: 'test',
  name: 'cadastro',
  version: '1.0.0',
  title: 'Imports probe',
  dependencies: ['platform/imports', 'platform/exports'],
  operations: {
    ...importActions(['Pessoa']),
    ...exportActions(['Pessoa']),
    ...transferEvents(['Pessoa']),
  },
  exports: {
    // No id column: the natural key (unique per tenant) orders and pages the rows.
    Pessoa: {
      from: sql`${pessoas}`,
      tenant: pessoas.tenant,
      key: [pessoas.codigo],
      fields: Object.fromEntries(
        (['codigo', 'nome', 'nascimento', 'ativo', 'renda'] as const).map((c) => [c, fieldOf(pessoas[c])]),
      ),
    },
  },
  imports: {
    Pessoa: {
      table: pessoas,
      naturalKey: ['codigo'],
      row: Type.Object({
        codigo: Int64({ minimum: 1 }),
        nome: Type.String({ minLength: 1, maxLength: 60 }),
        nascimento: Type.Optional(DateOnly()),
        ativo: Type.Optional(Type.Boolean()),
        renda: Type.Optional(Double({ minimum: 0 })),
      }),
      prepare: (row) => ({ ...row, nome: String(row.nome).toUpperCase() }),
    },
  },
});

let t: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  t = await testApp({ services: [...allServices, cadastro] });
  for (const statement of [
    `create table test_pessoas (tenant text not null default current_setting('ponte.tenant'), codigo integer not null,
       nome text not null, nascimento date, ativo boolean, renda double precision)`,
    'create unique index test_pessoas_codigo on test_pessoas (tenant, codigo)',
    'alter table test_pessoas enable row level security',
    `create policy tenant_isolation on test_pessoas to ponte_app using (tenant = current_setting('ponte.tenant', true))
       with check (tenant = current_setting('ponte.tenant', true))`,
    'grant select, insert, update, delete on test_pessoas to ponte_app',
  ]) {
    await t.db.system((tx) => tx.execute(sql.raw(statement)));
  }
  key = await t.tenant('acme');
  otherKey = await t.tenant('globex');
});

const upload = (fileName: string, content: string | Buffer, auth = key, tenant = 'acme') =>
  uploadFile(t, tenant, auth, fileName, content);

const importFile = (config: Record<string, unknown>, auth = key, tenant = 'acme') =>
  runImport(t, tenant, auth, 'test/cadastro/actions/importPessoa', config);

const people = (tenant = 'acme') =>
  t.db.tenant(tenant, async (tx) =>
    rowsOf<{
      codigo: number;
      nome: string;
      nascimento: string | null;
      ativo: boolean | null;
      renda: number | null;
    }>(
      await tx.execute(
        sql`select codigo, nome, nascimento::text, ativo, renda from test_pessoas order by codigo`,
      ),
    ),
  );

describe('imports', () => {
  it('imports a CSV file, coercing cells to the declared types', async () => {
    const arquivo = await upload(
      'pessoas.csv',
      '\ufeffcodigo,nome,nascimento,ativo,renda\n1,Ana,1990-05-01,true,1500.5\n2,"Bruno, o Jovem",,false,\n3,Caio,2001-12-31,,0\n',
    );
    const { status } = await importFile({ arquivo });
    expect(status).toMatchObject({ state: 'done', formato: 'CSV', processed: 3, succeeded: 3, failed: 0 });
    expect(status.bytesRead).toBe(status.size);
    expect(await people()).toEqual([
      { codigo: 1, nome: 'ANA', nascimento: '1990-05-01', ativo: true, renda: 1500.5 },
      { codigo: 2, nome: 'BRUNO, O JOVEM', nascimento: null, ativo: false, renda: null },
      { codigo: 3, nome: 'CAIO', nascimento: '2001-12-31', ativo: null, renda: 0 },
    ]);
  });

  it('records every bad row with its number, field and reason, and keeps the good ones', async () => {
    const arquivo = await upload(
      'ruins.csv',
      'codigo;nome;nascimento;renda\n4;Davi;1985-01-01;10\nx;Eva;;\n6;;31/12/2000;\n7;Fabio;;-1\n8;Gil;;\n',
    );
    const { importJobId, status } = await importFile({ arquivo, separador: ';' });
    expect(status).toMatchObject({ state: 'done', processed: 5, succeeded: 2, failed: 3 });
    const errors = await t.call(
      'acme',
      'platform/imports/queries/listImportErrors',
      { importJobId },
      { auth: key },
    );
    expect(errors.json().totalElements).toBe(4);
    expect(errors.json().errors).toEqual([
      { row: 2, field: 'codigo', message: "field 'codigo' must be of type integer" },
      { row: 3, field: 'nome', message: "field 'nome' is required" },
      {
        row: 3,
        field: 'nascimento',
        message: expect.stringMatching(/^field 'nascimento' must be a valid date/),
      },
      { row: 4, field: 'renda', message: "field 'renda' must be >= 0" },
    ]);
    // One error a page: the pages walk the same list in the same order (row, then the row's seq).
    const pages: unknown[] = [];
    for (let page = 0; page < 4; page++) {
      const one = await t.call(
        'acme',
        'platform/imports/queries/listImportErrors',
        { importJobId, page, size: 1 },
        { auth: key },
      );
      pages.push(...one.json().errors);
    }
    expect(pages).toEqual(errors.json().errors);
    expect((await people()).map((p) => p.codigo)).toEqual([1, 2, 3, 4, 8]);
  });

  it('upserts by the natural key, and keeps existing records when asked to', async () => {
    const renamed = await upload(
      'renomear.json',
      JSON.stringify([
        { codigo: 1, nome: 'Ana Maria' },
        { codigo: 9, nome: 'Ivo' },
      ]),
    );
    const first = await importFile({ arquivo: renamed });
    expect(first.status).toMatchObject({ state: 'done', formato: 'JSON', succeeded: 2 });
    expect((await people()).find((p) => p.codigo === 1)!.nome).toBe('ANA MARIA');

    const again = await upload(
      'manter.jsonl',
      '{"codigo": 1, "nome": "Outra"}\n{"codigo": 10, "nome": "Jo"}\n',
    );
    const kept = await importFile({ arquivo: again, atualizarExistentes: false });
    expect(kept.status).toMatchObject({ state: 'done', formato: 'JSONL', succeeded: 2 });
    const all = await people();
    expect(all.find((p) => p.codigo === 1)!.nome).toBe('ANA MARIA');
    expect(all.find((p) => p.codigo === 10)!.nome).toBe('JO');
  });

  it('takes the last row of a key repeated in one file', async () => {
    const arquivo = await upload('repetido.csv', 'codigo,nome\n20,Primeiro\n20,Segundo\n');
    const { status } = await importFile({ arquivo });
    expect(status).toMatchObject({ state: 'done', succeeded: 2, failed: 0 });
    expect((await people()).find((p) => p.codigo === 20)!.nome).toBe('SEGUNDO');
  });

  it('reports a bad JSON line as that row’s error, and a broken JSON array as a failed import', async () => {
    const lines = await upload(
      'linhas.jsonl',
      '{"codigo": 30, "nome": "Lia"}\n{"codigo": 31,\n{"codigo": 32, "nome": "Max"}\n',
    );
    const partial = await importFile({ arquivo: lines });
    expect(partial.status).toMatchObject({ state: 'done', succeeded: 2, failed: 1 });
    const broken = await upload('quebrado.json', '[{"codigo": 40, "nome": "Nei"}, {"codigo": ');
    const failed = await importFile({ arquivo: broken });
    expect(failed.status.state).toBe('failed');
    expect(failed.status.lastError).toMatch(/not a valid JSON array/);
    // The job says the same, after one attempt: another cannot mend the file.
    const job = (await t.admin('GET', `/tenants/acme/jobs/${failed.importJobId}`)).json();
    expect(job).toMatchObject({ state: 'failed', attempts: 1, lastError: failed.status.lastError });
  });

  it('fails an import whose file is gone for good, and says so in every view', async () => {
    // Recorded as uploaded, but its bytes are nowhere this node looks (a folder store on another
    // node, a file removed behind the platform's back).
    const arquivo = 'imports/perdido/pessoas.csv';
    await t.db.tenant('acme', (tx) =>
      tx
        .insert(blobs)
        .values({ tenant: 'acme', key: arquivo, size: 20, sha256: '0'.repeat(64), contentType: 'text/csv' }),
    );
    const { importJobId, status } = await importFile({ arquivo });
    const error = `Blob ${arquivo} not found in the ${t.platform.blobs.kind} store of this node`;
    expect(status).toMatchObject({ state: 'failed', lastError: error, processed: 0 });
    const job = await t.admin('GET', `/tenants/acme/jobs/${importJobId}`);
    expect(job.json()).toMatchObject({ state: 'failed', lastError: error, attempts: 1 });
    expect(job.json().finishedAt).not.toBeNull();
    // Nothing is left to run it again.
    expect(await t.platform.jobs.drain()).toBe(0);
  });

  it('resumes from its cursor: committed rows are not read again', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => `${1000 + i},Pessoa ${i}`).join('\n');
    const arquivo = await upload('grande.csv', `codigo,nome\n${rows}\n`);
    const res = await t.call(
      'acme',
      'test/cadastro/actions/importPessoa',
      { config: { arquivo } },
      { auth: key },
    );
    const { importJobId } = res.json();
    // As if a first attempt had committed 1,200 rows and died: the cursor says 1200.
    await t.db.tenant('acme', (tx) =>
      tx.execute(
        sql`update imports set processed = 1200, succeeded = 1200, state = 'running' where id = ${importJobId}`,
      ),
    );
    await t.platform.jobs.drain();
    const status = (
      await t.call('acme', 'platform/imports/queries/getImport', { importJobId }, { auth: key })
    ).json();
    expect(status).toMatchObject({ state: 'done', processed: 2500, succeeded: 2500, failed: 0 });
    const imported = await t.db.tenant('acme', async (tx) =>
      rowsOf<{ n: number }>(
        await tx.execute(sql`select count(*)::int as n from test_pessoas where codigo >= 1000`),
      ),
    );
    expect(imported[0]!.n).toBe(1300);
  });

  it('answers 404 for a file that was not uploaded, 400 for an unknown format', async () => {
    const missing = await t.call(
      'acme',
      'test/cadastro/actions/importPessoa',
      { config: { arquivo: 'imports/nada.csv' } },
      { auth: key },
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toMatch(/upload it first/);
    const arquivo = await upload('dados.txt', 'codigo,nome\n');
    const unknown = await t.call(
      'acme',
      'test/cadastro/actions/importPessoa',
      { config: { arquivo } },
      { auth: key },
    );
    expect(unknown.statusCode).toBe(400);
    const bad = await t.call(
      'acme',
      'test/cadastro/actions/importPessoa',
      { config: { arquivo, formato: 'XML' } },
      { auth: key },
    );
    expect(bad.statusCode).toBe(400);
  });

  it('names what a service imports when asked for a kind it has not (startImport), whatever the name', async () => {
    const arquivo = await upload('kinds.csv', 'codigo,nome\n');
    const start = (service: string, kind: string) =>
      t.call(
        'acme',
        'platform/imports/actions/startImport',
        { service, kind, config: { arquivo } },
        { auth: key },
      );
    const cases: Array<[string, string, string]> = [
      ['test/cadastro', 'pessoa', 'Service test/cadastro has no import pessoa (its imports: Pessoa)'],
      [
        'test/cadastro',
        'constructor',
        'Service test/cadastro has no import constructor (its imports: Pessoa)',
      ],
      ['test/nada', 'Pessoa', 'Service test/nada has no import Pessoa (no such service)'],
    ];
    for (const [service, kind, message] of cases) {
      const res = await start(service, kind);
      expect(res.statusCode, kind).toBe(404);
      expect(res.json().message).toBe(message);
    }
  });

  it('keeps tenants apart: files, imports and rows', async () => {
    const arquivo = await upload('outros.csv', 'codigo,nome\n1,Globex\n', otherKey, 'globex');
    const mine = await t.call(
      'acme',
      'test/cadastro/actions/importPessoa',
      { config: { arquivo } },
      { auth: key },
    );
    expect(mine.statusCode).toBe(404);
    const { importJobId, status } = await importFile({ arquivo }, otherKey, 'globex');
    expect(status.state).toBe('done');
    expect(await people('globex')).toEqual([
      { codigo: 1, nome: 'GLOBEX', nascimento: null, ativo: null, renda: null },
    ]);
    expect((await people()).find((p) => p.codigo === 1)!.nome).toBe('ANA MARIA');
    const peek = await t.call('acme', 'platform/imports/queries/getImport', { importJobId }, { auth: key });
    expect(peek.statusCode).toBe(404);
  });
});

describe('status events and the way back', () => {
  const eventsOf = async (topic: string, id: string, field: 'importJobId' | 'exportJobId') =>
    (await t.db.tenant('acme', (tx) => tx.select().from(outbox).orderBy(outbox.id)))
      .filter((e) => e.topic === topic)
      .map((e) => (e.payload as { eventpl: Record<string, unknown> }).eventpl)
      .filter((e) => e[field] === id);

  it('publishes importPessoaEvent when an import starts and ends, and when it fails', async () => {
    const good = await upload('eventos.csv', 'codigo,nome,renda\n500,Rui,10\n501,,\n');
    const { importJobId } = await importFile({ arquivo: good });
    const events = await eventsOf('test/cadastro/importPessoaEvent', importJobId, 'importJobId');
    expect(events).toEqual([
      expect.objectContaining({ state: 'running', kind: 'Pessoa', service: 'test/cadastro', processed: 0 }),
      expect.objectContaining({
        state: 'done',
        processed: 2,
        succeeded: 1,
        failed: 1,
        firstErrors: [{ row: 2, field: 'nome', message: "field 'nome' is required" }],
        finishedAt: expect.any(String),
      }),
    ]);
    const broken = await upload('quebrado2.json', '[{"codigo": 502, "nome": "Ze"}, {');
    const failed = await importFile({ arquivo: broken });
    const end = (await eventsOf('test/cadastro/importPessoaEvent', failed.importJobId, 'importJobId')).at(-1);
    expect(end).toMatchObject({
      state: 'failed',
      lastError: expect.stringMatching(/not a valid JSON array/),
    });
  });

  it('exports a table with dates, numbers and quoted text, and the file imports back as the same rows', async () => {
    const res = await t.call('acme', 'test/cadastro/actions/exportPessoa', {}, { auth: key });
    expect(res.statusCode, res.body).toBe(200);
    const { exportJobId } = res.json();
    await t.platform.jobs.drain();
    const status = (
      await t.call('acme', 'platform/exports/queries/getExport', { exportJobId }, { auth: key })
    ).json();
    const before = await people();
    expect(status).toMatchObject({ state: 'done', rows: before.length, formato: 'CSV' });
    const url = new URL(status.downloadUrl);
    const file = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(file.body).toContain('"BRUNO, O JOVEM"');
    expect(file.body).toContain('1,ANA MARIA,1990-05-01,true,1500.5');
    const done = await eventsOf('test/cadastro/exportPessoaEvent', exportJobId, 'exportJobId');
    expect(done.map((e) => e.state)).toEqual(['running', 'done']);
    // Back into a tenant that has none of them: the same rows (prepare upper-cases names again).
    const arquivo = await upload('volta.csv', file.body, otherKey, 'globex');
    await t.db.tenant('globex', (tx) => tx.execute(sql`delete from test_pessoas`));
    const back = await importFile({ arquivo }, otherKey, 'globex');
    expect(back.status).toMatchObject({ state: 'done', succeeded: before.length, failed: 0 });
    expect(await people('globex')).toEqual(before);
  });
});
