/**
 * Finance on a built site, in Chromium (docs/behaviour/car-page.md §5, the calculator, §7):
 * used by scripts/e2e/site.mjs with its browser context and helpers.
 *
 * - Shown and hidden per lender rules: each case is found in the dealer's
 *   stock feed (the car's one finance_lenders entry) and its car page is
 *   checked against the spec's table: the panel's figures are the entry's
 *   (weekly rounded to whole dollars, comparison rate to 2 decimals), or
 *   there is no panel (and then a priced, in-stock car asks for a quote).
 *   A case missing from the demo data fails (scripts/demo-stock gives
 *   brisbane-motor-group a car for each).
 * - Every finance block the browser shows (panel, quote, calculator) has
 *   its comparison rate at a computed font size at least that of every rate
 *   and repayment in it, and the warning: the build's static check, seen as
 *   rendered.
 * - The calculator hydrates only when scrolled to; typed inputs give the
 *   shared vectors' results; the price help; Enquire Now carries the car to
 *   the finance page's form, which sends a finance lead.
 * - The disclaimer's Show More / Show Less work with JavaScript off.
 * - axe on the finance states at phone and desktop widths.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { injectAxe } from '../lib/axe.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** As site.mjs audits every page: WCAG 2.2 A/AA, best practices, target size. */
