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
 * served by workerd too, as a site worker with static assets
 * (scripts/lib/workerd-site.mjs), its /api/* going to the edge worker
 * through a service binding, as production routes /api on the site's own
 * domain to it. Then a
 * shopper's flows: views, save while signed out → sign-in by SMS code (read
 * from the worker's log: the dev SMS provider logs it) → back and saved,
 * the toasts, the watchlist page, remove, the gate of the watchlist page,
 * phone reveal and an enquiry whose lead row is read back from D1; the
 * finance quote through the worker from a local stand-in quote service
 * (the dealer's quote_provider pointed at it, its key a worker var);
 * and every form: the car enquiry (its D1 row, its vehicle
 * filled from the stock, the webhook JSON and the ADF e-mail through local
 * receivers), the same form posted with JavaScript off (303 to the success
 * page), a test drive at a distribution location, the contact form's
 * careers enquiry, the trade-in flow (three linked leads and the saved
 * valuation) and a reservation paid through a local Stripe stand-in (the
 * webhook signed as Stripe signs it) up to the Reserved badge.
 * A pull request preview's API: `dealergen deploy --preview` run against
 * the stand-in wrangler (generator/tests/deploy_fake_wrangler.py), and
 * the KV entries it put for the previews' edge seeded into this worker: a
 * lead from the preview's address is stored under the preview's own
 * dealer id, its vehicle from the preview's stock, and delivered nowhere.
 * A node:test suite (scripts/e2e/common.mjs createRunner): run it with
 * `node --test-reporter=spec` for one line per test; exits 1 on a failure.
 */
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { injectAxe } from '../lib/axe.mjs';
import { kvFor, receiver, sqlString, startWorker } from '../../edge/tests/harness.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { isFile } from '../lib/files.mjs';
import { serveInWorkerd } from '../lib/workerd-site.mjs';
import { reservePort } from '../lib/wrangler.mjs';
// Lists and records compare by value here (D1 rows, payloads): assertJsonEqual.
import { assert, assertJsonEqual as assertEqual, builtAt, createRunner, eventually, need, popupSeen } from './common.mjs';
import { dealergenBin } from '../lib/dealergen.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const distDir = path.resolve(process.argv[2] ?? 'sites/brisbane-motor-group/dist');
const siteDir = path.join(distDir, '..');
const MOBILE = '0412 555 123';
/** The edge worker's name in wrangler.toml: the site's /api/* is bound to it. */
const EDGE_WORKER = 'dealergen-edge';
/** As scripts/e2e/site.mjs audits the static pages: WCAG 2.2 A/AA, best practices, target size. */
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

// The sign-in → save → list chain runs as steps: once one fails, its later
// steps are reported failed without running (they would only time out).
const { test, step, run } = createRunner({ context: () => (currentPage ? `(page: ${currentPage.url()})` : '') });

let worker;
let server;
/** The stand-in for the dealer's quote service (youX-shaped). */
let quoteService;
const QUOTE_KEY = 'fullstack-quote-key';

/** Local receivers of the dealer's lead webhook and of the mail relay (the ADF e-mail), and the Stripe stand-in. */
let hook;
let mail;
let stripe;
const WEBHOOK_SECRET = 'whsec_fullstack_e2e';

/**
 * Stripe, stood in for on 127.0.0.1: POST /v1/checkout/sessions (form-
 * encoded, Bearer key) answers a Checkout Session whose `url` is this
 * server's /pay/{id}; opening that page pays: the stand-in sends
 * `checkout.session.completed` to the worker's webhook, signed as Stripe
 * signs (Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">),
 * then sends the shopper to the session's success_url.
 */
