import { eq, or, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, CONCORRENTES, depois, RODADAS } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { Store } from '../../../platform/core/db/store.ts';
import { patioCall } from '../patio/fixtures.ts';
import { agendaCall, makeAgenda, PLANTA, seedAgendas, TIPO } from './fixtures.ts';
import { AGORA, makePreAgenda, seedCadastros, seedPreAgendas } from './preagenda-fixtures.ts';
import { agenda } from './tables/agendas.ts';
import { externalTenant, externalUser } from './tables/parceiros.ts';
import { preAgenda } from './tables/preagendas.ts';

// A partner (externalTenant) deleted at the same moment as agendas, pre-agendas and users naming it
// are written, on every path that writes the partner (docs/agenda.md "External partners and users"):
// the writes read it FOR KEY SHARE (exigirParceiroAtivo, core/references.ts, externalUser's hook),
// the delete locks it FOR UPDATE and then looks for what names it. Either the delete wins and every
// write is refused (422, the partner is not one of the tenant's), or a write wins and the delete is
// refused (409 for an agenda or a user, 422 for a pre-agenda): never a record naming a partner that
// is gone, never a 500.
// On PostgreSQL the requests run at once; on PGlite one after the other (the same rules hold).

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let patio: ReturnType<typeof patioCall>;

beforeAll(async () => {
  t = await testApp({ db: await bancoDeCorrida(), now: () => AGORA });
  const key = await t.tenant('acme');
  acme = agendaCall(t, 'acme', key);
  patio = patioCall(t, 'acme', key);
  await seedCadastros(t, 'acme');
});

let documentos = 0;

async function seedParceiro(): Promise<string> {
  // Inserted as is (the entity's check of the document is not what races here): unique in the tenant.
  const codigo = String(90_000_000_000_000 + ++documentos);
  const [row] = await t.db.tenant('acme', (tx) =>
    new Store(tx, 'acme')
      .insert(externalTenant, [
        { codigo, nome: `Parceiro ${codigo}`, ativo: true, createdBy: 'test', lastModifiedBy: 'test' },
      ])
      .returning(),
  );
  return row!.id;
}

type Escrita = (parceiroId: string) => Promise<() => Promise<LightMyRequestResponse>>;

const DATA = '2026-04-10T12:00:00Z';
const novaAgenda = async () => (await seedAgendas(t, 'acme', [makeAgenda()]))[0]!.id;
const novaPreAgenda = async () => (await seedPreAgendas(t, 'acme', [makePreAgenda()]))[0]!.id;

/** Every path that writes a partner into an agenda or a pre-agenda; what it edits is seeded first. */
const ESCRITAS: Record<string, Escrita> = {
  'agenda POST': async (parceiroId) => () =>
    acme('entities/agenda', { plantaId: PLANTA, tipoAgendamentoId: TIPO, dataEsperada: DATA, parceiroId }),
  'agenda PATCH': async (parceiroId) => {
    const id = await novaAgenda();
    return () => acme(`entities/agenda/${id}`, { parceiroId }, { method: 'PATCH' });
  },
  criarAgendamento: async (parceiroId) => () =>
    acme('actions/criarAgendamento', {
      plantaId: PLANTA,
      tipoAgendamentoId: TIPO,
      dataEsperada: AGORA.toISOString(),
      parceiroId,
    }),
  atualizarAgendamento: async (parceiroId) => {
    const id = await novaAgenda();
    return () => acme('actions/atualizarAgendamento', { agenda: { id, parceiroId } });
  },
  'patio cadastrarAgendamentoSimplificado': async (parceiroId) => () =>
    patio('actions/cadastrarAgendamentoSimplificado', {
      tipoAgendamentoId: TIPO,
      plantaId: PLANTA,
      parceiroId,
    }),
  'patio atualizarAgenda': async (parceiroId) => {
    const id = await novaAgenda();
    return () => patio('actions/atualizarAgenda', { agenda: { id, parceiroId } });
  },
  'preAgenda POST externalTenantId': async (externalTenantId) => () =>
    acme('entities/preAgenda', {
      plantaId: PLANTA,
      tipoAgendamentoId: TIPO,
      dataEsperada: DATA,
      externalTenantId,
    }),
  'preAgenda POST clienteId': async (clienteId) => () =>
    acme('entities/preAgenda', { plantaId: PLANTA, tipoAgendamentoId: TIPO, dataEsperada: DATA, clienteId }),
  'preAgenda PATCH externalTenantId': async (externalTenantId) => {
    const id = await novaPreAgenda();
    return () => acme(`entities/preAgenda/${id}`, { externalTenantId }, { method: 'PATCH' });
  },
  'preAgenda PATCH clienteId': async (clienteId) => {
    const id = await novaPreAgenda();
    return () => acme(`entities/preAgenda/${id}`, { clienteId }, { method: 'PATCH' });
  },
  // Not an agenda, but a record that names the partner too: a partner's user.
  'externalUser POST': async (parceiroId) => () =>
    acme('entities/externalUser', {
      email: `u${++documentos}@parceiro.example`,
      nome: 'Usuária do parceiro',
      parceiroIds: [parceiroId],
    }),
};
const NOMES = Object.keys(ESCRITAS);

