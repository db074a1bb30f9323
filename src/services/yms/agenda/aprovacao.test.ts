import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { agendaCall, PLANTA, seedPlanta } from './fixtures.ts';
import { preAgendaRow, seedCadastros } from './preagenda-fixtures.ts';

// The approval of pre-agendas: ConfiguracaoAprovacaoAgenda (scope, levels, approvers, the most
// specific wins), the multi-level process recorded as HistoricoAprovacaoAgenda and its items,
// rejection and resubmission, cancellation, and tenant isolation of the configuration.

let t: TestApp;
let acme: ReturnType<typeof agendaCall>;
let globex: ReturnType<typeof agendaCall>;
const config = 'entities/configuracaoAprovacaoAgenda';
const PLANTA_2 = '00000000-0000-4000-8000-00000000a002';
const PLANTA_3 = '00000000-0000-4000-8000-00000000a003';
const TIPO_2 = '00000000-0000-4000-8000-00000000b002';

const PLANTA_N = '00000000-0000-4000-8000-00000000a010';
const PLANTA_SEM = '00000000-0000-4000-8000-00000000a0ff';
/** The default type of a plant: its id with b for a (TIPO is PLANTA's). */
const tipoDe = (plantaId: string) => plantaId.replace(/a(\w{3})$/, 'b$1');

beforeAll(async () => {
  t = await testApp();
  acme = agendaCall(t, 'acme', await t.tenant('acme'));
  globex = agendaCall(t, 'globex', await t.tenant('globex'));
  const plantas = [PLANTA, PLANTA_3, PLANTA_N, PLANTA_SEM];
  await seedCadastros(t, 'acme', {
    ...Object.fromEntries(plantas.map((p) => [tipoDe(p), p])),
    [TIPO_2]: PLANTA_3,
  });
  await seedPlanta(t, 'acme', { id: PLANTA_2 });
});

