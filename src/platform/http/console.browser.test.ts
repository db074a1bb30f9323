import { existsSync, mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { makeAgenda, makeTipo, seedAgendas, seedTipos } from '../../services/yms/agenda/fixtures.ts';
import {
  makeArea,
  makeMotorista,
  makeVaga,
  makeVeiculo,
  seed,
  seedPlantaComTurnos,
} from '../../services/yms/patio/fixtures.ts';
import { area, vaga } from '../../services/yms/patio/tables/plantas.ts';
import { motorista, veiculo } from '../../services/yms/patio/tables/veiculos.ts';

// The console in a real browser (Debian's chromium, which .ci/run installs): an operator opens it,
// connects with a key, and the yard moves through the API while the page stays open — plates go
// into labelled spots, a full dock queues, the numbers and the day's schedule move, the feed speaks
// in names; no id is ever on the page. The end state is kept as test-results/console.png.

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const PLANTA = '00000000-0000-4000-8000-00000000c0c0';

let t: TestApp;
let base: string;
let key: string;
let browser: Browser;
let areas: Record<'PORTARIA' | 'DOCA1' | 'BALANCA', string>;
let placas: string[];
let veiculos: string[];
let joana: string;
let agendaNoHorario: number;

/** The hour (0–23) of `agora` in the time zone. */
const horaEm = (fuso: string, agora: Date) =>
  Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: fuso, hour: 'numeric', hourCycle: 'h23' }).format(agora),
  );

