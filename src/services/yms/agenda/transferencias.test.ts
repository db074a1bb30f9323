import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { exportFile, importFile, upload as uploadFile } from '../../../../test/transfers.ts';
import { Type } from '../../../platform/core/schema.ts';
import { ExportEventStatus, ImportEventStatus } from '../../../platform/core/transfer-events.ts';
import { validate } from '../../../platform/core/validation.ts';
import { makePlanta, outboxOf, seed } from '../patio/fixtures.ts';
import { planta } from '../patio/tables/plantas.ts';
import { agendaCall, makeTipo, seedTipos } from './fixtures.ts';
import { customTable } from './tables/custom.ts';
import { configuracaoAprovacaoAgenda } from './tables/preagendas.ts';
import { TRANSFER_KINDS } from './transferencias.ts';

// yms/agenda's imports and exports (spec 000 §4.6, docs/agenda.md "Imports and exports"): the
// configuration both ways by plant and type code, the approval history and the pre-agenda log as
// exports, the ten status events, the round trip into another tenant, tenant isolation.

let t: TestApp;
const keys: Record<string, string> = {};
const api: Record<string, ReturnType<typeof agendaCall>> = {};
/** Per tenant: the plant codes and the type codes seeded, by code → id. */
const ids: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  t = await testApp();
  for (const tenant of ['acme', 'globex', 'initech']) {
    keys[tenant] = await t.tenant(tenant);
    api[tenant] = agendaCall(t, tenant, keys[tenant]!);
  }
  // acme and globex have the same plants and types (different ids); initech has none.
  for (const tenant of ['acme', 'globex']) {
    const [p1, p2] = await seed(t, tenant, planta, [
      makePlanta({ codigo: 'P1' }),
      makePlanta({ codigo: 'P2' }),
    ]);
    const [t1, t2, t3] = await seedTipos(t, tenant, [
      makeTipo({ codigo: 'DESC-GRAOS', plantaId: p1!.id }),
      makeTipo({ codigo: 'DESC-FARELO', plantaId: p1!.id }),
      makeTipo({ codigo: 'CARGA', plantaId: p2!.id, operacao: 'CARGA' }),
    ]);
    ids[tenant] = { P1: p1!.id, P2: p2!.id, 'DESC-GRAOS': t1!.id, 'DESC-FARELO': t2!.id, CARGA: t3!.id };
  }
});

const upload = (tenant: string, fileName: string, content: string) =>
  uploadFile(t, tenant, keys[tenant]!, fileName, content);

async function importar(tenant: string, kind: string, fileName: string, content: string, config = {}) {
  const arquivo = await upload(tenant, fileName, content);
  return importFile(t, tenant, keys[tenant]!, `yms/agenda/actions/import${kind}`, { arquivo, ...config });
}

const exportar = (tenant: string, kind: string, config: Record<string, unknown> = {}) =>
  exportFile(t, tenant, keys[tenant]!, `yms/agenda/actions/export${kind}`, config);

const jsonl = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The status events of one job, as published to the outbox: [state, eventpl] in order. */
async function statusEvents(tenant: string, topic: string, jobField: string, jobId: string) {
  const events = (await outboxOf(t, tenant)).filter(
    (e) =>
      e.topic === topic && (e.payload as { eventpl: Record<string, unknown> }).eventpl[jobField] === jobId,
  );
  return events.map((e) => e.payload as { eventpl: Record<string, unknown> });
}

async function configuracoes(tenant: string) {
  const rows = await t.db.tenant(tenant, (tx) =>
    tx.select().from(configuracaoAprovacaoAgenda).where(eq(configuracaoAprovacaoAgenda.tenant, tenant)),
  );
  return rows.sort((a, b) =>
    `${a.plantaId}${a.tipoAgendamentoId}`.localeCompare(`${b.plantaId}${b.tipoAgendamentoId}`),
  );
}

async function definicoes(tenant: string) {
  return t.db.tenant(tenant, (tx) =>
    tx
      .select()
      .from(customTable)
      .where(eq(customTable.tenant, tenant))
      .orderBy(asc(customTable.entidade), asc(customTable.chave)),
  );
}

