import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, CONCORRENTES, RODADAS } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { importFile, upload } from '../../../../test/transfers.ts';
import { rowsOf } from '../../../platform/core/db/database.ts';
import { entityCall, oficinaCall, ok200, saved } from './fixtures.ts';

// visaoGeral's counts per vehicle (tables.ts painelVeiculo, migration `painel`, docs/oficina.md "How
// it is fast"): after every kind of write, and after writers racing on the same vehicles on
// PostgreSQL, each vehicle's stored counts equal what this test counts from the tables itself (its
// own statement, from the records' fields, at the database's clock); the dashboard reads them while
// the clock is inside a vehicle's window, counts the reviews itself outside it, and the refresh job
// recounts the vehicles the clock has outdated.

const DAY = 86_400_000;
const em = (dias: number) => new Date(Date.now() + dias * DAY).toISOString();

interface Contagem {
  cd: number;
  pendencias: number;
  manutencoes: number;
  revisoes: number;
}

/** Each vehicle code's counts as this test computes them, at the database's clock. */
async function contadas(t: TestApp, tenant: string): Promise<Contagem[]> {
  const rows = await t.db.system(async (tx) =>
    rowsOf<Contagem>(
      await tx.execute(sql`with cds as (
        select cd_veiculo as cd from oficina_veiculo where tenant = ${tenant}
        union select veiculo from oficina_pendencia where tenant = ${tenant} and veiculo is not null
        union select veiculo from oficina_revisao where tenant = ${tenant} and veiculo is not null
        union select veiculo from oficina_manutencao where tenant = ${tenant} and veiculo is not null
        -- a removed vehicle's row stays, at zero
        union select cd_veiculo from oficina_painel_veiculo where tenant = ${tenant})
      select cds.cd::int as cd,
        (select count(*)::int from oficina_pendencia p where p.tenant = ${tenant} and p.veiculo = cds.cd) as pendencias,
        (select count(*)::int from oficina_manutencao m where m.tenant = ${tenant} and m.veiculo = cds.cd
          and m.in_status not in ('CONCLUIDA', 'CANCELADA')) as manutencoes,
        (select count(*)::int from oficina_revisao r
          left join oficina_veiculo v on v.tenant = r.tenant and v.cd_veiculo = r.veiculo
          where r.tenant = ${tenant} and r.veiculo = cds.cd
            and (r.nr_hodometro - coalesce(r.qt_km_aviso, 0) <= v.nr_hodometro
              or r.dt_previsao - coalesce(r.nr_dias, 0) * interval '1 day' <= now())) as revisoes
      from cds order by 1`),
    ),
  );
  return rows;
}

/** The stored counts, each checked to hold at the database's clock (its window holds now). */
async function guardadas(t: TestApp, tenant: string): Promise<Contagem[]> {
  const rows = await t.db.system(async (tx) =>
    rowsOf<Contagem & { vale: boolean }>(
      await tx.execute(sql`select cd_veiculo::int as cd, pendencias, manutencoes, revisoes,
        coalesce(revisoes_desde <= now() at time zone 'UTC', true)
          and coalesce(revisoes_ate > now() at time zone 'UTC', true) as vale
      from oficina_painel_veiculo where tenant = ${tenant} order by 1`),
    ),
  );
  for (const r of rows) expect(r.vale, `vehicle ${r.cd}'s window holds now`).toBe(true);
  return rows.map(({ vale: _, ...r }) => r);
}

async function confere(t: TestApp, tenant: string) {
  expect(await guardadas(t, tenant)).toEqual(await contadas(t, tenant));
}

async function frota(t: TestApp, tenant: string, key: string, placas: string[]) {
  const call = oficinaCall(t, tenant, key);
  const lista = placas.map((nrPlaca, i) => ({ nrPlaca, nrHodometro: 50_000 + i * 1000 }));
  const body = ok200(await call('actions/salvaListaVeiculos', { listaVeiculos: lista }));
  return { call, cds: body.listaVeiculos.map((v: { cdVeiculo: number }) => v.cdVeiculo) as number[] };
}

