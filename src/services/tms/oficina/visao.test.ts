import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { importFile, upload } from '../../../../test/transfers.ts';
import { badField, entityCall, type OficinaCall, oficinaCall, ok200, saved } from './fixtures.ts';

// The dashboard scenario (issue 17): a fleet imported from files, pending items and maintenances
// opened and closed through the API, a vehicle removed, and visaoGeral checked against counts this
// test computes itself from its own model of the fleet (docs/oficina.md "visaoGeral").

const NOW = new Date('2026-05-20T12:00:00.000Z');
const DAY = 86_400_000;
let t: TestApp;
let acme: OficinaCall;
let key: string;

interface V {
  cd: number;
  placa: string;
  centro: number | null;
  garagem: boolean;
  ativo: boolean;
  empresa: number;
  km: number;
}
interface Rev {
  cd: string;
  veiculo: number;
  km: number;
  aviso: number;
  dt: Date;
  dias: number;
}
const CENTROS = [
  { cd: 10, ds: 'Pesada', shown: 1 },
  { cd: 20, ds: 'Leve', shown: 1 },
  { cd: 30, ds: 'Reserva', shown: 0 },
  { cd: 40, ds: 'Apoio', shown: 1 },
];
const frota = new Map<number, V>();
const pendencias = new Map<string, number>(); // code → vehicle
const revisoes = new Map<string, Rev>();
const manutencoes = new Map<string, { veiculo: number; status: string }>();

let seed = 17;
const rnd = (n: number) => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed % n;
};

async function importa(kind: string, header: string, rows: Array<Array<string | number>>) {
  const content = `${header}\n${rows.map((r) => r.join(',')).join('\n')}\n`;
  const arquivo = await upload(t, 'acme', key, `${kind}.csv`, content);
  const { status, errors } = await importFile(t, 'acme', key, `tms/oficina/actions/import${kind}`, {
    arquivo,
  });
  expect(errors, kind).toEqual([]);
  expect(status.status ?? status.situacao ?? status, kind).toBeDefined();
}

beforeAll(async () => {
  t = await testApp({ now: () => NOW });
  key = await t.tenant('acme');
  acme = oficinaCall(t, 'acme', key);
  await importa('Filial', 'cdEmpresa,dsEmpresa', [
    [1, 'Matriz'],
    [2, 'Norte'],
  ]);
  await importa(
    'CentroCusto',
    'cdCentroCusto,dsCentroCusto,inExibePainelOfi',
    CENTROS.map((c) => [c.cd, c.ds, c.shown]),
  );
  await importa('Setor', 'cdSetor,dsSetor', [
    [1, 'Mecânica'],
    [2, 'Pneus'],
  ]);
  for (let cd = 1; cd <= 60; cd++) {
    frota.set(cd, {
      cd,
      placa: `FRT${String(cd).padStart(4, '0')}`,
      centro: CENTROS[rnd(4)]!.cd,
      garagem: rnd(3) === 0,
      ativo: rnd(6) !== 0,
      empresa: 1 + rnd(2),
      km: 10_000 + rnd(90_000),
    });
  }
  await importa(
    'Veiculo',
    'cdVeiculo,nrPlaca,centroCusto,dsStatusOficina,dsStatus,cdEmpresa,nrHodometro',
    [...frota.values()].map((v) => [
      v.cd,
      v.placa,
      v.centro!,
      v.garagem ? 'GARAGEM' : 'RODANDO',
      v.ativo ? 'ATIVO' : 'INATIVO',
      v.empresa,
      v.km,
    ]),
  );
  // Two vehicles without a cost centre, saved through the API: counted, listed under no centre.
  const semCentro = ok200(
    await acme('actions/salvaListaVeiculos', {
      listaVeiculos: [
        { nrPlaca: 'SEM0C01', cdEmpresa: 1, nrHodometro: 5000 },
        { nrPlaca: 'SEM0C02', cdEmpresa: 2, dsStatusOficina: 'GARAGEM', nrHodometro: 7000 },
      ],
    }),
  ).listaVeiculos;
  expect(semCentro.map((v: { cdVeiculo: number }) => v.cdVeiculo)).toEqual([61, 62]);
  frota.set(61, {
    cd: 61,
    placa: 'SEM0C01',
    centro: null,
    garagem: false,
    ativo: true,
    empresa: 1,
    km: 5000,
  });
  frota.set(62, { cd: 62, placa: 'SEM0C02', centro: null, garagem: true, ativo: true, empresa: 2, km: 7000 });

  const pend: Array<Array<string | number>> = [];
  for (let i = 1; i <= 150; i++) {
    const veiculo = 1 + rnd(62);
    pendencias.set(`P${i}`, veiculo);
    pend.push([
      `P${i}`,
      veiculo,
      `Pendência ${i}`,
      new Date(NOW.getTime() - rnd(30) * DAY).toISOString(),
      1 + rnd(2),
    ]);
  }
  await importa('Pendencia', 'cdPendenciaPk,veiculo,dsPendencia,dtAbertura,setor', pend);
  const rev: Array<Array<string | number>> = [];
  for (let i = 1; i <= 120; i++) {
    const veiculo = 1 + rnd(62);
    const v = frota.get(veiculo)!;
    const r = {
      cd: `R${i}`,
      veiculo,
      km: v.km - 2000 + rnd(8000),
      aviso: rnd(3) * 500,
      dt: new Date(NOW.getTime() + (rnd(60) - 20) * DAY),
      dias: rnd(10),
    };
    revisoes.set(r.cd, r);
    rev.push([r.cd, veiculo, r.km, r.aviso, r.dt.toISOString(), r.dias]);
  }
  await importa('Revisao', 'cdRevisao,veiculo,nrHodometro,qtKmAviso,dtPrevisao,nrDias', rev);
  const man: Array<Array<string | number>> = [];
  const STATUS = ['ABERTA', 'EM_ANDAMENTO', 'CONCLUIDA', 'CANCELADA'];
  for (let i = 1; i <= 90; i++) {
    const m = { veiculo: 1 + rnd(62), status: STATUS[rnd(4)]! };
    manutencoes.set(`M${i}`, m);
    man.push([`M${i}`, m.veiculo, m.status, 1 + rnd(2)]);
  }
  await importa('Manutencao', 'cdManutencao,veiculo,inStatus,setor', man);
});