describe('import of ConfiguracaoAprovacaoAgenda', () => {
  it('imports by plant and type code with the entity’s rules; a bad row is reported and changes nothing', async () => {
    // An existing configuration of P2 that the bad rows of P2 must leave as it is.
    const antes = await api.acme!('entities/configuracaoAprovacaoAgenda', {
      plantaId: ids.acme!.P2,
      niveis: 2,
      descricao: 'antes',
    });
    expect(antes.statusCode, antes.body).toBe(200);
    const stored = await configuracoes('acme');

    const out = await importar(
      'acme',
      'ConfiguracaoAprovacaoAgenda',
      'config.csv',
      [
        'plantaCodigo,tipoAgendamentoCodigo,exigeAprovacao,niveis,aprovadores,descricao',
        ',,false,,,Geral: sem aprovação',
        'P1,,,2, 1:ana@acme.com | 2:bia@acme.com ,Planta 1',
        'P1,DESC-GRAOS,true,3,"[{""nivel"":1,""usuario"":"" ana ""},{""nivel"":3,""usuario"":""caio""}]",',
        'P9,,,,,',
        ',NADA,,,,',
        'P2,,,1,1:ana|2:bia,',
        'P2,,,11,,',
        'P2,,,2,ana,',
        'P2,,talvez,,,',
        'P2,,,,"[{""nivel"":1}",',
      ].join('\n'),
    );
    expect(out.status).toMatchObject({ state: 'done', processed: 10, succeeded: 3, failed: 7 });
    expect(out.errors).toEqual([
      { row: 4, field: 'plantaCodigo', message: 'planta P9 não existe' },
      { row: 5, field: 'tipoAgendamentoCodigo', message: 'tipo de agendamento NADA não existe' },
      {
        row: 6,
        field: 'aprovadores[1].nivel',
        message: 'aprovadores[1].nivel 2 passa do número de níveis (1)',
      },
      { row: 7, field: 'niveis', message: "field 'niveis' must be <= 10" },
      {
        row: 8,
        field: 'aprovadores[0].nivel',
        message: "field 'aprovadores[0].nivel' must be of type integer",
      },
      { row: 9, field: 'exigeAprovacao', message: "field 'exigeAprovacao' must be of type boolean" },
      { row: 10, field: 'aprovadores', message: "field 'aprovadores' is not a valid JSON array" },
    ]);
    const rows = await configuracoes('acme');
    expect(rows).toHaveLength(4);
    // P2's configuration is untouched.
    expect(rows.find((r) => r.plantaId === ids.acme!.P2)).toEqual(
      stored.find((r) => r.plantaId === ids.acme!.P2),
    );
    const de = (plantaId: string | null, tipo: string | null) =>
      rows.find((r) => r.plantaId === plantaId && r.tipoAgendamentoId === tipo);
    expect(de(null, null)).toMatchObject({
      exigeAprovacao: false,
      niveis: 1,
      aprovadores: [],
      descricao: 'Geral: sem aprovação',
    });
    expect(de(ids.acme!.P1!, null)).toMatchObject({
      exigeAprovacao: true,
      niveis: 2,
      aprovadores: [
        { nivel: 1, usuario: 'ana@acme.com' },
        { nivel: 2, usuario: 'bia@acme.com' },
      ],
      createdBy: `import:${out.importJobId}`,
    });
    expect(de(ids.acme!.P1!, ids.acme!['DESC-GRAOS']!)).toMatchObject({
      niveis: 3,
      aprovadores: [
        { nivel: 1, usuario: 'ana' },
        { nivel: 3, usuario: 'caio' },
      ],
      descricao: null,
    });
  });

  it('updates by scope (an empty plant or type is a value), or keeps the record with atualizarExistentes false', async () => {
    const update = await importar(
      'acme',
      'ConfiguracaoAprovacaoAgenda',
      'config2.jsonl',
      [
        JSON.stringify({ exigeAprovacao: false, descricao: 'Geral, de novo' }),
        JSON.stringify({ plantaCodigo: 'P1', tipoAgendamentoCodigo: 'DESC-GRAOS' }),
      ].join('\n'),
    );
    expect(update.status).toMatchObject({ state: 'done', succeeded: 2, failed: 0 });
    const rows = await configuracoes('acme');
    expect(rows).toHaveLength(4);
    const geral = rows.find((r) => !r.plantaId && !r.tipoAgendamentoId)!;
    expect(geral.descricao).toBe('Geral, de novo');
    // The absent fields went back to their defaults: a file row is the whole record.
    expect(rows.find((r) => r.tipoAgendamentoId === ids.acme!['DESC-GRAOS'])).toMatchObject({
      exigeAprovacao: true,
      niveis: 1,
      aprovadores: [],
    });

    const kept = await importar(
      'acme',
      'ConfiguracaoAprovacaoAgenda',
      'config3.json',
      JSON.stringify([{ descricao: 'ignorada' }]),
      { atualizarExistentes: false },
    );
    expect(kept.status).toMatchObject({ state: 'done', succeeded: 1 });
    expect((await configuracoes('acme')).find((r) => !r.plantaId && !r.tipoAgendamentoId)!.descricao).toBe(
      'Geral, de novo',
    );
  });

  it('resolves codes only in the importing tenant', async () => {
    const before = await tableCounts(t.db);
    const out = await importar(
      'initech',
      'ConfiguracaoAprovacaoAgenda',
      'config.csv',
      'plantaCodigo,tipoAgendamentoCodigo,niveis\nP1,,1\n,DESC-GRAOS,1\n',
    );
    expect(out.status).toMatchObject({ state: 'done', succeeded: 0, failed: 2 });
    expect(out.errors.map((e) => (e as { field: string }).field)).toEqual([
      'plantaCodigo',
      'tipoAgendamentoCodigo',
    ]);
    expect(await configuracoes('initech')).toEqual([]);
    const after = await tableCounts(t.db);
    expect(after.configuracao_aprovacao_agenda).toBe(before.configuracao_aprovacao_agenda);
  });
});