describe("each vehicle's counts, kept on write", () => {
  it('equal the tables after every kind of write, and the dashboard reads them', async () => {
    const t = await testApp();
    const key = await t.tenant('acme');
    const { call, cds } = await frota(t, 'acme', key, ['PNL0001', 'PNL0002', 'PNL0003']);
    const [a, b, c] = cds as [number, number, number];
    const entity = entityCall(t, 'acme', key);
    await confere(t, 'acme');
    // Pending items: created, moved to another vehicle, removed.
    for (const [cd, v] of [
      ['P1', a],
      ['P2', a],
      ['P3', b],
    ] as const)
      ok200(await entity('POST', 'pendencia', { cdPendenciaPk: cd, veiculo: v }));
    await confere(t, 'acme');
    const lista = ok200(await entity('GET', 'pendencia?filter=cdPendenciaPk eq %27P2%27'));
    const [p2] = lista.contents ?? lista.items ?? lista;
    ok200(await entity('PATCH', `pendencia/${p2.id}`, { veiculo: c }));
    await saved(call('actions/removePendencia', { cdPendenciaPk: 'P1' }));
    await confere(t, 'acme');
    // Maintenances: opened, started, concluded.
    await saved(call('actions/salvaManutencao', { cdManutencao: 'M1', cdVeiculo: a }));
    await saved(
      call('actions/salvaManutencao', { cdManutencao: 'M2', cdVeiculo: a, inStatus: 'EM_ANDAMENTO' }),
    );
    await confere(t, 'acme');
    await saved(call('actions/salvaManutencao', { cdManutencao: 'M1', inStatus: 'CONCLUIDA' }));
    await confere(t, 'acme');
    // Reviews: due by date, by km, neither; then the vehicle drives past one and is removed.
    const revisao = (cd: string, veiculo: number, km: number, dias: number) =>
      entity('POST', 'revisao', {
        cdRevisao: cd,
        veiculo,
        nrHodometro: km,
        qtKmAviso: 500,
        dtPrevisao: em(dias),
        nrDias: 2,
      });
    ok200(await revisao('R1', b, 90_000, -3));
    ok200(await revisao('R2', b, 51_200, 40));
    ok200(await revisao('R3', b, 80_000, 40));
    ok200(await revisao('R4', c, 60_000, 10));
    await confere(t, 'acme');
    expect((await guardadas(t, 'acme')).find((r) => r.cd === b)!.revisoes).toBe(2);
    ok200(
      await call('actions/salvaListaVeiculos', {
        listaVeiculos: [{ nrPlaca: 'PNL0002', nrHodometro: 79_600 }],
      }),
    );
    await confere(t, 'acme');
    expect((await guardadas(t, 'acme')).find((r) => r.cd === b)!.revisoes).toBe(3);
    // Items imported before their vehicle: counted under its code, due by km once it arrives.
    for (const [kind, content] of [
      ['Revisao', 'cdRevisao,veiculo,nrHodometro\nR5,900,1000\n'],
      ['Pendencia', 'cdPendenciaPk,veiculo\nP9,900\n'],
    ] as const) {
      const arquivo = await upload(t, 'acme', key, `${kind}.csv`, content);
      const { errors } = await importFile(t, 'acme', key, `tms/oficina/actions/import${kind}`, { arquivo });
      expect(errors).toEqual([]);
    }
    await confere(t, 'acme');
    ok200(await entity('POST', 'veiculo', { cdVeiculo: 900, nrPlaca: 'PNL0900', nrHodometro: 2000 }));
    await confere(t, 'acme');
    expect((await guardadas(t, 'acme')).find((r) => r.cd === 900)!.revisoes).toBe(1);
    await saved(call('actions/removeVeiculo', { cdVeiculo: c }));
    await confere(t, 'acme');

    // The dashboard counts from these rows: its totals are theirs, for the available vehicles.
    const visao = ok200(await call('queries/visaoGeral', {})).visao;
    const vivos = (await contadas(t, 'acme')).filter((r) => [a, b, 900].includes(r.cd));
    const total = (k: keyof Contagem) => vivos.reduce((n, r) => n + r[k], 0);
    for (const k of ['pendencias', 'manutencoes', 'revisoes'] as const)
      expect(visao[k].rodando + visao[k].garagem, k).toBe(total(k));
    // Read from them indeed: rows altered behind the triggers' back show in the dashboard...
    const altera = (cd: number, set: ReturnType<typeof sql>) =>
      t.db.system((tx) =>
        tx.execute(
          sql`update oficina_painel_veiculo set ${set} where tenant = 'acme' and cd_veiculo = ${cd}`,
        ),
      );
    const soma = (v: Record<string, { rodando: number; garagem: number }>, k: string) =>
      v[k]!.rodando + v[k]!.garagem;
    await altera(a, sql`pendencias = pendencias + 100`);
    await altera(b, sql`revisoes = revisoes + 100`);
    const alterada = ok200(await call('queries/visaoGeral', {})).visao;
    expect(soma(alterada, 'pendencias')).toBe(total('pendencias') + 100);
    expect(soma(alterada, 'revisoes')).toBe(total('revisoes') + 100);
    // ...until the clock leaves a row's window: its reviews are then counted from the table, exact,
    // and the refresh job recounts that row (the whole row), not the others.
    await altera(b, sql`revisoes_ate = now() at time zone 'UTC' - interval '1 minute'`);
    const vencida = ok200(await call('queries/visaoGeral', {})).visao;
    expect(soma(vencida, 'revisoes')).toBe(total('revisoes'));
    expect(await t.platform.jobs.drain()).toBe(1);
    const depois = await guardadas(t, 'acme');
    expect(depois.find((r) => r.cd === b)).toEqual(vivos.find((r) => r.cd === b));
    expect(depois.find((r) => r.cd === a)!.pendencias).toBe(vivos.find((r) => r.cd === a)!.pendencias + 100);
    await altera(a, sql`pendencias = pendencias - 100`);
    await confere(t, 'acme');
    // Asked once a minute per node: the next dashboard over an outdated row counts right, asks nothing.
    await altera(b, sql`revisoes_ate = now() at time zone 'UTC' - interval '1 minute'`);
    expect(soma(ok200(await call('queries/visaoGeral', {})).visao, 'revisoes')).toBe(total('revisoes'));
    expect(await t.platform.jobs.drain()).toBe(0);
  });

  it("are what the migration's backfill counts for fleets stored before it", async () => {
    const t = await testApp();
    const key = await t.tenant('acme');
    const { call, cds } = await frota(t, 'acme', key, ['BKF0001', 'BKF0002']);
    const entity = entityCall(t, 'acme', key);
    ok200(await entity('POST', 'pendencia', { cdPendenciaPk: 'P1', veiculo: cds[0] }));
    await saved(call('actions/salvaManutencao', { cdManutencao: 'M1', cdVeiculo: cds[1] }));
    await saved(
      call('actions/salvaManutencao', { cdManutencao: 'M2', cdVeiculo: cds[1], inStatus: 'CONCLUIDA' }),
    );
    for (const [cd, km, dias] of [
      ['R1', 1000, 90],
      ['R2', 90_000, -5],
      ['R3', 90_000, 90],
    ] as const)
      ok200(
        await entity('POST', 'revisao', {
          cdRevisao: cd,
          veiculo: cds[1],
          nrHodometro: km,
          dtPrevisao: em(dias),
        }),
      );
    const mantidas = await guardadas(t, 'acme');
    // The statements after "The fleets already stored" in the migration, on an emptied table.
    const migracao = readFileSync(new URL('../../../../drizzle/0034_painel.sql', import.meta.url), 'utf8');
    const backfill = migracao
      .slice(migracao.indexOf('-- The fleets already stored.'))
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    expect(backfill).toHaveLength(2);
    await t.db.system(async (tx) => {
      await tx.execute(sql`delete from oficina_painel_veiculo`);
      for (const statement of backfill) await tx.execute(sql.raw(statement));
    });
    expect(await guardadas(t, 'acme')).toEqual(mantidas);
    expect(mantidas.map((r) => [r.pendencias, r.manutencoes, r.revisoes])).toEqual([
      [1, 0, 0],
      [0, 1, 2],
    ]);
  });

  it("are the tenant's own: another tenant's writes and codes never touch them", async () => {
    const t = await testApp();
    const acme = await frota(t, 'acme', await t.tenant('acme'), ['TNT0001']);
    const globex = await frota(t, 'globex', await t.tenant('globex'), ['TNT0001']);
    expect(globex.cds).toEqual(acme.cds);
    const cd = acme.cds[0]!;
    await saved(globex.call('actions/salvaManutencao', { cdManutencao: 'M1', cdVeiculo: cd }));
    await confere(t, 'acme');
    await confere(t, 'globex');
    expect((await guardadas(t, 'acme'))[0]!.manutencoes).toBe(0);
    expect((await guardadas(t, 'globex'))[0]!.manutencoes).toBe(1);
  });

  it('stay exact while writers race on the same vehicles (PostgreSQL: each request in its own transaction)', async () => {
    const t = await testApp({ db: await bancoDeCorrida() });
    const key = await t.tenant('acme');
    const { call, cds } = await frota(t, 'acme', key, ['RAC0001', 'RAC0002']);
    const entity = entityCall(t, 'acme', key);
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const pedidos = Array.from({ length: CONCORRENTES }, (_, i) => {
        const veiculo = cds[i % 2]!;
        const cd = `${rodada}-${i}`;
        switch (i % 4) {
          case 0:
            return () => entity('POST', 'pendencia', { cdPendenciaPk: `P${cd}`, veiculo });
          case 1:
            return () => call('actions/salvaManutencao', { cdManutencao: `M${cd}`, cdVeiculo: veiculo });
          case 2:
            return () =>
              entity('POST', 'revisao', {
                cdRevisao: `R${cd}`,
                veiculo,
                nrHodometro: 60_002,
                dtPrevisao: em(30),
              });
          default:
            // The previous round's items of this vehicle closed or removed meanwhile.
            return rodada === 0
              ? () => entity('POST', 'pendencia', { cdPendenciaPk: `P${cd}`, veiculo })
              : () =>
                  Promise.all([
                    call('actions/removePendencia', { cdPendenciaPk: `P${rodada - 1}-${i - 3}` }),
                    call('actions/salvaManutencao', {
                      cdManutencao: `M${rodada - 1}-${i - 2}`,
                      inStatus: 'CONCLUIDA',
                    }),
                    call('actions/salvaListaVeiculos', {
                      listaVeiculos: [{ nrPlaca: 'RAC0001', nrHodometro: 60_000 + rodada }],
                    }),
                  ]).then((rs) => rs.find((r) => r.statusCode !== 200) ?? rs[0]!);
        }
      });
      for (const r of await aoMesmoTempo(pedidos)) ok200(r);
      await confere(t, 'acme');
    }
    // Vehicle 1: two pending items left, every review due once its odometer passed 60,002 km;
    // vehicle 2: round 0's two extra pending items and the last round's two open maintenances.
    expect(await contadas(t, 'acme')).toEqual([
      { cd: cds[0], pendencias: 2, manutencoes: 0, revisoes: 2 * RODADAS },
      { cd: cds[1], pendencias: 2, manutencoes: 2, revisoes: 0 },
    ]);
  });

  it('stay exact while items of one vehicle are removed and closed at once (PostgreSQL)', async () => {
    const t = await testApp({ db: await bancoDeCorrida() });
    const key = await t.tenant('acme');
    const { call, cds } = await frota(t, 'acme', key, ['RAC0001']);
    const cd = cds[0]!;
    const n = RODADAS * CONCORRENTES;
    const linhas = (f: (i: number) => string) => Array.from({ length: n }, (_, i) => `${f(i)}\n`).join('');
    for (const [kind, content] of [
      ['Pendencia', `cdPendenciaPk,veiculo\n${linhas((i) => `P${i},${cd}`)}`],
      ['Manutencao', `cdManutencao,veiculo,inStatus\n${linhas((i) => `M${i},${cd},ABERTA`)}`],
      // Due by km: the vehicle is at 50,000.
      ['Revisao', `cdRevisao,veiculo,nrHodometro\n${linhas((i) => `R${i},${cd},1000`)}`],
    ] as const) {
      const arquivo = await upload(t, 'acme', key, `${kind}.csv`, content);
      const { errors } = await importFile(t, 'acme', key, `tms/oficina/actions/import${kind}`, { arquivo });
      expect(errors).toEqual([]);
    }
    await confere(t, 'acme');
    // Deletes and updates take no id and no other lock: only the counts' row orders them. Each
    // round removes, closes or removes CONCORRENTES items (pending, maintenances, reviews) of the vehicle at once.
    const passos = [
      (item: number) => call('actions/removePendencia', { cdPendenciaPk: `P${item}` }),
      (item: number) => call('actions/salvaManutencao', { cdManutencao: `M${item}`, inStatus: 'CONCLUIDA' }),
      (item: number) => call('actions/removeRevisao', { cdRevisao: `R${item}` }),
    ];
    const feitos = [0, 0, 0];
    for (let rodada = 0; rodada < 3 * RODADAS; rodada++) {
      const k = rodada % 3;
      const pedidos = Array.from({ length: CONCORRENTES }, (_, i) => () => passos[k]!(feitos[k]! + i));
      for (const r of await aoMesmoTempo(pedidos)) ok200(r);
      feitos[k] = feitos[k]! + CONCORRENTES;
      const [linha] = await guardadas(t, 'acme');
      const resta = feitos.map((f) => n - f);
      expect(linha).toEqual({ cd, pendencias: resta[0], manutencoes: resta[1], revisoes: resta[2] });
    }
    await confere(t, 'acme');
  });
});