async function stripeStandIn(webhookSecret, workerBase) {
  const sessions = new Map();
  const calls = [];
  const srv = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url, 'http://stand.in');
    calls.push({ method: req.method, path: url.pathname, headers: req.headers, form: Object.fromEntries(new URLSearchParams(body)) });
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const form = new URLSearchParams(body);
      const metadata = Object.fromEntries([...form].flatMap(([k, v]) => (/^metadata\[(.+)\]$/.test(k) ? [[k.slice(9, -1), v]] : [])));
      const id = `cs_test_${randomUUID().replaceAll('-', '')}`;
      const session = {
        id,
        object: 'checkout.session',
        mode: form.get('mode'),
        amount_total: Number(form.get('line_items[0][price_data][unit_amount]') ?? 0),
        currency: form.get('line_items[0][price_data][currency]') ?? 'aud',
        success_url: form.get('success_url'),
        cancel_url: form.get('cancel_url'),
        metadata,
        payment_status: 'unpaid',
        status: 'open',
        url: `${base}/pay/${id}`,
      };
      sessions.set(id, session);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(session));
    }
    const paying = url.pathname.startsWith('/pay/') && sessions.get(url.pathname.slice(5));
    if (req.method === 'GET' && paying) {
      const event = { id: `evt_${randomUUID().replaceAll('-', '')}`, object: 'event', type: 'checkout.session.completed', data: { object: { ...paying, payment_status: 'paid', status: 'complete' } } };
      const raw = JSON.stringify(event);
      const t = Math.floor(Date.now() / 1000);
      const v1 = createHmac('sha256', webhookSecret).update(`${t}.${raw}`).digest('hex');
      const answer = await fetch(`${workerBase()}/api/checkout/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` }, body: raw });
      paying.webhookStatus = answer.status;
      res.writeHead(303, { location: paying.success_url });
      return res.end();
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } }));
  });
  await new Promise((ok) => srv.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${srv.address().port}`;
  return { base, sessions, calls, close: () => new Promise((ok) => { srv.closeAllConnections?.(); srv.close(ok); }) };
}

/**
 * The one lead whose shopper is `name` (each test sends its own name: the
 * success page replaces the form's page before the answer's body could be
 * read), with its payload parsed.
 */
async function leadOf(name) {
  const rows = await worker.d1(`SELECT id, dealer, category, payload FROM leads WHERE json_extract(payload, '$.name') = ${sqlString(name)}`);
  assert(rows.length === 1, `leads of ${name}: ${rows.length} rows`);
  return { ...rows[0], payload: JSON.parse(rows[0].payload) };
}

/** The text of one ADF element (<make>Kia</make>) inside `xml`, or null. */
const adfTag = (xml, tag) => new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`).exec(xml)?.[1] ?? null;

/**
 * `dealergen deploy --preview e2e` of this site against the stand-in
 * wrangler (its account in a temporary folder): the KV entries it put in
 * the previews' namespace, and the preview's address.
 */