describe('import of CustomTable', () => {
  it('imports definitions with the entity’s rules; bad rows are reported, the rest written', async () => {
    const out = await importar(
      'acme',
      'CustomTable',
      'custom.csv',
      [
        'entidade;chave;rotulo;tipo;obrigatorio;opcoes;tamanhoMaximo',
        'agenda;lacre;Lacre;TEXTO;true;;20',
        'agenda;produto;Produto;LISTA;;SOJA | MILHO|TRIGO;',
        'preAgenda;peso;Peso (kg);NUMERO;;;',
        'preAgenda;cor;Cor;LISTA;;;',
        'preAgenda;cor2;Cor;LISTA;;A|A;',
        'preAgenda;n;N;NUMERO;;A|B;',
        'preAgenda;d;D;DATA;;;10',
        'preAgenda;1x;X;TEXTO;;;',
        'pedido;x;X;TEXTO;;;',
        'agenda;y;Y;LISTA;;A||B;',
      ].join('\n'),
      { separador: ';' },
    );
    expect(out.status).toMatchObject({ state: 'done', processed: 10, succeeded: 3, failed: 7 });
    expect(out.errors).toEqual([
      {
        row: 4,
        field: 'opcoes',
        message: "Campo customizado cor do tipo LISTA precisa de 'opcoes' (ao menos uma)",
      },
      { row: 5, field: 'opcoes', message: "'opcoes' do campo cor2 tem valores repetidos" },
      { row: 6, field: 'opcoes', message: "'opcoes' só vale para o tipo LISTA (campo n é NUMERO)" },
      {
        row: 7,
        field: 'tamanhoMaximo',
        message: "'tamanhoMaximo' só vale para o tipo TEXTO (campo d é DATA)",
      },
      { row: 8, field: 'chave', message: "field 'chave' must match ^[A-Za-z_][A-Za-z0-9_]*$" },
      { row: 9, field: 'entidade', message: expect.stringMatching(/^field 'entidade' must be one of/) },
      { row: 10, field: 'opcoes[1]', message: "field 'opcoes[1]' must have at least 1 characters" },
    ]);
    expect(
      (await definicoes('acme')).map((d) => [
        d.entidade,
        d.chave,
        d.tipo,
        d.obrigatorio,
        d.opcoes,
        d.tamanhoMaximo,
      ]),
    ).toEqual([
      ['agenda', 'lacre', 'TEXTO', true, null, 20],
      ['agenda', 'produto', 'LISTA', false, ['SOJA', 'MILHO', 'TRIGO'], null],
      ['preAgenda', 'peso', 'NUMERO', false, null, null],
    ]);
    // The imported definitions check the custom objects like ones made through the entity.
    const pre = await api.acme!('entities/preAgenda', {
      plantaId: ids.acme!.P1,
      tipoAgendamentoId: ids.acme!['DESC-GRAOS'],
      dataEsperada: '2026-05-01T10:00:00Z',
      custom: { peso: 'pesado' },
    });
    expect(pre.statusCode).toBe(422);
  });

  it('updates a definition by (entidade, chave): a LISTA turned TEXTO loses its options', async () => {
    const out = await importar(
      'acme',
      'CustomTable',
      'custom.json',
      JSON.stringify([
        { entidade: 'agenda', chave: 'produto', rotulo: 'Produto (texto)', tipo: 'TEXTO' },
        { entidade: 'agenda', chave: 'lacre', rotulo: 'Lacre', tipo: 'LISTA', opcoes: ['L1', 'L2'] },
        { entidade: 'agenda', chave: 'z', rotulo: 'Z', tipo: 'LISTA', opcoes: 'A|B' },
        { entidade: 'agenda', chave: 'w', rotulo: 'W', tipo: 'LISTA', opcoes: [1] },
      ]),
    );
    expect(out.status).toMatchObject({ state: 'done', succeeded: 3, failed: 1 });
    // Neither form of a list: the string branch and the array's item both say why.
    expect(out.errors).toEqual([
      { row: 4, field: 'opcoes', message: "field 'opcoes' must be of type string" },
      { row: 4, field: 'opcoes[0]', message: "field 'opcoes[0]' must be of type string" },
    ]);
    const defs = await definicoes('acme');
    expect(defs.find((d) => d.chave === 'produto')).toMatchObject({ tipo: 'TEXTO', opcoes: null });
    expect(defs.find((d) => d.chave === 'lacre')).toMatchObject({
      tipo: 'LISTA',
      opcoes: ['L1', 'L2'],
      obrigatorio: false,
      tamanhoMaximo: null,
    });
    expect(defs.find((d) => d.chave === 'z')!.opcoes).toEqual(['A', 'B']);
    expect(defs).toHaveLength(4);
    await t.db.tenant('acme', (tx) => tx.delete(customTable).where(eq(customTable.chave, 'z')));
  });
});