/** visaoGeral as this test computes it from its model. */
function esperado(cdEmpresa?: number, max?: number) {
  const frotaVista = [...frota.values()].filter(
    (v) => v.ativo && (cdEmpresa === undefined || v.empresa === cdEmpresa),
  );
  const porVeiculo = new Map(frotaVista.map((v) => [v.cd, v]));
  const devida = (r: Rev) => {
    const v = porVeiculo.get(r.veiculo)!;
    return r.km - v.km <= r.aviso || r.dt.getTime() - r.dias * DAY <= NOW.getTime();
  };
  const kinds: Record<string, V[]> = {
    disponiveis: frotaVista,
    pendencias: [...pendencias.values()].filter((cd) => porVeiculo.has(cd)).map((cd) => porVeiculo.get(cd)!),
    revisoes: [...revisoes.values()]
      .filter((r) => porVeiculo.has(r.veiculo) && devida(r))
      .map((r) => porVeiculo.get(r.veiculo)!),
    manutencoes: [...manutencoes.values()]
      .filter((m) => porVeiculo.has(m.veiculo) && (m.status === 'ABERTA' || m.status === 'EM_ANDAMENTO'))
      .map((m) => porVeiculo.get(m.veiculo)!),
  };
  const out: Record<string, unknown> = {};
  for (const [kind, vs] of Object.entries(kinds)) {
    const centrocusto = CENTROS.filter((c) => c.shown === 1)
      .map((c) => {
        const doCentro = vs.filter((v) => v.centro === c.cd);
        const garagem = doCentro.filter((v) => v.garagem).length;
        return {
          cdCentroCusto: c.cd,
          dsCentroCusto: c.ds,
          inExibePainelOfi: 1,
          rodando: doCentro.length - garagem,
          garagem,
          total: doCentro.length,
        };
      })
      .filter((c) => c.total > 0)
      .sort((a, b) => b.total - a.total || a.cdCentroCusto - b.cdCentroCusto)
      .slice(0, max ?? 99);
    const garagem = vs.filter((v) => v.garagem).length;
    out[kind] = { rodando: vs.length - garagem, garagem, centrocusto };
  }
  return out;
}

