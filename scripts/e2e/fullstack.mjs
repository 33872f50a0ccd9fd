#!/usr/bin/env node
/**
 * Full-stack end-to-end test: a built dealer site in headless Chromium
 * talking to the real edge worker (workerd via `wrangler dev --local`).
 *
 *   node scripts/e2e/fullstack.mjs [sites/<slug>/dist]   (default: sites/brisbane-motor-group/dist)
 *
 * The worker starts like edge/tests/harness.mjs starts it (fresh persist
 * dir, D1 migrations, KV seeded with the dealer's generated
 * edge-config.json plus the origin this test serves the site from and the
 * visible cars from edge-kv.json, a SESSION_SECRET); needs edge/build/
 * (scripts/edge/build.sh). The site is
 * served by scripts/lib/static-server.mjs with /api/* proxied to the
 * worker, as production routes /api on the site's own domain to it. Then a
 * shopper's flows: views, save while signed out → sign-in by SMS code (read
 * from the worker's log: the dev SMS provider logs it) → back and saved,
 * the toasts, the watchlist page, remove, the gate of the watchlist page,
 * phone reveal and an enquiry whose lead row is read back from D1.
 * Prints one line per test and then "N passed, M failed"; exits 1 on failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { injectAxe } from '../lib/axe.mjs';
import { kvFor, sleep, sqlString, startWorker } from '../../edge/tests/harness.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { isFile, startServer } from '../lib/static-server.mjs';
import { builtAt, need } from './common.mjs';

const distDir = path.resolve(process.argv[2] ?? 'sites/brisbane-motor-group/dist');
const siteDir = path.join(distDir, '..');
const MOBILE = '0412 555 123';
/** As scripts/e2e/run.mjs audits the static pages: WCAG 2.2 A/AA, best practices, target size. */
const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
  rules: { 'target-size': { enabled: true } },
};
const MOBILE_NATIONAL = MOBILE.replace(/\D/g, '');