function previewApi(sitesDir, slug) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-preview-api-'));
  try {
    const PREVIEW_KV = 'abababababababababababababababab';
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.mkdirSync(path.join(dir, 'account'));
    fs.copyFileSync(path.join(ROOT, 'generator/tests/deploy_fake_wrangler.py'), path.join(dir, 'bin/wrangler'));
    fs.chmodSync(path.join(dir, 'bin/wrangler'), 0o755);
    const config = path.join(dir, 'deploy.toml');
    fs.writeFileSync(config, [
      'account_id = "0123456789abcdef0123456789abcdef"',
      'zones = ["example.com.au"]',
      `[edge]\nname = "dealergen-edge"\nwrangler_toml = "${path.join(ROOT, 'wrangler.toml')}"`,
      '[kv]\nnamespace_id = "fedcba9876543210fedcba9876543210"',
      '[d1]\ndatabase_name = "dealergen"\ndatabase_id = "0b0f0c3e-1111-2222-3333-444455556666"',
      `[preview]\nkv_namespace_id = "${PREVIEW_KV}"\nd1_database_name = "dealergen-preview"\nd1_database_id = "0b0f0c3e-9999-2222-3333-444455556666"`,
    ].join('\n'));
    const bin = dealergenBin();
    const r = spawnSync(bin, ['--root', ROOT, '--sites-dir', sitesDir, 'deploy', '--preview', 'e2e', '--dealer', slug, '--config', config], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`, FAKE_WRANGLER_STATE: path.join(dir, 'account'), CLOUDFLARE_API_TOKEN: 'e2e-not-a-token' },
    });
    assertEqual(r.status, 0, `dealergen deploy --preview:\n${r.stdout}\n${r.stderr}`);
    const url = JSON.parse(fs.readFileSync(path.join(sitesDir, '.deploy/preview/e2e/previews.json'), 'utf8')).dealers[slug];
    const kv = JSON.parse(fs.readFileSync(path.join(dir, `account/kv-${PREVIEW_KV}.json`), 'utf8'));
    return { url, entries: Object.entries(kv).map(([key, value]) => ({ key, value })) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(path.join(sitesDir, '.deploy/preview/e2e'), { recursive: true, force: true });
  }
}

/** Named in failure messages. */
let currentPage;
/** The site's port, held from before the worker starts (reservePort). */
let siteReservation;
let browser;

async function main() {
  const t0 = Date.now();
  assert(isFile(path.join(distDir, 'index.html')), `no built site at ${distDir} (index.html missing)`);
  const edgeConfig = JSON.parse(fs.readFileSync(path.join(siteDir, 'edge-config.json'), 'utf8'));
  const site = JSON.parse(fs.readFileSync(path.join(siteDir, 'src/data/site.json'), 'utf8'));
  const cars = JSON.parse(fs.readFileSync(path.join(siteDir, 'src/data/cars.json'), 'utf8'));
  assert(site.features.watchlist && site.features.phone_reveal, 'this test needs a dealer with watchlist and phone reveal on');

  // The site's origin must be in KV before the worker starts; the site
  // starts after it (its /api/* is bound to the running worker).
  let workerBase = '';
  // Held until the site starts: the worker's wranglers open ports of their own meanwhile.
  siteReservation = await reservePort();
  const sitePort = siteReservation.port;
  const origin = `http://127.0.0.1:${sitePort}`;
  // The dealer's quote service, answered here: figures from the price, as a
  // real service would (never the worker's own), and only with the key.
  quoteService = await receiver((req) => {
    const price = Number(req.json?.purchasePrice);
    req.reply = JSON.stringify({ weeklyRepaymentAmount: Math.round((price / 230) * 100) / 100, comparisonRate: 9.87, advertisedRate: 8.99 });
    return req.headers.authorization === `Bearer ${QUOTE_KEY}` ? 200 : 401;
  });
  const provider = edgeConfig.finance?.quote_provider;
  const finance = provider ? { ...edgeConfig.finance, quote_provider: { ...provider, url: `${quoteService.url}/v1/quote` } } : edgeConfig.finance;
  const config = { ...edgeConfig, origins: [...edgeConfig.origins, origin], finance };
  // Lead delivery goes to local receivers: the dealer's webhook, and the
  // mail relay that sends the ADF e-mail.
  hook = await receiver(() => 200);
  mail = await receiver(() => 202);
  config.leads = { ...config.leads, webhook_url: `${hook.url}/leads` };
  // What the build published for the worker (the visible cars, each car's
  // facts), as deployment puts it in KV; the dealer and origin keys come
  // from the config above.
  const published = JSON.parse(fs.readFileSync(path.join(siteDir, 'edge-kv.json'), 'utf8')).filter((e) => !/^(dealer|origin):/.test(e.key));
  assert(published.some((e) => e.key.startsWith('cars:')), 'edge-kv.json lists the visible cars');
  // The dealer's payment account: its secrets as the worker reads them, and
  // Stripe's API answered by a local stand-in speaking its formats.
  const vars = { SESSION_SECRET: 'fullstack-e2e-secret', MAIL_RELAY_URL: `${mail.url}/mail`, ...(provider ? { [provider.secret_name]: QUOTE_KEY } : {}) };
  const payment = config.checkout?.payment;
  if (payment) {
    stripe = await stripeStandIn(WEBHOOK_SECRET, () => workerBase);
    vars.STRIPE_API_BASE = stripe.base;
    vars[payment.secret_name] = 'sk_test_fullstack';
    vars[payment.webhook_secret_name] = WEBHOOK_SECRET;
  }
  // A pull request's preview of this dealer, its API's entries beside production's.
  const preview = previewApi(path.dirname(path.resolve(siteDir)), config.dealer);
  worker = await startWorker({ kvSeed: [...kvFor(config), ...published, ...preview.entries], vars });
  workerBase = worker.base;
  await siteReservation.release();
  server = await serveInWorkerd(distDir, { edge: EDGE_WORKER, port: sitePort });
  console.log(`       worker ${worker.base}, site ${origin} (${((Date.now() - t0) / 1000).toFixed(1)}s to start)`);

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  context.setDefaultTimeout(10_000);
  // The browser's Date at the instant the stock was judged at (scripts/e2e/common.mjs).
  await context.clock.setFixedTime(builtAt(site));
  await popupSeen(context, site);
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
  // The car page's Save button is no island (no React up front): its script marks it once wired.
  const saveWired = () => page.locator('[data-save-car][data-wired]').first();
  const views = async () => {
    // Hidden until the edge answers (components/car/ViewsCounter.astro).
    const line = page.locator('.car-views');
    await line.waitFor();
    const text = await line.innerText();
    const m = text.replace(/,/g, '').match(/^(\d+) views?$/);
    assert(m, `views text "${text}"`);
    return Number(m[1]);
  };

  await test('car page shows the views count, and a reload counts one more', async () => {
    await page.goto(`${origin}${carPath}`);
    const first = await views();
    assert(first >= 1, `views ${first}`);
    await page.reload();
    assertEqual(await views(), first + 1, 'views after a reload');
  });

  await test("a car without lender figures shows the quote service's quote, through the worker", async () => {
    assert(cars.some((c) => c.finance.quote), 'the demo dealer was expected to have a quote service (finance.quote_provider)');
    // Not the car the views test opened: the worker caches a quote for a day.
    const quoted = cars.find((c) => c.finance.quote && c.vin && c.slug !== car.slug);
    assert(quoted, 'a car asking for a quote');
    const before = quoteService.got.length;
    await page.goto(`${origin}/cars/${quoted.slug}/`);
    const block = page.locator('.finance-panel--quote');
    const weekly = Math.round((quoted.price / 230) * 100) / 100;
    await block.locator('[data-finance="repayment"]').filter({ hasText: `$${Math.round(weekly).toLocaleString('en-AU')}` }).waitFor();
    assertEqual(await block.locator('[data-finance="comparison"]').innerText(), '9.87% p.a.', "the service's comparison rate");
    assertEqual(await block.locator('[data-finance="rate"]').innerText(), '8.99% p.a.', "the service's advertised rate");
    assertEqual(quoteService.got.length, before + 1, 'the service was asked once');
    const asked = quoteService.got.at(-1);
    assertEqual(asked.headers.authorization, `Bearer ${QUOTE_KEY}`, 'with the dealer key');
    assertEqual(asked.json.purchasePrice, quoted.price, 'purchasePrice');
    assertEqual(asked.json.loanTerm, 5, 'loanTerm');
    assertEqual(asked.json.selfAssessedCreditScore, 'GREAT', 'selfAssessedCreditScore');
    assertEqual(asked.json.vin, quoted.vin, 'vin');
    // A car with lender figures shows them and asks nothing.
    const lender = cars.find((c) => c.finance.lender && c.finance.lender.repayment_text);
    assert(lender, 'a car with lender figures');
    await page.goto(`${origin}/cars/${lender.slug}/`);
    await page.locator('.finance-panel [data-finance="repayment"]').filter({ hasText: lender.finance.lender.repayment_text }).waitFor();
    await page.waitForLoadState('networkidle');
    assertEqual(quoteService.got.length, before + 1, 'no quote asked beside lender figures');
  });

  await step('Save while signed out goes to /sign-in/ with type, redirect and back', async () => {
    await page.goto(`${origin}${carPath}`);
    await saveWired().waitFor({ state: 'attached' });
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
    const code = await worker.smsCode(MOBILE_NATIONAL, { from: logFrom });
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
    await saveWired().waitFor({ state: 'attached' });
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
    await saveWired().waitFor({ state: 'attached' });
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
    // The island hydrates on the first press (client:interaction), which it replays.
    const masked = page.getByRole('button', { name: /Show number/ });
    await masked.waitFor();
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

  /** Fills the contact fields of a form (or the whole page). */
  const contact = async (scope, name) => {
    await scope.getByLabel('Name', { exact: true }).fill(name);
    await scope.getByLabel('Email', { exact: true }).fill('fullstack@example.com.au');
    await scope.getByLabel('Phone', { exact: true }).fill('0412 345 678');
  };
  const formReady = async (selector) => {
    await page.evaluate((sel) => document.querySelector(sel)?.scrollIntoView({ block: 'center' }), selector);
    await page.locator(`${selector}[data-hydrated]`).waitFor({ state: 'attached' });
  };
  /** The status of the next POST /api/leads answer. */
  const nextLead = () => page.waitForResponse((res) => new URL(res.url()).pathname === '/api/leads' && res.request().method() === 'POST').then((res) => res.status());
  const success = site.forms.success_path;
  let enquiryId;

  await test('an enquiry (two steps) is stored as a lead of the dealer the Origin names, then the success page', async () => {
    await page.goto(`${origin}${carPath}`);
    await formReady('#enquire form');
    const form = page.locator('#enquire');
    await contact(form, 'Fullstack Shopper');
    await form.getByRole('button', { name: 'Continue' }).click();
    await form.getByLabel('Message', { exact: true }).fill('Is this car still available?');
    await form.getByRole('checkbox', { name: /terms of use/ }).check();
    const answer = nextLead();
    await form.getByRole('button', { name: 'Send enquiry' }).click();
    assertEqual(await answer, 201, 'POST /api/leads status');
    await page.waitForURL(`${origin}${success}?category=enquiry&car_type=${car.car_type}`);
    await page.getByRole('heading', { level: 1, name: 'Thank you for your enquiry' }).waitFor();
    await page.getByRole('link', { name: car.name }).waitFor();
    const row = await leadOf('Fullstack Shopper');
    enquiryId = row.id;
    assertEqual([row.dealer, row.category, String(row.payload.car_id), row.payload.location_id], [config.dealer, 'enquiry', car.id, car.location.id], 'lead row');
    assertEqual([row.payload.subcategory ?? row.payload.extra?.subcategory, row.payload.source ?? row.payload.extra?.source], ['Vehicle Enquiry', 'Website'], 'subcategory and source');
  });

  await test("the enquiry's vehicle comes from the dealer's stock, in the D1 row, the webhook JSON and the ADF e-mail (year, make, model, stock, VIN, price, page)", async () => {
    need(enquiryId, 'the enquiry of the test before');
    const { payload } = await leadOf('Fullstack Shopper');
    const v = payload.vehicle ?? {};
    assertEqual([v.year, v.make, v.model, v.stock_number, v.vin, v.price, v.url], [car.year, car.make, car.model, car.stocknum, car.vin, car.price, `${site.base_url}${carPath}`], 'vehicle in the lead row');
    const delivered = await eventually(() => hook.got.find((r) => r.json?.lead_id === enquiryId), 'the webhook');
    assertEqual(delivered.json.lead.vehicle?.stock_number, car.stocknum, 'webhook vehicle stock number');
    const mailed = await eventually(() => mail.got.find((r) => r.json?.lead_id === enquiryId || String(r.json?.body ?? '').includes(enquiryId)), 'the ADF e-mail');
    const adf = String(mailed.json.body);
    const vehicle = /<vehicle interest="buy"[^>]*>[\s\S]*?<\/vehicle>/.exec(adf)?.[0] ?? /<vehicle[^>]*>[\s\S]*?<\/vehicle>/.exec(adf)?.[0] ?? '';
    assertEqual(
      [adfTag(vehicle, 'year'), adfTag(vehicle, 'make'), adfTag(vehicle, 'model'), adfTag(vehicle, 'stock'), adfTag(vehicle, 'vin'), Number(adfTag(vehicle, 'price'))],
      [String(car.year), car.make, car.model, car.stocknum, car.vin, car.price],
      'ADF <vehicle>',
    );
    assert(adf.includes(`${site.base_url}${carPath}`), 'the ADF names the car page');
  });

  await test('the enquiry form posted with JavaScript off: the worker answers 303 to the success page and stores the lead', async () => {
    const noJs = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    try {
      const p = await noJs.newPage();
      await p.goto(`${origin}${carPath}`);
      const form = p.locator('#enquire form');
      await form.getByLabel('Name', { exact: true }).fill('No Script Shopper');
      await form.getByLabel('Email', { exact: true }).fill('noscript@example.com.au');
      await form.getByLabel('Phone', { exact: true }).fill('0412 345 678');
      await form.getByLabel('Message', { exact: true }).fill('Sent without JavaScript.');
      await form.getByRole('checkbox', { name: /terms of use/ }).check();
      const answer = p.waitForResponse((res) => new URL(res.url()).pathname === '/api/leads');
      await form.getByRole('button', { name: 'Send enquiry' }).click();
      assertEqual((await answer).status(), 303, 'form post answer');
      await p.waitForURL((u) => u.pathname === success && u.searchParams.get('category') === 'enquiry');
      const rows = await worker.d1(`SELECT category, json_extract(payload, '$.car_id') AS car_id FROM leads WHERE json_extract(payload, '$.name') = 'No Script Shopper'`);
      assertEqual(rows.map((r) => [r.category, String(r.car_id)]), [['enquiry', car.id]], 'lead rows');
    } finally {
      await noJs.close();
    }
  });

  await test("a test drive at one of the car location's distribution locations", async () => {
    const far = need(cars.find((c) => c.in_stock && c.location.distribution_locations.length > 0), "a car whose location has distribution locations");
    await page.goto(`${origin}/cars/${far.slug}/?enquiry=test-drive#enquire`);
    await formReady('#enquire form');
    const form = page.locator('#enquire');
    await form.getByRole('heading', { name: 'Book a Test Drive' }).waitFor();
    await contact(form, 'Distribution Driver');
    await form.getByRole('button', { name: 'Continue' }).click();
    await form.getByLabel('Where would you like to see the car? (optional)').selectOption(far.location.distribution_locations[0]);
    await form.getByRole('checkbox', { name: /terms of use/ }).check();
    const answer = nextLead();
    await form.getByRole('button', { name: 'Request test drive' }).click();
    assertEqual(await answer, 201, 'POST /api/leads status');
    await page.waitForURL((u) => u.pathname === success);
    const row = await leadOf('Distribution Driver');
    assertEqual([row.category, row.payload.distribution_location ?? row.payload.extra?.distribution_location], ['test_drive', far.location.distribution_locations[0]], 'lead row');
  });

  await test('the contact form: a careers enquiry is stored as General Enquiry / Career Enquiry', async () => {
    await page.goto(`${origin}/contact-us/`);
    await formReady('.contact-form form');
    const form = page.locator('.contact-form');
    await form.getByLabel('Enquiry type').selectOption({ label: 'Careers Enquiry' });
    await contact(form, 'Careers Shopper');
    if (site.locations.length > 1) await form.getByLabel('Location').selectOption(site.locations[0].id);
    await form.getByLabel('Message', { exact: true }).fill('Do you take apprentices?');
    await form.getByRole('checkbox', { name: /terms of use/ }).check();
    const answer = nextLead();
    await form.getByRole('button', { name: 'Send enquiry' }).click();
    assertEqual(await answer, 201, 'POST /api/leads status');
    await page.waitForURL(`${origin}${success}?category=general`);
    const row = await leadOf('Careers Shopper');
    assertEqual([row.category, row.payload.subcategory ?? row.payload.extra?.subcategory], ['general', 'Career Enquiry'], 'lead row');
  });

  await test('the parts page: a parts enquiry at a parts counter is stored as category parts with the car it is for', async () => {
    need(site.forms.parts_location_ids.length > 0, 'a location that serves parts (forms.parts_location_ids)');
    await page.goto(`${origin}/parts/`);
    await formReady('[data-form="parts-enquiry"]');
    const form = page.locator('[data-form="parts-enquiry"]');
    await contact(form, 'Parts Shopper');
    if (site.forms.parts_location_ids.length > 1) await form.getByLabel('Parts counter').selectOption(site.forms.parts_location_ids[0]);
    await form.getByLabel(/^VIN/).fill('MR0FZ29G301234567');
    await form.getByLabel('Which parts or accessories do you need?').fill('A towbar');
    await form.getByRole('checkbox', { name: /terms of use/ }).check();
    const answer = nextLead();
    await form.getByRole('button', { name: 'Send parts enquiry' }).click();
    assertEqual(await answer, 201, 'POST /api/leads status');
    await page.waitForURL(`${origin}${success}?category=parts`);
    await page.getByRole('heading', { name: 'Thank you for your parts enquiry' }).waitFor();
    const row = await leadOf('Parts Shopper');
    assertEqual([row.category, row.payload.subcategory, row.payload.location_id, row.payload.extra?.vin], ['parts', 'Parts Enquiry', site.forms.parts_location_ids[0], 'MR0FZ29G301234567'], 'lead row');
  });

  await test('unsubscribe: a mobile alone withdraws consent (category unsubscribe, no consent recorded), with JavaScript and without', async () => {
    const byPhone = async (phone) => {
      const rows = await worker.d1(`SELECT category, payload FROM leads WHERE json_extract(payload, '$.phone') = ${sqlString(phone)} AND category = 'unsubscribe'`);
      return rows.map((r) => ({ category: r.category, payload: JSON.parse(r.payload) }));
    };
    // Every page's footer offers it: reached from the home page.
    await page.goto(`${origin}/`);
    await page.locator('footer').getByRole('link', { name: 'Unsubscribe from offers' }).click();
    await page.waitForURL(`${origin}/unsubscribe/`);
    await formReady('[data-form="unsubscribe"]');
    const form = page.locator('[data-form="unsubscribe"]');
    // The device may remember the shopper from an earlier form: only the mobile is sent here.
    await form.getByLabel(/^Email/).fill('');
    await form.getByLabel('Name (optional)').fill('');
    await form.getByLabel(/^Mobile/).fill('0498 765 432');
    const answer = nextLead();
    await form.getByRole('button', { name: 'Unsubscribe' }).click();
    assertEqual(await answer, 201, 'POST /api/leads status');
    await page.waitForURL(`${origin}${success}?category=unsubscribe`);
    await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    const rows = await byPhone('0498765432');
    assertEqual(rows.map((r) => [r.category, r.payload.email, r.payload.opt_in ?? false, r.payload.consent ?? null]), [['unsubscribe', '', false, null]], 'lead rows');

    const noJs = await browser.newContext({ viewport: { width: 375, height: 800 }, javaScriptEnabled: false });
    try {
      const p = await noJs.newPage();
      await p.goto(`${origin}/unsubscribe/`);
      await p.getByLabel(/^Mobile/).fill('0498 111 222');
      const posted = p.waitForResponse((res) => new URL(res.url()).pathname === '/api/leads');
      await p.getByRole('button', { name: 'Unsubscribe' }).click();
      assertEqual((await posted).status(), 303, 'form post answer');
      await p.waitForURL((u) => u.pathname === success && u.searchParams.get('category') === 'unsubscribe');
      assertEqual((await byPhone('0498111222')).length, 1, 'the unsubscribe posted without JavaScript is stored');
    } finally {
      await noJs.close();
    }
  });

  await test('review feedback: greeted by the link’s name, "I had a bad experience" leads to the survey with the name, stored as category feedback', async () => {
    need(site.forms.review_url, 'a review page (reviews.review_url)');
    await page.goto(`${origin}/review-feedback/?first_name=Robin&dealership_name=${encodeURIComponent('BMG Service')}`);
    await page.getByRole('heading', { name: 'Thank you, Robin' }).waitFor();
    assertEqual(await page.getByRole('link', { name: /Leave a review/ }).getAttribute('href'), site.forms.review_url, 'the review link');
    await page.getByRole('link', { name: 'I had a bad experience' }).click();
    await page.waitForURL((u) => u.pathname === '/customer-feedback-survey/' && u.searchParams.get('first_name') === 'Robin');
    await formReady('[data-form="feedback-survey"]');
    const form = page.locator('[data-form="feedback-survey"]');
    // The island fills the name in once it has read the link (fails after the default timeout otherwise).
    await page.waitForFunction(() => document.querySelector('[data-form="feedback-survey"] input[name="name"]')?.value === 'Robin');
    await form.getByLabel('Name', { exact: true }).fill('Robin Feedback');
    await form.getByLabel('Email', { exact: true }).fill('robin@example.com.au');
    await form.getByLabel('Phone', { exact: true }).fill('0412 345 678');
    if (site.locations.length > 1) await form.getByLabel('Which of our locations?').selectOption(site.locations[0].id);
    await form.getByLabel('What was your visit about?').selectOption('A service or repair');
    await form.getByLabel('What went wrong?').fill('The car was not ready when promised.');
    await form.getByRole('checkbox', { name: /terms of use/ }).check();
    const answer = nextLead();
    await form.getByRole('button', { name: 'Send feedback' }).click();
    assertEqual(await answer, 201, 'POST /api/leads status');
    await page.waitForURL(`${origin}${success}?category=feedback`);
    const row = await leadOf('Robin Feedback');
    assertEqual([row.category, row.payload.subcategory, row.payload.extra?.visit_reason], ['feedback', 'Customer Feedback Survey', 'A service or repair'], 'lead row');
  });

  await test('the trade-in flow: three linked leads (1. Contact Details, 2. Vehicle Details, 3. Offer Accepted or the answers to price) and the saved valuation', async () => {
    need(site.forms.trade_in, 'the trade-in pages (features.trade_in)');
    const tradeCar = cars.find((c) => c.in_stock) ?? car;
    await page.goto(`${origin}/cars/trade-in/?car_id=${tradeCar.id}`);
    await formReady('form');
    await page.getByLabel('First Name').fill('Trade');
    await page.getByLabel('Last Name').fill('Fullstack');
    await page.getByLabel('Email', { exact: true }).fill('trade@example.com.au');
    await page.getByLabel('Mobile').fill('0412 345 678');
    await page.getByLabel('Postcode').fill('4127');
    await page.getByRole('checkbox', { name: /terms of use/ }).check();
    const first = nextLead();
    await page.getByRole('button', { name: 'Continue' }).click();
    assertEqual(await first, 201, 'the first lead');
    await page.getByRole('heading', { name: 'Step 2 of 2: Your car' }).waitFor();
    await page.getByLabel('Registration (optional)').fill('ABC123');
    await page.getByLabel('Kilometres').fill('64000');
    await page.getByRole('group', { name: 'Has the car been in an accident? (optional)' }).getByLabel('No').check();
    const second = nextLead();
    await page.getByRole('button', { name: 'Value my car' }).click();
    assertEqual(await second, 201, 'the second lead');
    await page.locator('.trade-in-result h2').waitFor();
    const accept = page.getByRole('button', { name: 'Accept this estimate' });
    if (await accept.count()) await accept.click();
    else await page.getByRole('button', { name: 'Finish' }).click();
    await page.waitForURL(`${origin}${success}?category=trade_in`);
    const rows = await worker.d1(`SELECT id, json_extract(payload, '$.subcategory') AS sub, json_extract(payload, '$.previous_lead_id') AS prev, json_extract(payload, '$.kms') AS kms FROM leads WHERE category = 'trade_in' AND json_extract(payload, '$.email') = 'trade@example.com.au' ORDER BY created_at`);
    assertEqual(rows.map((r) => r.sub).slice(0, 2), ['1. Contact Details', '2. Vehicle Details'], 'the flow’s leads');
    const firstId = rows[0].id;
    assertEqual(rows.slice(1).map((r) => r.prev), rows.slice(1).map(() => firstId), 'the later leads name the first');
    assertEqual(rows[1].kms, 64000, 'the second lead carries the answers');
    if (site.forms.save_valuation) {
      const saved = await worker.d1(`SELECT column_name, lead_id FROM miscellaneous WHERE lead_id = ${sqlString(firstId)}`);
      assertEqual(saved.map((r) => r.column_name), ['valuation'], 'the saved valuation (trade_in.save_valuation)');
    }
  });

  const sold = cars.find((c) => c.status === 'sold');
  await test('a sold car that is not saved shows no Save button', async () => {
    need(sold, 'a sold car inside the sold window (build the demo with --as-of "$(node scripts/demo-stock/as-of.mjs)")');
    await page.goto(`${origin}/cars/${sold.slug}/`);
    await saveWired().waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    assertEqual(await page.getByRole('button', { name: /Watchlist/ }).count(), 0, 'watchlist buttons');
  });

  await test('reserve a car: the hold, the payment through the Stripe stand-in (signed webhook), back as reserved; the car page then shows Reserved', async () => {
    const reservable = need(cars.find((c) => c.checkout && c.status === 'in_stock'), 'a car the dealer reserves online');
    need(stripe, "the dealer's payment account (features.checkout.payment in the edge config)");
    // Signed in earlier in this run: the checkout route is gated for this dealer.
    await page.goto(`${origin}/cars/${reservable.slug}/`);
    // The sidebar's Reserve button (the Reserve Online tab has another).
    await page.locator(`.car-actions [data-reserve-for="${reservable.slug}"]`).click();
    await page.waitForURL(`${origin}/cars/${reservable.slug}/${site.features.checkout_path}/`);
    await formReady('.checkout-form form');
    await contact(page.locator('.checkout-form'), 'Reserve Shopper');
    await page.getByRole('checkbox', { name: /terms of use/ }).check();
    const held = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/checkout/hold');
    await page.getByRole('button', { name: /^Reserve/ }).click();
    assertEqual((await held).status(), 201, 'POST /api/checkout/hold');
    await page.getByRole('heading', { name: 'The car is reserved for you' }).waitFor({ timeout: 30_000 });
    const session = [...stripe.sessions.values()].at(-1);
    assertEqual([session.metadata.car_slug, session.amount_total, session.webhookStatus], [reservable.slug, site.features.checkout_deposit * 100, 200], 'the Checkout Session and the webhook');
    const status = await page.evaluate((slug) => fetch(`/api/cars/${slug}/status`).then((r) => r.json()), reservable.slug);
    assertEqual(status.reserved, true, 'the car status');
    await eventually(async () => (await worker.d1(`SELECT id FROM leads WHERE json_extract(payload, '$.subcategory') = 'Reserve'`)).length === 1, 'the reservation lead');
    await page.goto(`${origin}/cars/${reservable.slug}/`);
    await page.locator('.car-summary .reserved-badge').waitFor({ state: 'visible' });
    for (const offer of await page.locator(`[data-reserve-for="${reservable.slug}"]`).all()) assert(!(await offer.isVisible()), 'Reserve Now still offered');
    // A second shopper cannot hold the car.
    const again = await page.evaluate((slug) => fetch('/api/checkout/hold', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ car_slug: slug, name: 'Late', email: 'late@example.com.au', phone: '0412345679', terms_conditions: true }) }).then((r) => r.status), reservable.slug);
    assertEqual(again, 409, 'a second hold');
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

  await test("a preview's API (deploy --preview): a lead from the preview's address is stored under the preview's dealer, with its stock's car, and goes nowhere", async () => {
    const id = `${config.dealer}--e2e`;
    const res = await fetch(`${worker.base}/api/leads`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: preview.url },
      body: JSON.stringify({ category: 'enquiry', name: 'Preview Shopper', email: 'preview@example.com.au', phone: '0412 345 678', message: 'Testing the preview', terms_conditions: true, car_id: Number(car.id), location_id: car.location.id, postcode: '4000', url: `${preview.url}${carPath}` }),
    });
    assertEqual(res.status, 201, `POST /api/leads from the preview: ${await res.text()}`);
    const row = await leadOf('Preview Shopper');
    assertEqual([row.dealer, row.payload.vehicle?.stock_number], [id, car.stocknum], 'the lead of the preview, with its car from the preview stock');
    const status = await eventually(async () => {
      const [r] = await worker.d1(`SELECT delivery_status FROM leads WHERE id = ${sqlString(row.id)}`);
      return r?.delivery_status !== 'pending' && r?.delivery_status;
    }, 'the delivery step');
    assertEqual(status, 'no_route', "the preview's lead delivery");
    assert(!hook.got.some((r) => JSON.stringify(r.json ?? {}).includes(row.id)), 'the dealer\'s webhook got the preview\'s lead');
    assert(!mail.got.some((r) => JSON.stringify(r.json ?? {}).includes(row.id)), 'an e-mail was sent for the preview\'s lead');
    // An address no preview was made for reaches no dealer.
    const other = await fetch(`${worker.base}/api/leads`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'https://pr-other-dealergen-site-x.fake-account.workers.dev' }, body: '{}' });
    assertEqual(other.status, 403, 'an address no preview has');
  });

  await test('no uncaught errors in the pages', async () => {
    assertEqual(pageErrors.length, 0, `page errors: ${pageErrors.slice(0, 3).join(' | ')}`);
  });
}

async function shutdown() {
  // Held until the site starts: a failure before then must not keep the process alive.
  await siteReservation?.release();
  await browser?.close().catch(() => {});
  await server?.close().catch(() => {});
  await worker?.stop().catch(() => {});
  await quoteService?.close().catch(() => {});
  await hook?.close().catch(() => {});
  await mail?.close().catch(() => {});
  await stripe?.close().catch(() => {});
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    await shutdown();
    process.exit(130);
  });
}

await run(main, { shutdown });