const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
  rules: { 'target-size': { enabled: true } },
};
async function axeProblems(p) {
  await injectAxe(p);
  const violations = await p.evaluate((options) => globalThis.axe.run(options).then((r) => r.violations), AXE_OPTIONS);
  return violations.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(' ')}`);
}

/** What the browser shows, checked in the page: one line per problem. */
function liveComplianceProblems(warning) {
  const problems = [];
  const size = (el) => parseFloat(getComputedStyle(el).fontSize);
  const hasDigit = (el) => /\d/.test(el.tagName === 'INPUT' ? el.value : el.textContent);
  for (const block of document.querySelectorAll('[data-finance-block]')) {
    const figures = [...block.querySelectorAll('[data-finance="rate"], [data-finance="repayment"]')].filter(hasDigit);
    if (figures.length === 0) continue;
    const comparisons = [...block.querySelectorAll('[data-finance="comparison"]')].filter((el) => /\d\s?%/.test(el.textContent));
    if (comparisons.length === 0) {
      problems.push(`no comparison rate beside "${figures[0].textContent || figures[0].value}"`);
      continue;
    }
    const top = Math.max(...comparisons.map(size));
    for (const f of figures) if (size(f) > top) problems.push(`"${f.textContent || f.value}" is ${size(f)}px, the comparison rate ${top}px`);
    const warned = [...block.querySelectorAll('[data-finance="warning"]')].some((w) => w.textContent.replace(/\s+/g, ' ').includes(warning));
    if (!warned) problems.push(`no warning beside "${figures[0].textContent || figures[0].value}"`);
  }
  return problems;
}

export async function financeTests(t) {
  const { test, need, assert, assertEqual, context, page, origin, site, cars, quoteRequests, leads, watch } = t;
  const feedPath = path.join(ROOT, 'dealers/stock', `${site.slug}.json`);
  const feed = fs.existsSync(feedPath) ? JSON.parse(fs.readFileSync(feedPath, 'utf8')) : [];
  const bySlug = new Map(cars.map((c) => [c.slug, c]));
  const year = new Date(site.built_at * 1000).getUTCFullYear();
  /** Visible cars with exactly one lender entry: [record, car, provider key, entry]. */
  const single = feed
    .filter((r) => bySlug.has(r.slug) && r.finance_lenders && Object.keys(r.finance_lenders).length === 1)
    .map((r) => [r, bySlug.get(r.slug), ...Object.entries(r.finance_lenders)[0]]);
  const rates = (e) => e.interestRate != null && e.comparisonRate != null;
  const notExcluded = (c) => !/^suzuki$/i.test(c.make.trim());
  const find = (what, pred) => {
    const hit = single.find(([r, c, key, e]) => pred(r, c, key, e));
    return need(hit, `a car for the finance case "${what}" (scripts/demo-stock/generate.mjs financeCoverage)`);
  };
  const fixed = (n) => `${Number(n).toFixed(2)}% p.a.`;
  const money = (n) => `$${Math.round(n).toLocaleString('en-AU')}`;
  const panel = (p) => p.locator('.finance-panel:not(.finance-panel--quote)');

  const SHOWN = [
    ['Manual: price above 500, in stock, weekly payment', (r, c, k, e) => k === 'Manual' && c.in_stock && c.price > 500 && e.paymentWeek > 0 && rates(e) && notExcluded(c), 'week'],
    ['Taurus: newer than 12 years, price above 500, in stock', (r, c, k, e) => k === 'Taurus' && c.year > year - 12 && c.in_stock && c.price > 500 && rates(e) && notExcluded(c), 'any'],
    ['360 Finance: in stock, no price needed', (r, c, k, e) => k === '360 Finance' && c.in_stock && !(c.price > 500) && rates(e) && notExcluded(c), 'any'],
    ['AusLoans: in stock', (r, c, k, e) => k === 'AusLoans' && c.in_stock && rates(e) && notExcluded(c), 'any'],
    ['Angle: price above 500, in stock, weekly payment', (r, c, k, e) => k === 'Angle' && c.in_stock && c.price > 500 && e.paymentWeek > 0 && rates(e) && notExcluded(c), 'week'],
    ['Powertorque: price above 500, in stock, weekly payment', (r, c, k, e) => k === 'Powertorque' && c.in_stock && c.price > 500 && e.paymentWeek > 0 && rates(e) && notExcluded(c), 'week'],
    ['Nissan Finance: price above 500, in stock, monthly payment', (r, c, k, e) => k === 'Nissan Finance' && c.in_stock && c.price > 500 && e.paymentMonth > 0 && rates(e) && notExcluded(c), 'month'],
    ['Car Clarity (default: as Manual)', (r, c, k, e) => k === 'Car Clarity' && c.in_stock && c.price > 500 && e.paymentWeek > 0 && rates(e) && notExcluded(c), 'week'],
  ];
  const HIDDEN = [
    ['Manual without a weekly payment', (r, c, k, e) => k === 'Manual' && c.in_stock && c.price > 500 && !(e.paymentWeek > 0) && rates(e) && notExcluded(c)],
    ['Taurus 12 years old or more', (r, c, k, e) => k === 'Taurus' && c.year <= year - 12 && c.in_stock && c.price > 500 && rates(e) && notExcluded(c)],
    ['Powertorque without a weekly payment', (r, c, k, e) => k === 'Powertorque' && c.in_stock && c.price > 500 && !(e.paymentWeek > 0) && rates(e)],
    ['Nissan Finance without a monthly payment', (r, c, k, e) => k === 'Nissan Finance' && c.in_stock && c.price > 500 && !(e.paymentMonth > 0) && rates(e)],
    ['comparison rate null', (r, c, k, e) => c.in_stock && c.price > 500 && e.interestRate != null && e.comparisonRate == null && notExcluded(c)],
    ['interest rate null', (r, c, k, e) => c.in_stock && c.price > 500 && e.interestRate == null && notExcluded(c)],
  ];

  await test('finance shows per lender rules: each provider with its figures from the lender entry', async () => {
    for (const [what, pred, per] of SHOWN) {
      const [, car, key, entry] = find(what, pred);
      await page.goto(`${origin}/cars/${car.slug}/`);
      const p = panel(page);
      await p.waitFor();
      assertEqual(await p.locator('[data-finance="comparison"]').innerText(), fixed(entry.comparisonRate), `${what} (${car.slug}): comparison rate`);
      assertEqual(await p.locator('[data-finance="rate"]').innerText(), fixed(entry.interestRate), `${what}: interest rate`);
      const amount = key === 'Nissan Finance' ? entry.paymentMonth : entry.paymentWeek > 0 ? entry.paymentWeek : entry.paymentMonth;
      const unit = key === 'Nissan Finance' ? 'month' : entry.paymentWeek > 0 ? 'week' : 'month';
      if (per !== 'any') assertEqual(unit, per, `${what}: the figure shown`);
      if (amount > 0) {
        assertEqual(await p.locator('[data-finance="repayment"]').innerText(), money(amount), `${what}: repayment (whole dollars)`);
        assert((await p.innerText()).includes(`per ${unit}*`), `${what}: "per ${unit}*"`);
      } else {
        assertEqual(await p.locator('[data-finance="repayment"]').count(), 0, `${what}: no repayment without a payment`);
      }
      if (entry.establishmentFees) assert((await p.innerText()).includes(`establishment fee ${money(entry.establishmentFees)}`), `${what}: the fee`);
      assertEqual(await page.locator('.finance-panel--quote').count(), 0, `${what}: no quote beside lender figures`);
    }
  });

  await test('finance is hidden per lender rules, and a priced car without lender figures asks for a quote', async () => {
    for (const [what, pred] of HIDDEN) {
      const [, car] = find(what, pred);
      const before = quoteRequests.length;
      await page.goto(`${origin}/cars/${car.slug}/`);
      await page.locator('h1').waitFor();
      assertEqual(await panel(page).count(), 0, `${what} (${car.slug}): finance panel`);
      if (car.finance.quote) {
        await page.locator('.finance-panel--quote [data-finance="repayment"]').filter({ hasText: '$123' }).waitFor();
        assertEqual(quoteRequests.length, before + 1, `${what}: quote requests`);
      }
    }
  });

  await test('no finance at all for an excluded make (Suzuki) or a sold car: no panel, quote or calculator', async () => {
    const suzuki = find('Suzuki with a complete lender entry', (r, c, k, e) => !notExcluded(c) && c.in_stock && c.price > 500 && rates(e) && e.paymentWeek > 0);
    const sold = find('a sold car with a lender entry', (r, c, k, e) => !c.in_stock && rates(e));
    for (const [, car] of [suzuki, sold]) {
      const before = quoteRequests.length;
      await page.goto(`${origin}/cars/${car.slug}/`);
      await page.locator('h1').waitFor();
      await page.waitForLoadState('networkidle');
      assertEqual(await page.locator('[data-finance-block], #finance-calculator').count(), 0, `${car.slug}: finance on the page`);
      assertEqual(quoteRequests.length, before, `${car.slug}: quote requests`);
    }
  });

  await test('the finance quote is asked with the car\'s price, year, VIN and NVIC', async () => {
    need(cars.some((c) => c.finance.quote), 'a quote service (finance.quote_provider) and cars asking it');
    const withNvic = need(cars.find((c) => c.finance.quote && c.nvic && c.vin), 'a car asking for a quote, with a VIN and an NVIC');
    const withoutNvic = need(cars.find((c) => c.finance.quote && !c.nvic), 'a car asking for a quote, without an NVIC');
    for (const c of [withNvic, withoutNvic]) {
      const before = quoteRequests.length;
      await page.goto(`${origin}/cars/${c.slug}/`);
      const quote = page.locator('.finance-panel--quote');
      await quote.locator('[data-finance="repayment"]').filter({ hasText: '$123' }).waitFor();
      assertEqual(await quote.locator('[data-finance="comparison"]').innerText(), '9.10% p.a.', 'the service\'s comparison rate');
      assertEqual(quoteRequests.length, before + 1, `quote requests for ${c.slug}`);
      const expected = { purchasePrice: c.price, loanTerm: 5, selfAssessedCreditScore: 'GREAT', year: c.year, vin: c.vin ?? '', nvic: c.nvic ?? '', whoIsHelping: '' };
      assertEqual(JSON.stringify(quoteRequests.at(-1)), JSON.stringify(expected), `quote request for ${c.slug}`);
    }
  });

  // Not cars[0]: site.mjs sizes the JavaScript its own tests load on that page.
  const lenderCar = find('Manual shown (calculator)', (r, c, k, e) => c !== cars[0] && SHOWN[0][1](r, c, k, e))[1];
  const quoteCar = need(cars.find((c) => c !== cars[0] && c.finance.quote && c.finance.calculator), 'a car asking for a quote, with the calculator');
  const pagesSeen = [`/cars/${lenderCar.slug}/`, `/cars/${quoteCar.slug}/`];

  await test('every finance block as rendered: comparison rate at least as large as each figure, with the warning', async () => {
    const p = await context.newPage();
    watch(p);
    try {
      for (const width of [375, 1280]) {
        await p.setViewportSize({ width, height: 900 });
        for (const pagePath of pagesSeen) {
          await p.goto(`${origin}${pagePath}`);
          if (pagePath.includes(quoteCar.slug)) await p.locator('.finance-panel--quote').waitFor();
          await p.locator('#finance-calculator').scrollIntoViewIfNeeded();
          await p.locator('astro-island[component-url*="FinanceCalculator"]:not([ssr])').waitFor({ state: 'attached' });
          const problems = await p.evaluate(liveComplianceProblems, site.finance.comparison_warning);
          assertEqual(problems.join('; '), '', `${width}px ${pagePath}`);
          const blocks = await p.locator('[data-finance-block]').count();
          assert(blocks >= 2, `${pagePath}: ${blocks} finance blocks (panel or quote, and the calculator)`);
        }
      }
    } finally {
      await p.close();
    }
  });

  await test('the calculator hydrates when scrolled to, and computes what the shopper types', async () => {
    const p = await context.newPage();
    watch(p);
    try {
      await p.setViewportSize({ width: 1280, height: 900 });
      const pagePath = `/cars/${lenderCar.slug}/`;
      const scripts = [];
      p.on('request', (req) => req.resourceType() === 'script' && scripts.push(new URL(req.url()).pathname));
      await p.goto(`${origin}${pagePath}`);
      await p.waitForLoadState('networkidle');
      const loaded = () => scripts.some((s) => s.includes('FinanceCalculator'));
      assert(!loaded(), 'the calculator loaded before it was scrolled to');
      const calc = p.locator('#finance-calculator');
      await calc.scrollIntoViewIfNeeded();
      await p.locator('astro-island[component-url*="FinanceCalculator"]:not([ssr])').waitFor({ state: 'attached' });
      assert(loaded(), 'the calculator did not load once visible');
      const field = (label) => calc.getByLabel(label, { exact: true });
      const result = calc.locator('[data-finance="repayment"]');
      const total = calc.locator('dt', { hasText: 'Total repayments' }).locator('xpath=following-sibling::dd');
      // The spec example (rules/vectors/calculator.json): $30,000 over 5 years at 10%.
      await field('Purchase Price').fill('$30,000');
      await field('Deposit or trade-in (optional)').fill('');
      await field('Residual repayment (optional)').fill('');
      await field('Loan term in years').fill('5');
      await field('Interest rate in %').fill('10');
      await result.filter({ hasText: '$147/wk*' }).waitFor();
      assertEqual(await total.innerText(), '$38,220', 'total');
      await field('Repayment frequency').selectOption('fortnight');
      await result.filter({ hasText: '$294/fn*' }).waitFor();
      await field('Repayment frequency').selectOption('month');
      await result.filter({ hasText: '$638/mo*' }).waitFor();
      // Out of range: clamped when the field is left.
      await field('Interest rate in %').fill('40');
      await field('Interest rate in %').press('Tab');
      assertEqual(await field('Interest rate in %').inputValue(), String(site.finance.calculator.max_interest_rate), 'rate clamped');
      // 25 or less: Enquire for Finance, no total.
      await field('Repayment frequency').selectOption('week');
      await field('Interest rate in %').fill('0.5');
      await field('Purchase Price').fill('6000');
      await result.filter({ hasText: 'Enquire for Finance' }).waitFor();
      assertEqual((await total.innerText()).trim(), '', 'total blank at $25 or less');
      // The price help, in red, at the minimum.
      const min = site.finance.calculator.min_price;
      await field('Purchase Price').fill(String(min));
      const said = `Cannot be less than ${min} or more than ${site.finance.calculator.max_price}`;
      // In the repayment's place (no figure beside it), and beside the field (its aria-describedby).
      await result.filter({ hasText: said }).waitFor();
      const help = calc.locator(`#${await field('Purchase Price').getAttribute('aria-describedby')}`);
      await help.filter({ hasText: said }).waitFor();
      const colour = await help.evaluate((el) => getComputedStyle(el).color);
      assert(/^rgb\((1[5-9]\d|2\d\d), \d{1,2}, \d{1,2}\)$/.test(colour), `help colour ${colour} is not red`);
      assertEqual(await field('Purchase Price').getAttribute('aria-invalid'), 'true', 'aria-invalid');
    } finally {
      await p.close();
    }
  });

  await test('the disclaimer shows 197 characters, and the rest with Show More, with JavaScript off', async () => {
    // Not watched: with scripts refused, the islands log their failed loads.
    const p = await context.newPage();
    try {
      await p.route(/\.js(\?|$)/, (route) => route.abort());
      await p.goto(`${origin}/cars/${lenderCar.slug}/`);
      const d = p.locator('#finance-calculator .finance-disclaimer');
      const rest = d.locator('.finance-disclaimer__rest');
      need(await rest.count(), 'a lender disclaimer longer than 197 characters');
      assert(!(await rest.isVisible()), 'the rest shows before Show More');
      const shown = (await d.locator('.finance-disclaimer__text').innerText()).replace(/…$/, '');
      assertEqual([...shown].length, 197, 'characters shown while collapsed');
      const entry = find('Manual shown (calculator)', (r, c) => c === lenderCar)[3];
      assert(entry.disclaimer.trim().startsWith(shown), "the lender's disclaimer");
      await d.getByText('Show More').click();
      await rest.waitFor({ state: 'visible' });
      assertEqual((await d.locator('.finance-disclaimer__text').innerText()).trim(), entry.disclaimer.trim(), 'the whole disclaimer');
      await d.getByText('Show Less').click();
      await rest.waitFor({ state: 'hidden' });
      // The sidebar links to it.
      await panel(p).getByRole('link', { name: 'Finance details and calculator' }).waitFor();
    } finally {
      await p.close();
    }
  });

  await test('Enquire Now carries the car to the finance page, whose form sends a finance lead', async () => {
    need(site.finance.page, 'a finance page (finance.enabled)');
    const p = await context.newPage();
    watch(p);
    try {
      await p.goto(`${origin}/cars/${lenderCar.slug}/`);
      const calc = p.locator('#finance-calculator');
      await calc.scrollIntoViewIfNeeded();
      await p.locator('astro-island[component-url*="FinanceCalculator"]:not([ssr])').waitFor({ state: 'attached' });
      await calc.getByRole('link', { name: 'Enquire Now' }).click();
      await p.waitForURL((u) => u.pathname === site.finance.page && u.hash === '#finance-form');
      const q = new URL(p.url()).searchParams;
      assertEqual(q.get('car_id'), lenderCar.id, 'car_id');
      assertEqual(q.get('car_type'), lenderCar.car_type, 'car_type');
      assertEqual(q.get('preferredDealership'), lenderCar.location.id, 'preferredDealership');
      assertEqual(q.get('vehiclePriceBudget'), String(Math.round(lenderCar.price)), 'vehiclePriceBudget');
      // The finance page's form (the forms' FinanceEnquiry island) names the car and takes the budget.
      await p.getByRole('heading', { level: 1 }).waitFor();
      await p.locator('astro-island[component-url*="FinanceEnquiry"]:not([ssr])').waitFor({ state: 'attached' });
      const form = p.locator('#finance-form');
      await form.getByRole('link', { name: lenderCar.name }).waitFor();
      assertEqual(await form.getByLabel('How much would you like to borrow? (optional)').inputValue(), String(Math.round(lenderCar.price)), 'the budget');
      const before = leads.length;
      await form.getByLabel('Name', { exact: true }).fill('E2E Finance');
      await form.getByLabel('Email', { exact: true }).fill('finance@example.com.au');
      await form.getByLabel('Phone', { exact: true }).fill('0412 345 678');
      await form.getByLabel('Postcode').fill('4006');
      const terms = form.getByRole('checkbox', { name: /terms of use/ });
      if (site.forms.terms_required) await terms.check();
      await form.getByRole('button', { name: 'Send finance enquiry' }).click();
      await p.waitForURL((u) => u.pathname === site.forms.success_path);
      assertEqual(leads.length, before + 1, 'leads sent');
      const lead = leads.at(-1);
      assertEqual(lead.category, 'finance', 'category');
      assertEqual(lead.car_id, lenderCar.id, 'car_id');
      assertEqual(lead.location_id, lenderCar.location.id, 'location_id');
      await p.goto(`${origin}${site.finance.page}`);
      // The page's own calculator (no car) starts from $30,000.
      const own = p.locator('#finance-calculator');
      await own.scrollIntoViewIfNeeded();
      assertEqual(await own.getByLabel('Purchase Price', { exact: true }).inputValue(), '30000', 'finance page amount');
    } finally {
      await p.close();
    }
  });

  await test('axe: no violations in the finance states (panel, quote, calculator typed into, finance page)', async () => {
    const p = await context.newPage();
    watch(p);
    const problems = [];
    try {
      for (const [width, height] of [[390, 844], [1280, 900]]) {
        await p.setViewportSize({ width, height });
        for (const pagePath of [...pagesSeen, site.finance.page]) {
          await p.goto(`${origin}${pagePath}`, { waitUntil: 'load' });
          if (pagePath.includes(quoteCar.slug)) await p.locator('.finance-panel--quote').waitFor();
          const calc = p.locator('#finance-calculator');
          await calc.scrollIntoViewIfNeeded();
          await p.locator('astro-island[component-url*="FinanceCalculator"]:not([ssr])').waitFor({ state: 'attached' });
          await calc.getByLabel('Purchase Price', { exact: true }).fill('500');
          await calc.getByText(/^Cannot be less than/).first().waitFor();
          for (const v of await axeProblems(p)) problems.push(`${width}px ${pagePath}: ${v}`);
        }
      }
    } finally {
      await p.close();
    }
    assertEqual(problems.length, 0, `violations:\n${problems.slice(0, 8).join('\n')}`);
  });
}