const criar = async (o: Record<string, unknown> = {}) => {
  const plantaId = (o.plantaId as string | undefined) ?? PLANTA;
  const res = await acme('entities/preAgenda', {
    plantaId,
    tipoAgendamentoId: tipoDe(plantaId),
    dataEsperada: '2026-05-01T10:00:00Z',
    ...o,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; status: string };
};
const historicoDe = async (id: string) =>
  (await acme('queries/historicoPreAgenda', { preAgendaId: id })).json();

describe('configuracaoAprovacaoAgenda', () => {
  it('creates with defaults, refuses an approver above the levels (422) and a second one of the same scope (409)', async () => {
    const nenhuma = await acme(config, { plantaId: '00000000-0000-4000-8000-00000000dead' });
    expect(nenhuma.statusCode).toBe(422);
    expect(nenhuma.json().message).toBe(
      'plantaId 00000000-0000-4000-8000-00000000dead: planta does not exist (yms/patio)',
    );
    const res = await acme(config, { plantaId: PLANTA_2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      plantaId: PLANTA_2,
      exigeAprovacao: true,
      niveis: 1,
      aprovadores: [],
    });

    const before = await tableCounts(t.db);
    const nivel = await acme(config, {
      plantaId: PLANTA_3,
      niveis: 2,
      aprovadores: [
        { nivel: 1, usuario: 'ana' },
        { nivel: 3, usuario: 'bia' },
      ],
    });
    expect(nivel.statusCode).toBe(422);
    expect(nivel.json().message).toBe('aprovadores[1].nivel 3 passa do número de níveis (2)');
    // Same scope (the empty type counts as a value): 409.
    const dup = await acme(config, { plantaId: PLANTA_2, niveis: 2 });
    expect(dup.statusCode).toBe(409);
    const niveis = await acme(config, { plantaId: PLANTA_3, niveis: 11 });
    expect(niveis.statusCode).toBe(400);
    expect(niveis.json().message).toMatch(/field 'niveis' must be <= 10/);
    expect(await tableCounts(t.db)).toEqual(before);
    // Another tenant names no plant of acme's; with a plant of that id of its own, it has its own
    // configuration for the same scope, and does not see this one.
    expect((await globex(config, { plantaId: PLANTA_2 })).statusCode).toBe(422);
    await seedPlanta(t, 'globex', { id: PLANTA_2 });
    expect((await globex(config, { plantaId: PLANTA_2 })).statusCode).toBe(200);
    expect((await globex(`${config}/${res.json().id}`, undefined, { method: 'GET' })).statusCode).toBe(404);
  });

  it('no approval needed: the pre-agenda is born APROVADA; the most specific configuration wins', async () => {
    const geral = await acme(config, { plantaId: PLANTA_3, exigeAprovacao: false });
    expect(geral.statusCode, geral.body).toBe(200);
    const especifica = await acme(config, { plantaId: PLANTA_3, tipoAgendamentoId: TIPO_2, niveis: 2 });
    expect(especifica.statusCode, especifica.body).toBe(200);

    const livre = await criar({ plantaId: PLANTA_3 });
    expect(livre.status).toBe('APROVADA');
    const h = await historicoDe(livre.id);
    expect(h.aprovacoes).toEqual([]);
    expect(h.logs).toEqual([
      expect.objectContaining({
        acao: 'CRIADA',
        para: 'APROVADA',
        motivo: 'aprovação não exigida pela configuração',
      }),
    ]);

    const controlada = await criar({ plantaId: PLANTA_3, tipoAgendamentoId: TIPO_2 });
    expect(controlada.status).toBe('PENDENTE');
    expect((await historicoDe(controlada.id)).aprovacoes).toEqual([
      expect.objectContaining({ niveis: 2, configuracaoId: especifica.json().id, status: 'EM_ANDAMENTO' }),
    ]);
    // Without any configuration: one level, anyone.
    const padrao = await criar({ plantaId: PLANTA_SEM });
    expect((await historicoDe(padrao.id)).aprovacoes).toEqual([
      expect.not.objectContaining({ configuracaoId: expect.anything() }),
    ]);
  });
});

describe('a two-level approval', () => {
  beforeAll(async () => {
    const res = await acme(config, {
      plantaId: PLANTA_N,
      niveis: 2,
      aprovadores: [
        { nivel: 1, usuario: 'ana@acme.com' },
        { nivel: 1, usuario: 'bia@acme.com' },
        { nivel: 2, usuario: 'gerente@acme.com' },
        { nivel: 2, usuario: 'bia@acme.com' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('goes PENDENTE → EM_APROVACAO → APROVADA, one decision per level, each recorded', async () => {
    const p = await criar({ plantaId: PLANTA_N });
    const um = await acme('actions/aprovarPreAgenda', {
      preAgendaId: p.id,
      aprovador: 'ANA@acme.com ',
      comentario: 'documentos ok',
    });
    expect(um.statusCode, um.body).toBe(200);
    expect(um.json().preAgenda.status).toBe('EM_APROVACAO');
    expect(um.json().aprovacao).toMatchObject({ nivelAtual: 2, status: 'EM_ANDAMENTO' });

    // The one who decided level 1 cannot decide level 2; someone off the list is 403.
    const repetido = await acme('actions/aprovarPreAgenda', { preAgendaId: p.id, aprovador: 'ana@acme.com' });
    expect(repetido.statusCode).toBe(403);
    const bia = await acme('actions/aprovarPreAgenda', { preAgendaId: p.id, aprovador: 'bia@acme.com' });
    expect(bia.statusCode, bia.body).toBe(200);
    expect(bia.json().preAgenda.status).toBe('APROVADA');
    expect(bia.json().aprovacao).toMatchObject({
      status: 'APROVADO',
      fim: expect.any(String),
      itens: [
        expect.objectContaining({
          nivel: 1,
          aprovador: 'ANA@acme.com',
          decisao: 'APROVADO',
          comentario: 'documentos ok',
        }),
        expect.objectContaining({ nivel: 2, aprovador: 'bia@acme.com', decisao: 'APROVADO' }),
      ],
    });
    const logs = (await historicoDe(p.id)).logs;
    expect(logs.map((l: { de?: string; para: string }) => `${l.de ?? ''}→${l.para}`)).toEqual([
      '→PENDENTE',
      'PENDENTE→EM_APROVACAO',
      'EM_APROVACAO→APROVADA',
    ]);
  });

  it('refuses an approver not listed for the level (403) and one who already decided (409), changing nothing', async () => {
    const p = await criar({ plantaId: PLANTA_N });
    const before = await tableCounts(t.db);
    const estranho = await acme('actions/aprovarPreAgenda', {
      preAgendaId: p.id,
      aprovador: 'gerente@acme.com',
    });
    expect(estranho.statusCode).toBe(403);
    expect(estranho.json().message).toBe(
      `gerente@acme.com não é aprovador do nível 1 da pré-agenda ${p.id} (aprovadores: ana@acme.com, bia@acme.com)`,
    );
    expect(await tableCounts(t.db)).toEqual(before);

    await acme('actions/aprovarPreAgenda', { preAgendaId: p.id, aprovador: 'bia@acme.com' });
    const after = await tableCounts(t.db);
    const denovo = await acme('actions/reprovarPreAgenda', {
      preAgendaId: p.id,
      aprovador: 'bia@acme.com',
      motivo: 'mudei de ideia',
    });
    expect(denovo.statusCode).toBe(409);
    expect(denovo.json().message).toMatch(/bia@acme.com já decidiu o nível 1/);
    expect(await tableCounts(t.db)).toEqual(after);
    expect((await preAgendaRow(t, 'acme', p.id))!.status).toBe('EM_APROVACAO');
  });

  it('a rejection ends the process; the edited request is sent again in a new process', async () => {
    const p = await criar({ plantaId: PLANTA_N, descricao: 'placa ABC' });
    const rep = await acme('actions/reprovarPreAgenda', {
      preAgendaId: p.id,
      aprovador: 'ana@acme.com',
      motivo: 'placa errada',
    });
    expect(rep.statusCode, rep.body).toBe(200);
    expect(rep.json().preAgenda).toMatchObject({ status: 'REPROVADA', motivo: 'placa errada' });
    expect(rep.json().aprovacao).toMatchObject({
      status: 'REPROVADO',
      itens: [expect.objectContaining({ decisao: 'REPROVADO', comentario: 'placa errada' })],
    });
    const edit = await acme(`entities/preAgenda/${p.id}`, { descricao: 'placa ABD' }, { method: 'PATCH' });
    expect(edit.statusCode, edit.body).toBe(200);
    const reenvio = await acme('actions/reenviarPreAgenda', { preAgendaId: p.id, comentario: 'corrigida' });
    expect(reenvio.statusCode, reenvio.body).toBe(200);
    expect(reenvio.json().preAgenda.status).toBe('PENDENTE');
    expect(reenvio.json().preAgenda.motivo).toBeUndefined();
    const h = await historicoDe(p.id);
    expect(h.aprovacoes.map((a: { status: string }) => a.status)).toEqual(['REPROVADO', 'EM_ANDAMENTO']);
    expect(h.logs.map((l: { acao: string }) => l.acao)).toEqual([
      'CRIADA',
      'REPROVACAO',
      'ALTERADA',
      'REENVIO',
    ]);
    // The new process starts from level 1: the same approver may decide it again.
    const ok = await acme('actions/aprovarPreAgenda', { preAgendaId: p.id, aprovador: 'ana@acme.com' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a running process keeps the levels it started with; a cancellation ends it CANCELADO', async () => {
    const p = await criar({ plantaId: PLANTA_N });
    const cfg = (
      await acme(config, undefined, { method: 'GET', query: { filter: `plantaId eq '${PLANTA_N}'` } })
    ).json()[0];
    const patch = await acme(`${config}/${cfg.id}`, { niveis: 1, aprovadores: [] }, { method: 'PATCH' });
    expect(patch.statusCode, patch.body).toBe(200);
    const um = await acme('actions/aprovarPreAgenda', { preAgendaId: p.id, aprovador: 'ana@acme.com' });
    expect(um.json().preAgenda.status).toBe('EM_APROVACAO');
    const cancel = await acme('actions/cancelarPreAgenda', { preAgendaId: p.id, motivo: 'carga desistiu' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().preAgenda).toMatchObject({ status: 'CANCELADA', motivo: 'carga desistiu' });
    const h = await historicoDe(p.id);
    expect(h.aprovacoes).toEqual([expect.objectContaining({ status: 'CANCELADO', fim: expect.any(String) })]);
    expect(h.logs.at(-1)).toMatchObject({ acao: 'CANCELAMENTO', de: 'EM_APROVACAO', para: 'CANCELADA' });
  });
});
