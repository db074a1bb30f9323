import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { makeMotorista, seed } from '../patio/fixtures.ts';
import { motorista as motoristaTable } from '../patio/tables/veiculos.ts';
import { agendaCall, makeTipo, PLANTA, seedPlanta, seedTipos, TIPO } from './fixtures.ts';

// External partners and users, keys acting for a partner's user, plate links, the carrier's view of
// agendas, and cadastrarComposicaoVeiculo.

const CNPJ_A = '11.222.333/0001-81';
const CNPJ_B = '11444777000161';
const CPF_C = '529.982.247-25';
const CPF_D = '111.444.777-35';

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;
let fullKey: string;
const ids: Record<string, string> = {};
const veiculos: Record<string, string> = {};

/** A public key of acme acting for the external user `id`, as an agenda caller. */
async function carrier(userId: string) {
  const { apiKey } = await t.key('acme', 'public', { subject: `externalUser:${userId}` });
  return { apiKey, call: agendaCall(t, 'acme', apiKey) };
}

const agendaBody = (o: Record<string, unknown> = {}) => ({
  plantaId: PLANTA,
  tipoAgendamentoId: TIPO,
  dataEsperada: '2026-03-10T09:00:00-03:00',
  ...o,
});

beforeAll(async () => {
  // The entity POST is the checked booking (horarios.test.ts): a clock before the day, a shift that
  // day (agendaBody books its 09:00 slot) and a type with room for every booking of these tests.
  t = await testApp({ now: () => new Date('2026-03-01T12:00:00Z') });
  fullKey = await t.tenant('acme');
  acme = agendaCall(t, 'acme', fullKey);
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
  await seedPlanta(t, 'acme', { turnos: [['2026-03-10', '06:00', '18:00']] });
  await seedTipos(t, 'acme', [makeTipo({ id: TIPO, capacidadePorSlot: 100 })]);
  const parceiro = async (name: string, codigo: string, extra: Record<string, unknown> = {}) => {
    const res = await acme('entities/externalTenant', { codigo, nome: name, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    ids[name] = res.json().id;
  };
  await parceiro('Transportes A', CNPJ_A);
  await parceiro('Cliente B', CNPJ_B, { permiteEdicaoMotorista: false });
  await parceiro('Autônomo C', CPF_C, { ativo: false });
  await parceiro('Embarcador D', CPF_D, { preAgendaHabilitada: true });
  const usuario = async (key: string, email: string, parceiroIds: string[], ativo = true) => {
    const res = await acme('entities/externalUser', { email, nome: key, parceiroIds, ativo });
    expect(res.statusCode, res.body).toBe(200);
    ids[key] = res.json().id;
  };
  await usuario('ua', 'Joao@TransportesA.com.br', [ids['Transportes A']!]);
  await usuario('ub', 'maria@clienteb.com.br', [ids['Cliente B']!]);
  await usuario('umulti', 'ana@grupo.com.br', [ids['Transportes A']!, ids['Cliente B']!]);
  await usuario('uinativo', 'ex@transportesa.com.br', [ids['Transportes A']!], false);
  await usuario('usoC', 'c@autonomo.com.br', [ids['Autônomo C']!]);
  await usuario('upre', 'pre@embarcador.com.br', [ids['Transportes A']!, ids['Embarcador D']!]);
  for (const placa of ['ABC1D23', 'XYZ9876', 'QWE4R56']) {
    const res = await t.call(
      'acme',
      'yms/patio/entities/veiculo',
      // XYZ9876 is a trailer: cadastrarComposicaoVeiculo couples it behind a truck.
      { placa, tipoVeiculo: placa === 'XYZ9876' ? 'REBOQUE' : 'CAMINHAO' },
      {
        auth: fullKey,
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    veiculos[placa] = res.json().id;
  }
});

describe('externalTenant and externalUser entities', () => {
  it('stores the CNPJ or CPF as digits, with the default settings', async () => {
    const res = await acme('entities/externalTenant/' + ids['Transportes A'], undefined, { method: 'GET' });
    expect(res.json()).toMatchObject({
      codigo: '11222333000181',
      nome: 'Transportes A',
      ativo: true,
      permiteEdicaoMotorista: true,
      naoPermiteCriarAgendamentosAgrupado: false,
      preAgendaHabilitada: false,
    });
  });

  it('takes an alphanumeric CNPJ (new numbers since July 2026), stored upper case without punctuation', async () => {
    const res = await acme('entities/externalTenant', {
      codigo: '12.abc.345/01de-35',
      nome: 'Transportes Alfa',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().codigo).toBe('12ABC34501DE35');
    const dup = await acme('entities/externalTenant', { codigo: '12ABC34501DE35', nome: 'Outro' });
    expect(dup.statusCode).toBe(409);
    const bad = await acme('entities/externalTenant', { codigo: '12.ABC.345/01DE-36', nome: 'X' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toMatch(/12ABC34501DE36 não é um CNPJ ou CPF válido/);
    const del = await acme(`entities/externalTenant/${res.json().id}`, undefined, { method: 'DELETE' });
    expect(del.statusCode, del.body).toBeLessThan(300);
  });

  it('refuses a document with wrong check digits (422) and a second partner with the same one (409)', async () => {
    const before = await tableCounts(t.db);
    const bad = await acme('entities/externalTenant', { codigo: '11.222.333/0001-82', nome: 'X' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toMatch(/11222333000182 não é um CNPJ ou CPF válido/);
    const dup = await acme('entities/externalTenant', { codigo: '11222333000181', nome: 'Outro' });
    expect(dup.statusCode).toBe(409);
    const shape = await acme('entities/externalTenant', { codigo: '123', nome: 'X' });
    expect(shape.statusCode).toBe(400);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('keeps e-mails lower case and unique, and refuses unknown partners', async () => {
    const res = await acme('entities/externalUser/' + ids.ua, undefined, { method: 'GET' });
    expect(res.json().email).toBe('joao@transportesa.com.br');
    const dup = await acme('entities/externalUser', {
      email: 'JOAO@transportesa.com.br',
      nome: 'x',
      parceiroIds: [ids['Transportes A']],
    });
    expect(dup.statusCode).toBe(409);
    const unknown = await acme('entities/externalUser', {
      email: 'z@z.com',
      nome: 'z',
      parceiroIds: ['00000000-0000-4000-8000-000000000999'],
    });
    expect(unknown.statusCode).toBe(422);
    // Another tenant's partner is unknown here.
    const other = await globex('entities/externalUser', {
      email: 'z@z.com',
      nome: 'z',
      parceiroIds: [ids['Transportes A']],
    });
    expect(other.statusCode).toBe(422);
  });

  it('does not delete a partner that has users (409)', async () => {
    const res = await acme('entities/externalTenant/' + ids['Cliente B'], undefined, { method: 'DELETE' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/desative-o/);
  });
});

describe('keys acting for an external user', () => {
  it('binds only public keys, with a well-formed subject', async () => {
    const full = await t.admin('POST', '/tenants/acme/keys', { scope: 'full', subject: 'externalUser:x' });
    expect(full.statusCode).toBe(400);
    const bad = await t.admin('POST', '/tenants/acme/keys', { scope: 'public', subject: 'no subject' });
    expect(bad.statusCode).toBe(400);
    const ok = await t.admin('POST', '/tenants/acme/keys', {
      scope: 'public',
      subject: `externalUser:${ids.ua}`,
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().subject).toBe(`externalUser:${ids.ua}`);
    const listed = await t.admin('GET', '/tenants/acme/keys');
    expect(listed.json().keys.find((k: { id: string }) => k.id === ok.json().id).subject).toBe(
      `externalUser:${ids.ua}`,
    );
  });

  it('lets a bound key reach the operations declared for external users, and nothing else PRIVATE', async () => {
    const { call } = await carrier(ids.ua!);
    expect((await call('queries/isClienteExterno')).statusCode).toBe(200);
    expect((await call('entities/agenda', undefined, { method: 'GET' })).statusCode).toBe(200);
    expect((await call('queries/healthcheck')).statusCode).toBe(403);
    expect((await call('entities/externalTenant', undefined, { method: 'GET' })).statusCode).toBe(403);
    expect(
      (
        await t.call('acme', 'yms/patio/entities/veiculo', undefined, {
          auth: (await carrier(ids.ua!)).apiKey,
          method: 'GET',
        })
      ).statusCode,
    ).toBe(403);
    // A public key without a subject stays within PUBLIC operations.
    const plain = agendaCall(t, 'acme', (await t.key('acme', 'public')).apiKey);
    expect((await plain('queries/isClienteExterno')).statusCode).toBe(403);
  });

  it('carries the subject into the tokens the key logs in', async () => {
    const key = await t.key('acme', 'public', { subject: `externalUser:${ids.ub}` });
    const login = await t.call(
      'acme',
      'platform/authentication/actions/loginWithKey',
      { accessKey: key.accessKey, secret: key.secret, tenantName: 'acme' },
      { anonymous: true },
    );
    expect(login.statusCode, login.body).toBe(200);
    const token = JSON.parse(login.json().jsonToken).access_token;
    const res = await agendaCall(t, 'acme', `Bearer ${token}`)('queries/isClienteExterno');
    expect(res.statusCode).toBe(200);
    expect(res.json().usuario.email).toBe('maria@clienteb.com.br');
  });

  it('refuses a key whose user is inactive or acts only for inactive partners (403)', async () => {
    for (const user of [ids.uinativo!, ids.usoC!, '00000000-0000-4000-8000-000000000999']) {
      const res = await (await carrier(user)).call('queries/isClienteExterno');
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/não existe, está inativo ou não tem parceiro ativo/);
    }
  });
});

describe('isClienteExterno', () => {
  it('answers false and no partner for an internal caller (POST and GET)', async () => {
    for (const method of ['POST', 'GET'] as const) {
      const res = await acme('queries/isClienteExterno', {}, method === 'GET' ? { method } : {});
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        isClienteExterno: false,
        permiteEdicaoMotorista: true,
        naoPermiteCriarAgendamentosAgrupado: false,
        preAgendaHabilitada: false,
        parceiros: [],
        usuario: {},
      });
    }
  });

  it('answers the user, its active partners and their combined settings', async () => {
    const one = (await (await carrier(ids.ua!)).call('queries/isClienteExterno')).json();
    expect(one).toMatchObject({
      isClienteExterno: true,
      permiteEdicaoMotorista: true,
      preAgendaHabilitada: false,
      usuario: { id: ids.ua, email: 'joao@transportesa.com.br', parceiroIds: [ids['Transportes A']] },
    });
    expect(one.parceiros.map((p: { codigo: string }) => p.codigo)).toEqual(['11222333000181']);
    const multi = (await (await carrier(ids.umulti!)).call('queries/isClienteExterno')).json();
    expect(multi.parceiros.map((p: { nome: string }) => p.nome)).toEqual(['Cliente B', 'Transportes A']);
    // B forbids editing the driver: the most restrictive wins.
    expect(multi).toMatchObject({ permiteEdicaoMotorista: false, preAgendaHabilitada: false });
    // D asks for pre-agendas: so does its user.
    const pre = (await (await carrier(ids.upre!)).call('queries/isClienteExterno')).json();
    expect(pre).toMatchObject({ permiteEdicaoMotorista: true, preAgendaHabilitada: true });
  });
});

describe('verificaUsuario (PUBLIC, anonymous)', () => {
  const verifica = (tenant: string, email: unknown) =>
    t.call(tenant, 'yms/agenda/queries/verificaUsuario', { email }, { anonymous: true });

  it('tells whether the user is active, without credentials', async () => {
    const res = await verifica('acme', 'JOAO@transportesa.com.br');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ email: 'joao@transportesa.com.br', ativo: true });
    expect((await verifica('acme', 'ex@transportesa.com.br')).json().ativo).toBe(false);
    // Active, but its only partner is inactive.
    expect((await verifica('acme', 'c@autonomo.com.br')).json().ativo).toBe(false);
  });

  it('is 404 for an unknown e-mail or another tenant’s user, 400 for a malformed one', async () => {
    expect((await verifica('acme', 'ninguem@x.com')).statusCode).toBe(404);
    expect((await verifica('globex', 'joao@transportesa.com.br')).statusCode).toBe(404);
    const bad = await verifica('acme', 'not-an-email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/email/);
  });
});

describe('buscaTenantPorNome (PUBLIC, anonymous)', () => {
  it('answers the tenant of the address, by POST and GET, never its secrets', async () => {
    const post = await t.call(
      'acme',
      'yms/agenda/queries/buscaTenantPorNome',
      { tenantNome: 'ACME' },
      {
        anonymous: true,
      },
    );
    expect(post.statusCode, post.body).toBe(200);
    expect(post.json()).toMatchObject({ name: 'acme', edition: 'standard', timeZone: 'America/Sao_Paulo' });
    expect(Object.keys(post.json()).sort()).toEqual(['createdAt', 'edition', 'id', 'name', 'timeZone']);
    const get = await t.call('acme', 'yms/agenda/queries/buscaTenantPorNome', undefined, {
      method: 'GET',
      query: { tenantNome: 'acme' },
      auth: fullKey,
    });
    expect(get.json().id).toBe(post.json().id);
  });

  it('is 404 for any other name, so other tenants cannot be probed', async () => {
    for (const tenantNome of ['globex', 'nada']) {
      const res = await t.call(
        'acme',
        'yms/agenda/queries/buscaTenantPorNome',
        { tenantNome },
        {
          anonymous: true,
        },
      );
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('linkVehiclesToPartner (PUBLIC)', () => {
  it('links known plates, says which were not linked and why, and is idempotent', async () => {
    const before = await tableCounts(t.db);
    const res = await acme('actions/linkVehiclesToPartner', {
      code: CNPJ_A,
      plates: ['abc-1d23', 'ZZZ0000', 'bad plate', 'XYZ9876', 'ABC1D23'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      platesNotLinked: ['ZZZ0000', 'bad plate'],
      reasons: [
        { plate: 'ZZZ0000', reason: 'VEHICLE_NOT_FOUND' },
        { plate: 'bad plate', reason: 'INVALID_PLATE' },
      ],
    });
    const after = await tableCounts(t.db);
    expect(after.agenda_parceiro_veiculo).toBe(before.agenda_parceiro_veiculo! + 2);
    const again = await acme('actions/linkVehiclesToPartner', {
      code: '11222333000181',
      plates: ['XYZ9876'],
    });
    expect(again.json().platesNotLinked).toEqual([]);
    expect((await tableCounts(t.db)).agenda_parceiro_veiculo).toBe(after.agenda_parceiro_veiculo);
  });

  it("refuses an unknown partner (404), an inactive one (422), an empty list (400), another tenant's (404)", async () => {
    const before = await tableCounts(t.db);
    expect(
      (await acme('actions/linkVehiclesToPartner', { code: '00000000000', plates: ['ABC1D23'] })).statusCode,
    ).toBe(404);
    const inactive = await acme('actions/linkVehiclesToPartner', { code: CPF_C, plates: ['ABC1D23'] });
    expect(inactive.statusCode).toBe(422);
    expect(inactive.json().message).toMatch(/inativo/);
    expect((await acme('actions/linkVehiclesToPartner', { code: CNPJ_A, plates: [] })).statusCode).toBe(400);
    expect(
      (await globex('actions/linkVehiclesToPartner', { code: CNPJ_A, plates: ['ABC1D23'] })).statusCode,
    ).toBe(404);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("lets a partner's user link only to its own partners", async () => {
    const { call } = await carrier(ids.ub!);
    expect(
      (await call('actions/linkVehiclesToPartner', { code: CNPJ_A, plates: ['QWE4R56'] })).statusCode,
    ).toBe(404);
    const own = await call('actions/linkVehiclesToPartner', { code: CNPJ_B, plates: ['QWE4R56'] });
    expect(own.statusCode).toBe(200);
    expect(own.json().platesNotLinked).toEqual([]);
  });
});

describe("a carrier's agendas", () => {
  it('books for its partner (forced), with its linked vehicles only, and sees only its own', async () => {
    const { call } = await carrier(ids.ua!);
    const booked = await call(
      'entities/agenda',
      agendaBody({ veiculoId: veiculos.ABC1D23, descricao: 'A1' }),
    );
    expect(booked.statusCode, booked.body).toBe(200);
    expect(booked.json()).toMatchObject({ parceiroId: ids['Transportes A'], status: 'AGENDADO' });

    const before = await tableCounts(t.db);
    const unlinked = await call('entities/agenda', agendaBody({ veiculoId: veiculos.QWE4R56 }));
    expect(unlinked.statusCode).toBe(422);
    expect(unlinked.json().message).toMatch(/não está vinculado ao parceiro Transportes A/);
    const forOther = await call('entities/agenda', agendaBody({ parceiroId: ids['Cliente B'] }));
    expect(forOther.statusCode).toBe(403);
    expect(await tableCounts(t.db)).toEqual(before);

    const ofB = await acme('entities/agenda', agendaBody({ parceiroId: ids['Cliente B'], descricao: 'B1' }));
    expect(ofB.statusCode).toBe(200);
    const list = await call('entities/agenda', undefined, { method: 'GET', query: { size: '100' } });
    expect(list.json().map((a: { descricao: string }) => a.descricao)).toEqual(['A1']);
    expect(list.headers['x-total-count']).toBe('1');
    const other = ofB.json().id;
    expect((await call(`entities/agenda/${other}`, undefined, { method: 'GET' })).statusCode).toBe(404);
    expect((await call(`entities/agenda/${other}`, { descricao: 'x' }, { method: 'PATCH' })).statusCode).toBe(
      404,
    );
    expect((await call(`entities/agenda/${other}`, undefined, { method: 'DELETE' })).statusCode).toBe(404);
    expect((await acme(`entities/agenda/${other}`, undefined, { method: 'GET' })).json().descricao).toBe(
      'B1',
    );
  });

  it("sees the free slots before it books, and moves only its partners' agendas (another's: 404)", async () => {
    const { call } = await carrier(ids.ua!);
    const dia = { tipoAgendamentoId: TIPO, plantaId: PLANTA, data: '2026-03-10' };
    const slots = await call('queries/horarioOperacao', dia);
    expect(slots.statusCode, slots.body).toBe(200);
    const nove = slots.json().horarios.find((h: { horaInicio: string }) => h.horaInicio === '09:00');
    expect(nove).toMatchObject({ capacidade: 100, disponivel: true });
    // Counts only: nothing in the answer says whose agendas fill a slot.
    expect(JSON.stringify(slots.json())).not.toContain(ids['Cliente B']!);
    const own = await call('entities/agenda', agendaBody({ veiculoId: veiculos.ABC1D23, descricao: 'A2' }));
    expect(own.statusCode, own.body).toBe(200);
    const moving = await call('queries/horarioOperacaoParaReagendamento', {
      agendaId: own.json().id,
      data: '2026-03-10',
    });
    expect(moving.statusCode, moving.body).toBe(200);
    const ofB = await acme('entities/agenda', agendaBody({ parceiroId: ids['Cliente B'], descricao: 'B2' }));
    for (const agendaId of [ofB.json().id, String(ofB.json().codigo)]) {
      const other = await call('queries/horarioOperacaoParaReagendamento', { agendaId, data: '2026-03-10' });
      expect(other.statusCode, other.body).toBe(404);
    }
    // The tenant's own callers still move any agenda.
    expect(
      (
        await acme('queries/horarioOperacaoParaReagendamento', {
          agendaId: ofB.json().id,
          data: '2026-03-10',
        })
      ).statusCode,
    ).toBe(200);
  });

  it("applies the partner's settings: grouped bookings and driver changes", async () => {
    await acme(
      'entities/externalTenant/' + ids['Cliente B'],
      { naoPermiteCriarAgendamentosAgrupado: true },
      {
        method: 'PATCH',
      },
    );
    const { call } = await carrier(ids.ub!);
    const grouped = await call('entities/agenda', agendaBody({ codigoAgrupador: 'G1' }));
    expect(grouped.statusCode).toBe(422);
    expect(grouped.json().message).toMatch(/não permite criar agendamentos agrupados/);
    const [motorista, outro] = [
      '00000000-0000-4000-8000-00000000c001',
      '00000000-0000-4000-8000-00000000c002',
    ];
    await seed(t, 'acme', motoristaTable, [makeMotorista({ id: motorista }), makeMotorista({ id: outro })]);
    const booked = await call('entities/agenda', agendaBody({ motoristaId: motorista }));
    expect(booked.statusCode, booked.body).toBe(200);
    const change = await call(
      `entities/agenda/${booked.json().id}`,
      { motoristaId: outro },
      { method: 'PATCH' },
    );
    expect(change.statusCode).toBe(422);
    expect(change.json().message).not.toMatch(/does not exist/);
    expect(
      (await call(`entities/agenda/${booked.json().id}`, { descricao: 'ok' }, { method: 'PATCH' }))
        .statusCode,
    ).toBe(200);
  });

  it('asks a user of several partners which one it books for', async () => {
    const { call } = await carrier(ids.umulti!);
    const res = await call('entities/agenda', agendaBody());
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/informe parceiroId/);
    const ok = await call('entities/agenda', agendaBody({ parceiroId: ids['Cliente B'] }));
    expect(ok.statusCode).toBe(200);
  });

  it('refuses a direct booking for a partner with preAgendaHabilitada (422), changing nothing', async () => {
    const { call } = await carrier(ids.upre!);
    const before = await tableCounts(t.db);
    const res = await call('entities/agenda', agendaBody({ parceiroId: ids['Embarcador D'] }));
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      'O parceiro Embarcador D agenda por pré-agenda (preAgendaHabilitada): solicite uma pré-agenda ' +
        '(entities/preAgenda) em vez de criar a agenda',
    );
    expect(await tableCounts(t.db)).toEqual(before);
    // For its other partner the same user books directly; the plant books for D directly too.
    const ok = await call('entities/agenda', agendaBody({ parceiroId: ids['Transportes A'] }));
    expect(ok.statusCode, ok.body).toBe(200);
    const moved = await call(
      `entities/agenda/${ok.json().id}`,
      { parceiroId: ids['Embarcador D'] },
      { method: 'PATCH' },
    );
    expect(moved.statusCode).toBe(422);
    const plant = await acme('entities/agenda', agendaBody({ parceiroId: ids['Embarcador D'] }));
    expect(plant.statusCode, plant.body).toBe(200);
  });

  it('refuses an unknown or inactive partner for internal callers too (422)', async () => {
    const unknown = await acme(
      'entities/agenda',
      agendaBody({ parceiroId: '00000000-0000-4000-8000-000000000999' }),
    );
    expect(unknown.statusCode).toBe(422);
    const inactive = await acme('entities/agenda', agendaBody({ parceiroId: ids['Autônomo C'] }));
    expect(inactive.statusCode).toBe(422);
  });

  it('leaves internal callers every partner’s agendas in pesquisarAgendas', async () => {
    const res = await t.call(
      'acme',
      'yms/agenda/queries/pesquisarAgendas',
      { page: 0, size: 100 },
      {
        auth: fullKey,
      },
    );
    const all = res.json().agendas as Array<{ parceiroId?: string }>;
    expect(all.some((a) => a.parceiroId === ids['Cliente B'])).toBe(true);
  });
});

describe('cadastrarComposicaoVeiculo', () => {
  it('creates the composition in yms/patio and answers it', async () => {
    const res = await acme('actions/cadastrarComposicaoVeiculo', {
      descricao: 'Bitrem',
      cavaloId: veiculos.ABC1D23,
      reboqueIds: [veiculos.XYZ9876],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ descricao: 'Bitrem', cavaloId: veiculos.ABC1D23, bloqueado: false });
    const read = await t.call('acme', `yms/patio/entities/composicaoVeiculo/${res.json().id}`, undefined, {
      auth: fullKey,
      method: 'GET',
    });
    expect(read.statusCode).toBe(200);
  });

  it("refuses bad bodies (400), unknown vehicles (422), another partner's vehicles (422), changing nothing", async () => {
    const { call } = await carrier(ids.ua!);
    const before = await tableCounts(t.db);
    expect((await acme('actions/cadastrarComposicaoVeiculo', { descricao: 'x' })).statusCode).toBe(400);
    const unknown = await acme('actions/cadastrarComposicaoVeiculo', {
      cavaloId: '00000000-0000-4000-8000-000000000999',
    });
    expect(unknown.statusCode).toBe(422);
    // patio's rules of places: a trailer does not pull (docs/patio.md "Compositions").
    const rebocado = await acme('actions/cadastrarComposicaoVeiculo', { cavaloId: veiculos.XYZ9876 });
    expect(rebocado.statusCode).toBe(422);
    expect(rebocado.json().message).toMatch(/^cavaloId: o veículo XYZ9876 é REBOQUE, não traciona/);
    expect(
      (await globex('actions/cadastrarComposicaoVeiculo', { cavaloId: veiculos.ABC1D23 })).statusCode,
    ).toBe(422);
    const res = await call('actions/cadastrarComposicaoVeiculo', { cavaloId: veiculos.QWE4R56 });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/não está vinculado/);
    expect(await tableCounts(t.db)).toEqual(before);
    const own = await call('actions/cadastrarComposicaoVeiculo', { cavaloId: veiculos.ABC1D23 });
    expect(own.statusCode, own.body).toBe(200);
  });
});