/** Agendas, pre-agendas and users naming the partner. */
const nomeando = async (parceiroId: string) =>
  t.db.tenant('acme', async (tx) => {
    const store = new Store(tx, 'acme');
    const agendas = await store.select(agenda, eq(agenda.parceiroId, parceiroId));
    const pre = await store.select(
      preAgenda,
      or(eq(preAgenda.externalTenantId, parceiroId), eq(preAgenda.clienteId, parceiroId)),
    );
    const usuarios = await store.select(
      externalUser,
      sql`${parceiroId}::uuid = any(${externalUser.parceiroIds})`,
    );
    return { agendas: agendas.length, preAgendas: pre.length, usuarios: usuarios.length };
  });

const RECUSA_DA_ESCRITA = /não é um parceiro \(externalTenant\) deste tenant|externalTenant does not exist/;

describe(`a partner deleted while agendas, pre-agendas and users naming it are written (${RODADAS * 2} rounds × ${CONCORRENTES} at once)`, () => {
  it('either the delete wins and every write is 422, or a write wins and the delete is refused; never a dangling partner', async () => {
    const escritas = CONCORRENTES - 1;
    const meio = Math.floor(CONCORRENTES / 2);
    for (let r = 0; r < RODADAS * 2; r++) {
      const parceiroId = await seedParceiro();
      // Each round, the next `escritas` paths in turn: every path races the delete several times.
      const nomes = Array.from({ length: escritas }, (_, k) => NOMES[(r * escritas + k) % NOMES.length]!);
      const pedidos = await Promise.all(nomes.map((nome) => ESCRITAS[nome]!(parceiroId)));
      // The writes start a millisecond apart, the delete among them (later each round): the writes
      // started well before it win, it wins over those started after, and the rest overlap it.
      const apagar = depois(r % escritas, () =>
        acme(`entities/externalTenant/${parceiroId}`, undefined, { method: 'DELETE' }),
      );
      const escalonados = pedidos.map((p, k) => depois(k, p));
      const respostas = await aoMesmoTempo([
        ...escalonados.slice(0, meio),
        apagar,
        ...escalonados.slice(meio),
      ]);
      const remocao = respostas[meio]!;
      const resultados = respostas.filter((_, k) => k !== meio);
      const resumo = `round ${r}:\n${respostas
        .map((x, k) => `${k === meio ? 'DELETE' : nomes[k < meio ? k : k - 1]}: ${x.statusCode} ${x.body}`)
        .join('\n')}`;

      for (const res of resultados) {
        expect([200, 422], resumo).toContain(res.statusCode);
        if (res.statusCode === 422) expect(res.json().message, resumo).toMatch(RECUSA_DA_ESCRITA);
      }
      const aceitas = resultados.filter((res) => res.statusCode === 200).length;
      const { agendas, preAgendas, usuarios } = await nomeando(parceiroId);
      expect(agendas + preAgendas + usuarios, resumo).toBe(aceitas);
      const existe =
        (await acme(`entities/externalTenant/${parceiroId}`, undefined, { method: 'GET' })).statusCode ===
        200;
      if (remocao.statusCode === 200) {
        // The delete won: nothing names the partner that is gone.
        expect(existe, resumo).toBe(false);
        expect(aceitas, resumo).toBe(0);
      } else {
        // A write won: the delete was refused, naming what holds the partner.
        expect(existe, resumo).toBe(true);
        expect(aceitas, resumo).toBeGreaterThan(0);
        if (remocao.statusCode === 409) {
          expect(agendas + usuarios, resumo).toBeGreaterThan(0);
          expect(remocao.json().message, resumo).toMatch(/agenda\(s\) e \d+ usuário\(s\): desative-o/);
        } else {
          expect(remocao.statusCode, resumo).toBe(422);
          expect(preAgendas, resumo).toBeGreaterThan(0);
          expect(remocao.json().message, resumo).toMatch(
            /still referred to by other records \(yms\/agenda preAgenda\./,
          );
        }
      }
    }
  }, 120_000);
});
