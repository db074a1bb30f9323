import { createHash, randomBytes } from 'node:crypto';
import { eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { blobReplaced, blobs } from '../../../platform/blobs/tables.ts';
import { agendaCall, makeTipo, PLANTA, seedPlanta, seedTipos, TIPO } from './fixtures.ts';

// Attachments through signed blob URLs, their versions and the `anexos` child entity; and the
// carrier scenario of issue 5 with a public key bound to a partner's user.

let t: TestApp;
let now = new Date('2026-03-01T12:00:00Z');
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;
let carrierA: ReturnType<typeof agendaCall>;
let carrierB: ReturnType<typeof agendaCall>;
let agendaInterna: string;

/** Every byte value, then random bytes: a binary file no text handling would leave intact. */
const arquivo = Buffer.concat([Buffer.from([...Array(256).keys()]), randomBytes(70_000)]);

const path = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const upload = (url: string, body: Buffer, contentType = 'application/pdf') =>
  t.app.inject({ method: 'PUT', url: path(url), headers: { 'content-type': contentType }, payload: body });
const download = (url: string) => t.app.inject({ method: 'GET', url: path(url) });

const agendaBody = (o: Record<string, unknown> = {}) => ({
  plantaId: PLANTA,
  tipoAgendamentoId: TIPO,
  dataEsperada: '2026-03-10T09:00:00-03:00',
  ...o,
});

beforeAll(async () => {
  // The entity POST is the checked booking (horarios.test.ts): `now` is before the day, the plant
  // has a shift that day (agendaBody books its 09:00 slot) and the type has room for every booking.
  t = await testApp({ now: () => now });
  const key = await t.tenant('acme');
  acme = agendaCall(t, 'acme', key);
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
  await seedPlanta(t, 'acme', { turnos: [['2026-03-10', '06:00', '18:00']] });
  await seedTipos(t, 'acme', [makeTipo({ id: TIPO, capacidadePorSlot: 100 })]);
  const partner = async (codigo: string, nome: string, email: string) => {
    const p = await acme('entities/externalTenant', { codigo, nome });
    const u = await acme('entities/externalUser', { email, nome, parceiroIds: [p.json().id] });
    const bound = await t.key('acme', 'public', { subject: `externalUser:${u.json().id}` });
    return agendaCall(t, 'acme', bound.apiKey);
  };
  carrierA = await partner('11222333000181', 'Transportes A', 'a@a.com');
  carrierB = await partner('11444777000161', 'Transportes B', 'b@b.com');
  agendaInterna = (await acme('entities/agenda', agendaBody({ descricao: 'interna' }))).json().id;
});

describe('obterUrlUploadAnexo / obterUrlDownloadAnexo', () => {
  it('round-trips a binary file byte for byte and records its facts on the version', async () => {
    const res = await acme('queries/obterUrlUploadAnexo', { nomeAnexo: 'nota.pdf', agendaId: agendaInterna });
    expect(res.statusCode, res.body).toBe(200);
    const { id, url, nome, versao } = res.json();
    expect({ nome, versao }).toEqual({ nome: 'nota.pdf', versao: '1' });
    const put = await upload(url, arquivo);
    expect(put.statusCode, put.body).toBe(200);

    const anexo = (await acme(`entities/anexo/${id}`, undefined, { method: 'GET' })).json();
    expect(anexo).toMatchObject({
      agendaId: agendaInterna,
      nome: 'nota.pdf',
      versao: 1,
      tamanho: arquivo.length,
      contentType: 'application/pdf',
      sha256: createHash('sha256').update(arquivo).digest('hex'),
    });
    const link = await acme('queries/obterUrlDownloadAnexo', {
      nomeAnexo: 'nota.pdf',
      agendaId: agendaInterna,
    });
    expect(link.statusCode, link.body).toBe(200);
    const got = await download(link.json().url);
    expect(got.statusCode).toBe(200);
    expect(Buffer.compare(got.rawPayload, arquivo)).toBe(0);
  });

  it('answers by GET too, and makes the same name again a new version; download picks the latest or the one asked', async () => {
    const res = await acme('queries/obterUrlUploadAnexo', undefined, {
      method: 'GET',
      query: { nomeAnexo: 'nota.pdf', agendaId: agendaInterna },
    });
    expect(res.json().versao).toBe('2');
    await upload(res.json().url, Buffer.from('segunda versão'), 'text/plain');
    const latest = await acme('queries/obterUrlDownloadAnexo', {
      nomeAnexo: 'nota.pdf',
      agendaId: agendaInterna,
    });
    expect((await download(latest.json().url)).body).toBe('segunda versão');
    const first = await acme('queries/obterUrlDownloadAnexo', {
      nomeAnexo: 'nota.pdf',
      agendaId: agendaInterna,
      versao: 1,
    });
    expect(Buffer.compare((await download(first.json().url)).rawPayload, arquivo)).toBe(0);
    const children = await acme(`entities/agenda/${agendaInterna}/anexos`, undefined, { method: 'GET' });
    expect(
      children
        .json()
        .map((a: { versao: number }) => a.versao)
        .sort(),
    ).toEqual([1, 2]);
  });

  it('counts versions per folder: another agenda or the tenant folder starts at 1', async () => {
    const other = (await acme('entities/agenda', agendaBody())).json().id;
    const inOther = await acme('queries/obterUrlUploadAnexo', { nomeAnexo: 'nota.pdf', agendaId: other });
    expect(inOther.json().versao).toBe('1');
    const loose = await acme('queries/obterUrlUploadAnexo', { nomeAnexo: 'nota.pdf' });
    expect(loose.json().versao).toBe('1');
  });

  it('is 404 to download a name not uploaded yet, or unknown', async () => {
    await acme('queries/obterUrlUploadAnexo', { nomeAnexo: 'pendente.pdf' });
    expect((await acme('queries/obterUrlDownloadAnexo', { nomeAnexo: 'pendente.pdf' })).statusCode).toBe(404);
    expect((await acme('queries/obterUrlDownloadAnexo', { nomeAnexo: 'nada.pdf' })).statusCode).toBe(404);
  });

  it('refuses bad names (400) and unknown or foreign agendas (404), creating nothing', async () => {
    const before = await tableCounts(t.db);
    for (const nomeAnexo of ['', 'a/b.pdf', '..', 'x'.repeat(256)]) {
      expect((await acme('queries/obterUrlUploadAnexo', { nomeAnexo })).statusCode).toBe(400);
    }
    expect((await acme('queries/obterUrlUploadAnexo', {})).statusCode).toBe(400);
    const foreign = await globex('queries/obterUrlUploadAnexo', {
      nomeAnexo: 'a.pdf',
      agendaId: agendaInterna,
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (
        await acme('queries/obterUrlUploadAnexo', {
          nomeAnexo: 'a.pdf',
          agendaId: '00000000-0000-4000-8000-000000000999',
        })
      ).statusCode,
    ).toBe(404);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('signs URLs that expire (410) and cannot be turned into another operation (403)', async () => {
    const res = (await acme('queries/obterUrlUploadAnexo', { nomeAnexo: 'expira.pdf' })).json();
    const asGet = res.url.replace('op=put', 'op=get');
    expect((await download(asGet)).statusCode).toBe(403);
    const saved = now;
    now = new Date(now.getTime() + 16 * 60_000);
    try {
      expect((await upload(res.url, Buffer.from('tarde'))).statusCode).toBe(410);
    } finally {
      now = saved;
    }
  });
});

describe('the anexo entity and agenda/{parentId}/anexos', () => {
  it('creates attachments only through obterUrlUploadAnexo (405 on POST)', async () => {
    const before = await tableCounts(t.db);
    for (const res of [
      await acme('entities/anexo', { descricao: 'x' }),
      await acme(`entities/agenda/${agendaInterna}/anexos`, [{ descricao: 'x' }]),
    ]) {
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('PATCH, GET');
      expect(res.json().message).toMatch(/Um anexo nasce por obterUrlUploadAnexo/);
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('changes only the description; deleting a version stops its downloads', async () => {
    const up = (
      await acme('queries/obterUrlUploadAnexo', { nomeAnexo: 'apagar.txt', agendaId: agendaInterna })
    ).json();
    await upload(up.url, Buffer.from('conteúdo'), 'text/plain');
    const patched = await acme(
      `entities/agenda/${agendaInterna}/anexos/${up.id}`,
      { descricao: 'romaneio', nome: 'outro.txt', tamanho: 1 },
      { method: 'PATCH' },
    );
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ descricao: 'romaneio', nome: 'apagar.txt', tamanho: 9 });
    const link = (await acme('queries/obterUrlDownloadAnexo', { nomeAnexo: 'apagar.txt', id: up.id })).json()
      .url;
    const [facts] = await t.db.tenant('acme', (tx) =>
      tx
        .select({ version: blobs.version })
        .from(blobs)
        .where(like(blobs.key, `%${up.id}`)),
    );
    expect((await acme(`entities/anexo/${up.id}`, undefined, { method: 'DELETE' })).statusCode).toBe(200);
    expect((await download(link)).statusCode).toBe(404);
    // Its bytes are kept for the prune, dated on the platform's clock (here months behind the
    // database's), the one the prune counts on.
    const listed = await t.db.tenant('acme', (tx) =>
      tx
        .select({ at: blobReplaced.replacedAt })
        .from(blobReplaced)
        .where(eq(blobReplaced.version, facts!.version!)),
    );
    expect(listed.map((r) => r.at.toISOString())).toEqual([now.toISOString()]);
    expect(
      (await acme('queries/obterUrlDownloadAnexo', { nomeAnexo: 'apagar.txt', id: up.id })).statusCode,
    ).toBe(404);
  });

  it("hides another tenant's attachments (404)", async () => {
    const up = (await acme('queries/obterUrlUploadAnexo', { nomeAnexo: 'x.txt' })).json();
    expect((await globex(`entities/anexo/${up.id}`, undefined, { method: 'GET' })).statusCode).toBe(404);
    expect(
      (await globex('queries/obterUrlDownloadAnexo', { nomeAnexo: 'x.txt', id: up.id })).statusCode,
    ).toBe(404);
  });
});

describe('the carrier scenario: a public key bound to a partner’s user', () => {
  it('books, attaches a file, and sees only its own agendas and attachments', async () => {
    const booked = await carrierA('entities/agenda', agendaBody({ descricao: 'carga A' }));
    expect(booked.statusCode, booked.body).toBe(200);
    const agendaA = booked.json().id;
    const agendaB = (await carrierB('entities/agenda', agendaBody({ descricao: 'carga B' }))).json().id;

    const up = await carrierA('queries/obterUrlUploadAnexo', { nomeAnexo: 'cte.xml', agendaId: agendaA });
    expect(up.statusCode, up.body).toBe(200);
    expect((await upload(up.json().url, arquivo, 'application/xml')).statusCode).toBe(200);
    const mine = await carrierA(`entities/agenda/${agendaA}/anexos`, undefined, { method: 'GET' });
    expect(mine.json()).toEqual([expect.objectContaining({ nome: 'cte.xml', tamanho: arquivo.length })]);
    const link = await carrierA('queries/obterUrlDownloadAnexo', { nomeAnexo: 'cte.xml', agendaId: agendaA });
    expect(Buffer.compare((await download(link.json().url)).rawPayload, arquivo)).toBe(0);

    const list = await carrierA('entities/agenda', undefined, { method: 'GET', query: { size: '100' } });
    expect(list.json().map((a: { descricao: string }) => a.descricao)).toEqual(['carga A']);
    expect((await carrierA(`entities/agenda/${agendaB}`, undefined, { method: 'GET' })).statusCode).toBe(404);
    expect(
      (await carrierA(`entities/agenda/${agendaInterna}`, undefined, { method: 'GET' })).statusCode,
    ).toBe(404);

    // B reaches neither A's agenda, its attachments, nor its file by name or id.
    expect(
      (await carrierB(`entities/agenda/${agendaA}/anexos`, undefined, { method: 'GET' })).statusCode,
    ).toBe(404);
    expect(
      (await carrierB('queries/obterUrlUploadAnexo', { nomeAnexo: 'x.pdf', agendaId: agendaA })).statusCode,
    ).toBe(404);
    expect(
      (await carrierB('queries/obterUrlDownloadAnexo', { nomeAnexo: 'cte.xml', id: up.json().id }))
        .statusCode,
    ).toBe(404);
    expect((await carrierB(`entities/anexo/${up.json().id}`, undefined, { method: 'GET' })).statusCode).toBe(
      404,
    );
    const bList = await carrierB('entities/anexo', undefined, { method: 'GET' });
    expect(bList.json()).toEqual([]);
    // The plant sees both.
    expect(
      (await acme(`entities/agenda/${agendaA}/anexos`, undefined, { method: 'GET' })).json(),
    ).toHaveLength(1);
  });

  it("keeps a carrier's loose uploads in its partner's folder", async () => {
    const up = (await carrierA('queries/obterUrlUploadAnexo', { nomeAnexo: 'nota.pdf' })).json();
    expect(up.versao).toBe('1');
    await upload(up.url, Buffer.from('do parceiro'));
    const got = await carrierA('queries/obterUrlDownloadAnexo', { nomeAnexo: 'nota.pdf' });
    expect((await download(got.json().url)).body).toBe('do parceiro');
    expect((await carrierB('queries/obterUrlDownloadAnexo', { nomeAnexo: 'nota.pdf' })).statusCode).toBe(404);
  });
});
