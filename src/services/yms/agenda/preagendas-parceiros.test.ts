import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { agendaCall, makeTipo, PLANTA, seedTipos, TIPO } from './fixtures.ts';
import {
  AGORA,
  logs,
  makePreAgenda,
  preAgendaRow,
  seedCadastros,
  seedPreAgendas,
} from './preagenda-fixtures.ts';

// A carrier's pre-agendas (docs/agenda.md "Pre-agendas of a partner's users"): keys acting for a
// partner's user ask for, read, list, filter, edit, cancel and resend only their partners'
// pre-agendas, only for partners with preAgendaHabilitada; approval and conversion stay the plant's.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;
const ids: Record<string, string> = {};
const base = 'entities/preAgenda';

/** A public key of `tenant` acting for the external user `id`, as an agenda caller. */
async function carrier(userId: string, tenant = 'acme') {
  const { apiKey } = await t.key(tenant, 'public', { subject: `externalUser:${userId}` });
  return agendaCall(t, tenant, apiKey);
}

const nova = (o: Record<string, unknown> = {}) => ({
  plantaId: PLANTA,
  tipoAgendamentoId: TIPO,
  dataEsperada: '2026-04-10T09:00:00-03:00',
  ...o,
});

beforeAll(async () => {
  t = await testApp({ now: () => AGORA });
  const fullKey = await t.tenant('acme');
  acme = agendaCall(t, 'acme', fullKey);
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
  const parceiro = async (nome: string, codigo: string, extra: Record<string, unknown> = {}) => {
    const res = await acme('entities/externalTenant', { codigo, nome, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    ids[nome] = res.json().id;
  };
  await parceiro('Direto A', '11.222.333/0001-81');
  await parceiro('Embarcador D', '111.444.777-35', { preAgendaHabilitada: true });
  await parceiro('Embarcador E', '11444777000161', { preAgendaHabilitada: true });
  await parceiro('Inativo F', '529.982.247-25', { preAgendaHabilitada: true, ativo: false });
  const usuario = async (key: string, parceiroIds: string[]) => {
    const res = await acme('entities/externalUser', { email: `${key}@x.com.br`, nome: key, parceiroIds });
    expect(res.statusCode, res.body).toBe(200);
    ids[key] = res.json().id;
  };
  await usuario('ua', [ids['Direto A']!]);
  await usuario('ud', [ids['Embarcador D']!]);
  await usuario('ue', [ids['Embarcador E']!]);
  await usuario('ude', [ids['Embarcador D']!, ids['Embarcador E']!]);
  for (const placa of ['DDD1D11', 'EEE2E22']) {
    const res = await t.call(
      'acme',
      'yms/patio/entities/veiculo',
      { placa, tipoVeiculo: 'CAMINHAO' },
      { auth: fullKey },
    );
    expect(res.statusCode, res.body).toBe(200);
    ids[placa] = res.json().id;
  }
  const link = await acme('actions/linkVehiclesToPartner', { code: '11144477735', plates: ['DDD1D11'] });
  expect(link.json().platesNotLinked).toEqual([]);
  await seedCadastros(t, 'acme');
});

describe("a partner's user asks for pre-agendas", () => {
  it('for its only partner (forced), PENDENTE with its approval process and log', async () => {
    const ud = await carrier(ids.ud!);
    const res = await ud(base, nova({ descricao: 'Soja D', veiculoId: ids.DDD1D11 }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      externalTenantId: ids['Embarcador D'],
      status: 'PENDENTE',
      descricao: 'Soja D',
    });
    expect((await logs(t, 'acme', res.json().id)).map((l) => [l.acao, l.quem])).toEqual([
      ['CRIADA', expect.stringMatching(/^key:/)],
    ]);
  });

  it('of several partners, naming one of them', async () => {
    const ude = await carrier(ids.ude!);
    const before = await tableCounts(t.db);
    const sem = await ude(base, nova());
    expect(sem.statusCode).toBe(422);
    expect(sem.json().message).toMatch(/age por vários parceiros: informe parceiroId/);
    const outro = await ude(base, nova({ externalTenantId: ids['Direto A'] }));
    expect(outro.statusCode).toBe(403);
    expect(await tableCounts(t.db)).toEqual(before);
    const ok = await ude(base, nova({ externalTenantId: ids['Embarcador E'] }));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().externalTenantId).toBe(ids['Embarcador E']);
  });

  it('refuses a partner without preAgendaHabilitada, another partner, an unlinked vehicle; nothing changes', async () => {
    const ua = await carrier(ids.ua!);
    const ud = await carrier(ids.ud!);
    const before = await tableCounts(t.db);
    const direto = await ua(base, nova());
    expect(direto.statusCode).toBe(422);
    expect(direto.json().message).toBe(
      'O parceiro Direto A não solicita pré-agendas (preAgendaHabilitada falso): crie a agenda diretamente ' +
        '(entities/agenda)',
    );
    const outro = await ud(base, nova({ externalTenantId: ids['Embarcador E'] }));
    expect(outro.statusCode).toBe(403);
    expect(outro.json().message).toMatch(/não age pelo parceiro/);
    const veiculo = await ud(base, nova({ veiculoId: ids.EEE2E22 }));
    expect(veiculo.statusCode).toBe(422);
    expect(veiculo.json().message).toMatch(/não está vinculado ao parceiro Embarcador D/);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('lets internal callers name any active partner of the tenant, and no other (422)', async () => {
    const before = await tableCounts(t.db);
    const unknown = await acme(base, nova({ externalTenantId: '00000000-0000-4000-8000-000000000999' }));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toMatch(/não é um parceiro \(externalTenant\) deste tenant/);
    const inativo = await acme(base, nova({ externalTenantId: ids['Inativo F'] }));
    expect(inativo.statusCode).toBe(422);
    expect(inativo.json().message).toMatch(/está inativo/);
    // Another tenant's partner is unknown here.
    const other = await globex(base, nova({ externalTenantId: ids['Embarcador D'] }));
    expect(other.statusCode).toBe(422);
    expect(await tableCounts(t.db)).toEqual(before);
    // The plant may ask for a partner without preAgendaHabilitada.
    const ok = await acme(base, nova({ externalTenantId: ids['Direto A'] }));
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe("a partner's user reaches only its partners' pre-agendas", () => {
  let deD: string;
  let deE: string;
  let interna: string;

  beforeAll(async () => {
    const rows = await seedPreAgendas(t, 'acme', [
      makePreAgenda({ descricao: 'Escopo D', externalTenantId: ids['Embarcador D'], observacao: 'escopo' }),
      makePreAgenda({ descricao: 'Escopo E', externalTenantId: ids['Embarcador E'], observacao: 'escopo' }),
      makePreAgenda({ descricao: 'Escopo interna', observacao: 'escopo' }),
    ]);
    [deD, deE, interna] = rows.map((r) => r.id) as [string, string, string];
  });

  it('lists and reads its own; the others are 404 to read, edit and delete, and stay as they were', async () => {
    const ud = await carrier(ids.ud!);
    const list = await ud(base, undefined, { method: 'GET', query: { size: '1000' } });
    expect(list.statusCode, list.body).toBe(200);
    const partners = new Set(list.json().map((p: { externalTenantId: string }) => p.externalTenantId));
    expect([...partners]).toEqual([ids['Embarcador D']]);
    expect(list.json().map((p: { id: string }) => p.id)).toContain(deD);
    expect((await ud(`${base}/${deD}`, undefined, { method: 'GET' })).json().descricao).toBe('Escopo D');
    for (const id of [deE, interna]) {
      const antes = await preAgendaRow(t, 'acme', id);
      expect((await ud(`${base}/${id}`, undefined, { method: 'GET' })).statusCode).toBe(404);
      expect((await ud(`${base}/${id}`, { descricao: 'x' }, { method: 'PATCH' })).statusCode).toBe(404);
      expect((await ud(`${base}/${id}`, nova(), { method: 'PUT' })).statusCode).toBe(404);
      expect((await ud(`${base}/${id}`, undefined, { method: 'DELETE' })).statusCode).toBe(404);
      expect(await preAgendaRow(t, 'acme', id)).toEqual(antes);
    }
  });

  it('edits its own; moving it to a partner it does not act for is 403', async () => {
    const ud = await carrier(ids.ud!);
    const [p] = await seedPreAgendas(t, 'acme', [makePreAgenda({ externalTenantId: ids['Embarcador D'] })]);
    const ok = await ud(`${base}/${p!.id}`, { descricao: 'corrigida' }, { method: 'PATCH' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ descricao: 'corrigida', externalTenantId: ids['Embarcador D'] });
    const antes = await preAgendaRow(t, 'acme', p!.id);
    const moved = await ud(
      `${base}/${p!.id}`,
      { externalTenantId: ids['Embarcador E'] },
      { method: 'PATCH' },
    );
    expect(moved.statusCode).toBe(403);
    expect(await preAgendaRow(t, 'acme', p!.id)).toEqual(antes);
  });

  it('filtrarPreAgenda finds only its partners’, whatever it asks', async () => {
    const ud = await carrier(ids.ud!);
    const filtrar = async (o: Record<string, unknown>) => {
      const res = await ud('actions/filtrarPreAgenda', { page: 0, size: 100, ...o });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { preAgenda: Array<{ id: string }>; totalElements: number };
    };
    const escopo = await filtrar({ pesquisa: 'escopo' });
    expect(escopo.preAgenda.map((p) => p.id)).toEqual([deD]);
    expect(escopo.totalElements).toBe(1);
    expect((await filtrar({ externalTenantId: ids['Embarcador E'] })).totalElements).toBe(0);
    // The plant sees all three.
    const plant = await acme('actions/filtrarPreAgenda', { page: 0, size: 100, pesquisa: 'escopo' });
    expect(plant.json().totalElements).toBe(3);
  });

  it("pesquisa also matches the partner's name or CNPJ/CPF and the type's description or code", async () => {
    const [tipo] = await seedTipos(t, 'acme', [makeTipo({ codigo: 'PRE-XY', descricao: 'Granel xyzzy' })]);
    const [doTipo] = await seedPreAgendas(t, 'acme', [
      makePreAgenda({ descricao: 'sem texto', tipoAgendamentoId: tipo!.id }),
    ]);
    const achar = async (pesquisa: string) =>
      (await acme('actions/filtrarPreAgenda', { page: 0, size: 1000, pesquisa }))
        .json()
        .preAgenda.map((p: { id: string }) => p.id) as string[];
    for (const texto of ['embarcador e', '11.444.777/0001']) {
      const achados = await achar(texto);
      expect(achados, texto).toContain(deE);
      expect(achados, texto).not.toContain(deD);
    }
    expect(await achar('XYZZY')).toEqual([doTipo!.id]);
    expect(await achar('pre-xy')).toEqual([doTipo!.id]);
  });

  it('cancels and resends its own; another partner’s is 404 and unchanged', async () => {
    const ud = await carrier(ids.ud!);
    const [pendente, reprovada, deOutro] = await seedPreAgendas(t, 'acme', [
      makePreAgenda({ externalTenantId: ids['Embarcador D'] }),
      makePreAgenda({ externalTenantId: ids['Embarcador D'], status: 'REPROVADA', motivo: 'placa' }),
      makePreAgenda({ externalTenantId: ids['Embarcador E'], status: 'REPROVADA' }),
    ]);
    const cancel = await ud('actions/cancelarPreAgenda', { preAgendaId: pendente!.id, motivo: 'desistiu' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().preAgenda.status).toBe('CANCELADA');
    const reenvio = await ud('actions/reenviarPreAgenda', { preAgendaId: reprovada!.id });
    expect(reenvio.statusCode, reenvio.body).toBe(200);
    expect(reenvio.json().preAgenda.status).toBe('PENDENTE');
    const before = await tableCounts(t.db);
    for (const [op, body] of [
      ['cancelarPreAgenda', { preAgendaId: deOutro!.id, motivo: 'x' }],
      ['reenviarPreAgenda', { preAgendaId: deOutro!.id }],
      ['cancelarPreAgenda', { preAgendaId: interna, motivo: 'x' }],
    ] as const) {
      const res = await ud(`actions/${op}`, body);
      expect(res.statusCode, op).toBe(404);
      expect(res.json().message).toBe(`Pré-agenda ${body.preAgendaId} não encontrada`);
    }
    expect(await tableCounts(t.db)).toEqual(before);
    expect(await preAgendaRow(t, 'acme', deOutro!.id)).toEqual(deOutro);
  });

  it('never approves, rejects or converts (403): approval is the plant’s', async () => {
    const ud = await carrier(ids.ud!);
    const [pendente, aprovada] = await seedPreAgendas(t, 'acme', [
      makePreAgenda({ externalTenantId: ids['Embarcador D'] }),
      makePreAgenda({ externalTenantId: ids['Embarcador D'], status: 'APROVADA' }),
    ]);
    const before = await tableCounts(t.db);
    for (const [op, body] of [
      ['aprovarPreAgenda', { preAgendaId: pendente!.id, aprovador: 'eu' }],
      ['reprovarPreAgenda', { preAgendaId: pendente!.id, aprovador: 'eu', motivo: 'x' }],
      ['converterPreAgenda', { preAgendaId: aprovada!.id }],
    ] as const) {
      const res = await ud(`actions/${op}`, body);
      expect(res.statusCode, op).toBe(403);
    }
    expect((await ud('entities/configuracaoAprovacaoAgenda', undefined, { method: 'GET' })).statusCode).toBe(
      403,
    );
    expect(await tableCounts(t.db)).toEqual(before);
    expect(await preAgendaRow(t, 'acme', pendente!.id)).toEqual(pendente);
    expect(await preAgendaRow(t, 'acme', aprovada!.id)).toEqual(aprovada);
  });

  it("is refused in another tenant: the user is unknown there (403), and another tenant's ids are 404", async () => {
    const alheio = await carrier(ids.ud!, 'globex');
    const res = await alheio('actions/filtrarPreAgenda', { page: 0, size: 10 });
    expect(res.statusCode).toBe(403);
    expect((await globex(`${base}/${deD}`, undefined, { method: 'GET' })).statusCode).toBe(404);
    const g = await globex('actions/filtrarPreAgenda', { page: 0, size: 10, pesquisa: 'escopo' });
    expect(g.json().totalElements).toBe(0);
  });
});

describe('a partner with preAgendaHabilitada books through pre-agendas only', () => {
  it("refuses its users' direct agenda (422), changing nothing; the plant converts the pre-agenda", async () => {
    const ud = await carrier(ids.ud!);
    const before = await tableCounts(t.db);
    const res = await ud('entities/agenda', nova());
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/agenda por pré-agenda \(preAgendaHabilitada\)/);
    expect(await tableCounts(t.db)).toEqual(before);
    const pedido = (await ud(base, nova({ descricao: 'via pré-agenda' }))).json();
    const aprovada = await acme('actions/aprovarPreAgenda', { preAgendaId: pedido.id, aprovador: 'ana' });
    expect(aprovada.json().preAgenda.status).toBe('APROVADA');
    const conv = await acme('actions/converterPreAgenda', { preAgendaId: pedido.id });
    expect(conv.statusCode, conv.body).toBe(200);
    expect(conv.json().agenda).toMatchObject({
      parceiroId: ids['Embarcador D'],
      descricao: 'via pré-agenda',
    });
    // The converted agenda is the partner's: its user sees it.
    const lida = await ud(`entities/agenda/${conv.json().agenda.id}`, undefined, { method: 'GET' });
    expect(lida.statusCode).toBe(200);
    expect((await ud(`${base}/${pedido.id}`, undefined, { method: 'GET' })).json().status).toBe('CONVERTIDA');
  });
});
