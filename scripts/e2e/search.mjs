#!/usr/bin/env node
/**
 * End-to-end test of the search that understands shoppers on
 * one built dealer site in headless Chromium.
 *
 *   node scripts/e2e/search.mjs [sites/<slug>/dist]   (default: sites/brisbane-motor-group/dist)
 *
 * Types misspelt, joined and intent queries into the keyword box, chooses
 * a suggestion and one of the site's search pages (the suggestions' "Search
 * pages" group) with the keyboard, removes an intent chip with the
 * keyboard, follows "did you mean", uses the dealer's own synonym, ticks a
 * folded facet, moves a narrow-span price slider with the arrow keys,
 * applies the dealer filter link, and uses favourites and compare through
 * to /favourites/ and a shared /compare/ address; offers the dealer's popular
 * searches (a stand-in answers GET /api/search/popular) on focus and reports
 * the search chosen; axe runs on the search
 * page with the suggestions open and on the compare and favourites pages.
 * Expected figures come from the site's generated data (cars.json,
 * site.json); a case the demo lacks fails ("case missing from the demo
 * data"), it never passes untested. The browser's clock is the instant
 * the stock was judged at; nothing leaves 127.0.0.1.
 * A node:test suite (scripts/e2e/common.mjs createRunner): run it with
 * `node --test-reporter=spec` for one line per test; exits 1 on a failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { assert, AXE_OPTIONS, assertEqual, createRunner, need, settled, withSites } from './common.mjs';
import { injectAxe } from '../lib/axe.mjs';

const distDir = path.resolve(process.argv[2] ?? 'sites/brisbane-motor-group/dist');

const { test, run } = createRunner();
const count = (n) => new Intl.NumberFormat('en-AU').format(n);

async function main() {
  await withSites([distDir], { name: 'e2e-search' }, async ({ site, cars, origin, context, page }) => {
    const outside = [];
    const consoleErrors = [];
    // The edge's calls, answered as site.mjs answers them (a signed-out visit;
    // scripts/e2e/fullstack.mjs runs them against the worker). The popular
    // searches stand in for GET /api/search/popular (edge/tests/search.test.mjs
    // tests the real route): two the demo stock has, one it has not.
    const popularAnswer = { queries: ['kia sorento', 'ford transit', 'qwxzv'], days: 30 };
    let popularAsked = 0;
    const reports = [];
    // Resolved by the next search report the page sends (a request, not a timer, ends the wait).
    let nextReport = null;
    const reported = () => new Promise((done) => (nextReport = done));
    await context.route(/\/api\//, (route) => {
      const url = route.request().url();
      if (url.includes('/api/events')) return route.fulfill({ status: 204 });
      if (url.includes('/api/search/popular')) {
        popularAsked++;
        return route.fulfill({ status: 200, contentType: 'application/json', headers: { 'cache-control': 'public, max-age=900' }, body: JSON.stringify(popularAnswer) });
      }
      if (url.includes('/api/search/queries')) {
        reports.push(JSON.parse(route.request().postData() ?? 'null'));
        nextReport?.();
        return route.fulfill({ status: 202, contentType: 'application/json', body: JSON.stringify({ recorded: true }) });
      }
      const body = url.includes('/api/auth/me')
        ? { signed_in: false }
        : url.includes('/api/youx/quote')
          ? { weeklyRepaymentAmount: 123, comparisonRate: 9.1, advertisedRate: 8.5, source: 'indicative' }
          : { views: 12 };
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    });
    const watch = (p) => {
      p.on('request', (req) => {
        const url = new URL(req.url());
        if (['http:', 'https:'].includes(url.protocol) && url.hostname !== '127.0.0.1') outside.push(req.url());
      });
      p.on('console', (msg) => msg.type() === 'error' && consoleErrors.push(`${p.url()}: ${msg.text()}`));
      p.on('pageerror', (err) => consoleErrors.push(`${p.url()}: ${err.message}`));
    };
    watch(page);

    const hydrated = (p) => p.locator('astro-island[component-url*="SearchApp"]:not([ssr])').waitFor({ state: 'attached' });
    const resultCount = (p, n) => p.locator('[data-testid="result-count"]').filter({ hasText: new RegExp(`^${count(n)}$`) }).first().waitFor();
    const box = (p) => p.getByRole('combobox', { name: 'Keyword' });
    const cardTitles = (p) => p.locator('article.car-card h2').allInnerTexts();
    async function freshSearch(p = page) {
      await p.goto(`${origin}/search/`);
      await hydrated(p);
    }
    /** Types into the keyword box as a shopper does, then presses Enter (search now). */
    async function typeQuery(p, text) {
      await box(p).click();
      await box(p).fill('');
      await box(p).pressSequentially(text, { delay: 20 });
      await box(p).press('Enter');
    }
    const carsOf = (f) => cars.filter(f);
    const byMake = (m) => carsOf((c) => c.make === m);

    await test('a misspelt make typed in the box finds that make ("hyundia" → Hyundai)', async () => {
      const hyundai = need(byMake('Hyundai').length, 'Hyundai cars');
      await freshSearch();
      await typeQuery(page, 'hyundia');
      await page.waitForURL((u) => u.searchParams.get('query') === 'hyundia');
      await resultCount(page, hyundai);
      const titles = await cardTitles(page);
      assert(titles.length > 0 && titles.every((t) => t.includes('Hyundai')), `cards: ${titles.slice(0, 3).join('; ')}`);
    });

    await test('joined and split model names meet ("bt50", "land cruiser")', async () => {
      const bt50 = need(carsOf((c) => c.model === 'BT-50').length, 'Mazda BT-50s');
      await typeQuery(page, 'bt50');
      await resultCount(page, bt50);
      const lc = need(carsOf((c) => /^LandCruiser/.test(c.model)).length, 'Toyota LandCruisers');
      await typeQuery(page, 'land cruiser');
      await resultCount(page, lc);
    });

    await test('an intent query becomes a chip and a range that leaves out cars without a price; the chip is removed with the keyboard', async () => {
      const kias = byMake('Kia');
      const cheap = kias.filter((c) => c.price > 0 && Math.round(c.price) <= 40000).length;
      need(cheap > 0 && cheap < kias.length, 'Kias on both sides of $40,000');
      await freshSearch();
      await typeQuery(page, 'kia under 40k');
      await page.waitForURL((u) => decodeURIComponent(u.search).includes('range[price]=:40000'));
      assertEqual(new URL(page.url()).searchParams.get('query'), 'kia', 'the query keeps its words');
      assertEqual(await box(page).inputValue(), 'kia', 'the box keeps the words');
      // A price of 0 is no price, not a cheap car: a budget lists priced cars only (docs/behaviour/search.md §5).
      const expected = kias.filter((c) => c.price > 0 && Math.round(c.price) <= 40000).length;
      need(kias.some((c) => !(c.price > 0)), 'a Kia without a price (left out of the budget)');
      await resultCount(page, expected);
      const chip = page.getByRole('list', { name: 'Active filters' }).getByRole('button', { name: 'Remove Price: up to $40,000' });
      await chip.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => !decodeURIComponent(u.search).includes('range[price]'));
      await resultCount(page, kias.length);
      assertEqual(await page.evaluate(() => document.activeElement?.id), 'search-results', 'focus after the last chip');
    });

    await test('words a shopper says become chips: a colour family ("white ute"), a spoken budget ("hatch under 25 grand") and "cheap", each removable', async () => {
      // The colour family of each car, as the build gave it (the index's colour_family).
      const index = JSON.parse(fs.readFileSync(path.join(distDir, '..', 'src', 'data', 'search-index.json'), 'utf8'));
      const fam = index.text.colour_family;
      const familyOf = new Map(index.strings.slug.map((slug, i) => [slug, fam.codes[i] >= 0 ? fam.values[fam.codes[i]] : '']));
      const whiteUtes = need(carsOf((c) => c.body === 'Ute' && familyOf.get(c.slug) === 'White').length, 'white utes');
      need(carsOf((c) => c.body === 'Ute' && familyOf.get(c.slug) !== 'White').length, 'utes of other colours');
      need(new Set(carsOf((c) => familyOf.get(c.slug) === 'White').map((c) => c.colour)).size > 1, 'white cars under several maker names');
      await freshSearch();
      await typeQuery(page, 'white ute');
      await page.waitForURL((u) => decodeURIComponent(u.search).includes('refinementList[colour_family][0]=White'));
      assertEqual(await box(page).inputValue(), 'ute', 'the box keeps the words');
      await resultCount(page, whiteUtes);
      const chips = page.getByRole('list', { name: 'Active filters' });
      await chips.getByRole('button', { name: 'Remove Colour: White' }).waitFor();
      // The Colour filter lists the families.
      const shown = await page.locator('#select-colour_family').evaluate((el) => el.selectedOptions[0]?.textContent ?? '');
      assert(shown.startsWith(`White (${whiteUtes})`), `the Colour filter shows the family: ${shown}`);

      const hatches = need(carsOf((c) => c.body === 'Hatch' && c.price > 0 && Math.round(c.price) <= 25000).length, 'hatches up to $25,000');
      await freshSearch();
      await typeQuery(page, 'hatch under 25 grand');
      await page.waitForURL((u) => decodeURIComponent(u.search).includes('range[price]=:25000'));
      await resultCount(page, hatches);
      const budget = chips.getByRole('button', { name: 'Remove Price: up to $25,000' });
      await budget.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => !decodeURIComponent(u.search).includes('range[price]'));

      // "cheap": a price limit from the matching cars, and the results say what it means.
      await freshSearch();
      await typeQuery(page, 'cheap hatch');
      // The whole query's limit: typed a letter at a time, "cheap" alone gives one over every car first.
      await page.waitForURL((u) => {
        const q = decodeURIComponent(u.search);
        return q.includes('range[price]=:') && /query=[^&]*\bhatch\b/i.test(q);
      });
      await page.getByTestId('query-notes').filter({ hasText: 'the lower-priced quarter of what matches' }).waitFor();
      const limit = Number(new URL(page.url()).searchParams.get('range[price]')?.split(':')[1]);
      const priced = carsOf((c) => c.body === 'Hatch' && c.price > 0).map((c) => Math.round(c.price)).sort((a, b) => a - b);
      assertEqual(limit, priced[Math.min(priced.length, Math.max(Math.ceil(priced.length / 4), 5)) - 1], 'the limit: the lower quarter of the hatches, at least five');
      await chips.getByRole('button', { name: new RegExp(`^Remove Price: up to \\$${count(limit)}$`) }).waitFor();
    });

    await test('a suggestion is chosen with the keyboard (ARIA combobox)', async () => {
      await freshSearch();
      await box(page).click();
      await box(page).pressSequentially('maz', { delay: 30 });
      const list = page.getByRole('listbox', { name: 'Suggestions' });
      await list.waitFor();
      assertEqual(await box(page).getAttribute('aria-expanded'), 'true', 'aria-expanded');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const active = list.getByRole('option', { selected: true });
      const label = (await active.locator('span').first().innerText()).trim();
      assertEqual(await box(page).getAttribute('aria-activedescendant'), await active.getAttribute('id'), 'aria-activedescendant');
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.searchParams.get('query') === label);
      assertEqual(await box(page).inputValue(), label, 'box value');
      const [make, ...model] = label.split(' ');
      const want = carsOf((c) => c.make === make && (!model.length || c.model === model.join(' '))).length;
      await resultCount(page, need(want, `cars of the suggestion ${label}`));
    });

    await test('a search page among the suggestions is chosen with the keyboard and opens that page', async () => {
      const usedPage = need(site.search.landing_pages.find((l) => l.path === 'used-cars'), 'the used cars page');
      const used = need(carsOf((c) => c.car_type === 'used').length, 'used cars');
      assertEqual(usedPage.count, used, 'the page lists the used cars');
      await freshSearch();
      await box(page).click();
      await box(page).pressSequentially('used', { delay: 30 });
      const group = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('group', { name: 'Search pages' });
      const option = group.getByRole('option').filter({ has: page.locator('span', { hasText: /^Used cars$/ }) });
      await option.waitFor();
      const id = await option.getAttribute('id');
      // Down through the keyword suggestions into the group until the page is highlighted.
      for (let i = 0; i < 12 && (await box(page).getAttribute('aria-activedescendant')) !== id; i++) await page.keyboard.press('ArrowDown');
      assertEqual(await box(page).getAttribute('aria-activedescendant'), id, 'the page highlighted');
      assertEqual(await option.getAttribute('aria-selected'), 'true', 'aria-selected');
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === '/search/used-cars/');
      await hydrated(page);
      await page.getByRole('heading', { level: 1, name: usedPage.title }).waitFor();
      await resultCount(page, used);
    });

    await test('axe finds no violations on the search page with the suggestions open (phone and desktop)', async () => {
      const problems = [];
      for (const [width, height] of [[390, 844], [1280, 900]]) {
        await page.setViewportSize({ width, height });
        await freshSearch();
        if (width < 768) await page.getByRole('button', { name: 'Filter results' }).click();
        await box(page).click();
        await box(page).pressSequentially('toy', { delay: 30 });
        await page.getByRole('listbox', { name: 'Suggestions' }).waitFor();
        await page.keyboard.press('ArrowDown');
        await injectAxe(page);
        const violations = await page.evaluate((options) => globalThis.axe.run(options).then((r) => r.violations), AXE_OPTIONS);
        for (const v of violations) problems.push(`${width}px: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(' ')}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      assertEqual(problems.length, 0, `violations:\n${problems.slice(0, 8).join('\n')}`);
    });

    await test('popular searches: asked for on focus only, shown in the empty box (only those the stock has), chosen with the keyboard, reported; axe-clean', async () => {
      need(carsOf((c) => c.make === 'Kia' && c.model === 'Sorento').length, 'Kia Sorentos');
      need(carsOf((c) => c.make === 'Ford' && c.model === 'Transit').length, 'Ford Transits');
      await freshSearch();
      popularAsked = 0;
      reports.length = 0;
      await settled(page);
      assertEqual(popularAsked, 0, 'not asked for on page load');
      await box(page).focus();
      const group = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('group', { name: 'Popular searches' });
      await group.waitFor();
      assertEqual(await box(page).getAttribute('aria-expanded'), 'true', 'aria-expanded');
      const options = await group.getByRole('option').allInnerTexts();
      assertEqual(options.length, 2, `options: ${options.join('; ')}`);
      assert(/^kia sorento/.test(options[0]) && /^ford transit/.test(options[1]), `options: ${options.join('; ')}`);
      await injectAxe(page);
      const violations = await page.evaluate((options) => globalThis.axe.run(options).then((r) => r.violations), AXE_OPTIONS);
      assertEqual(violations.length, 0, `violations: ${violations.map((v) => `${v.id} ${v.nodes[0]?.target.join(' ')}`).join('; ')}`);
      await page.keyboard.press('ArrowDown');
      const active = group.getByRole('option', { selected: true });
      assertEqual(await box(page).getAttribute('aria-activedescendant'), await active.getAttribute('id'), 'aria-activedescendant');
      const report = reported();
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.searchParams.get('query') === 'kia sorento');
      const shown = Number(options[0].match(/\(([\d,]+)/)[1].replace(/,/g, ''));
      await resultCount(page, shown);
      await report;
      await settled(page);
      assertEqual(JSON.stringify(reports), JSON.stringify([{ query: 'kia sorento', hits: shown }]), 'the chosen search is reported once, with its count');
      // Typing narrows them to those that fit.
      await box(page).fill('');
      await box(page).pressSequentially('ford tr', { delay: 20 });
      await page.getByRole('option', { name: /^ford transit/ }).waitFor();
      assertEqual(popularAsked, 1, 'asked for once per visit');
    });

    await test('a query that matches nothing offers "did you mean", which finds the cars', async () => {
      const hilux = need(carsOf((c) => c.model === 'HiLux').length, 'Toyota HiLuxes');
      await freshSearch();
      await typeQuery(page, 'hilluxx');
      const notes = page.getByTestId('query-notes');
      await notes.getByText('No match for ‘hilluxx’.').waitFor();
      await notes.getByRole('button', { name: 'hilux' }).click();
      await page.waitForURL((u) => u.searchParams.get('query') === 'hilux');
      await resultCount(page, hilux);
    });

    await test("the dealer's own synonym (search.synonyms: wagon = suv) widens the keyword: here \"suv\" also finds the wagons", async () => {
      const groups = site.search.synonyms ?? [];
      need(groups.some((g) => g.includes('wagon') && g.includes('suv')), 'a dealer synonym group [wagon, suv] (search.synonyms)');
      const wagonsAndSuvs = carsOf((c) => c.body === 'Wagon' || c.body === 'SUV').length;
      need(carsOf((c) => c.body === 'Wagon').length, 'wagons');
      await freshSearch();
      // The built-in table has "wagon" find SUVs (one way); "suv" finds wagons only through the dealer's group.
      await typeQuery(page, 'suv');
      await resultCount(page, wagonsAndSuvs);
    });

    await test('a folded facet of docs/behaviour/search.md (features) opens with the keyboard and filters', async () => {
      const feature = need(
        Object.entries(cars.flatMap((c) => c.filtered_features ?? []).reduce((m, f) => ((m[f] = (m[f] ?? 0) + 1), m), {})).find(([, n]) => n > 0 && n < cars.length),
        'a feature some cars have (filtered_features)',
      );
      await freshSearch();
      const folded = page.locator('details[data-attr="filtered_features"]');
      await folded.locator('summary').focus();
      await page.keyboard.press('Enter');
      const box = folded.getByRole('checkbox', { name: new RegExp(`^${feature[0].replace(/[()]/g, '\\$&')} \\(`) });
      await box.focus();
      await page.keyboard.press('Space');
      await resultCount(page, feature[1]);
    });

    await test('a narrow-span price slider moves with the arrow keys (a landing page whose prices span under $50,000)', async () => {
      const landing = need(
        site.search.landing_pages.find((l) => {
          const list = cars.filter((c) => Object.entries(l.refinements).every(([k, v]) => v.includes(k === 'car_type' ? c.car_type : c[k])));
          const prices = list.map((c) => Math.round(c.price)).filter((p) => p > 0);
          const span = Math.max(...prices) - Math.min(...prices);
          return prices.length >= 3 && span >= 3000 && span < 50000 && l.path.includes('/');
        }),
        'a make/model landing page with three or more priced cars spanning under $50,000',
      );
      await page.goto(`${origin}/search/${landing.path}/`);
      await hydrated(page);
      const slider = page.getByRole('slider', { name: 'Minimum price' });
      const before = Number(await slider.inputValue());
      await slider.focus();
      await page.keyboard.press('ArrowRight');
      assert(Number(await slider.inputValue()) > before, `the thumb did not move from ${before}`);
      await page.waitForURL((u) => decodeURIComponent(u.search).includes('range[price]='), { timeout: 5000 });
      const min = Number((new URL(page.url()).searchParams.get('range[price]') ?? '').split(':')[0]);
      assert(min > before && min % 1000 === 0, `range min ${min}`);
    });

    await test('the dealer filter link refinementList[dealership_slug][0]=… is applied', async () => {
      await page.goto(`${origin}/search/?refinementList[dealership_slug][0]=${site.slug}`);
      await hydrated(page);
      await resultCount(page, cars.length);
      await page.goto(`${origin}/search/?refinementList[dealership_slug][0]=another-dealer`);
      await hydrated(page);
      await page.getByText('No cars match these filters.').waitFor();
    });

    await test('favourites: a card\'s Favourite lists the car on /favourites/ with its price; the car page knows it', async () => {
      need(site.features.favourites, 'favourites on (features.favourites)');
      await page.evaluate(() => localStorage.clear());
      await freshSearch();
      const card = page.locator('article.car-card').first();
      const name = (await card.locator('h2').innerText()).trim();
      await card.getByRole('button', { name: /^Favourite/ }).click();
      await page.getByRole('link', { name: 'Favourites (1)' }).click();
      await page.waitForURL(`${origin}/favourites/`);
      await page.getByRole('heading', { name: '1 favourite' }).waitFor();
      const first = cars.find((c) => name === `${c.year} ${c.make} ${c.model}`);
      await page.locator('.saved-list li').first().getByText(need(first, `the car "${name}"`).price_text, { exact: false }).waitFor();
      await page.locator('.saved-list li').first().getByRole('link').click();
      // The car page's toggle is no island: its script marks it once it has read the device's list.
      await page.locator('.favourite[data-wired]').waitFor({ state: 'attached' });
      // One name pressed or not: wait for the state the device's list gives it.
      await page.getByRole('button', { name: /^Favourite/, pressed: true }).waitFor();
    });

    await test('compare: two cards compared side by side at a shareable address', async () => {
      need(site.features.compare, 'compare on (features.compare)');
      await page.evaluate(() => localStorage.clear());
      await freshSearch();
      const cards = page.locator('article.car-card');
      const names = [];
      for (let i = 0; i < 2; i++) {
        names.push((await cards.nth(i).locator('h2').innerText()).trim());
        await cards.nth(i).getByRole('button', { name: /^Compare/ }).click();
      }
      await page.getByRole('link', { name: 'Compare now' }).click();
      await page.waitForURL((u) => u.pathname === '/compare/' && (u.searchParams.get('cars') ?? '').split(',').length === 2);
      const check = async () => {
        await page.getByRole('heading', { name: 'Comparing 2 cars' }).waitFor();
        const heads = page.locator('table.compare-table thead th');
        for (const n of names) await heads.filter({ hasText: n }).first().waitFor();
        await page.locator('table.compare-table tbody tr', { hasText: 'Price' }).first().waitFor();
      };
      await check();
      // Shared: another visitor (no compare list on the device) sees the same cars.
      const shared = page.url();
      await page.evaluate(() => localStorage.clear());
      await page.goto(shared);
      await check();
    });

    await test('compare never scrolls the page sideways on a phone: the table scrolls in its own region (2 and 4 cars, 320 to 1,920 px)', async () => {
      need(site.features.compare, 'compare on (features.compare)');
      // The longest names: the widest headings the table can have.
      const longest = [...cars].filter((c) => c.in_stock && c.images.length > 0).sort((a, b) => b.name.length - a.name.length).slice(0, 4);
      assertEqual(longest.length, 4, 'four cars to compare');
      const wide = [];
      try {
        for (const n of [2, 4]) {
          await page.goto(`${origin}/compare/?cars=${longest.slice(0, n).map((c) => c.slug).join(',')}`);
          await page.getByRole('heading', { name: `Comparing ${n} cars` }).waitFor();
          await page.locator('table.compare-table tbody tr', { hasText: 'Price' }).first().waitFor();
          for (const width of [320, 375, 768, 1280, 1920]) {
            await page.setViewportSize({ width, height: 800 });
            const { page: pageWidth, region, table } = await page.evaluate(() => ({
              page: document.documentElement.scrollWidth,
              region: document.querySelector('.compare-table-wrap').clientWidth,
              table: document.querySelector('table.compare-table').scrollWidth,
            }));
            if (pageWidth > width) wide.push(`${n} cars at ${width} px: the page is ${pageWidth} px wide`);
            if (region > width) wide.push(`${n} cars at ${width} px: the table's region is ${region} px wide`);
            // Wider than its region, the table scrolls inside it: the region is focusable and named for that.
            if (table > region) assertEqual(await page.locator('.compare-table-wrap').getAttribute('tabindex'), '0', 'the scrolling region takes focus');
          }
        }
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      assertEqual(wide.length, 0, wide.join('\n'));
    });

    await test('axe finds no violations on /compare/ and /favourites/', async () => {
      const problems = [];
      for (const p of ['/compare/', '/favourites/']) {
        await page.goto(`${origin}${p}`, { waitUntil: 'load' });
        await injectAxe(page);
        const violations = await page.evaluate((options) => globalThis.axe.run(options).then((r) => r.violations), AXE_OPTIONS);
        for (const v of violations) problems.push(`${p}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(' ')}`);
      }
      assertEqual(problems.length, 0, `violations:\n${problems.slice(0, 8).join('\n')}`);
    });

    await test("a phone's search cards load photos their slot needs (Lighthouse's phone: 412 px at 1.75): the srcset's 800, not 960", async () => {
      const widths = site.images.srcset_widths;
      need(widths.includes(800) && widths.includes(960), 'srcset widths with 800 and 960 (images.srcset_widths)');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const ctx = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, serviceWorkers: 'block' });
        const p = await ctx.newPage();
        await p.goto(`${origin}/search/`, { waitUntil: 'load' });
        const first = p.locator('article.car-card img').first();
        await first.evaluate((img) => (img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true }))));
        const { src, slot } = await first.evaluate((img) => ({ src: img.currentSrc, slot: img.getBoundingClientRect().width }));
        const picked = Number(/-(\d+)\.[a-z]+$/.exec(src)?.[1]);
        assertEqual(picked, 800, `the first card's photo at 412 px, 1.75 device pixels (slot ${slot} px): ${src}`);
      } finally {
        await browser.close();
      }
    });

    await test("with JavaScript off, under the site's real _headers: a ?query= in the address says it was not applied, and the policy refuses nothing", async () => {
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const ctx = await browser.newContext({ javaScriptEnabled: false, serviceWorkers: 'block' });
        const p = await ctx.newPage();
        const refused = [];
        p.on('console', (m) => {
          if (/Content Security Policy/i.test(m.text())) refused.push(m.text().slice(0, 160));
        });
        const res = await p.goto(`${origin}/search/?query=corolla`, { waitUntil: 'load' });
        assert(/style-src /.test(res.headers()['content-security-policy'] ?? ''), 'the search page was served without its Content-Security-Policy (_headers)');
        await p.getByRole('note').filter({ hasText: 'Keyword search and the filters need JavaScript' }).waitFor();
        assertEqual(refused.join('\n'), '', 'CSP refusals');
        // Every make one link away (the make filter needs the island): each link is the make's own page.
        const makes = [...new Set(cars.filter((c) => c.status !== 'sold').map((c) => c.make))];
        const byName = p.getByRole('navigation', { name: 'Browse by make' });
        const links = await byName.getByRole('link').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
        assert(links.length >= makes.length, `${links.length} make links for ${makes.length} makes in stock`);
        const [label, href] = links.find(([m]) => m === makes[0]) ?? [];
        assert(href, `no link for ${makes[0]}`);
        await byName.getByRole('link', { name: label, exact: true }).click();
        await p.waitForURL(`${origin}${href}`);
        await p.getByRole('heading', { level: 1, name: `${label} cars for sale` }).waitFor();
      } finally {
        await browser.close();
      }
    });

    await test("a make's page: the HTML counts only its own make; the island counts the other makes once it has the index, moving nothing in the make filter", async () => {
      const make = need(
        site.search.landing_pages.find((l) => Object.keys(l.refinements).length === 1 && l.refinements.make?.length === 1 && byMake(l.refinements.make[0]).length < cars.length / 2),
        "a make's landing page",
      );
      const name = make.refinements.make[0];
      const html = await (await fetch(`${origin}/search/${make.path}/`)).text();
      const pending = (html.match(/facet__count--pending/g) ?? []).length;
      assert(pending >= 1, `no other make without its count in the HTML of /search/${make.path}/`);
      const p = await context.newPage();
      try {
        await p.setViewportSize({ width: 1280, height: 900 });
        // Layout shifts inside the make filter, from the first paint on.
        await p.addInitScript(() => {
          window.__makeShifts = [];
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) for (const src of e.sources ?? []) if (src.node?.closest?.('.facet--makes')) window.__makeShifts.push(e.value);
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await p.goto(`${origin}/search/${make.path}/`);
        await hydrated(p);
        await p.locator('.facet--makes .facet__count--pending').first().waitFor({ state: 'detached' });
        const counts = await p.locator('.facet--makes .make-card__label').evaluateAll((ls) => ls.map((l) => [l.querySelector('span')?.textContent, l.querySelector('.facet__count')?.textContent]));
        const other = counts.find(([m]) => m !== name);
        assert(other, `the make filter of /search/${make.path}/ lists only ${name}`);
        const stocked = byMake(other[0]).filter((c) => c.status !== 'sold').length;
        assert(/^\(\d+\)$/.test(other[1] ?? '') && Number(other[1].slice(1, -1)) > 0, `${other[0]}'s count after hydration: ${other[1]} (${stocked} in stock)`);
        const shifts = await p.evaluate(() => window.__makeShifts);
        assertEqual(shifts.length, 0, `layout shifts in the make filter (${shifts.join(', ')})`);
      } finally {
        await p.close();
      }
    });

    await test('with JavaScript off, a landing page pages at its own addresses: page 2 of used cars lists used cars', async () => {
      const used = need(site.search.landing_pages.find((l) => l.path === 'used-cars'), 'the used cars page');
      const pages = Math.ceil(used.count / site.search.page_size);
      assert(pages >= 2, `the demo dealer's used cars fit one page (${used.count} at ${site.search.page_size}): the case needs two`);
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const ctx = await browser.newContext({ javaScriptEnabled: false, serviceWorkers: 'block' });
        const p = await ctx.newPage();
        await p.goto(`${origin}/search/used-cars/`, { waitUntil: 'load' });
        const nav = p.getByRole('navigation', { name: 'Pages' });
        const link = nav.getByRole('link', { name: 'Page 2', exact: true });
        assertEqual(await link.getAttribute('href'), '/search/used-cars/page/2/', 'the page 2 link');
        await link.click();
        await p.waitForURL(`${origin}/search/used-cars/page/2/`);
        await p.getByRole('heading', { level: 1, name: used.title }).waitFor();
        assert((await p.title()).startsWith(`${used.title} – page 2 |`), `the title of page 2: ${await p.title()}`);
        assertEqual((await nav.locator('[aria-current="page"]').textContent()).replace(/\s+/g, ' ').trim(), 'Page 2', 'the current page');
        // Every card on it is a used car, and none of page 1's.
        const ids = async () => p.locator('article.car-card a[href^="/cars/"]').evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute('href')).filter((h) => /^\/cars\/[^/]+\/$/.test(h)))]);
        const second = await ids();
        const expected = Math.min(site.search.page_size, used.count - site.search.page_size);
        assertEqual(second.length, expected, 'cars on page 2');
        const bySlug = new Map(cars.map((c) => [`/cars/${c.slug}/`, c]));
        const notUsed = second.filter((h) => bySlug.get(h)?.car_type !== 'used');
        assertEqual(notUsed.join(', '), '', 'cars on page 2 that are not used cars');
        assertEqual(await nav.getByRole('link', { name: 'Page 1', exact: true }).getAttribute('href'), '/search/used-cars/', 'the page 1 link');
        await p.goto(`${origin}/search/used-cars/`, { waitUntil: 'load' });
        const first = await ids();
        assertEqual(first.filter((h) => second.includes(h)).join(', '), '', 'cars on both pages');
      } finally {
        await browser.close();
      }
    });

    await test('no request leaves 127.0.0.1 and no console errors', async () => {
      assertEqual(outside.length, 0, `requests to other hosts (${[...new Set(outside)].slice(0, 5).join(', ')})`);
      assertEqual(consoleErrors.length, 0, `console errors (${consoleErrors.slice(0, 5).join(' | ')})`);
    });
  });
}

await run(main);
