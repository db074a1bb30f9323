import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { patioCall } from '../patio/fixtures.ts';
import { agendaCall, agendaRow, makeAgenda, PLANTA, seedAgendas, TIPO } from './fixtures.ts';
import { AGORA, seedCadastros } from './preagenda-fixtures.ts';
import { externalTenant } from './tables/parceiros.ts';

// The partner an agenda names (parceiroId, an externalTenant of the tenant) on every path that
// writes it (docs/agenda.md "External partners and users"): the entity, yms/agenda's PRIVATE
// criarAgendamento and atualizarAgendamento, and yms/patio's cadastrarAgendamentoSimplificado and
// atualizarAgenda that call them. An unknown id, another tenant's and an inactive partner get the
// entity's 422, and nothing is written.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let patio: ReturnType<typeof patioCall>;
const DESCONHECIDO = '00000000-0000-0000-0000-000000000000';
let DELES: string;
let INATIVO: string;
let NOSSO: string;

async function seedParceiro(tenant: string, codigo: string, ativo = true) {
  const [row] = await t.db.tenant(tenant, (tx) =>
    new Store(tx, tenant)
      .insert(externalTenant, [
        { codigo, nome: `Parceiro ${codigo}`, ativo, createdBy: 'test', lastModifiedBy: 'test' },
      ])
      .returning(),
  );
  return row!.id;
}

beforeAll(async () => {
  t = await testApp({ now: () => AGORA });
  const key = await t.tenant('acme');
  acme = agendaCall(t, 'acme', key);
  patio = patioCall(t, 'acme', key);
  await t.tenant('globex');
  await seedCadastros(t, 'acme');
  DELES = await seedParceiro('globex', '11222333000181');
  INATIVO = await seedParceiro('acme', '11444777000161', false);
  NOSSO = await seedParceiro('acme', '11222333000181');
});

const desconhecido = (id: string) => ({
  reason: 'UNPROCESSABLE',
  message: `parceiroId ${id} não é um parceiro (externalTenant) deste tenant`,
});
const inativo = {
  reason: 'UNPROCESSABLE',
  message: 'Parceiro Parceiro 11444777000161 (11444777000161) está inativo',
};

/** Every path that writes an agenda's partner, for an agenda `a` (an edit) or a new one. */
const caminhos: Record<string, (parceiroId: string, a: { id: string }) => ReturnType<typeof acme>> = {
  'entities/agenda POST': (parceiroId) =>
    acme('entities/agenda', {
      plantaId: PLANTA,
      tipoAgendamentoId: TIPO,
      dataEsperada: '2026-04-10T12:00:00Z',
      parceiroId,
    }),
  'entities/agenda PATCH': (parceiroId, a) =>
    acme(`entities/agenda/${a.id}`, { parceiroId }, { method: 'PATCH' }),
  'agenda criarAgendamento': (parceiroId) =>
    acme('actions/criarAgendamento', {
      plantaId: PLANTA,
      tipoAgendamentoId: TIPO,
      dataEsperada: AGORA.toISOString(),
      parceiroId,
    }),
  'agenda atualizarAgendamento': (parceiroId, a) =>
    acme('actions/atualizarAgendamento', { agenda: { id: a.id, parceiroId } }),
  'patio cadastrarAgendamentoSimplificado': (parceiroId) =>
    patio('actions/cadastrarAgendamentoSimplificado', {
      tipoAgendamentoId: TIPO,
      plantaId: PLANTA,
      parceiroId,
    }),
  'patio atualizarAgenda': (parceiroId, a) =>
    patio('actions/atualizarAgenda', { agenda: { id: a.id, parceiroId } }),
};

describe('the partner of an agenda, on every path that writes it', () => {
  it.each(Object.keys(caminhos))(
    "%s: an unknown, another tenant's or an inactive partner is the entity's 422, nothing written",
    async (caminho) => {
      const [a] = await seedAgendas(t, 'acme', [
        makeAgenda({ dataEsperada: new Date('2026-04-10T12:00:00Z') }),
      ]);
      const before = await tableCounts(t.db);
      for (const [id, esperado] of [
        [DESCONHECIDO, desconhecido(DESCONHECIDO)],
        [DELES, desconhecido(DELES)],
        [INATIVO, inativo],
      ] as const) {
        const res = await caminhos[caminho]!(id, a!);
        expect(res.statusCode, `${id}: ${res.body}`).toBe(422);
        expect(res.json()).toEqual(esperado);
      }
      expect(await tableCounts(t.db)).toEqual(before);
      expect((await agendaRow(t, 'acme', a!.id)).parceiroId).toBeNull();
    },
  );

  it.each(Object.keys(caminhos))('%s: an active partner of the tenant is stored', async (caminho) => {
    const [a] = await seedAgendas(t, 'acme', [
      makeAgenda({ dataEsperada: new Date('2026-04-10T12:00:00Z') }),
    ]);
    const res = await caminhos[caminho]!(NOSSO, a!);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const id = body.agenda?.id ?? body.id ?? a!.id;
    expect((await agendaRow(t, 'acme', id)).parceiroId).toBe(NOSSO);
  });
});

describe('a partner named by a pre-agenda', () => {
  it('is not deleted while a pre-agenda names it as its partner or its customer (422), then is', async () => {
    for (const campo of ['externalTenantId', 'clienteId'] as const) {
      const parceiro = await seedParceiro(
        'acme',
        campo === 'clienteId' ? '11444777000242' : '11444777000323',
      );
      const pedido = await acme('entities/preAgenda', {
        plantaId: PLANTA,
        tipoAgendamentoId: TIPO,
        dataEsperada: '2026-04-10T12:00:00Z',
        [campo]: parceiro,
      });
      expect(pedido.statusCode, pedido.body).toBe(200);
      const recusado = await acme(`entities/externalTenant/${parceiro}`, undefined, { method: 'DELETE' });
      expect(recusado.statusCode, recusado.body).toBe(422);
      expect(recusado.json().message).toContain(`preAgenda.${campo}`);
      const removido = await acme(`entities/preAgenda/${pedido.json().id}`, undefined, { method: 'DELETE' });
      expect(removido.statusCode, removido.body).toBe(200);
      const depois = await acme(`entities/externalTenant/${parceiro}`, undefined, { method: 'DELETE' });
      expect(depois.statusCode, depois.body).toBe(200);
    }
  });
});