describe('exports', () => {
  it('exports the configuration by code, leaving out a configuration whose plant no longer exists', async () => {
    // Saved before plants named by configurations were kept from deletion (the entity refuses it now).
    const [orfa] = await seed(t, 'acme', configuracaoAprovacaoAgenda, [
      { plantaId: '00000000-0000-4000-8000-00000000dead' },
    ]);
    const out = await exportar('acme', 'ConfiguracaoAprovacaoAgenda', { formato: 'JSONL' });
    const lines = jsonl(out.text);
    expect(out.status.rows).toBe(4);
    expect(lines).toHaveLength(4);
    expect(lines).toEqual(
      expect.arrayContaining([
        { exigeAprovacao: false, niveis: 1, aprovadores: [], descricao: 'Geral, de novo' },
        {
          plantaCodigo: 'P1',
          exigeAprovacao: true,
          niveis: 2,
          aprovadores: [
            { nivel: 1, usuario: 'ana@acme.com' },
            { nivel: 2, usuario: 'bia@acme.com' },
          ],
          descricao: 'Planta 1',
        },
        {
          plantaCodigo: 'P1',
          tipoAgendamentoCodigo: 'DESC-GRAOS',
          exigeAprovacao: true,
          niveis: 1,
          aprovadores: [],
        },
        { plantaCodigo: 'P2', exigeAprovacao: true, niveis: 2, aprovadores: [], descricao: 'antes' },
      ]),
    );
    const csv = await exportar('acme', 'ConfiguracaoAprovacaoAgenda', {
      filtro: "plantaCodigo eq 'P1' and tipoAgendamentoCodigo is null",
      campos: ['plantaCodigo', 'niveis', 'aprovadores'],
    });
    expect(csv.text).toBe(
      'plantaCodigo,niveis,aprovadores\nP1,2,"[{""nivel"":1,""usuario"":""ana@acme.com""},{""nivel"":2,""usuario"":""bia@acme.com""}]"\n',
    );
    // A list filters as its JSON text.
    const ana = await exportar('acme', 'ConfiguracaoAprovacaoAgenda', {
      filtro: "containing(aprovadores, 'bia@')",
      campos: ['plantaCodigo'],
    });
    expect(ana.text).toBe('plantaCodigo\nP1\n');
    await t.db.tenant('acme', (tx) =>
      tx.delete(configuracaoAprovacaoAgenda).where(eq(configuracaoAprovacaoAgenda.id, orfa!.id)),
    );
  });

  it('exports the custom-field definitions in (entidade, chave) order', async () => {
    const lista = await exportar('acme', 'CustomTable', {
      filtro: "containing(opcoes, 'L2')",
      campos: ['chave'],
    });
    expect(lista.text).toBe('chave\nlacre\n');
    const out = await exportar('acme', 'CustomTable');
    expect(out.text).toBe(
      [
        'entidade,chave,rotulo,tipo,obrigatorio,opcoes,tamanhoMaximo',
        'agenda,lacre,Lacre,LISTA,false,"[""L1"",""L2""]",',
        'agenda,produto,Produto (texto),TEXTO,false,,',
        'preAgenda,peso,Peso (kg),NUMERO,false,,',
        '',
      ].join('\n'),
    );
  });

  it('exports the approval history, its decisions and the pre-agenda log, in the order they happened', async () => {
    // A pre-agenda of P1 (2 levels: ana, then bia), approved at both levels, through the flow.
    const criada = await api.acme!('entities/preAgenda', {
      plantaId: ids.acme!.P1,
      tipoAgendamentoId: ids.acme!['DESC-FARELO'],
      dataEsperada: '2026-05-01T10:00:00Z',
    });
    expect(criada.statusCode, criada.body).toBe(200);
    const preAgendaId = criada.json().id as string;
    for (const aprovador of ['ana@acme.com', 'bia@acme.com']) {
      const res = await api.acme!('actions/aprovarPreAgenda', { preAgendaId, aprovador, comentario: 'ok' });
      expect(res.statusCode, res.body).toBe(200);
    }

    const processos = await exportar('acme', 'HistoricoAprovacaoAgenda', { formato: 'JSONL' });
    const [processo] = jsonl(processos.text).filter((p) => p.preAgendaId === preAgendaId);
    expect(processo).toMatchObject({
      id: expect.any(String),
      seq: expect.any(Number),
      preAgendaId,
      configuracaoId: expect.any(String),
      niveis: 2,
      aprovadores: [
        { nivel: 1, usuario: 'ana@acme.com' },
        { nivel: 2, usuario: 'bia@acme.com' },
      ],
      nivelAtual: 2,
      status: 'APROVADO',
      inicio: expect.stringMatching(/Z$/),
      fim: expect.stringMatching(/Z$/),
    });

    const itens = await exportar('acme', 'HistoricoAprovacaoAgendaItem', {
      filtro: `preAgendaId eq '${preAgendaId}'`,
      campos: ['historicoAprovacaoId', 'preAgendaId', 'nivel', 'aprovador', 'decisao', 'comentario'],
    });
    expect(itens.text).toBe(
      [
        'historicoAprovacaoId,preAgendaId,nivel,aprovador,decisao,comentario',
        `${processo!.id},${preAgendaId},1,ana@acme.com,APROVADO,ok`,
        `${processo!.id},${preAgendaId},2,bia@acme.com,APROVADO,ok`,
        '',
      ].join('\n'),
    );

    const log = await exportar('acme', 'PreAgendaLog', {
      formato: 'JSON',
      filtro: `preAgendaId eq '${preAgendaId}'`,
    });
    const entries = JSON.parse(log.text) as Array<Record<string, unknown>>;
    expect(entries.map((e) => [e.acao, e.de ?? null, e.para ?? null])).toEqual([
      ['CRIADA', null, 'PENDENTE'],
      ['APROVACAO', 'PENDENTE', 'EM_APROVACAO'],
      ['APROVACAO', 'EM_APROVACAO', 'APROVADA'],
    ]);
    const seqs = entries.map((e) => e.seq as number);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(entries[0]).toMatchObject({ id: expect.any(String), preAgendaId, quem: expect.any(String) });

    // The history is exported, not imported.
    for (const kind of ['HistoricoAprovacaoAgenda', 'HistoricoAprovacaoAgendaItem', 'PreAgendaLog']) {
      const res = await api.acme!(`actions/import${kind}`, { config: { arquivo: 'x.csv' } });
      expect(res.statusCode, kind).toBe(404);
      const start = await t.call(
        'acme',
        'platform/imports/actions/startImport',
        { service: 'yms/agenda', kind, config: { arquivo: 'x.csv' } },
        { auth: keys.acme },
      );
      expect(start.statusCode, kind).toBe(404);
    }
  });

  it('publishes export<X>Event and import<X>Event when a job starts and when it ends, for every kind', async () => {
    for (const kind of TRANSFER_KINDS) {
      const { exportJobId } = await exportar('acme', kind, { formato: 'JSONL' });
      const events = await statusEvents('acme', `yms/agenda/export${kind}Event`, 'exportJobId', exportJobId);
      expect(
        events.map((e) => e.eventpl.state),
        kind,
      ).toEqual(['running', 'done']);
      const done = events[1]!.eventpl;
      expect(done).toMatchObject({
        exportJobId,
        state: 'done',
        service: 'yms/agenda',
        kind,
        formato: 'JSONL',
      });
      expect(done.rows, kind).toBeGreaterThan(0);
      // The URL of the event downloads the file.
      const url = new URL(String(done.downloadUrl));
      const file = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      expect(file.body.trimEnd().split('\n'), kind).toHaveLength(Number(done.rows));
      expect(() => validate(Type.Object({ eventpl: ExportEventStatus }), events[1])).not.toThrow();
    }
    const { importJobId } = await importar(
      'acme',
      'CustomTable',
      'one.csv',
      'entidade,chave,rotulo,tipo\nagenda,lacre,Lacre,TEXTO\nagenda,,X,TEXTO\n',
    );
    const events = await statusEvents(
      'acme',
      'yms/agenda/importCustomTableEvent',
      'importJobId',
      importJobId,
    );
    expect(events.map((e) => e.eventpl.state)).toEqual(['running', 'done']);
    expect(events[1]!.eventpl).toMatchObject({
      kind: 'CustomTable',
      processed: 2,
      succeeded: 1,
      failed: 1,
      firstErrors: [{ row: 2, field: 'chave' }],
    });
    expect(() => validate(Type.Object({ eventpl: ImportEventStatus }), events[1])).not.toThrow();
  });
});

