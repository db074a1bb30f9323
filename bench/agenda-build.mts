import { NodePgSession } from 'drizzle-orm/node-postgres';

// What filtrarAgenda costs in Node before and after PostgreSQL, without PostgreSQL: building the
// filters, the page's statements and their values, and mapping an empty answer, for the three cases
// of bench/agenda.ts, on a connection stub that answers no rows. Give it a checkout to compare two
// versions in one run (docs/performance.md):
//   npx tsx bench/agenda-build.mts /path/to/other/checkout && npx tsx bench/agenda-build.mts .

const root = new URL(`${process.argv[2] ?? '.'}/`, `file://${process.cwd()}/`).pathname;
const { condicoes, pagina, leitura } = await import(`${root}src/services/yms/agenda/busca.ts`);
const { Store } = await import(`${root}src/platform/core/db/store.ts`);
const session = Object.create(NodePgSession.prototype) as { client: unknown };
session.client = { query: async () => ({ rows: [] }) };
const ctx = { caller: {}, store: new Store({ session }, 'bench'), now: () => new Date() };
const cases: Record<string, object> = {
  l1: {
    plantaId: 'f8ff98db-111e-8376-e97b-faadffedd33f',
    desde: new Date('2026-12-04T11:15:46.355Z'),
    ate: new Date('2026-12-11T11:15:46.355Z'),
  },
  l2: { status: ['AGENDADO', 'ERRO_INTEGRACAO'], vencidas: { horas: 24, agora: new Date() } },
  l3: {
    pesquisa: { texto: 'a3f9', veiculoIds: [], motoristaIds: [] },
    cadastros: { parceiroIds: [], tipoIds: [] },
  },
};
for (const [id, f] of Object.entries(cases)) {
  const one = async () => pagina(ctx, await condicoes(ctx, f), { page: 0, size: 20 }, leitura(f));
  for (let i = 0; i < 3000; i++) await one();
  const n = 20_000;
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await one();
  const used = process.cpuUsage(before);
  console.log(`(${id}) ${((used.user + used.system) / n).toFixed(1)} µs of CPU per request (${root})`);
}