/** A zone where it is day now (03:00 to 21:00), so the day's agendas fit before and after now. */
function fusoDeDia(agora: Date) {
  const fuso = ['UTC', 'Asia/Tokyo'].find((f) => horaEm(f, agora) >= 3 && horaEm(f, agora) < 21);
  if (!fuso) throw new Error('no zone in daytime');
  return fuso;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  t = await testApp({ config: { eventPollMs: 20, liveRecheckMs: 200 } });
  key = await t.tenant('acme');
  const agora = new Date();
  const fuso = fusoDeDia(agora);
  const dia = new Intl.DateTimeFormat('en-CA', { timeZone: fuso }).format(agora);
  const h = horaEm(fuso, agora);
  const hh = (n: number) => `${String(n).padStart(2, '0')}:00`;
  await seedPlantaComTurnos(t, 'acme', {
    id: PLANTA,
    fusoHorario: fuso,
    turnos: [[dia, hh(h - 2), hh(h + 3)]],
  });
  const criadas = await seed(t, 'acme', area, [
    makeArea(PLANTA, { codigo: 'PORTARIA', descricao: 'Portaria', tipo: 'PORTARIA' }),
    makeArea(PLANTA, { codigo: 'DOCA1', descricao: 'Doca de descarga', tipo: 'DOCA' }),
    makeArea(PLANTA, { codigo: 'BALANCA', descricao: 'Balança rodoviária', tipo: 'BALANCA' }),
  ]);
  areas = { PORTARIA: criadas[0]!.id, DOCA1: criadas[1]!.id, BALANCA: criadas[2]!.id };
  await seed(t, 'acme', vaga, [makeVaga(areas.DOCA1, 1, 1), makeVaga(areas.DOCA1, 1, 2)]);
  const vs = await seed(t, 'acme', veiculo, [
    makeVeiculo({ placa: 'ABC1D23' }),
    makeVeiculo({ placa: 'DEF4G56' }),
    makeVeiculo({ placa: 'GHI7J89' }),
  ]);
  veiculos = vs.map((v) => v.id);
  placas = vs.map((v) => v.placa);
  joana = (await seed(t, 'acme', motorista, [makeMotorista({ nome: 'Joana Silva' })]))[0]!.id;
  const [tipo] = await seedTipos(t, 'acme', [
    makeTipo({
      plantaId: PLANTA,
      codigo: 'DESC',
      descricao: 'Descarga',
      duracaoSlotMinutos: 60,
      capacidadePorSlot: 2,
    }),
  ]);
  // One agenda expected now (its truck arrives on time below), one two hours ago that never came.
  const agendas = await seedAgendas(t, 'acme', [
    makeAgenda({
      plantaId: PLANTA,
      tipoAgendamentoId: tipo!.id,
      dataEsperada: new Date(Math.floor(agora.getTime() / 60_000) * 60_000),
      veiculoId: veiculos[0],
      motoristaId: joana,
    }),
    makeAgenda({
      plantaId: PLANTA,
      tipoAgendamentoId: tipo!.id,
      dataEsperada: new Date(agora.getTime() - 2 * 3_600_000),
    }),
  ]);
  agendaNoHorario = agendas[0]!.codigo;
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

afterAll(async () => {
  await browser?.close();
  await t?.app.close();
});

const evento = async (nome: string, corpo: Record<string, unknown>) => {
  const res = await t.call('acme', `yms/patio/events/${nome}`, { plantaId: PLANTA, ...corpo }, { auth: key });
  expect(res.statusCode, res.body).toBe(200);
};
const numero = (page: Page, nome: string) => page.locator(`[data-numero="${nome}"]`).first();
const area_ = (page: Page, codigo: string) => page.locator(`.area[data-codigo="${codigo}"]`);

describe('the console, in a browser', () => {
  it('shows the yard as it moves, in names, without a reload', async () => {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1100 } });
    page.setDefaultTimeout(15_000);
    await page.goto(`${base}/t/acme/console`);
    await expect(page.locator('#ajuda').innerText()).resolves.toContain('Como obter uma chave');
    await page.fill('#chave', key);
    await page.click('text=Conectar');
    await page.locator('#estado', { hasText: 'conectado' }).waitFor();
    // Every area, with or without spots; spots labelled rua-numero; the day's schedule and numbers.
    for (const codigo of ['PORTARIA', 'DOCA1', 'BALANCA']) await area_(page, codigo).waitFor();
    await expect(area_(page, 'DOCA1').locator('.vaga .rotulo').allInnerTexts()).resolves.toEqual([
      '1-1',
      '1-2',
    ]);
    await expect(area_(page, 'BALANCA').innerText()).resolves.toContain('sem vagas');
    await expect(numero(page, 'noPatio').innerText()).resolves.toBe('0');
    await expect(numero(page, 'vencidas').innerText()).resolves.toBe('1');
    await expect(page.locator('.agenda.situacao-VENCIDA').innerText()).resolves.toContain('vencida');
    await expect(page.locator('.slot').first().innerText()).resolves.toMatch(/\d+\/2 usados · \d+ livres/);
    // A marker that a reload would lose.
    await page.evaluate(() => {
      (window as unknown as { semRecarga: boolean }).semRecarga = true;
    });

    // The agenda's truck enters at the gate with its driver, on time.
    await evento('vehicleEnteredYard', { areaId: areas.PORTARIA, placa: placas[0], motoristaId: joana });
    await area_(page, 'PORTARIA').locator('.presente', { hasText: placas[0]! }).waitFor();
    await page.locator('#eventos li', { hasText: `${placas[0]} entrou no pátio` }).waitFor();
    await expect(page.locator('#eventos li').first().innerText()).resolves.toContain('Joana Silva');
    await page.locator('[data-numero="noPatio"]', { hasText: '1' }).waitFor();
    await page.locator('[data-numero="noHorario"]', { hasText: '1' }).waitFor();
    await page.locator(`.agenda.situacao-NO_HORARIO`, { hasText: `Agenda ${agendaNoHorario}` }).waitFor();

    // Three trucks for a dock of two spots: two take spots, the third queues.
    for (const placa of placas.slice(1)) await evento('vehicleEnteredYard', { placa });
    for (const placa of placas) await evento('vehicleEnteredAreaInYard', { areaId: areas.DOCA1, placa });
    const doca = area_(page, 'DOCA1');
    await doca.locator('.fila li', { hasText: placas[2]! }).waitFor();
    await expect(doca.locator('.vaga.ocupada .placa').allInnerTexts()).resolves.toEqual([
      placas[0],
      placas[1],
    ]);
    await expect(doca.locator('.fila li').innerText()).resolves.toMatch(/1º GHI7J89 espera há \d+ s/);
    await page
      .locator('#eventos li', { hasText: `${placas[2]} entrou na fila de DOCA1 · Doca de descarga` })
      .waitFor();
    await page.locator('[data-numero="noPatio"]', { hasText: '3' }).waitFor();

    // The first truck leaves: its spot goes to the one waiting; the turn time of the day appears.
    await expect(numero(page, 'giroMedio').innerText()).resolves.toBe('—');
    await evento('vehicleExitedYard', { placa: placas[0] });
    await doca.locator('.fila.vazia').waitFor();
    await expect(doca.locator('.vaga.ocupada .placa').allInnerTexts()).resolves.toEqual([
      placas[2],
      placas[1],
    ]);
    await page.locator('[data-numero="giroMedio"]', { hasText: / s$/ }).waitFor();
    await page.locator('[data-numero="noPatio"]', { hasText: '2' }).waitFor();
    await page.locator('#eventos li', { hasText: `${placas[0]} saiu do pátio` }).waitFor();

    // The first truck comes back to a full dock and queues; a console opened now sees the queue as
    // it stands (read at connect), not only changes seen since.
    await evento('vehicleEnteredYard', { placa: placas[0] });
    await evento('vehicleEnteredAreaInYard', { areaId: areas.DOCA1, placa: placas[0] });
    await doca.locator('.fila li', { hasText: placas[0]! }).waitFor();
    const outra = await browser.newPage();
    outra.setDefaultTimeout(15_000);
    await outra.goto(`${base}/t/acme/console`);
    await outra.fill('#chave', key);
    await outra.click('text=Conectar');
    await expect(area_(outra, 'DOCA1').locator('.fila li').innerText()).resolves.toMatch(
      /^1º ABC1D23 espera há/,
    );
    await expect(outra.locator('#eventos li').count()).resolves.toBe(0);
    await outra.close();

    // Same page, never reloaded; and no id anywhere on it.
    await expect(
      page.evaluate(() => (window as unknown as { semRecarga?: boolean }).semRecarga),
    ).resolves.toBe(true);
    const texto = await page.locator('body').innerText();
    expect(texto).not.toMatch(UUID);
    expect(await page.content()).not.toMatch(UUID);
    expect(await page.locator('#eventos li').count()).toBeGreaterThanOrEqual(8);
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/console.png', fullPage: true });
    await page.close();
  });

  it('stops on a refused key, says why and forgets it; a key revoked while open ends the stream the same way', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const streams: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/events/stream')) streams.push(r.url());
    });
    const conectar = async (chave: string) => {
      await page.goto(`${base}/t/acme/console`);
      await page.fill('#chave', chave);
      await page.click('text=Conectar');
    };
    await conectar('nada.disso');
    await page.locator('#estado', { hasText: 'chave recusada (401)' }).waitFor();
    const publica = (await t.key('acme', 'public')).apiKey;
    await conectar(publica);
    await page.locator('#estado', { hasText: 'chave recusada (403)' }).waitFor();
    await page.waitForTimeout(2_500);
    // Neither was retried, nor kept for a reload.
    expect(streams).toEqual([]);
    await expect(page.evaluate(() => sessionStorage.getItem('ponte:acme:chave'))).resolves.toBeNull();

    const { apiKey, accessKey } = await t.key('acme');
    await conectar(apiKey);
    await page.locator('#estado', { hasText: 'conectado' }).waitFor();
    expect((await t.admin('DELETE', `/tenants/acme/keys/${accessKey}`)).statusCode).toBe(200);
    await page.locator('#estado', { hasText: 'chave recusada (401)' }).waitFor();
    await evento('vehicleExitedYard', { placa: placas[1] });
    await page.waitForTimeout(1_000);
    await expect(page.locator('#eventos li').count()).resolves.toBe(0);
    await page.close();
  });
});