/** axe violations on the page as it is now (with its islands' state). */
async function axeProblems(page) {
  await injectAxe(page);
  const violations = await page.evaluate((options) => globalThis.axe.run(options).then((r) => r.violations), AXE_OPTIONS);
  return violations.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(' ')}`);
}

const results = [];
// The sign-in → save → list chain: once a link fails, its later links are
// reported as failed without running (they would only time out).
let chainBroken = false;
async function test(name, fn, { inChain = false } = {}) {
  if (inChain && chainBroken) {
    results.push({ name, ok: false });
    console.log(`FAIL - ${name}\n       skipped: an earlier step it depends on failed`);
    return;
  }
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok   - ${name} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
  } catch (error) {
    results.push({ name, ok: false });
    let message = String(error?.message ?? error).split('\n').slice(0, 8).join('\n       ');
    if (currentPage) message += `\n       (page: ${currentPage.url()})`;
    console.log(`FAIL - ${name}\n       ${message}`);
  }
}
/** A link of the chain. */
async function step(name, fn) {
  await test(name, fn, { inChain: true });
  if (!results.at(-1).ok) chainBroken = true;
}
function assert(condition, message) {
  if (!condition) throw new Error(message);
}
function assertEqual(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

let worker;
let server;
/** Named in failure messages. */
let currentPage;
let browser;

async function main() {
  const t0 = Date.now();
  assert(isFile(path.join(distDir, 'index.html')), `no built site at ${distDir} (index.html missing)`);
  const edgeConfig = JSON.parse(fs.readFileSync(path.join(siteDir, 'edge-config.json'), 'utf8'));
  const site = JSON.parse(fs.readFileSync(path.join(siteDir, 'src/data/site.json'), 'utf8'));
  const cars = JSON.parse(fs.readFileSync(path.join(siteDir, 'src/data/cars.json'), 'utf8'));
  assert(site.features.watchlist && site.features.phone_reveal, 'this test needs a dealer with watchlist and phone reveal on');

  // The site first: its origin must be in KV before the worker starts.
  let workerBase = '';
  server = await startServer(distDir, 0, { apiProxy: () => workerBase });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const config = { ...edgeConfig, origins: [...edgeConfig.origins, origin] };
  // The build's list of visible cars: the worker counts views of these only.
  const carList = JSON.parse(fs.readFileSync(path.join(siteDir, 'edge-kv.json'), 'utf8')).filter((e) => e.key.startsWith('cars:'));
  assert(carList.length === 1, 'edge-kv.json lists the visible cars');
  worker = await startWorker({ kvSeed: [...kvFor(config), ...carList], vars: { SESSION_SECRET: 'fullstack-e2e-secret' } });
  workerBase = worker.base;
  console.log(`       worker ${worker.base}, site ${origin} (${((Date.now() - t0) / 1000).toFixed(1)}s to start)`);

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  context.setDefaultTimeout(10_000);
  // The browser's Date at the instant the stock was judged at (scripts/e2e/common.mjs).
  await context.clock.setFixedTime(builtAt(site));
  const page = await context.newPage();
  currentPage = page;
  const pageErrors = [];
  const apiCalls = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/')) apiCalls.push(`${req.method()} ${url.pathname}`);
  });

  const car = cars.find((c) => c.status === 'in_stock' && config.locations.some((l) => l.id === c.location.id));
  assert(car, 'no in-stock car at a configured location');
  const carPath = `/cars/${car.slug}/`;
  const location = config.locations.find((l) => l.id === car.location.id);
  const hydrated = (component) => page.locator(`astro-island[component-url*="/${component}."]:not([ssr])`).first();
  const views = async () => {
    const text = await page.locator('.car-views').innerText();
    const m = text.replace(/,/g, '').match(/^(\d+) views?$/);
    assert(m, `views text "${text}"`);
    return Number(m[1]);
  };

  await test('car page shows the views count, and a reload counts one more', async () => {
    await page.goto(`${origin}${carPath}`);
    const first = await views();
    assert(first >= 1, `views ${first}`);
    await page.reload();
    await page.locator('.car-views').waitFor();
    assertEqual(await views(), first + 1, 'views after a reload');
  });

  await test("the car page shows the worker's finance quote (price above 0)", async () => {
    assert(site.features.finance_quote && car.price > 0, 'the demo car was expected to be priced, with finance on');
    const figure = page.locator('.finance-quote strong');
    await figure.waitFor();
    const quote = await page.evaluate(
      (c) => fetch('/api/youx/quote', { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ purchasePrice: c.price, loanTerm: 5, selfAssessedCreditScore: 'GREAT', year: c.year, vin: c.vin ?? '', nvic: c.nvic ?? '', whoIsHelping: '' }) }).then((r) => r.json()),
      car,
    );
    assertEqual(await figure.innerText(), `$${new Intl.NumberFormat('en-AU').format(quote.weeklyRepaymentAmount)} / week`, 'weekly figure');
  });

  await step('Save while signed out goes to /sign-in/ with type, redirect and back', async () => {
    await page.goto(`${origin}${carPath}`);
    await hydrated('SaveCarButton').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: /^Save to Watchlist/ }).click();
    await page.waitForURL(/\/sign-in\/\?/);
    await hydrated('SignIn').waitFor({ state: 'attached' });
    const q = new URL(page.url()).searchParams;
    assertEqual(q.get('type'), 'watchlist', 'type');
    assertEqual(q.get('redirect'), carPath, 'redirect');
    assertEqual(q.get('back'), carPath, 'back');
    // The Back link takes `back` once the island has read the query.
    await page.locator(`.sign-in__back a[href="${carPath}"]`).waitFor();
  });

  await step(`sign in (no axe violations) with an SMS code for ${MOBILE}: a wrong code is refused, the right one leads back`, async () => {
    await hydrated('SignIn').waitFor({ state: 'attached' });
    const a11y = await axeProblems(page);
    assertEqual(a11y.length, 0, `axe on /sign-in/: ${a11y.join('; ')}`);
    const logFrom = worker.log.length;
    await page.getByLabel('Mobile number').fill(MOBILE);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('status').filter({ hasText: 'We sent a 6-digit code' }).waitFor();
    let code;
    for (let i = 0; i < 50 && !code; i++) {
      code = worker.log.slice(logFrom).match(new RegExp(`sms to ${MOBILE_NATIONAL} \\([\\w-]+\\): (\\d{6}) is your`))?.[1];
      if (!code) await sleep(100);
    }
    assert(code, `no code in the worker log:\n${worker.log.slice(logFrom).slice(-500)}`);
    assertEqual(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'code', 'focus on the code field');
    await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: /not right/ }).waitFor();
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}${carPath}`);
    const me = await page.evaluate(() => fetch('/api/auth/me').then((r) => r.json()));
    assertEqual(me.signed_in, true, '/api/auth/me signed_in');
    assertEqual(me.phone_number, MOBILE_NATIONAL, '/api/auth/me phone_number');
  });

  await step("Save: the button flips, the 'Car Saved In Watchlist' toast offers View List", async () => {
    await hydrated('SaveCarButton').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: /^Save to Watchlist/ }).click();
    await page.getByRole('button', { name: /^Remove from Watchlist/ }).waitFor();
    const toast = page.locator('.toast');
    await toast.getByText('Car Saved In Watchlist', { exact: true }).waitFor();
    await toast.getByText(`${car.name} is now available in your watchlist`, { exact: true }).waitFor();
    assertEqual(await page.locator('.toast').count(), 1, 'toasts shown');
    const list = await page.evaluate(() => fetch('/api/watchlist').then((r) => r.json()));
    assert(list.car_ids.includes(car.id), `server list ${JSON.stringify(list.car_ids)} lacks ${car.id}`);
    // The demo dealer has no analytics sink: event 39 must not be sent.
    assert(!site.features.analytics, 'the demo dealer was expected to have analytics off');
    assert(!apiCalls.some((c) => c.endsWith('/api/events')), `events sent without a sink: ${apiCalls.join(', ')}`);
    await toast.getByRole('link', { name: 'View List' }).click();
    await page.waitForURL(`${origin}/watchlist/`);
  });

  await step('the watchlist page lists the saved car (no axe violations); Remove shows the Car Removed toast and empties the list', async () => {
    const list = page.getByRole('list', { name: 'Saved cars' });
    await list.getByRole('link', { name: car.name }).waitFor();
    assertEqual(await list.getByRole('link', { name: car.name }).getAttribute('href'), carPath, 'link to the car');
    const a11y = await axeProblems(page);
    assertEqual(a11y.length, 0, `axe on /watchlist/: ${a11y.join('; ')}`);
    await list.getByRole('button', { name: `Remove ${car.name} from your watchlist` }).click();
    await page.locator('.toast').getByText('Car Removed', { exact: true }).waitFor();
    await page.locator('.toast').getByText(`${car.name} is no longer in your watchlist`, { exact: true }).waitFor();
    await page.locator('.toast').getByRole('link', { name: 'View List' }).waitFor();
    await page.getByText('You have no saved cars yet.').waitFor();
    const server = await page.evaluate(() => fetch('/api/watchlist').then((r) => r.json()));
    assertEqual(server.car_ids.length, 0, 'saved cars on the server');
  });

  await test('a failed save flips the button back and alerts the message', async () => {
    await page.goto(`${origin}${carPath}`);
    await hydrated('SaveCarButton').waitFor({ state: 'attached' });
    // The worker does not fail on demand: this one answer is injected.
    await page.route('**/api/watchlist/save-car', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Try again shortly.' }) }), { times: 1 });
    // Accepted from the listener: an open alert blocks the page, and with it the click.
    const alerted = new Promise((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.message());
        void d.accept();
      }),
    );
    await page.getByRole('button', { name: /^Save to Watchlist/ }).click();
    assertEqual(await alerted, 'Try again shortly.', 'alert text');
    await page.getByRole('button', { name: /^Save to Watchlist/ }).waitFor();
    assertEqual(await page.locator('.toast').count(), 0, 'toasts after a failure');
  });

  await test('phone reveal: the masked number becomes the location phone, and the reveal is recorded', async () => {
    await hydrated('PhoneReveal').waitFor({ state: 'attached' });
    const masked = page.getByRole('button', { name: /Show number/ });
    const maskedText = await masked.innerText();
    assert(/X{4}/.test(maskedText) && !maskedText.includes(location.phone), `masked "${maskedText}"`);
    assert(!(await page.locator('main').innerText()).includes(location.phone), 'the number is on the page before the reveal');
    await masked.click();
    const link = page.getByRole('link', { name: `Call ${location.phone}` });
    await link.waitFor();
    assertEqual(await link.getAttribute('href'), `tel:${location.phone.replace(/[^\d+]/g, '')}`, 'tel link');
    const rows = await worker.d1(`SELECT dealer, location_id FROM phone_reveals WHERE car_id = ${sqlString(car.id)}`);
    assertEqual(JSON.stringify(rows), JSON.stringify([{ dealer: config.dealer, location_id: location.id }]), 'phone_reveals rows');
  });

  await test('an enquiry is stored as a lead of the dealer the Origin names', async () => {
    await page.locator('#enquire').scrollIntoViewIfNeeded();
    await hydrated('EnquiryForm').waitFor({ state: 'attached' });
    await page.getByLabel('Name', { exact: true }).fill('Fullstack Shopper');
    await page.getByLabel('Email', { exact: true }).fill('fullstack@example.com.au');
    await page.getByLabel('Phone', { exact: true }).fill('0412 345 678');
    await page.getByLabel('Message', { exact: true }).fill('Is this car still available?');
    await page.getByRole('checkbox').check();
    const answer = page.waitForResponse((res) => res.url().endsWith('/api/leads'));
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    const res = await answer;
    assertEqual(res.status(), 201, 'POST /api/leads status');
    const { lead_id: leadId } = await res.json();
    assert(/^[0-9a-f-]{36}$/.test(leadId), `lead_id ${leadId}`);
    await page.getByRole('status').filter({ hasText: 'has been sent' }).waitFor();
    const rows = await worker.d1(
      `SELECT dealer, category, json_extract(payload, '$.car_id') AS car_id, json_extract(payload, '$.location_id') AS location_id FROM leads WHERE id = ${sqlString(leadId)}`,
    );
    assertEqual(rows.length, 1, 'lead rows');
    const [row] = rows;
    assertEqual(row.dealer, config.dealer, 'dealer');
    assertEqual(row.category, 'enquiry', 'category');
    assertEqual(String(row.car_id), car.id, 'car_id');
    assertEqual(row.location_id, car.location.id, 'location_id');
  });

  const sold = cars.find((c) => c.status === 'sold');
  await test('a sold car that is not saved shows no Save button', async () => {
    need(sold, 'a sold car inside the sold window (build the demo with --as-of "$(node scripts/demo-stock/as-of.mjs)")');
    await page.goto(`${origin}/cars/${sold.slug}/`);
    await hydrated('SaveCarButton').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    assertEqual(await page.getByRole('button', { name: /Watchlist/ }).count(), 0, 'watchlist buttons');
  });

  await test('signed out, the gated watchlist page redirects to sign-in', async () => {
    const out = await page.evaluate(() => fetch('/api/auth/sign-out', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.status));
    assertEqual(out, 200, 'sign-out status');
    await page.goto(`${origin}/watchlist/`);
    await page.waitForURL(/\/sign-in\/\?/);
    const q = new URL(page.url()).searchParams;
    assertEqual(q.get('type'), 'watchlist', 'type');
    assertEqual(q.get('redirect'), '/watchlist/', 'redirect');
  });

  await test('no uncaught errors in the pages', async () => {
    assertEqual(pageErrors.length, 0, `page errors: ${pageErrors.slice(0, 3).join(' | ')}`);
  });
}

async function shutdown() {
  await browser?.close().catch(() => {});
  if (server) {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
  await worker?.stop().catch(() => {});
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    await shutdown();
    process.exit(130);
  });
}

try {
  await main();
} catch (error) {
  results.push({ name: 'setup', ok: false });
  console.log(`FAIL - setup\n       ${String(error?.stack ?? error).split('\n').slice(0, 12).join('\n       ')}`);
} finally {
  await shutdown();
}
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
