import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';

// The docs page in a real browser (Debian's chromium, which .ci/run installs): opened at a tenant's
// address it shows the yard service; Authorize with an API key or a bearer token, then "Try it out"
// on an operation answers 200 from the API itself.

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

let t: TestApp;
let base: string;
let key: string;
let accessKey: string;
let secret: string;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  t = await testApp();
  key = await t.tenant('acme');
  ({ accessKey, secret } = await t.key('acme'));
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

afterAll(async () => {
  await browser?.close();
});

/** Opens the tenant's docs page as a person types its address (no trailing slash). */
async function open(): Promise<Page> {
  const page = await browser.newPage();
  // Within the test's own timeout, so that a failure names the step that waited.
  page.setDefaultTimeout(10_000);
  await page.goto(`${base}/t/acme/docs`);
  await page.waitForSelector('#operations-tag-patio');
  return page;
}

/** Authorize: the value of the Authorization header, kept by the page (persistAuthorization). */
async function authorize(page: Page, value: string): Promise<void> {
  await page.click('.auth-wrapper .authorize');
  const dialog = page.locator('.modal-ux');
  await dialog.locator('input').fill(value);
  await dialog.locator('button.authorize').click();
  await dialog.locator('button.btn-done').click();
}

/**
 * Goes to an operation of the yard and expands it (a deep link, reloaded: Swagger UI renders a long
 * document's operations as they scroll into view, and keeps the authorization across the reload).
 */
async function expand(page: Page, operation: string) {
  await page.goto(`${base}/t/acme/docs/#/patio/${operation}`);
  await page.reload();
  await page.waitForSelector(`#operations-patio-${operation}.is-open`);
}

/** Tries the (open) operation out and executes it; answers the API's response. */
async function tryItOut(page: Page, operation: string) {
  const block = page.locator(`#operations-patio-${operation}`);
  await block.locator('.try-out__btn').click();
  const answer = page.waitForResponse((res) => res.url().includes('/bridge/1.0/'));
  await block.locator('button.execute').click();
  const response = await answer;
  const status = block.locator('.live-responses-table .response .response-col_status');
  await status.waitFor();
  return { response, shown: (await status.innerText()).trim() };
}

describe('the docs page, in a browser', () => {
  it('opens on the yard service, authorizes with an API key, and Try it out answers 200', async () => {
    const page = await open();
    expect(page.url()).toBe(`${base}/t/acme/docs/`);
    await expect(page.locator('.info .title').innerText()).resolves.toContain('Yard control');
    await authorize(page, key);
    await expand(page, 'vaga_list');
    const { response, shown } = await tryItOut(page, 'vaga_list');
    expect(response.url()).toMatch(new RegExp(`^${base}/t/acme/bridge/1\\.0/rest/yms/patio/entities/vaga`));
    expect(response.request().headers().authorization).toBe(key);
    expect(response.status()).toBe(200);
    expect(shown).toBe('200');
    await page.close();
  });

  it('authorizes with a bearer token from loginWithKey as well', async () => {
    const login = await t.call(
      'acme',
      'platform/authentication/actions/loginWithKey',
      { accessKey, secret, tenantName: 'acme' },
      { anonymous: true },
    );
    const token = JSON.parse(login.json().jsonToken).access_token as string;
    const page = await open();
    await authorize(page, `Bearer ${token}`);
    await expand(page, 'getDependencies_GET');
    const { response, shown } = await tryItOut(page, 'getDependencies_GET');
    expect(response.request().headers().authorization).toBe(`Bearer ${token}`);
    expect([response.status(), shown]).toEqual([200, '200']);
    await page.close();
  });

  it('opens a shared link (?urls.primaryName=…) on that service, under its policy, without a browser error', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    const agenda = t.platform.registry.service('yms/agenda')!;
    const res = await page.goto(
      `${base}/t/acme/docs/?urls.primaryName=${encodeURIComponent(`yms/agenda ${agenda.version}`)}`,
    );
    expect(res!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res!.headers()['x-content-type-options']).toBe('nosniff');
    await expect(page.locator('.info .title').innerText()).resolves.toContain(agenda.title);
    expect(problems).toEqual([]);
    // Any well-formed tenant name gets the page: whether it exists is for its credentials to tell.
    expect((await page.goto(`${base}/t/nobody/docs/`))!.status()).toBe(200);
    await page.close();
  });
});
