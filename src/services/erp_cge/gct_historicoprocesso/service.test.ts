import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { imports } from '../../../platform/imports/tables.ts';
import { jobs } from '../../../platform/jobs/tables.ts';

// erp_cge/gct_historicoprocesso through HTTP: an ERP reports its runs (start, finish, interrupt,
// each ending once), obterHistorico answers those whose period overlaps the one asked, by
// situacao, together with Ponte's own jobs; bad input, unknown runs and tenant isolation.

const GCT = 'erp_cge/gct_historicoprocesso';
const NOW = new Date('2026-11-25T15:00:00Z');

let t: TestApp;
let acme: string;
let globex: string;

const post = (path: string, body: unknown, auth = acme, tenant = 'acme') =>
  t.app.inject({
    method: 'POST',
    url: `/t/${tenant}/bridge/1.0/rest/${GCT}/${path}`,
    headers: { authorization: auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const iniciar = async (body: Record<string, unknown>, auth = acme, tenant = 'acme') => {
  const res = await post(
    'actions/iniciarProcesso',
    { empresa: 1, filial: 1, processo: 'FECHAMENTO', ...body },
    auth,
    tenant,
  );
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().id as string;
};

const historico = (parametros: Record<string, unknown>, auth = acme, tenant = 'acme') =>
  post(
    'queries/obterHistorico',
    { parametros: { empresa: 1, filial: 1, processo: 'FECHAMENTO', ...parametros } },
    auth,
    tenant,
  );

let outubro: string;
let novembro: string;
let dezembro: string;

beforeAll(async () => {
  t = await testApp({ now: () => NOW });
  acme = await t.tenant('acme');
  globex = await t.tenant('globex');
  outubro = await iniciar({
    dataInicio: '2026-10-01',
    dataFinal: '2026-10-31',
    inicioProcessamento: '2026-11-01T03:00:00Z',
  });
  novembro = await iniciar({
    dataInicio: '2026-11-01',
    dataFinal: '2026-11-30',
    inicioProcessamento: '2026-11-24T03:00:00Z',
    chaveExecucao: 'run-11',
  });
  dezembro = await iniciar({
    dataInicio: '2026-12-01',
    dataFinal: '2026-12-31',
    inicioProcessamento: '2026-11-25T03:00:00Z',
  });
  // another branch and another process: never in the answers below
  await iniciar({ filial: 2, dataInicio: '2026-11-01', dataFinal: '2026-11-30' });
  await iniciar({ processo: 'OUTRO', dataInicio: '2026-11-01', dataFinal: '2026-11-30' });
});

describe('iniciarProcesso, finalizarProcesso, interromperProcesso', () => {
  it('ends a run once: finished, then a second ending is 409', async () => {
    const fim = await post('actions/finalizarProcesso', {
      id: outubro,
      fimProcessamento: '2026-11-01T04:30:00Z',
    });
    expect(fim.statusCode).toBe(200);
    expect(fim.json()).toEqual({});
    const again = await post('actions/interromperProcesso', { id: outubro, motivo: 'tarde' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already Finalizado/);
    const stop = await post('actions/interromperProcesso', { id: dezembro, motivo: 'queda de energia' });
    expect(stop.statusCode).toBe(200);
  });

  it('a start repeated with its chaveExecucao is 409, nothing changed', async () => {
    const before = await tableCounts(t.db);
    const res = await post('actions/iniciarProcesso', {
      empresa: 1,
      filial: 1,
      processo: 'FECHAMENTO',
      dataInicio: '2026-11-01',
      dataFinal: '2026-11-30',
      chaveExecucao: 'run-11',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/run-11/);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('an unknown run, or another tenant’s, is 404', async () => {
    const unknown = await post('actions/finalizarProcesso', { id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    const globexKey = await post('actions/finalizarProcesso', { id: novembro }, globex, 'globex');
    expect(globexKey.statusCode).toBe(404);
  });

  it.each([
    [
      'a period that ends before it starts',
      'iniciarProcesso',
      { empresa: 1, filial: 1, processo: 'X', dataInicio: '2026-11-02', dataFinal: '2026-11-01' },
      /dataFinal/,
    ],
    [
      'no processo',
      'iniciarProcesso',
      { empresa: 1, filial: 1, dataInicio: '2026-11-01', dataFinal: '2026-11-01' },
      /processo/,
    ],
    [
      'a bad date',
      'iniciarProcesso',
      { empresa: 1, filial: 1, processo: 'X', dataInicio: '2026-02-30', dataFinal: '2026-11-01' },
      /dataInicio/,
    ],
    ['a run id that is no uuid', 'finalizarProcesso', { id: '12' }, /id/],
    [
      'an end before the start',
      'finalizarProcesso',
      { id: '$NOVEMBRO', fimProcessamento: '2026-11-01T00:00:00Z' },
      /fimProcessamento/,
    ],
  ])('%s is 400 naming the field, nothing changed', async (_, op, body, field) => {
    const before = await tableCounts(t.db);
    const input = { ...body, ...((body as { id?: string }).id === '$NOVEMBRO' ? { id: novembro } : {}) };
    const res = await post(`actions/${op}`, input);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(field);
    expect(await tableCounts(t.db)).toEqual(before);
  });
});

describe('obterHistorico', () => {
  it('answers the runs whose period overlaps the one asked, most recent first', async () => {
    const res = await historico({ dataInicial: '2026-10-15', dataFinal: '2026-11-10' });
    expect(res.statusCode).toBe(200);
    expect(res.json().execucao).toEqual([
      {
        id: novembro,
        situacao: 'Iniciado',
        dataInicio: '2026-11-01',
        dataFinal: '2026-11-30',
        inicioProcessamento: '2026-11-24T03:00:00.000Z',
      },
      {
        id: outubro,
        situacao: 'Finalizado',
        dataInicio: '2026-10-01',
        dataFinal: '2026-10-31',
        inicioProcessamento: '2026-11-01T03:00:00.000Z',
        fimProcessamento: '2026-11-01T04:30:00.000Z',
      },
    ]);
  });

  it('answers GET too (spec 001 §4.6), parametros carried as JSON text; text that is not JSON or a bad record is 400', async () => {
    const parametros = {
      empresa: 1,
      filial: 1,
      processo: 'FECHAMENTO',
      dataInicial: '2026-10-15',
      dataFinal: '2026-11-10',
    };
    const get = (value: string) =>
      t.app.inject({
        method: 'GET',
        url: `/t/acme/bridge/1.0/rest/${GCT}/queries/obterHistorico?parametros=${encodeURIComponent(value)}`,
        headers: { authorization: acme },
      });
    const byGet = await get(JSON.stringify(parametros));
    expect(byGet.statusCode, byGet.body).toBe(200);
    expect(byGet.json()).toEqual((await historico(parametros)).json());
    const notJson = await get('{empresa');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toMatch(/field 'parametros' must be JSON/);
    const badRecord = await get(JSON.stringify({ ...parametros, empresa: 'x' }));
    expect(badRecord.statusCode).toBe(400);
    expect(badRecord.json().message).toMatch(/field 'parametros\.empresa'/);
    const missing = await t.app.inject({
      method: 'GET',
      url: `/t/acme/bridge/1.0/rest/${GCT}/queries/obterHistorico`,
      headers: { authorization: acme },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/parametros/);
  });

  it('touching days overlap; a period outside answers none', async () => {
    const edge = await historico({ dataInicial: '2026-10-31', dataFinal: '2026-10-31' });
    expect(edge.json().execucao.map((e: { id: string }) => e.id)).toEqual([outubro]);
    const none = await historico({ dataInicial: '2025-01-01', dataFinal: '2025-12-31' });
    expect(none.json().execucao).toEqual([]);
  });

  it('filters by situacao', async () => {
    const year = { dataInicial: '2026-01-01', dataFinal: '2026-12-31' };
    const ids = async (situacao: string[]) =>
      (await historico({ ...year, situacao })).json().execucao.map((e: { id: string }) => e.id);
    expect(await ids(['Interrompido'])).toEqual([dezembro]);
    expect(await ids(['Finalizado', 'Interrompido'])).toEqual([dezembro, outubro]);
    expect(await ids([])).toEqual([dezembro, novembro, outubro]);
  });

  it('answers Ponte’s own jobs as processes: imports by <service>/import<Kind>, others by kind', async () => {
    const importId = '11111111-1111-4111-8111-111111111111';
    await t.db.tenant('acme', async (tx) => {
      const store = new Store(tx, 'acme');
      await store.insert(jobs, [
        {
          id: importId,
          kind: 'platform/imports/run',
          state: 'done',
          createdAt: new Date('2026-11-20T10:00:00Z'),
          finishedAt: new Date('2026-11-20T10:05:00Z'),
        },
        {
          id: '22222222-2222-4222-8222-222222222222',
          kind: 'hcm/managementpanel/recomputeLightPanelPermissions',
          state: 'failed',
          createdAt: new Date('2026-11-21T10:00:00Z'),
          finishedAt: new Date('2026-11-21T10:01:00Z'),
        },
        {
          id: '33333333-3333-4333-8333-333333333333',
          kind: 'hcm/managementpanel/recomputeLightPanelPermissions',
          state: 'queued',
          createdAt: new Date('2026-11-25T01:00:00Z'),
        },
      ]);
      await store.insert(imports, [
        {
          id: importId,
          service: 'erp_agr/com_comum',
          kind: 'Pessoa',
          fileKey: 'x.csv',
          format: 'csv',
          size: 1,
        },
      ]);
    });
    const imp = await historico({
      processo: 'erp_agr/com_comum/importPessoa',
      empresa: 7,
      filial: 9,
      dataInicial: '2026-11-01',
      dataFinal: '2026-11-30',
    });
    expect(imp.json().execucao).toEqual([
      {
        id: importId,
        situacao: 'Finalizado',
        dataInicio: '2026-11-20',
        dataFinal: '2026-11-20',
        inicioProcessamento: '2026-11-20T10:00:00.000Z',
        fimProcessamento: '2026-11-20T10:05:00.000Z',
      },
    ]);
    const sig = await historico({
      processo: 'hcm/managementpanel/recomputeLightPanelPermissions',
      dataInicial: '2026-11-01',
      dataFinal: '2026-11-30',
    });
    // the queued one runs until today (2026-11-24 in São Paulo at 01:00Z, 2026-11-25 now)
    expect(sig.json().execucao).toEqual([
      expect.objectContaining({ situacao: 'Iniciado', dataInicio: '2026-11-24', dataFinal: '2026-11-25' }),
      expect.objectContaining({ situacao: 'Interrompido', dataInicio: '2026-11-21' }),
    ]);
    const otherTenant = await historico(
      { processo: 'erp_agr/com_comum/importPessoa', dataInicial: '2026-11-01', dataFinal: '2026-11-30' },
      globex,
      'globex',
    );
    expect(otherTenant.json().execucao).toEqual([]);
  });

  it('another tenant sees none of the runs', async () => {
    const res = await historico({ dataInicial: '2026-01-01', dataFinal: '2026-12-31' }, globex, 'globex');
    expect(res.statusCode).toBe(200);
    expect(res.json().execucao).toEqual([]);
  });

  it.each([
    [
      'a period that ends before it starts',
      { dataInicial: '2026-11-02', dataFinal: '2026-11-01' },
      /parametros.dataFinal/,
    ],
    [
      'an unknown situacao',
      { dataInicial: '2026-11-01', dataFinal: '2026-11-30', situacao: ['Cancelado'] },
      /situacao/,
    ],
    ['no dataInicial', { dataFinal: '2026-11-30' }, /dataInicial/],
  ])('%s is 400 naming the field', async (_, parametros, field) => {
    const res = await historico(parametros);
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('BAD_REQUEST');
    expect(res.json().message).toMatch(field);
  });

  it('no parametros is 400', async () => {
    const res = await post('queries/obterHistorico', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/parametros/);
  });
});

describe('standard operations', () => {
  it('getDependencies is PUBLIC; the other operations are not', async () => {
    const pub = (await t.key('acme', 'public')).apiKey;
    expect((await post('queries/getDependencies', {}, pub)).statusCode).toBe(200);
    expect((await historico({ dataInicial: '2026-01-01', dataFinal: '2026-12-31' }, pub)).statusCode).toBe(
      403,
    );
  });
});