describe('the round trip and tenants', () => {
  it('imports the exported configuration into another tenant as the same records', async () => {
    const sorted = (text: string) => {
      const [header, ...lines] = text.trimEnd().split('\n');
      return [header, ...lines.sort()];
    };
    for (const [kind, formato] of [
      ['CustomTable', 'CSV'],
      ['ConfiguracaoAprovacaoAgenda', 'CSV'],
      ['CustomTable', 'JSON'],
      ['ConfiguracaoAprovacaoAgenda', 'JSONL'],
    ] as const) {
      const out = await exportar('acme', kind, { formato });
      const back = await importar('globex', kind, `${kind}.${formato.toLowerCase()}`, out.text);
      expect(back.status, kind).toMatchObject({ state: 'done', failed: 0, succeeded: out.status.rows });
      const mine = await exportar('acme', kind);
      const theirs = await exportar('globex', kind);
      expect(sorted(theirs.text), kind).toEqual(sorted(mine.text));
    }
    // Same records, with globex's own plant and type ids.
    const deles = await configuracoes('globex');
    expect(deles).toHaveLength(4);
    expect(deles.find((r) => r.tipoAgendamentoId)).toMatchObject({
      plantaId: ids.globex!.P1,
      tipoAgendamentoId: ids.globex!['DESC-GRAOS'],
    });
    expect((await definicoes('globex')).map((d) => d.chave)).toEqual(['lacre', 'produto', 'peso']);
  });

  it('keeps tenants apart: a tenant exports only its rows and cannot read another’s export', async () => {
    for (const kind of TRANSFER_KINDS) {
      const out = await exportar('initech', kind, { formato: 'JSON' });
      expect(JSON.parse(out.text), kind).toEqual([]);
    }
    const log = await exportar('globex', 'PreAgendaLog', { formato: 'JSONL' });
    expect(log.text).toBe('');
    const { exportJobId } = await exportar('acme', 'CustomTable');
    const other = await t.call(
      'globex',
      'platform/exports/queries/getExport',
      { exportJobId },
      { auth: keys.globex },
    );
    expect(other.statusCode).toBe(404);
    const peek = await t.call(
      'globex',
      'platform/exports/queries/getExport',
      { exportJobId },
      { auth: keys.acme },
    );
    expect(peek.statusCode).toBe(401);
  });

  it('answers 400 for a bad export config, changing nothing', async () => {
    const before = await tableCounts(t.db);
    for (const [kind, config] of [
      ['PreAgendaLog', { filtro: 'acao eq' }],
      ['CustomTable', { filtro: "senha eq 'x'" }],
      ['HistoricoAprovacaoAgendaItem', { campos: ['nivel', 'senha'] }],
      ['ConfiguracaoAprovacaoAgenda', { formato: 'XML' }],
    ] as const) {
      const res = await api.acme!(`actions/export${kind}`, { config });
      expect(res.statusCode, kind).toBe(400);
      expect(res.json().reason).toBe('BAD_REQUEST');
    }
    const noFile = await api.acme!('actions/importCustomTable', { config: { arquivo: 'nada.csv' } });
    expect(noFile.statusCode).toBe(404);
    expect(await tableCounts(t.db)).toEqual(before);
  });
});

