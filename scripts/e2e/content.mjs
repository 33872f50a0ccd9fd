#!/usr/bin/env node
/**
 * End-to-end test of a built dealer site's content pages and blocks
 * (docs/behaviour/content.md) in headless Chromium:
 *
 *   node scripts/e2e/content.mjs [sites/<slug>/dist]   (default: sites/brisbane-motor-group/dist)
 *
 * - the popup: rendered closed, not opened by a key or a click, shown once
 *   on scrolling, at most 600 px by 80vh, dismissed by Escape, not shown
 *   again, never after its expiry;
 * - the header: the New Vehicles mega-menu fetched on first open (not on
 *   page load), its categories with mouse and keyboard, the phone menu's
 *   extra links, the Pre-owned dropdown from the stock, hover dropdowns,
 *   the dropdown-open marker;
 * - a location page: open now at the shopper's clock in the location's
 *   time zone, the department selector, a special day in this week's
 *   table, licences, Book a Service, the /locations/ twin's canonical;
 * - offers: the list and its windows (an offer expiring after the build
 *   disappears at view time), View more / less, the disclaimer, Explore
 *   and Book A Test Drive, the offer form island's errors, lead and the
 *   dealer's thank-you in place;
 * - models: groups in the spec's order, Upcoming / All-New, Our Stock;
 * - the home page's blocks: slider windows, reviews over the minimum,
 *   guarantee, sell-your-car, blog, make tiles, location blocks;
 * - axe on every content page type (phone and desktop, the popup and the
 *   mega-menu open), no request off 127.0.0.1, no console error, no 4xx.
 *
 * The browser's clock is the instant the site was built at (site.json
 * built_at), as in the other suites; cases the demo data must hold fail
 * with "case missing from the demo data" when absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { assert, AXE_OPTIONS, assertJsonEqual, builtAt, createRunner, need, popupSeen, withSites } from './common.mjs';
import { injectAxe } from '../lib/axe.mjs';
import { pageOfKind } from '../lib/page-types.mjs';

const distDir = path.resolve(process.argv[2] ?? 'sites/brisbane-motor-group/dist');

const { test, run } = createRunner();
const inWindow = (item, seconds) => (item.starts_at == null || seconds >= item.starts_at) && (item.expires_at == null || seconds <= item.expires_at);

async function main() {
  // The popup's own tests come first, before the popup is marked seen.
  await withSites([distDir], { name: 'content' }, async ({ sites, site, cars, origin, context, page }) => {
    const now = builtAt(site);
    const nowS = site.built_at;

    const outside = [];
    const errors = [];
    const failed = [];
    const requests = [];
    const leads = [];
    await context.route(/\/api\//, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/api/leads') {
        leads.push(JSON.parse(route.request().postData() ?? 'null'));
        return route.fulfill({ status: 201, contentType: 'application/json', body: JSON.stringify({ lead_id: 'content-lead-1' }) });
      }
      const body = url.pathname === '/api/auth/me' ? { signed_in: false } : {};
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    });
    const watch = (p) => {
      p.on('request', (req) => {
        const url = new URL(req.url());
        if (!['http:', 'https:'].includes(url.protocol)) return;
        if (url.hostname !== '127.0.0.1') outside.push(req.url());
        requests.push(url.pathname);
      });
      p.on('response', (res) => {
        if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
      });
      p.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`${p.url()}: ${msg.text()}`);
      });
      p.on('pageerror', (err) => errors.push(`${p.url()}: ${err.message}`));
    };
    watch(page);
    const axe = async (p) => {
      await injectAxe(p);
      const violations = await p.evaluate((options) => globalThis.axe.run(options).then((r) => r.violations), AXE_OPTIONS);
      return violations.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(' ')}`);
    };

    // ------------------------------------------------------------ popup
    const popup = site.content.popup;
    // Scrolls a page down by a screen; resolves once the page has handled the scroll (the popup's listener runs first).
    const scrollDown = (p) =>
      p.evaluate(
        () =>
          new Promise((resolve) => {
            addEventListener('scroll', () => requestAnimationFrame(() => resolve()), { once: true });
            scrollBy(0, innerHeight);
          }),
      );
    await test('the popup: rendered closed, not opened by a key or a click, shown once on scrolling within 600 px by 80vh, Escape dismisses it', async () => {
      need(popup && inWindow(popup, nowS), 'a popup inside its window at the build (popup)');
      const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
      const tag = need(/<dialog[^>]*data-popup[^>]*>/.exec(html)?.[0], 'the popup in the home page');
      assert(!/\sopen[\s>=]/.test(tag), `the popup is rendered open: ${tag}`);
      for (const [width, height] of [[375, 667], [1280, 900]]) {
        await page.evaluate(() => localStorage.clear()).catch(() => {});
        await page.setViewportSize({ width, height });
        await page.goto(`${origin}/`, { waitUntil: 'load' });
        const dialog = page.getByRole('dialog', { name: popup.title });
        // A key or a click is meant for the page (lib/content/popup.ts armPopup): the popup stays closed.
        await page.keyboard.press('Shift');
        await page.mouse.click(1, Math.round(height / 2));
        assert(!(await dialog.isVisible()), `${width}px: the popup opened on a key press or a click`);
        await scrollDown(page);
        await dialog.waitFor();
        const box = await dialog.boundingBox();
        assert(box.width <= 600 && box.height <= height * 0.8 + 1, `${width}px: popup is ${Math.round(box.width)} x ${Math.round(box.height)}`);
        assert(await dialog.evaluate((d) => d.contains(document.activeElement)), `${width}px: focus is not in the popup`);
        if (width === 1280) {
          const problems = await axe(page);
          assertJsonEqual(problems, [], 'axe with the popup open');
        }
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
      }
      await page.reload();
      await scrollDown(page);
      assertJsonEqual(await page.getByRole('dialog').count(), 0, 'popups on the second visit');
    });

    await test('the popup: the close button dismisses it; after its expiry it never shows', async () => {
      need(popup, 'a popup (popup)');
      await page.evaluate(() => localStorage.clear());
      await page.goto(`${origin}/`, { waitUntil: 'load' });
      await scrollDown(page);
      await page.getByRole('dialog', { name: popup.title }).getByRole('button', { name: 'Close' }).click();
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await page.evaluate(() => localStorage.clear());
      await context.clock.setFixedTime(new Date((popup.expires_at + 60) * 1000));
      const later = await context.newPage();
      watch(later);
      await later.goto(`${origin}/`, { waitUntil: 'load' });
      await scrollDown(later);
      assertJsonEqual(await later.getByRole('dialog').count(), 0, 'popups after the expiry');
      await later.close();
      await context.clock.setFixedTime(now);
    });
    // From here on, a shopper who has seen the popup.
    await popupSeen(context, site);

    // ----------------------------------------------------------- header
    const mega = site.navigation.find((n) => n.menu === 'models');
    const bar = () => page.getByRole('navigation', { name: 'Main', exact: true });
    await test('the New Vehicles mega-menu loads its cards on first open, not on page load', async () => {
      need(mega, 'a navigation entry with menu: models');
      requests.length = 0;
      await page.goto(`${origin}/`);
      await page.waitForLoadState('networkidle');
      assert(!requests.includes('/menus/models/'), 'the menu was fetched on page load');
      await bar().locator('summary', { hasText: mega.label }).click();
      const menu = bar().locator('details[data-mega-menu]');
      await menu.locator('.mega__card').first().waitFor();
      assertJsonEqual(requests.filter((r) => r === '/menus/models/').length, 1, 'menu fetches');
      assert(await page.locator('header[data-dropdown-open]').count() === 1, 'the header has no dropdown-open marker');
      const allCards = await menu.locator('[data-mega-panel]:not([hidden]) .mega__card').count();
      assert(allCards > 0 && allCards <= 10, `All Vehicles shows ${allCards} cards`);
      // A category shows only its models.
      const suvs = site.content.models.filter((m) => m.body === 'suvs-4wds');
      need(suvs.length > 0 && suvs.length < site.content.models.length, 'SUV models and others');
      await menu.getByRole('button', { name: 'SUVs & 4WDs' }).click();
      assertJsonEqual(await menu.getByRole('button', { name: 'SUVs & 4WDs' }).getAttribute('aria-pressed'), 'true', 'the pressed category');
      assertJsonEqual(await menu.locator('[data-mega-panel]:not([hidden]) .mega__card').count(), suvs.length, 'SUV cards');
      const problems = await axe(page);
      assertJsonEqual(problems, [], 'axe with the mega-menu open');
      await page.keyboard.press('Escape');
      assert(!(await menu.evaluate((d) => d.open)), 'Escape left the mega-menu open');
      assertJsonEqual(await page.locator('header[data-dropdown-open]').count(), 0, 'the marker after closing');
    });

    await test('the mega-menu with the keyboard: Enter opens it, Tab reaches the categories, Enter picks one, Escape closes', async () => {
      need(mega, 'a navigation entry with menu: models');
      await page.goto(`${origin}/`);
      const summary = bar().locator('summary', { hasText: mega.label });
      await summary.focus();
      await page.keyboard.press('Enter');
      const menu = bar().locator('details[data-mega-menu]');
      await menu.locator('.mega__category').first().waitFor();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.textContent?.trim());
      const second = await menu.locator('.mega__category').nth(1).innerText();
      assertJsonEqual(focused, second, 'second Tab stop');
      await page.keyboard.press('Enter');
      assertJsonEqual(await menu.locator('.mega__category').nth(1).getAttribute('aria-pressed'), 'true', 'Enter picked the category');
      await page.keyboard.press('Escape');
      assertJsonEqual(await page.evaluate(() => document.activeElement?.textContent?.trim()), mega.label, 'focus after Escape');
    });

    await test('on a phone the models menu adds the dealer\'s extra links', async () => {
      need(mega && site.content.model_menu.mobile_links.length > 0, 'model_menu.mobile_links');
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto(`${origin}/`);
      await page.getByText('Menu', { exact: true }).click();
      const menu = page.getByRole('navigation', { name: 'Main menu' });
      await menu.locator('summary', { hasText: mega.label }).click();
      await menu.locator('.mega__card').first().waitFor();
      for (const l of site.content.model_menu.mobile_links) await menu.locator('.nav__mobile-links').getByRole('link', { name: l.label, exact: true }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert(overflow <= 0, `the open menu is ${overflow}px too wide`);
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await test('the Pre-owned dropdown lists used cars by make from the stock (no counts: the header of every page)', async () => {
      const pre = need(site.navigation.find((n) => n.menu === 'pre_owned'), 'a navigation entry with menu: pre_owned');
      const used = cars.filter((c) => c.car_type === 'used');
      need(used.length > 0, 'used cars');
      await page.goto(`${origin}/`);
      await bar().locator('summary', { hasText: pre.label }).click();
      const all = bar().getByRole('link', { name: 'All pre-owned', exact: true });
      await all.waitFor();
      const byMake = used.reduce((m, c) => ((m[c.make] = (m[c.make] ?? 0) + 1), m), {});
      const [topMake, topCount] = Object.entries(byMake).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
      await bar().getByRole('link', { name: `Used ${topMake}`, exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/search/');
      await page.locator('astro-island[component-url*="SearchApp"]:not([ssr])').waitFor({ state: 'attached' });
      await page.locator('[data-testid="result-count"]', { hasText: new RegExp(`^${topCount}$`) }).waitFor();
    });

    await test(`dropdowns open on hover (features.hover_dropdowns: ${site.features.hover_dropdowns})`, async () => {
      need(site.features.hover_dropdowns, 'a dealer with hover_dropdowns');
      const group = need(site.navigation.find((n) => n.children.length > 0 && !n.menu), 'a plain dropdown');
      await page.goto(`${origin}/`);
      const details = bar().locator('details', { has: page.locator('summary', { hasText: group.label }) }).first();
      await bar().locator('summary', { hasText: group.label }).first().hover();
      await page.waitForFunction((el) => el.open, await details.elementHandle());
      await page.mouse.move(640, 800);
      await page.waitForFunction((el) => !el.open, await details.elementHandle());
    });

    // -------------------------------------------------------- locations
    const location = site.locations[0];
    await test('a location page: open now at the shopper\'s clock, the department selector, this week\'s special day, licences, Book a Service', async () => {
      need(location.hours.length > 1, 'a location with two departments');
      const special = need(
        location.special_hours.find((s) => s.department !== 'all' && s.date > new Date(now).toISOString().slice(0, 10) && Date.parse(`${s.date}T00:00:00Z`) - now.getTime() < 6 * 86_400_000),
        'a department\'s special day within the week after the build (locations[0].special_hours)',
      );
      await page.goto(`${origin}/contact-us/${location.slug}/`);
      const status = page.locator('[data-open-status]');
      await status.filter({ hasText: /^(Open now until|Closed now)/ }).waitFor();
      const statusText = await status.innerText();
      // Built on a weekday morning in the dealer's zone: the demo's sales are open.
      assert(/^Open now until /.test(statusText), `status "${statusText}"`);
      const select = page.getByLabel('Show the hours of');
      await select.selectOption(special.department);
      const table = page.locator(`table[data-hours-dept="${special.department}"]`);
      assert(await table.isVisible(), 'the chosen department\'s table is hidden');
      assert(!(await page.locator('table[data-hours-dept="sales"]').isVisible()), 'the sales table still shows');
      await table.locator('tr', { hasText: special.label }).filter({ hasText: special.text }).waitFor();
      await table.locator('tr.hours__today').waitFor();
      for (const l of location.licences) await page.getByText(l).first().waitFor();
      if (location.rating) await page.getByRole('img', { name: `Rated ${location.rating.average_rating.toFixed(1)} out of 5 from ${location.rating.count.toLocaleString('en-AU')} reviews` }).first().waitFor();
      if (location.book_service) assertJsonEqual(await page.getByRole('link', { name: /^Book a Service/ }).getAttribute('href'), location.book_service.href, 'Book a Service');
      const problems = await axe(page);
      assertJsonEqual(problems, [], 'axe on the location page');
    });

    await test('/locations/{slug}/ is the same page, canonical at /contact-us/{slug}/', async () => {
      const res = await page.goto(`${origin}/locations/${location.slug}/`);
      assertJsonEqual(res.status(), 200, 'status');
      await page.getByRole('heading', { level: 1, name: location.name }).waitFor();
      assertJsonEqual(await page.locator('link[rel="canonical"]').getAttribute('href'), `${site.base_url}/contact-us/${location.slug}/`, 'canonical');
      assertJsonEqual((await page.goto(`${origin}/locations/${site.slug}/`)).status(), 200, '/locations/{dealer slug}/');
    });

    await test('location cards follow the dealer\'s show flags; a one-location block is a single card', async () => {
      await page.goto(`${origin}/contact-us/`);
      const cards = page.locator('.location-card');
      assertJsonEqual(await cards.count(), site.locations.length, 'cards');
      const flags = site.content.location_cards;
      // A location's landline beside its phone, on its card and its page (N04).
      const landlined = need(site.locations.find((l) => l.landline), 'a location with a landline');
      const card = cards.filter({ has: page.getByRole('link', { name: `View Details of ${landlined.name}`, exact: true }) });
      const tel = (n) => `tel:${n.replace(/[^\d+]/g, '')}`;
      assertJsonEqual(await card.getByRole('link', { name: landlined.landline, exact: true }).getAttribute('href'), tel(landlined.landline), 'the landline on the card');
      assert((await card.locator('address').innerText()).includes(`Landline ${landlined.landline}`), 'the card says Landline');
      assertJsonEqual((await cards.locator('table.hours__table').count()) > 0, flags.show_hours, 'hours on the cards');
      assertJsonEqual((await cards.locator('.location-card__actions').count()) > 0, flags.show_buttons, 'buttons on the cards');
      await page.goto(`${origin}/`);
      const single = need(site.home.blocks.find((b) => b.kind === 'locations' && b.location_ids.length === 1), 'a home location block of one location');
      const several = need(site.home.blocks.find((b) => b.kind === 'locations' && b.location_ids.length > 1), 'a home location block of several');
      const block = (b) => page.locator('section.locations-block', { has: page.getByRole('heading', { name: b.title, exact: true }) });
      assertJsonEqual(await block(single).locator('.location-card').count(), 1, `cards in "${single.title}"`);
      assertJsonEqual(await block(single).locator('.locations-carousel').count(), 0, `"${single.title}" is a carousel`);
      assertJsonEqual(await block(several).locator('.locations-carousel .location-card').count(), several.location_ids.length, `cards in "${several.title}"`);
      // Each card of the grid: View Details, to the location's page (docs/behaviour/spec-rows.md C39).
      need(flags.show_buttons, 'location cards with their buttons');
      for (const id of several.location_ids) {
        const l = site.locations.find((x) => x.id === id);
        const link = block(several).getByRole('link', { name: `View Details of ${l.name}`, exact: true });
        assertJsonEqual(await link.getAttribute('href'), `/contact-us/${l.slug}/`, `View Details of ${l.name}`);
      }
    });

    // ----------------------------------------------------------- offers
    const offers = site.content.offers.items;
    await test('/special-offers/ shows the offers inside their window at the shopper\'s clock; one that ends later disappears then', async () => {
      const live = offers.filter((o) => inWindow(o, nowS));
      const ending = need(offers.find((o) => o.expires_at && inWindow(o, nowS)), 'an offer ending after the build');
      const future = need(offers.find((o) => o.starts_at && o.starts_at > nowS), 'an offer starting after the build');
      await page.goto(`${origin}/special-offers/`);
      assertJsonEqual(await page.locator('li.offer-card:visible').count(), live.length, 'offers shown');
      assert(!(await page.locator('li.offer-card', { hasText: future.name }).isVisible()), `${future.name} shows before it starts`);
      await context.clock.setFixedTime(new Date((ending.expires_at + 60) * 1000));
      const later = await context.newPage();
      watch(later);
      await later.goto(`${origin}/special-offers/`);
      assert(!(await later.locator('li.offer-card', { hasText: ending.name }).isVisible()), `${ending.name} still shows after its expiry`);
      await later.goto(`${origin}${ending.path}`);
      await later.getByText('This offer is not available right now.').waitFor();
      await later.close();
      await context.clock.setFixedTime(now);
    });

    await test("/special-offers/: the first offer shown is the page's largest paint, loaded at once and first; the others wait to be scrolled to", async () => {
      const shown = offers.filter((o) => o.image && inWindow(o, site.built_at));
      need(shown.length >= 2, 'two offers with images shown at the build');
      await page.setViewportSize({ width: 412, height: 823 });
      try {
        await page.goto(`${origin}/special-offers/`);
        const images = await page.locator('li.offer-card img.offer-card__image').evaluateAll((imgs) => imgs.map((i) => ({ loading: i.getAttribute('loading'), priority: i.getAttribute('fetchpriority') })));
        assertJsonEqual(images[0], { loading: null, priority: 'high' }, 'the first offer image');
        assert(images.slice(1).every((i) => i.loading === 'lazy' && i.priority === null), `the later offer images: ${JSON.stringify(images.slice(1))}`);
        // Lighthouse's reading: the largest paint is that image, and it was not lazy-loaded.
        const lcp = await page.evaluate(
          () =>
            new Promise((resolve) => {
              new PerformanceObserver((list) => {
                const last = list.getEntries().at(-1);
                resolve({ tag: last?.element?.tagName ?? null, lazy: last?.element?.getAttribute('loading') === 'lazy', src: last?.url ?? '' });
              }).observe({ type: 'largest-contentful-paint', buffered: true });
            }),
        );
        assert(lcp.tag === 'IMG' && !lcp.lazy && lcp.src.endsWith(shown[0].image), `the largest paint: ${JSON.stringify(lcp)}`);
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
    });

    await test('an offer page: multi-brand path, View more / less, the full disclaimer, Explore the model', async () => {
      const long = need(offers.find((o) => o.description.length > site.content.offers.collapse_description_over && o.disclaimer.length > site.content.offers.collapse_disclaimer_over && o.explore && inWindow(o, nowS)), 'an offer with a long description, a long disclaimer and a listed model');
      if (!site.manufacturer && long.manufacturer) assert(long.path.split('/').length === 5, `${long.path} has no make segment`);
      const res = await page.goto(`${origin}${long.path}`);
      assertJsonEqual(res.status(), 200, 'status');
      const more = page.locator('summary', { hasText: 'View more' });
      const full = page.locator('.offer-page .collapsible__full').first();
      assert(!(await full.isVisible()), 'the full description shows before View more');
      await more.click();
      await full.waitFor();
      await page.locator('summary', { hasText: 'View less' }).first().waitFor();
      await page.locator('summary', { hasText: 'View full disclaimer' }).click();
      await page.locator('summary', { hasText: 'View less disclaimer' }).waitFor();
      const problems = await axe(page);
      assertJsonEqual(problems, [], 'axe on the offer page');
      await page.getByRole('link', { name: long.explore.label }).first().click();
      await page.waitForURL(`${origin}${long.explore.href}`);
    });

    await test('an offer stating a comparison rate shows the comparison-rate warning; one that states none does not', async () => {
      const states = (o) => /comparison rate/i.test(`${o.description} ${o.disclaimer ?? ''}`);
      const offers = site.content.offers.items;
      const withRate = need(offers.find(states), 'an offer whose text states a comparison rate');
      const without = need(offers.find((o) => !states(o)), 'an offer whose text states no comparison rate');
      for (const [offer, expected] of [[withRate, true], [without, false]]) {
        await page.goto(`${origin}${offer.path}`);
        const warning = page.locator('.offer-page__warning[data-finance="warning"]');
        assertJsonEqual(await warning.count(), expected ? 1 : 0, `warnings on ${offer.path}`);
        if (expected) assert((await warning.innerText()).includes(site.finance.comparison_warning), `the warning text on ${offer.path}`);
      }
    });

    await test('Book A Test Drive on an offer preselects the test drive; the offer form (island) shows errors, posts a test drive lead naming the offer and shows the thank-you in place', async () => {
      const offer = need(offers.find((o) => inWindow(o, nowS)), 'an offer inside its window');
      need(site.content.offers.buttons.includes('test_drive'), 'the test_drive offer button');
      await page.goto(`${origin}/special-offers/`);
      await page.locator('li.offer-card', { hasText: offer.name }).getByRole('link', { name: /^Book A Test Drive/ }).click();
      await page.waitForURL((u) => u.pathname === offer.path && u.search === '?enquiry=test-drive');
      const form = page.locator('#enquire');
      // Hydrated when visible: the island marks its form, then reads ?enquiry=.
      await form.locator('form[data-hydrated="true"]').waitFor();
      await form.getByLabel('Book a test drive').waitFor();
      assert(await form.getByLabel('Book a test drive').isChecked(), 'test drive not preselected');
      const before = leads.length;
      await form.getByRole('button', { name: 'Send enquiry' }).click();
      await form.getByText('Please fix the following errors:').waitFor();
      assertJsonEqual(await form.getByRole('alert').getByText('Please enter your name.').count(), 1, 'the name error in the panel');
      assertJsonEqual(await form.getByLabel('Name', { exact: true }).getAttribute('aria-invalid'), 'true', 'the name field marked invalid');
      assertJsonEqual(leads.length, before, 'a lead sent with errors');
      await form.getByLabel('Name', { exact: true }).fill('Content Shopper');
      await form.getByLabel('Email', { exact: true }).fill('content@example.com.au');
      await form.getByLabel('Phone', { exact: true }).fill('0412 345 678');
      // The location choice shows for a dealer of several sales locations (required then); the terms when the dealer asks for them.
      const sales = site.locations.filter((l) => l.kind === 'sales');
      const choices = sales.length > 0 ? sales : site.locations;
      const location = choices.length > 1 ? choices.at(-1).id : choices[0].id;
      assertJsonEqual(await form.getByLabel('Preferred location').count(), choices.length > 1 ? 1 : 0, 'the location choice');
      if (choices.length > 1) await form.getByLabel('Preferred location').selectOption(location);
      const terms = form.getByRole('checkbox', { name: /terms of use/ });
      assertJsonEqual(await terms.count(), site.forms.terms_required ? 1 : 0, 'the terms checkbox');
      if (site.forms.terms_required) await terms.check();
      await form.getByRole('button', { name: 'Send enquiry' }).click();
      await page.getByRole('heading', { name: site.content.offers.thank_you_title }).waitFor();
      await page.getByText(site.content.offers.thank_you_text).waitFor();
      assertJsonEqual(await page.evaluate(() => document.activeElement?.textContent), site.content.offers.thank_you_title, 'focus after sending');
      assertJsonEqual(await form.locator('form').count(), 0, 'the form still shows after sending');
      assertJsonEqual(new URL(page.url()).pathname, offer.path, 'left the offer page');
      assertJsonEqual(leads.length, before + 1, 'leads sent');
      const lead = leads.at(-1);
      assertJsonEqual(
        [lead.category, lead.subcategory, lead.page_id, lead.dealership_slug, lead.phone, lead.name, lead.location_id],
        ['test_drive', 'Book a Test Drive', offer.id, site.slug, '0412345678', 'Content Shopper', location],
        'the lead',
      );
      if (offer.manufacturer) assertJsonEqual(lead.make, offer.manufacturer, 'the offer\'s make');
      assert(typeof lead.idempotency_key === 'string' && lead.idempotency_key.length > 0, 'no idempotency key');
    });

    // ----------------------------------------------------------- models
    await test('/models/ groups models in the spec\'s order with Upcoming / All-New labels and Our Stock links', async () => {
      const models = site.content.models;
      need(models.some((m) => m.status === 'coming_soon') && models.some((m) => m.status !== 'coming_soon'), 'an upcoming model and an available one');
      await page.goto(`${origin}/models/`);
      const headings = await page.locator('.models-group h2').allInnerTexts();
      const ranks = headings.map((h) => models.find((m) => m.body_label === h)?.body_rank);
      assertJsonEqual(ranks, [...ranks].sort((a, b) => a - b), 'group order');
      const upcoming = models.find((m) => m.status === 'coming_soon');
      const card = page.locator('li.model-card', { has: page.getByRole('heading', { name: new RegExp(`${upcoming.name}$`) }) });
      assertJsonEqual(await card.locator('.model-card__status').innerText(), 'Upcoming', `${upcoming.name} label`);
      const stocked = need(models.find((m) => m.stock), 'a model in stock');
      await page.locator('li.model-card', { has: page.getByRole('heading', { name: new RegExp(`${stocked.name}$`) }) }).getByRole('link', { name: new RegExp(`^${stocked.stock.label.replace(/[()]/g, '\\$&')}`) }).click();
      await page.waitForURL(`${origin}${stocked.stock.href}`);
      await page.locator('[data-testid="result-count"]').filter({ hasText: String(stocked.stock_count) }).first().waitFor();
    });

    // ------------------------------------------------------------- home
    await test('home blocks: slider windows, reviews over the minimum, guarantee, sell-your-car, blog, make tiles', async () => {
      await page.goto(`${origin}/`);
      const slides = site.content.promotions;
      need(slides.some((s) => inWindow(s, nowS)) && slides.some((s) => !inWindow(s, nowS)), 'a promotion inside its window and one outside');
      assertJsonEqual(await page.locator('.promo-slider__slide:visible').count(), slides.filter((s) => inWindow(s, nowS)).length, 'slides shown');
      const r = need(site.content.reviews, 'reviews (reviews.enabled)');
      assertJsonEqual(await page.locator('#reviews li.review').count(), r.items.length, 'reviews shown');
      await page.locator('#reviews').getByText(`from ${r.count.toLocaleString('en-AU')} review`).waitFor();
      const g = need(site.content.guarantee, 'a guarantee banner');
      assertJsonEqual(await page.locator('.guarantee__item').count(), g.items.length, 'guarantee items');
      assertJsonEqual(await page.locator('.sell-banner a').getAttribute('href'), site.content.sell_your_car.button.href, 'sell-your-car link');
      assertJsonEqual(await page.locator('.blog-tile').count(), site.content.blog.posts.length, 'blog tiles');
      assertJsonEqual(await page.locator('.brand-tile').count(), site.stock_summary.makes.length, 'make tiles');
      if (slides.filter((s) => inWindow(s, nowS)).length > 1) {
        await page.getByRole('button', { name: 'Next promotion' }).click();
      }
    });

    // ----------------------------------------------------- axe, layout
    await test('axe finds nothing on the content pages (phone and desktop); nothing overflows sideways', async () => {
      const model = need(pageOfKind(sites[0].pages, 'model'), 'a model page');
      const offer = need(offers[0], 'an offer');
      const paths = ['/', '/special-offers/', offer.path, '/models/', model, `/locations/${location.slug}/`, '/contact-us/'];
      const problems = [];
      for (const [width, height] of [[375, 812], [1280, 900]]) {
        await page.setViewportSize({ width, height });
        for (const p of paths) {
          await page.goto(`${origin}${p}`, { waitUntil: 'load' });
          for (const v of await axe(page)) problems.push(`${width}px ${p}: ${v}`);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
          if (overflow > 0) problems.push(`${width}px ${p}: ${overflow}px wider than the screen`);
        }
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      assertJsonEqual(problems, [], 'problems');
    });

    await test('no request leaves 127.0.0.1, no resource fails, no console error', async () => {
      assertJsonEqual([...new Set(outside)].slice(0, 5), [], 'requests to other hosts');
      assertJsonEqual([...new Set(failed)].slice(0, 5), [], 'failed responses');
      assertJsonEqual(errors.slice(0, 5), [], 'console errors');
    });
  });
}

await run(main);