async function visao(filters: Record<string, number> = {}) {
  const post = ok200(await acme('queries/visaoGeral', filters));
  const query = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, String(v)]));
  expect(ok200(await acme('queries/visaoGeral', undefined, { method: 'GET', query }))).toEqual(post);
  expect(post.ok).toBe(true);
  return post.visao;
}

async function confere() {
  expect(await visao()).toEqual(esperado());
  expect(await visao({ cdEmpresa: 1 })).toEqual(esperado(1));
  expect(await visao({ cdEmpresa: 2, maxCentroCusto: 2 })).toEqual(esperado(2, 2));
  expect(await visao({ maxCentroCusto: 1 })).toEqual(esperado(undefined, 1));
}

describe('visaoGeral over an imported fleet', () => {
  it('counts what the test counts, for every branch and limit', async () => {
    const v = await visao();
    expect(v.disponiveis.rodando + v.disponiveis.garagem).toBeGreaterThan(40);
    expect(v.pendencias.rodando + v.pendencias.garagem).toBeGreaterThan(80);
    await confere();
  });

  it('follows items opened and closed, vehicles moved and removed', async () => {
    const entity = entityCall(t, 'acme', key);
    // Open: two pending items and a maintenance on an available running vehicle.
    const alvo = [...frota.values()].find((v) => v.ativo && !v.garagem && v.centro === 10)!;
    for (const cd of ['N1', 'N2']) {
      ok200(await entity('POST', 'pendencia', { cdPendenciaPk: cd, veiculo: alvo.cd, setor: 1 }));
      pendencias.set(cd, alvo.cd);
    }
    await saved(acme('actions/salvaManutencao', { cdManutencao: 'MN1', cdVeiculo: alvo.cd, cdSetor: 2 }));
    manutencoes.set('MN1', { veiculo: alvo.cd, status: 'ABERTA' });
    await confere();
    // Close: a pending item removed, maintenances concluded, a review done.
    await saved(acme('actions/removePendencia', { cdPendenciaPk: 'P1' }));
    pendencias.delete('P1');
    for (const [cd, m] of [...manutencoes].filter(([, m]) => m.status === 'ABERTA').slice(0, 5)) {
      await saved(acme('actions/salvaManutencao', { cdManutencao: cd, inStatus: 'CONCLUIDA' }));
      m.status = 'CONCLUIDA';
    }
    const [devida] = [...revisoes.values()].filter((r) => r.dt.getTime() < NOW.getTime());
    await saved(acme('actions/removeRevisao', { cdRevisao: devida!.cd }));
    revisoes.delete(devida!.cd);
    await confere();
    // The vehicle goes into the garage, another leaves the fleet, a third is removed with its items.
    const lista = [{ nrPlaca: alvo.placa, dsStatusOficina: 'GARAGEM' }];
    expect(ok200(await acme('actions/salvaListaVeiculos', { listaVeiculos: lista })).listaVeiculos).toEqual([
      { nrPlaca: alvo.placa, cdVeiculo: alvo.cd },
    ]);
    alvo.garagem = true;
    const sai = [...frota.values()].find((v) => v.ativo && v.cd !== alvo.cd)!;
    // PATCH goes by the entity id: found by its code.
    const list = ok200(await entity('GET', `veiculo?filter=cdVeiculo eq ${sai.cd}`));
    const id = (list.contents ?? list.items ?? list)[0].id;
    ok200(await entity('PATCH', `veiculo/${id}`, { dsStatus: 'INATIVO' }));
    sai.ativo = false;
    const removido = [...frota.values()].find((v) => v.ativo && v.cd !== alvo.cd && v.cd !== sai.cd)!;
    await saved(acme('actions/removeVeiculo', { cdVeiculo: removido.cd }));
    frota.delete(removido.cd);
    for (const [cd, v] of pendencias) if (v === removido.cd) pendencias.delete(cd);
    for (const [cd, r] of revisoes) if (r.veiculo === removido.cd) revisoes.delete(cd);
    for (const [cd, m] of manutencoes) if (m.veiculo === removido.cd) manutencoes.delete(cd);
    await confere();
  });

  it('follows the stored alert of a review as it changes, and the odometer of its vehicle', async () => {
    const entity = entityCall(t, 'acme', key);
    const alvo = [...frota.values()].find((v) => v.ativo && v.centro !== null && v.centro !== 30)!;
    const devidas = async () => {
      const { revisoes: rv } = await visao();
      return rv.rodando + rv.garagem;
    };
    // Not due: 3,000 km ahead with a 500 km warning, 10 days ahead with a 2-day warning.
    const base = alvo.km;
    const r: Rev = {
      cd: 'RX',
      veiculo: alvo.cd,
      km: base + 3000,
      aviso: 500,
      dt: new Date(NOW.getTime() + 10 * DAY),
      dias: 2,
    };
    const campos = { nrHodometro: r.km, qtKmAviso: r.aviso, dtPrevisao: r.dt.toISOString(), nrDias: r.dias };
    const antes = await devidas();
    const { id } = ok200(await entity('POST', 'revisao', { cdRevisao: r.cd, veiculo: r.veiculo, ...campos }));
    revisoes.set(r.cd, r);
    expect(await devidas()).toBe(antes);
    await confere();
    // The derived columns are the table's, not the record's.
    const lida = ok200(await entity('GET', `revisao/${id}`));
    expect(Object.keys(lida).filter((k) => k.startsWith('alerta'))).toEqual([]);
    const muda = async (patch: Record<string, unknown>, devida: boolean) => {
      ok200(await entity('PATCH', `revisao/${id}`, patch));
      expect(await devidas()).toBe(antes + (devida ? 1 : 0));
      await confere();
    };
    // Due by date: the warning window widened to reach the clock exactly (dtPrevisao − nrDias = now).
    r.dias = 10;
    await muda({ nrDias: 10 }, true);
    // Not due again when moved later; due by km when its odometer comes to the warning's edge.
    r.dt = new Date(NOW.getTime() + 30 * DAY);
    await muda({ dtPrevisao: r.dt.toISOString() }, false);
    r.km = base + 500;
    await muda({ nrHodometro: r.km }, true);
    r.aviso = 0;
    await muda({ qtKmAviso: 0 }, false);
    // The vehicle drives to the review (due), is corrected half a km back (not), then drives on.
    for (const [km, devida] of [
      [base + 500, true],
      [base + 499.5, false],
      [base + 20_000, true],
    ] as const) {
      const lista = [{ nrPlaca: alvo.placa, nrHodometro: km }];
      ok200(await acme('actions/salvaListaVeiculos', { listaVeiculos: lista }));
      alvo.km = km;
      const model = esperado().revisoes as { rodando: number; garagem: number };
      await confere();
      r.km = base + 500;
      expect(r.km - alvo.km <= 0).toBe(devida);
      expect(model.rodando + model.garagem).toBe(await devidas());
    }
  });

  it('answers ok false for a branch not held, with every count zero', async () => {
    const vazio = { rodando: 0, garagem: 0, centrocusto: [] };
    expect(ok200(await acme('queries/visaoGeral', { cdEmpresa: 9 }))).toEqual({
      ok: false,
      dsErro: 'Filial 9 não cadastrada',
      visao: { disponiveis: vazio, pendencias: vazio, revisoes: vazio, manutencoes: vazio },
    });
  });

  it('refuses a malformed request naming the field', async () => {
    badField(await acme('queries/visaoGeral', { maxCentroCusto: 0 }), 'maxCentroCusto');
    badField(await acme('queries/visaoGeral', { cdEmpresa: 'um' }), 'cdEmpresa');
    badField(
      await acme('queries/visaoGeral', undefined, { method: 'GET', query: { maxCentroCusto: '-1' } }),
      'maxCentroCusto',
    );
  });

  it("another tenant's dashboard is its own (empty here)", async () => {
    const globex = oficinaCall(t, 'globex', await t.tenant('globex'));
    const vazio = { rodando: 0, garagem: 0, centrocusto: [] };
    expect(ok200(await globex('queries/visaoGeral', {})).visao).toEqual({
      disponiveis: vazio,
      pendencias: vazio,
      revisoes: vazio,
      manutencoes: vazio,
    });
  });
});