describe('the ten status events', () => {
  it('takes import and export statuses reported by an outside system (200, no body) and publishes them', async () => {
    for (const kind of TRANSFER_KINDS) {
      const imp = await api.acme!(`events/import${kind}Event`, {
        eventpl: { importJobId: `erp-${kind}`, state: 'running', processed: 5 },
      });
      expect(imp.statusCode, imp.body).toBe(200);
      expect(imp.body).toBe('');
      const exp = await api.acme!(`events/export${kind}Event`, {
        eventpl: { exportJobId: `erp-${kind}`, state: 'done', rows: 10, arquivo: 'erp/x.csv' },
      });
      expect(exp.statusCode, exp.body).toBe(200);
      const [imported] = await statusEvents(
        'acme',
        `yms/agenda/import${kind}Event`,
        'importJobId',
        `erp-${kind}`,
      );
      expect(imported).toEqual({ eventpl: { importJobId: `erp-${kind}`, state: 'running', processed: 5 } });
      const [exported] = await statusEvents(
        'acme',
        `yms/agenda/export${kind}Event`,
        'exportJobId',
        `erp-${kind}`,
      );
      expect(exported!.eventpl).toMatchObject({ state: 'done', rows: 10 });
    }
  });

  it('answers 400 for a bad eventpl, publishing nothing', async () => {
    const before = await tableCounts(t.db);
    const bad: Array<[string, unknown]> = [
      ['importPreAgendaLogEvent', {}],
      ['importPreAgendaLogEvent', { eventpl: { state: 'done' } }],
      ['importCustomTableEvent', { eventpl: { importJobId: 'x', state: 'parado' } }],
      [
        'importConfiguracaoAprovacaoAgendaEvent',
        { eventpl: { importJobId: 'x', state: 'done', failed: -1 } },
      ],
      ['exportHistoricoAprovacaoAgendaEvent', { eventpl: { importJobId: 'x', state: 'done' } }],
      ['exportHistoricoAprovacaoAgendaItemEvent', { eventpl: { exportJobId: '', state: 'done' } }],
      ['exportCustomTableEvent', { eventpl: { exportJobId: 'x', state: 'done', finishedAt: 'ontem' } }],
      ['exportPreAgendaLogEvent', { eventpl: 'done' }],
    ];
    for (const [event, body] of bad) {
      const res = await api.acme!(`events/${event}`, body);
      expect(res.statusCode, `${event} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().reason).toBe('BAD_REQUEST');
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });
});