describe("at the platform's clock, not the database's", () => {
  it('the dashboard finds rows outdated, the job recounts them and the asking is rationed by the clock the app is given', async () => {
    // A clock 100 days ahead of the database's: what the dashboard and the job judge by.
    const real = Date.now();
    let relogio = new Date(real + 100 * DAY);
    const t = await testApp({ now: () => relogio });
    const key = await t.tenant('acme');
    const { call, cds } = await frota(t, 'acme', key, ['REL0001', 'REL0002']);
    const [a, b] = cds as [number, number];
    const entity = entityCall(t, 'acme', key);
    // Due by date only (never by km), 50 and 60 days after the database's now: written, counted at
    // the database's clock, not due there, each row's window ending at its review's date.
    const revisao = (cd: string, veiculo: number, dias: number) =>
      entity('POST', 'revisao', {
        cdRevisao: cd,
        veiculo,
        nrHodometro: 900_000,
        dtPrevisao: new Date(real + dias * DAY).toISOString(),
      });
    ok200(await revisao('R1', a, 50));
    const linha = async (cd: number) =>
      (
        await t.db.system(async (tx) =>
          rowsOf<{ revisoes: number; desde: string | null; ate: string | null }>(
            await tx.execute(sql`select revisoes, revisoes_desde::text as desde, revisoes_ate::text as ate
              from oficina_painel_veiculo where tenant = 'acme' and cd_veiculo = ${cd}`),
          ),
        )
      )[0]!;
    expect((await linha(a)).revisoes).toBe(0);
    const devidas = async () => {
      const { revisoes } = ok200(await call('queries/visaoGeral', {})).visao;
      return revisoes.rodando + revisoes.garagem;
    };

    // At the app's clock the review is due: counted, and the row, outdated at that clock, is asked
    // for a refresh; the job recounts it at the same clock (due, its window open-ended).
    expect(await devidas()).toBe(1);
    expect(await t.platform.jobs.drain()).toBe(1);
    expect(await linha(a)).toMatchObject({ revisoes: 1, ate: null });
    expect((await linha(a)).desde).not.toBeNull();
    expect(await devidas()).toBe(1);
    expect(await t.platform.jobs.drain()).toBe(0);

    // Another vehicle outdated at the app's clock: asked at most once a minute of that clock.
    ok200(await revisao('R2', b, 60));
    expect(await devidas()).toBe(2);
    expect(await t.platform.jobs.drain()).toBe(0);
    relogio = new Date(relogio.getTime() + 61_000);
    expect(await devidas()).toBe(2);
    expect(await t.platform.jobs.drain()).toBe(1);
    expect((await linha(b)).revisoes).toBe(1);

    // Back before the reviews' dates: neither is due, though the rows hold them due since then.
    relogio = new Date(real + 10 * DAY);
    expect(await devidas()).toBe(0);
    expect(await t.platform.jobs.drain()).toBe(0);
  });
});
