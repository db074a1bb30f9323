import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { cadastrosBasicos, entityCall, type OficinaCall, oficinaCall, ok200, saved } from './fixtures.ts';

// The generic entities of spec 001 §2.9 (docs/oficina.md "Entities"): the audit fields, filter and
// orderby, the code as natural key (409 on a duplicate), references checked (422), removals that
// would orphan records refused (409), a vehicle's items removed with it; and healthcheck and
// getMetadata (spec 001 §2.1).

let t: TestApp;
let acme: OficinaCall;
let entity: ReturnType<typeof entityCall>;
let globexEntity: ReturnType<typeof entityCall>;

const rows = (body: { contents?: unknown[]; items?: unknown[] } | unknown[]) =>
  (Array.isArray(body) ? body : (body.contents ?? body.items ?? [])) as Array<Record<string, unknown>>;

beforeAll(async () => {
  t = await testApp({ now: () => new Date('2026-05-20T12:00:00Z') });
  const key = await t.tenant('acme');
  acme = oficinaCall(t, 'acme', key);
  entity = entityCall(t, 'acme', key);
  globexEntity = entityCall(t, 'globex', await t.tenant('globex'));
  await cadastrosBasicos(t, 'acme', key);
});

describe('entities', () => {
  it('create a vehicle with defaults and audit fields; filter and orderby', async () => {
    const v = ok200(
      await entity('POST', 'veiculo', { cdVeiculo: 1, nrPlaca: 'AAA1A11', centroCusto: 10, cdEmpresa: 1 }),
    );
    expect(v).toMatchObject({
      cdVeiculo: 1,
      dsStatusOficina: 'RODANDO',
      dsStatus: 'ATIVO',
      createdDate: '2026-05-20T12:00:00.000Z',
      lastModifiedDate: '2026-05-20T12:00:00.000Z',
    });
    expect(v.createdBy).toMatch(/^key:/);
    ok200(
      await entity('POST', 'veiculo', {
        cdVeiculo: 2,
        nrPlaca: 'BBB2B22',
        centroCusto: 20,
        dsStatusOficina: 'GARAGEM',
        hrMovimentacao: '2026-05-19T10:00:00-03:00',
      }),
    );
    const list = rows(ok200(await entity('GET', "veiculo?filter=dsStatusOficina eq 'GARAGEM'")));
    expect(list.map((r) => r.cdVeiculo)).toEqual([2]);
    expect(list[0]!.hrMovimentacao).toBe('2026-05-19T13:00:00.000Z');
    const desc = rows(ok200(await entity('GET', 'veiculo?orderby=cdVeiculo desc')));
    expect(desc.map((r) => r.cdVeiculo)).toEqual([2, 1]);
  });

  it('a duplicate code is 409; a reference the tenant does not hold is 422 naming the field', async () => {
    expect((await entity('POST', 'veiculo', { cdVeiculo: 1 })).statusCode).toBe(409);
    for (const [path, body, field] of [
      ['veiculo', { cdVeiculo: 3, centroCusto: 99 }, 'centroCusto'],
      ['veiculo', { cdVeiculo: 3, cdEmpresa: 9 }, 'cdEmpresa'],
      ['pendencia', { cdPendenciaPk: 'X', veiculo: 99 }, 'veiculo'],
      ['revisao', { cdRevisao: 'X', setor: 99 }, 'setor'],
      ['manutencao', { cdManutencao: 'X', veiculo: 1, setor: 98 }, 'setor'],
    ] as const) {
      const res = await entity('POST', path, body);
      expect(res.statusCode, `${path} ${res.body}`).toBe(422);
      expect(res.json().message).toContain(field);
    }
    // The same codes in another tenant: its own references, not acme's.
    expect((await globexEntity('POST', 'veiculo', { cdVeiculo: 1, centroCusto: 10 })).statusCode).toBe(422);
  });

  it("another tenant's ids are 404", async () => {
    const [v] = rows(ok200(await entity('GET', 'veiculo?filter=cdVeiculo eq 1')));
    expect((await globexEntity('GET', `veiculo/${v!.id}`)).statusCode).toBe(404);
    expect((await globexEntity('DELETE', `veiculo/${v!.id}`)).statusCode).toBe(404);
    expect((await globexEntity('PATCH', `veiculo/${v!.id}`, { nrHodometro: 1 })).statusCode).toBe(404);
  });

  it('a cost centre or sector in use is not deleted (409); a vehicle takes its items with it', async () => {
    ok200(await entity('POST', 'pendencia', { cdPendenciaPk: 'P1', veiculo: 1, setor: 1 }));
    ok200(await entity('POST', 'revisao', { cdRevisao: 'R1', veiculo: 1 }));
    await saved(acme('actions/salvaManutencao', { cdManutencao: 'M1', cdVeiculo: 1 }));
    const [cc] = rows(ok200(await entity('GET', 'centroCusto?filter=cdCentroCusto eq 10')));
    expect((await entity('DELETE', `centroCusto/${cc!.id}`)).statusCode).toBe(409);
    const [st] = rows(ok200(await entity('GET', 'setor?filter=cdSetor eq 1')));
    expect((await entity('DELETE', `setor/${st!.id}`)).statusCode).toBe(409);
    const [v] = rows(ok200(await entity('GET', 'veiculo?filter=cdVeiculo eq 1')));
    expect((await entity('DELETE', `veiculo/${v!.id}`)).statusCode).toBeLessThan(300);
    for (const path of ['pendencia', 'revisao', 'manutencao']) {
      expect(rows(ok200(await entity('GET', path))), path).toEqual([]);
    }
    expect((await entity('DELETE', `setor/${st!.id}`)).statusCode).toBeLessThan(300);
    expect(rows(ok200(await entity('GET', 'centroCusto?filter=cdCentroCusto eq 10')))).toHaveLength(1);
  });

  it('a pending item opens now by default', async () => {
    const p = ok200(await entity('POST', 'pendencia', { cdPendenciaPk: 'P2', veiculo: 2 }));
    expect(p.dtAbertura).toBe('2026-05-20T12:00:00.000Z');
    const [rec] = ok200(await acme('queries/buscaPendencias', { cdPendencia: 'P2' })).listaPendencias;
    expect(rec.qtDias).toBe(0);
  });
});

describe('healthcheck and getMetadata', () => {
  it('healthcheck answers upDown and a list of checkData, by POST and GET', async () => {
    for (const res of [
      await acme('queries/healthcheck', {}),
      await acme('queries/healthcheck', undefined, { method: 'GET' }),
    ]) {
      const body = ok200(res);
      expect(body.status).toBe('UP');
      expect(body.checks.length).toBeGreaterThanOrEqual(1);
      expect(body.checks[0]).toEqual({ name: 'database', status: 'UP' });
    }
  });

  it("getMetadata is the service's Swagger 2.0 document, version 4.0.0", async () => {
    const body = ok200(await acme('queries/getMetadata', {}));
    const doc = JSON.parse(body.metadata);
    expect(doc.swagger).toBe('2.0');
    expect(doc.info.version).toBe('4.0.0');
    for (const op of [
      'buscaFilial',
      'buscaPendencias',
      'buscaRevisoes',
      'buscaManutencoes',
      'buscaCentroCusto',
      'buscaSetor',
      'visaoGeral',
    ]) {
      expect(
        Object.keys(doc.paths).some((p) => p.endsWith(`/queries/${op}`)),
        op,
      ).toBe(true);
    }
    for (const record of [
      'Rerros',
      'RrsalvaManut',
      'RrsalvaCentroCusto',
      'RsalvaSetor',
      'RetornoSalvaListaRec',
      'RremoveVeiculo',
      'VisaoGeralRec',
    ]) {
      expect(doc.definitions, record).toHaveProperty(record);
    }
  });
});
