#!/usr/bin/env node
/**
 * End-to-end tests of the vehicle detail page in headless
 * Chromium, over the built demo dealers: each case is looked for in every
 * site given (the certified Toyotas and the Service Advantage are at a
 * single-manufacturer dealer, caravans at another, the sticky phone footer
 * is one dealer's switch) and FAILS when no site has it.
 *
 *   node scripts/e2e/car-page.mjs <dist> [<dist> ...]
 *   (test.sh: the three demo dealers, built --as-of their stock's date)
 *
 * Sidebar buttons in the dealer's order, badges and the certified dialog,
 * the SOLD panel, Show More / Show All, the comment cut, caravan metres,
 * rego text, tabs with the keyboard, the photo strip and the photo viewer with the keyboard,
 * share (X hidden per dealer, the 550 x 400 window, "Copied" for 1.5 s),
 * print (the dialog, and the page on paper), the sticky bar after 900 px, the phone footer after 50 px
 * with Call Now by the location's hours, JSON-LD and Open Graph, photo
 * sizes and priorities, the not-found photo, axe on every variant, and the
 * page with JavaScript off under the site's own _headers (its CSP): every
 * photo, tab panel, row and comment shows, nothing is refused.
 * Nothing leaves 127.0.0.1 (share targets are answered in the browser).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { assert, AXE_OPTIONS, assertJsonEqual, builtAt, createRunner, frames, locationPhone, need, settled, withSites } from './common.mjs';
import { injectAxe } from '../lib/axe.mjs';

const dists = (process.argv.slice(2).length ? process.argv.slice(2) : ['sites/brisbane-motor-group/dist']).map((d) => path.resolve(d));

const { test, run } = createRunner();

/** Every site's data and server; `find` looks for a car (and its site) over all of them. */
const sites = [];
function find(pred) {
  for (const s of sites) {
    const car = s.cars.find((c) => pred(c, s));
    if (car) return { site: s, car };
  }
  return null;
}
const carUrl = (s, car, suffix = '') => `${s.origin}/cars/${car.slug}/${suffix}`;

/**
 * Records every layout shift of `p` from its first paint on, as Lighthouse
 * and CrUX count them (none right after input), into `globalThis.__shifts`:
 * each with its value, time and the nodes that moved.
 */
function watchShifts(p) {
  return p.addInitScript(() => {
    globalThis.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) globalThis.__shifts.push({ value: e.value, t: Math.round(e.startTime), sources: (e.sources ?? []).map((x) => `${x.node?.nodeName}.${x.node?.className} ${JSON.stringify(x.previousRect)} -> ${JSON.stringify(x.currentRect)}`) });
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function main() {
  await withSites(dists, { name: 'car-page' }, async ({ sites: served, site, context, page }) => {
    sites.push(...served);
    // The demo sites are all built at the same instant (scripts/demo-stock/as-of.mjs).
    const clock = builtAt(site);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const outside = [];
    const errors = [];
    const failed = [];
    // The edge API, like a signed-out visit.
    await context.route(/\/api\//, (route) => {
      const url = new URL(route.request().url());
      const body = url.pathname.endsWith('/view.json') ? { views: 7 } : url.pathname === '/api/auth/me' ? { signed_in: false } : url.pathname === '/api/youx/quote' ? { weeklyRepaymentAmount: 123, comparisonRate: 9.1, advertisedRate: 8.5 } : {};
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    });
    // Share targets: answered here, never fetched.
    const shared = [];
    await context.route(/^https:\/\/(www\.facebook\.com|x\.com|wa\.me)\//, (route) => {
      shared.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>share</title>' });
    });
    const watch = (p) => {
      p.on('request', (req) => {
        const u = new URL(req.url());
        if (['http:', 'https:'].includes(u.protocol) && u.hostname !== '127.0.0.1' && !/^(www\.facebook\.com|x\.com|wa\.me)$/.test(u.hostname)) outside.push(req.url());
      });
      p.on('response', (res) => {
        if (res.status() >= 400 && !res.url().includes('/missing-photo/')) failed.push(`${res.status()} ${res.url()}`);
      });
      p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`));
      p.on('console', (m) => {
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(`${p.url()}: ${m.text()}`);
      });
    };
    watch(page);
    const open = async (s, car, { width = 1280, height = 900, suffix = '' } = {}) => {
      // After the share test's popup the page can be left in the background, where
      // requestAnimationFrame (the sticky bars' scroll handler) does not run.
      await page.bringToFront();
      await page.setViewportSize({ width, height });
      const res = await page.goto(carUrl(s, car, suffix), { waitUntil: 'load' });
      assertJsonEqual(res?.status(), 200, `status of ${carUrl(s, car, suffix)}`);
    };
    const axe = async () => {
      await injectAxe(page);
      const v = await page.evaluate((o) => globalThis.axe.run(o).then((r) => r.violations), AXE_OPTIONS);
      return v.map((x) => `${x.id} (${x.nodes.length}) ${x.nodes[0]?.target.join(' ')}`);
    };

    // ------------------------------------------------------------ sidebar
    await test('sidebar buttons are the generator\'s, in the dealer\'s order, with their links', async () => {
      const { site: s, car } = need(find((c) => c.in_stock && c.detail.sidebar_buttons.some((b) => b.kind === 'history_report') && c.detail.sidebar_buttons.some((b) => b.kind === 'reserve')), 'a car in stock with a history report and Reserve');
      await open(s, car);
      const items = await page.locator('.car-actions > li').evaluateAll((lis) => lis.map((li) => li.className.match(/car-actions__item--(\w+)/)?.[1]));
      assertJsonEqual(items, car.detail.sidebar_buttons.map((b) => b.kind), 'buttons in order');
      const report = page.locator('.car-actions__item--history_report a');
      assertJsonEqual(await report.getAttribute('href'), car.detail.sidebar_buttons.find((b) => b.kind === 'history_report').href, 'history report link');
      assertJsonEqual(await report.getAttribute('target'), '_blank', 'the report opens in a new tab');
      const reserve = car.detail.sidebar_buttons.find((b) => b.kind === 'reserve');
      assertJsonEqual(await page.locator('.car-actions__item--reserve a').getAttribute('href'), reserve.href, 'reserve link');
      await page.locator('.car-actions__item--reserve').getByText(reserve.note).waitFor();
      // The sidebar's payment methods are the footer's, the dealer's own list (C24).
      const methods = (where) => page.locator(`${where} .payments__list img`).evaluateAll((imgs) => imgs.map((i) => i.alt));
      const listed = s.site.footer.payments.map((p) => p.label);
      need(listed.length > 0, 'a dealer with payments accepted');
      assertJsonEqual(await methods('.car-layout__side'), listed, 'payment methods in the sidebar');
      assertJsonEqual(await methods('.site-footer'), listed, 'payment methods in the footer');
      // A car without a file has no history report button.
      const plain = need(s.cars.find((c) => c.in_stock && !c.detail.sidebar_buttons.some((b) => b.kind === 'history_report') && c.car_type === 'used'), 'a used car without a history report');
      await open(s, plain);
      assertJsonEqual(await page.locator('.car-actions__item--history_report').count(), 0, 'history report buttons');
    });

    await test('Make an Offer and Book a Test Drive open the enquiry form in their kind', async () => {
      const { site: s, car } = need(find((c) => c.detail.sidebar_buttons.some((b) => b.kind === 'make_offer') && c.detail.sidebar_buttons.some((b) => b.kind === 'test_drive')), 'a dealer with make_offer and test_drive in detail_page.sidebar_buttons');
      await open(s, car);
      if (s.site.forms.make_offer === 'dialog') {
        // features.make_offer: dialog: the offer form opens in a dialog on the page (islands/forms/MakeOffer).
        await page.getByRole('button', { name: 'Make an Offer' }).click();
        const dialog = page.getByRole('dialog', { name: 'Make an Offer' });
        await dialog.getByLabel('Your offer').waitFor();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
      } else {
        await page.getByRole('link', { name: 'Make an Offer' }).click();
        await page.waitForURL(/\?enquiry=offer#enquire$/);
        await page.locator('#enquire astro-island:not([ssr])').waitFor({ state: 'attached' });
        await page.locator('#enquire').getByRole('heading', { name: 'Make an Offer' }).waitFor();
      }
      await page.locator('.car-actions').getByRole('link', { name: /^Book a Test Drive/i }).click();
      await page.waitForURL(/\?enquiry=test-drive#enquire$/);
      await page.locator('#enquire astro-island:not([ssr])').waitFor({ state: 'attached' });
      await page.locator('#enquire').getByRole('heading', { name: 'Book a Test Drive' }).waitFor();
    });

    await test('a car without photos offers Request photos, which opens the enquiry as a photo request (issue 23, item 6)', async () => {
      const { site: s, car } = need(find((c) => c.images.length === 0 && c.in_stock), 'a car in stock without photos');
      await open(s, car);
      const ask = page.locator('.gallery--empty').getByRole('link', { name: 'Request photos of this car' });
      await ask.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\?enquiry=photos#enquire$/);
      await page.locator('#enquire astro-island:not([ssr])').waitFor({ state: 'attached' });
      await page.locator('#enquire').getByRole('heading', { name: 'Request Photos' }).waitFor();
    });

    await test('a reserved car offers no Reserve or Trade-In; a sold car has the sold panel, in the dealer\'s words, instead of buttons', async () => {
      const { site: s, car } = need(find((c, st) => c.reserved && c.in_stock && st.site.features.checkout), 'a reserved car at a dealer with checkout');
      await open(s, car);
      assertJsonEqual(await page.locator('.car-actions__item--reserve, .car-actions__item--trade_in, .car-actions__item--buy_online').count(), 0, 'reserve/trade-in buttons');
      // In the dealer's words (copy.sold_text: the Perth demo dealer says JUST SOLD), as its tag says.
      const sold = need(find((c, st) => c.status === 'sold' && st.site.copy.sold_text !== 'SOLD'), 'a sold car inside the sold window at a dealer with its own sold text');
      const soldText = sold.site.site.copy.sold_text;
      assertJsonEqual(sold.car.tag_banner, soldText, 'the sold car\'s tag');
      await open(sold.site, sold.car);
      await page.locator('.sold-panel').getByText(soldText, { exact: true }).waitFor();
      await page.locator('.sold-panel').getByRole('link', { name: 'Find Me Something Similar' }).waitFor();
      assertJsonEqual(await page.locator('.car-actions').count(), 0, 'sidebar buttons on a sold car');
      // Similar cars in stock, each linking to a page that exists.
      need(sold.car.detail.similar.length > 0, 'similar cars for a sold car (features.similar_cars)');
      const links = await page.locator('.similar a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assertJsonEqual(links.length, sold.car.detail.similar.length, 'similar car links');
      for (const href of links) assert(sold.site.cars.some((c) => `/cars/${c.slug}/` === href && c.in_stock), `${href} is not a car in stock`);
    });

    await test('below-market badge on a car under the market and state averages', async () => {
      const { site: s, car } = need(find((c) => c.detail.below_market), 'a car with autograb_data more than $499 under the market average');
      await open(s, car);
      assertJsonEqual((await page.locator('.below-market').innerText()).replace(/^▼\s*/, ''), car.detail.below_market.text, 'badge');
      const other = need(s.cars.find((c) => !c.detail.below_market && c.in_stock), 'a car without the badge');
      await open(s, other);
      assertJsonEqual(await page.locator('.below-market').count(), 0, 'badges on a car not below the market');
    });

    await test('certified Toyota: the badge opens its dialog, Escape closes it and focus returns', async () => {
      const { site: s, car } = need(find((c) => c.detail.certified && c.make === 'Toyota'), 'a certified Toyota in stock');
      await open(s, car);
      const badge = page.getByRole('button', { name: /Toyota Certified Pre-Owned/ });
      await badge.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Toyota Certified Pre-Owned' });
      await dialog.waitFor();
      for (const b of car.detail.certified.benefits) await dialog.getByText(b).waitFor();
      assertJsonEqual(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Close', 'focus in the dialog');
      const violations = await axe();
      assertJsonEqual(violations.length, 0, `axe with the dialog open: ${violations.join('; ')}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert(await badge.evaluate((el) => el === document.activeElement), 'focus back on the badge');
    });

    await test('a certified Toyota whose card tag is Hybrid or Reserved still shows the badge', async () => {
      const { site: s, car } = need(find((c) => c.detail.certified && c.tag_banner && !/certified/i.test(c.tag_banner)), 'a certified Toyota whose card shows another tag');
      await open(s, car);
      await page.locator('.tag-banner', { hasText: car.tag_banner }).waitFor();
      await page.getByRole('button', { name: /Certified Pre-Owned/ }).waitFor();
      const notCertified = need(find((c) => c.certified && c.make !== 'Toyota' && c.in_stock), 'a certified car of another make');
      await open(notCertified.site, notCertified.car);
      assertJsonEqual(await page.locator('.certified-badge').count(), 0, 'certified badges on another make');
      // No make is assumed (docs/behaviour/spec-rows.md A23): a dealer without cards.certified_badge_make badges no Toyota.
      const unbadged = need(find((c, st) => c.certified && c.make === 'Toyota' && c.in_stock && !st.site.search.hit_rules.certified_badge_make), 'a certified Toyota at a dealer without a certified programme');
      await open(unbadged.site, unbadged.car);
      assertJsonEqual(await page.locator('.certified-badge').count(), 0, `a certified badge at ${unbadged.site.site.slug}, which names no programme`);
    });

    await test("the programme's badge image (cards.certified_badge_image) on the car page and the search card, its words the text alternative", async () => {
      const { site: s, car } = need(find((c, st) => c.detail.certified?.image && c.tag_banner === c.detail.certified.title && st.site.search.hit_rules.certified_badge_image), 'a certified car whose tag is the badge, at a dealer with a badge image');
      await open(s, car);
      const badge = page.getByRole('button', { name: new RegExp(`^${car.detail.certified.title}`) });
      assertJsonEqual(await badge.locator('img').getAttribute('src'), car.detail.certified.image, 'the badge button shows the image');
      assertJsonEqual(await badge.locator('img').getAttribute('alt'), car.detail.certified.title, 'its text alternative');
      assert(await badge.locator('img').evaluate((img) => img.complete && img.naturalWidth > 0), 'the image loads');
      // The search card of that car: the tag is the image.
      await page.goto(`${s.origin}/search/?query=${encodeURIComponent(car.stocknum ?? car.name)}`);
      const card = page.locator('.car-card', { has: page.locator(`a[href="/cars/${car.slug}/"]`) }).first();
      const tag = card.locator('img.tag-banner--image');
      await tag.waitFor();
      assertJsonEqual(await tag.getAttribute('alt'), car.tag_banner, 'the card tag\'s text alternative');
    });

    // -------------------------------------------------------- details
    await test('Details shows 4 rows, Show More / Show Less the rest; Key information 8 with Show All / Hide', async () => {
      const { site: s, car } = need(find((c) => c.specs.length > 4 && c.detail.key_information.length > 8), 'a car with more than 4 spec rows and 8 key information rows');
      await open(s, car);
      const specs = page.locator('#specs-list .spec-grid__row');
      assertJsonEqual(await specs.filter({ visible: true }).count(), 4, 'spec rows before Show More');
      const more = page.getByRole('button', { name: 'Show More specifications' });
      assertJsonEqual(await more.getAttribute('aria-expanded'), 'false', 'aria-expanded');
      await more.click();
      // The first click loads the page's interactions (lib/car-page/interact.ts), then acts.
      await page.getByRole('button', { name: 'Show Less specifications' }).waitFor();
      assertJsonEqual(await specs.filter({ visible: true }).count(), car.specs.length, 'spec rows after Show More');
      await page.getByRole('button', { name: 'Show Less specifications' }).click();
      await more.waitFor();
      assertJsonEqual(await specs.filter({ visible: true }).count(), 4, 'spec rows after Show Less');
      const info = page.locator('#key-info-list .spec-grid__row');
      assertJsonEqual(await info.filter({ visible: true }).count(), 8, 'key information rows');
      await page.getByRole('button', { name: 'Show All key information' }).click();
      await page.getByRole('button', { name: 'Hide key information' }).waitFor();
      assertJsonEqual(await info.filter({ visible: true }).count(), car.detail.key_information.length, 'key information after Show All');
    });

    await test('an expired registration reads as the dealer says; a current one says when it expires', async () => {
      const { site: s, car } = need(find((c) => c.specs.some((r) => r.label === 'Registration expiry' && r.value === 'Unregistered')), 'a used car with an expired rego');
      await open(s, car);
      await page.getByRole('button', { name: 'Show More specifications' }).click();
      await page.locator('#specs-list .spec-grid__row', { hasText: 'Registration expiry' }).getByText('Unregistered').waitFor();
      const current = need(find((c) => c.specs.some((r) => r.label === 'Registration expiry' && r.value.startsWith('Expires on '))), 'a used car with a current rego');
      await open(current.site, current.car);
      await page.getByRole('button', { name: 'Show More specifications' }).click();
      await page.locator('#specs-list .spec-grid__row', { hasText: 'Registration expiry' }).getByText(/^Expires on \d\d\/\d\d\/\d{4}$/).waitFor();
    });

    await test('caravans show their sizes in metres and weights in kg', async () => {
      const { site: s, car } = need(find((c) => c.specs.some((r) => r.label === 'Body length')), 'a caravan (item_type caravan)');
      await open(s, car);
      await page.getByRole('button', { name: 'Show More specifications' }).click();
      for (const label of ['Body length', 'Body width']) {
        const value = await page.locator('#specs-list .spec-grid__row', { hasText: label }).locator('dd').innerText();
        assert(/^\d+\.\d{2} m$/.test(value), `${label} "${value}" is not in metres`);
      }
      await page.locator('#specs-list .spec-grid__row', { hasText: 'Tare weight' }).getByText(/ kg$/).waitFor();
    });

    await test('tabs: the arrow keys move between them and show each panel; Features lists 8 with Show All', async () => {
      const { site: s, car } = need(find((c) => c.detail.tabs.length >= 3 && c.detail.tabs.some((t) => t.kind === 'features') && c.detail.features.length > 8), 'a car with three tabs and more than 8 features');
      await open(s, car);
      const tabs = page.getByRole('tab');
      assertJsonEqual(await tabs.allInnerTexts(), car.detail.tabs.map((t) => t.title), 'tabs in order');
      await tabs.first().focus();
      await page.keyboard.press('ArrowRight');
      const second = car.detail.tabs[1];
      await page.getByRole('tab', { name: second.title, selected: true }).waitFor();
      assert(await page.getByRole('tab', { name: second.title }).evaluate((el) => el === document.activeElement), 'focus on the second tab');
      await page.getByRole('tabpanel', { name: second.title }).waitFor();
      assertJsonEqual(await page.getByRole('tabpanel').count(), 1, 'panels shown');
      await page.keyboard.press('End');
      await page.getByRole('tab', { name: car.detail.tabs.at(-1).title, selected: true }).waitFor();
      await page.keyboard.press('Home');
      await page.getByRole('tab', { name: car.detail.tabs[0].title, selected: true }).waitFor();
      await page.getByRole('tab', { name: 'Features' }).click();
      const items = page.locator('#features-list li');
      assertJsonEqual(await items.filter({ visible: true }).count(), 8, 'features before Show All');
      await page.getByRole('button', { name: 'Show All features' }).click();
      await page.getByRole('button', { name: 'Hide features' }).waitFor();
      assertJsonEqual(await items.filter({ visible: true }).count(), car.detail.features.length, 'features after Show All');
    });

    await test('dealer comments over 400 characters are cut with Show more; empty ones show the pending text', async () => {
      const { site: s, car } = need(find((c) => c.detail.comment_preview && c.detail.tabs[0]?.kind === 'dealer_comments'), 'a car whose comments are longer than 400 characters');
      await open(s, car);
      const panel = page.getByRole('tabpanel', { name: 'Dealer Comments' });
      const shown = await panel.locator('.comments__preview p').allInnerTexts();
      assertJsonEqual(shown, car.detail.comment_preview, 'preview paragraphs');
      assert(shown.join('').replace(/…$/, '').length <= 400, 'preview over 400 characters');
      assert(!(await panel.locator('.comments__full').isVisible()), 'full comments visible before Show more');
      await panel.getByRole('button', { name: /^Show more/ }).click();
      await panel.getByRole('button', { name: /^Show less/ }).waitFor();
      await panel.locator('.comments__full').waitFor({ state: 'visible' });
      assertJsonEqual(await panel.locator('.comments__full p').allInnerTexts(), car.comment_paragraphs, 'full comments');
      assert(!(await panel.locator('.comments__preview').isVisible()), 'preview still shown');
      const empty = need(find((c) => c.comment_paragraphs.length === 0 && c.detail.tabs[0]?.kind === 'dealer_comments'), 'a car without dealer comments');
      await open(empty.site, empty.car);
      await page.getByRole('tabpanel', { name: 'Dealer Comments' }).getByText(empty.site.site.copy.dealer_comments_pending).waitFor();
    });

    await test('Service Advantage shows the plan of the model and Book a Service goes to the dealer\'s booking page', async () => {
      const { site: s, car } = need(find((c) => c.detail.service_advantage), 'a new Toyota at a dealer with detail_page.service_advantage');
      await open(s, car);
      const block = page.locator('.service-advantage');
      await block.getByRole('heading', { name: car.detail.service_advantage.title }).waitFor();
      await block.getByText(car.detail.service_advantage.price_text, { exact: true }).first().waitFor();
      const book = block.getByRole('link', { name: /Book a Service/ });
      assertJsonEqual(await book.getAttribute('href'), car.detail.service_advantage.booking_href, 'Book a Service');
      assertJsonEqual(await book.getAttribute('target'), car.detail.service_advantage.booking_external ? '_blank' : null, 'new tab for an outside booking page');
    });

    // ---------------------------------------------------------- photos
    await test('photo viewer with the keyboard: opens at the photo, arrows move, Tab stays inside, Escape closes and focus returns to the photo last shown', async () => {
      const { site: s, car } = need(find((c) => c.images.length >= 3), 'a car with three or more photos');
      await open(s, car);
      const first = page.locator('[data-viewer-open="0"]');
      await first.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: `Photos of ${car.name}` });
      await dialog.waitFor();
      await dialog.getByText(`Photo 1 of ${car.images.length}`).waitFor();
      const src = () => dialog.locator('img').getAttribute('src');
      const firstSrc = await src();
      await page.keyboard.press('ArrowRight');
      await dialog.getByText(`Photo 2 of ${car.images.length}`).waitFor();
      assert((await src()) !== firstSrc || car.images[0] === car.images[1], 'the photo did not change');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await dialog.getByText(`Photo ${car.images.length} of ${car.images.length}`).waitFor();
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        assert(await page.evaluate(() => !!document.activeElement?.closest('dialog[data-viewer]')), `Tab ${i + 1} left the viewer`);
      }
      const violations = await axe();
      assertJsonEqual(violations.length, 0, `axe with the viewer open: ${violations.join('; ')}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      // Back on the strip's photo last shown in the viewer (the last one here).
      const last = page.locator(`[data-viewer-open="${car.images.length - 1}"]`);
      assert(await last.evaluate((el) => el === document.activeElement), 'focus back on the photo last shown');
      // A car with one photo has no viewer.
      const one = need(find((c) => c.images.length === 1), 'a car with exactly one photo');
      await open(one.site, one.car);
      assertJsonEqual(await page.locator('[data-viewer-open], dialog[data-viewer]').count(), 0, 'viewer parts with one photo');
    });

    await test('photo strip with the keyboard: one Tab stop; arrows, Home and End move focus along the strip with the photo in view; Enter opens the photo shown; closed, focus is on the photo last shown, in view', async () => {
      const { site: s, car } = need(find((c) => c.images.length >= 4), 'a car with four or more photos');
      const n = car.images.length;
      /** The focused photo's index, once it is fully inside the strip and the window (the strip may still be scrolling). */
      const focusedInView = (index) =>
        page
          .waitForFunction(
            (i) => {
              const el = document.activeElement;
              const track = el?.closest('.gallery__track');
              if (!track || el.dataset.viewerOpen !== String(i)) return false;
              const r = el.getBoundingClientRect();
              const t = track.getBoundingClientRect();
              return r.left >= t.left - 1 && r.right <= t.right + 1 && r.top >= 0 && r.bottom <= innerHeight;
            },
            index,
            { timeout: 3000 },
          )
          .then(
            () => true,
            () => false,
          );
      const where = () => page.evaluate(() => `${document.activeElement?.outerHTML.slice(0, 60)} at ${Math.round(document.activeElement?.getBoundingClientRect().left)}`);
      for (const width of [375, 1280]) {
        await open(s, car, { width, height: 900 });
        const tabStops = () => page.locator('.gallery__track [data-viewer-open]:not([tabindex="-1"])').count();
        assertJsonEqual(await tabStops(), 1, `${width}px: Tab stops in the strip`);
        await page.locator('[data-viewer-open="0"]').focus();
        const scrollY = await page.evaluate(() => scrollY);
        await page.keyboard.press('ArrowRight');
        assert(await focusedInView(1), `${width}px: ArrowRight: focus is ${await where()}, not photo 2 in view`);
        await page.keyboard.press('End');
        assert(await focusedInView(n - 1), `${width}px: End: focus is ${await where()}, not the last photo in view`);
        await page.keyboard.press('Home');
        assert(await focusedInView(0), `${width}px: Home: focus is ${await where()}, not photo 1 in view`);
        assertJsonEqual(await page.evaluate(() => scrollY), scrollY, `${width}px: the page scrolled with Home/End`);
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
        assert(await focusedInView(2), `${width}px: focus is ${await where()}, not photo 3 in view`);
        // The strip keeps one Tab stop, the photo shown: Shift+Tab out and Tab back reach it.
        assertJsonEqual(await tabStops(), 1, `${width}px: Tab stops in the strip after moving`);
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Tab');
        assert(await focusedInView(2), `${width}px: Tab back into the strip: focus is ${await where()}, not photo 3`);
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: `Photos of ${car.name}` });
        await dialog.getByText(`Photo 3 of ${n}`).waitFor();
        await page.keyboard.press('ArrowRight');
        await dialog.getByText(`Photo 4 of ${n}`).waitFor();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        assert(await focusedInView(3), `${width}px: after the viewer, focus is ${await where()}, not photo 4 in view`);
      }
    });

    await test("with JavaScript off, under the site's real _headers (CSP): every photo, tab panel, spec and feature row and the whole comment show; the Show more toggles go; the policy refuses nothing", async () => {
      const { site: s, car } = need(
        find((c) => c.images.length >= 4 && c.specs.length > 4 && c.detail.features.length > 8),
        'a car with four or more photos, more than 4 spec rows and 8 features',
      );
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
        const p = await ctx.newPage();
        const refused = [];
        p.on('console', (m) => {
          if (/Content Security Policy/i.test(m.text())) refused.push(m.text().slice(0, 160));
        });
        const res = await p.goto(carUrl(s, car), { waitUntil: 'load' });
        assert(/style-src /.test(res.headers()['content-security-policy'] ?? ''), 'the car page was served without its Content-Security-Policy (_headers)');
        const shown = await p.evaluate(() => {
          const visible = (el) => getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().height > 0;
          // A blank box: a picture shown without a photo (no address, or the deferred photo's 1x1 stand-in).
          const blankPhotos = [...document.querySelectorAll('.gallery__item')]
            .map((li, i) => ({ i, imgs: [...li.querySelectorAll('img')].filter(visible) }))
            .filter(({ imgs }) => imgs.length === 0 || imgs.some((img) => !img.getAttribute('src') || img.getAttribute('src').startsWith('data:')))
            .map(({ i }) => i + 1);
          return {
            blankPhotos,
            hiddenPanels: [...document.querySelectorAll('.tabs__panel')].filter((el) => !visible(el)).length,
            hiddenRows: [...document.querySelectorAll('.spec-grid__row[data-extra], li[data-extra]')].filter((el) => !visible(el)).length,
            toggles: [...document.querySelectorAll('[data-disclosure-toggle]')].filter(visible).length,
            panels: document.querySelectorAll('.tabs__panel').length,
          };
        });
        assert(shown.panels > 1, 'the car page has no tab panels');
        assertJsonEqual(
          { blankPhotos: shown.blankPhotos, hiddenPanels: shown.hiddenPanels, hiddenRows: shown.hiddenRows, toggles: shown.toggles, refused },
          { blankPhotos: [], hiddenPanels: 0, hiddenRows: 0, toggles: 0, refused: [] },
          `${car.slug} without JavaScript`,
        );
      } finally {
        await browser.close();
      }
    });

    // "002" in this name is the old platform's content spec; the anchors are in docs/behaviour/car-page.md §2.
    await test("the old platform's anchors (002 §1): #vehicle-map, #finance-calculator, and #financeDisclaimer once on every car page with finance, on its first disclaimer", async () => {
      let checked = 0;
      for (const s of sites) {
        for (const car of s.cars.filter((c) => c.finance.lender || c.finance.calculator)) {
          const html = fs.readFileSync(path.join(s.dist, 'cars', car.slug, 'index.html'), 'utf8');
          const at = `${s.site.slug} ${car.slug}`;
          assertJsonEqual(html.match(/id="financeDisclaimer"/g)?.length ?? 0, 1, `#financeDisclaimer on ${at}`);
          const first = html.indexOf('class="finance-disclaimer__text"');
          if (first >= 0) assert(html.indexOf('id="financeDisclaimer"') < first, `#financeDisclaimer is on the first disclaimer of ${at}`);
          assert(html.includes('id="vehicle-map"'), `#vehicle-map on ${at}`);
          if (car.finance.calculator) assert(html.includes('id="finance-calculator"'), `#finance-calculator on ${at}`);
          checked += 1;
        }
      }
      assert(checked > 100, `only ${checked} car pages with finance`);
      // A link to the anchor lands on the disclaimer.
      const { site: s, car } = need(find((c) => c.finance.lender && c.in_stock), 'a car with lender figures');
      await open(s, car, { suffix: '#financeDisclaimer' });
      const top = await page.locator('#financeDisclaimer').evaluate((el) => el.getBoundingClientRect().top);
      assert(top > -1 && top < 900, `#financeDisclaimer is in view after the jump (top ${top})`);
    });

    await test('a quote the stock feed carries (youxQuote) is in the page as it loads, and the quote service is not asked', async () => {
      const { site: s, car } = need(find((c) => c.finance.known_quote), 'a car whose feed carries its quote (youxQuote)');
      const asked = [];
      const onRequest = (req) => {
        if (new URL(req.url()).pathname === '/api/youx/quote') asked.push(req.url());
      };
      page.on('request', onRequest);
      try {
        await open(s, car);
        const text = await page.locator('.finance-panel--quote').innerText();
        const q = car.finance.known_quote;
        for (const want of [`$${Math.round(q.weekly_repayment)}`, `${q.comparison_rate.toFixed(2)}% p.a.`, `${q.advertised_rate.toFixed(2)}% p.a.`]) assert(text.includes(want), `the panel shows ${want}: ${text}`);
        // Static HTML: no pending panel for the script to fill, and no request.
        assertJsonEqual(await page.locator('[data-quote-car]').count(), 0, 'pending quote panels');
        await page.waitForLoadState('networkidle');
        assertJsonEqual(asked, [], 'requests to the quote service');
      } finally {
        page.off('request', onRequest);
      }
    });

    await test("what the edge answers after load (views, the finance quote, Reserved) moves nothing on the page: no layout shift at 375 and 1280 px", async () => {
      const { site: s, car } = need(find((c) => c.checkout && c.finance.quote && c.in_stock), 'a car reserved online with a finance quote');
      for (const width of [375, 1280]) {
        const p = await context.newPage();
        try {
          await watchShifts(p);
          await p.setViewportSize({ width, height: 900 });
          await p.goto(carUrl(s, car), { waitUntil: 'load' });
          await p.locator('.car-views').filter({ hasText: '7' }).waitFor();
          await p.locator('[data-finance-block]').filter({ hasText: '$123' }).waitFor();
          // Two frames after the last answer: its shifts (if any) are reported.
          await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          const shifts = await p.evaluate(() => globalThis.__shifts);
          const total = shifts.reduce((a, e) => a + e.value, 0);
          assert(total < 0.001, `layout shift ${total.toFixed(4)} at ${width} px: ${JSON.stringify(shifts).slice(0, 1500)}`);
          // Reserved, when the edge says so, shows in the room kept for it.
          const live = p.locator('.car-summary__live');
          const before = (await live.boundingBox())?.height;
          await p.evaluate((slug) => {
            for (const b of document.querySelectorAll(`[data-reserved-slug="${slug}"]`)) b.hidden = false;
          }, car.slug);
          await p.locator('.car-summary__live .reserved-badge').waitFor();
          assertJsonEqual((await live.boundingBox())?.height, before, `the height of the line of Reserved and the views at ${width} px`);
        } finally {
          await p.close();
        }
      }
    });

    await test('when the edge fails or is slow (the quote, the views), nothing on the car page moves: no layout shift at 375 and 1280 px, and the quote panel says where to ask', async () => {
      const { site: s, car } = need(find((c) => c.finance.quote && !c.finance.known_quote && c.in_stock), 'a car asking the quote service');
      for (const [what, answer] of [
        ['failing', { status: 503, body: { error: 'Service unavailable.' } }],
        ['slow, then failing', { status: 502, body: {}, delayMs: 1500 }],
      ]) {
        for (const width of [375, 1280]) {
          const p = await context.newPage();
          try {
            await watchShifts(p);
            // This page's own answers (before the context's): the quote and the views fail.
            await p.route(/\/api\/(youx\/quote|cars\/[^/]+\/view\.json)/, async (route) => {
              if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
              await route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(answer.body) });
            });
            await p.setViewportSize({ width, height: 900 });
            await p.goto(carUrl(s, car), { waitUntil: 'load' });
            const panel = p.locator('.finance-panel--failed');
            await panel.getByText('No quote could be fetched just now.').waitFor();
            assertJsonEqual(await panel.getByRole('link', { name: 'Ask us for a finance quote' }).getAttribute('href'), '?enquiry=finance#enquire', 'the link to ask');
            await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
            const shifts = await p.evaluate(() => globalThis.__shifts);
            const total = shifts.reduce((a, e) => a + e.value, 0);
            assert(total < 0.001, `layout shift ${total.toFixed(4)} at ${width} px with the edge ${what}: ${JSON.stringify(shifts).slice(0, 1200)}`);
          } finally {
            await p.close();
          }
        }
      }
    });

    await test('photo viewer by swipe on a phone', async () => {
      const { site: s, car } = need(find((c) => c.images.length >= 3), 'a car with three or more photos');
      await open(s, car, { width: 375, height: 812 });
      await page.locator('[data-viewer-open="0"]').click();
      const dialog = page.getByRole('dialog', { name: `Photos of ${car.name}` });
      await dialog.waitFor();
      const stage = await dialog.locator('[data-viewer-stage]').boundingBox();
      const y = stage.y + stage.height / 2;
      await page.mouse.move(stage.x + stage.width * 0.8, y);
      await page.mouse.down();
      await page.mouse.move(stage.x + stage.width * 0.2, y, { steps: 5 });
      await page.mouse.up();
      await dialog.getByText(`Photo 2 of ${car.images.length}`).waitFor();
      await dialog.getByRole('button', { name: /Close/ }).click();
      await dialog.waitFor({ state: 'hidden' });
    });

    await test('photos come from the image host at the dealer\'s sizes; only the first is eager and high priority; the strip\'s later photos wait for a scroll', async () => {
      const { site: s, car } = need(find((c, st) => c.images.length >= 4 && st.site.images.url_template), 'a car with four photos at a dealer with images.url_template');
      // The test before swipes through the strip: its photos may still be
      // loading, and their requests would be counted as this page's. A blank
      // page first ends them (the intermittent '4 photos before the strip
      // was scrolled' failure of a fresh run).
      await page.goto('about:blank');
      const requested = [];
      const onRequest = (r) => r.resourceType() === 'image' && requested.push(new URL(r.url()).pathname);
      page.on('request', onRequest);
      await open(s, car, { width: 412, height: 823 });
      await page.waitForLoadState('networkidle');
      const imgs = page.locator('.gallery__item img[data-photo]');
      const first = await imgs.first().evaluate((i) => ({ srcset: i.getAttribute('srcset'), loading: i.loading, priority: i.getAttribute('fetchpriority'), sizes: i.sizes }));
      const widths = s.site.images.srcset_widths;
      assertJsonEqual((first.srcset ?? '').split(', ').map((x) => Number(x.split(' ')[1].replace('w', ''))), widths, 'srcset widths');
      assertJsonEqual([first.loading, first.priority], ['eager', 'high'], 'first photo');
      const second = await imgs.nth(1).evaluate((i) => [i.loading, i.getAttribute('fetchpriority')]);
      assertJsonEqual(second, ['lazy', null], 'second photo');
      const gallery = requested.filter((u) => u.startsWith('/images/photos/'));
      assert(gallery.every((u) => /-\d+\.jpg$/.test(u)), `full-size photos requested: ${gallery.join(', ')}`);
      const distinctAtStart = new Set(gallery).size;
      assert(distinctAtStart <= 2, `${distinctAtStart} photos before the strip was scrolled: ${[...new Set(gallery)].join(', ')}`);
      // Wait for the request itself: the page reached network idle before the
      // scroll, so waitForLoadState('networkidle') would return at once and
      // race the lazy loader (the cause of an intermittent failure in CI).
      const later = page
        .waitForRequest((r) => r.resourceType() === 'image' && new URL(r.url()).pathname.startsWith('/images/photos/'), { timeout: 10_000 })
        .then(() => true, () => false);
      await page.locator('.gallery__track').evaluate((el) => el.scrollBy({ left: el.clientWidth * 2 }));
      await page.waitForFunction(() => !document.querySelector('.gallery__track img[data-deferred]'));
      assert(await later, 'no photo loaded within 10 s of scrolling the strip');
      page.off('request', onRequest);
      // Search: only the first card's photo is high priority.
      await page.goto(`${s.origin}/search/`, { waitUntil: 'load' });
      const cards = await page.locator('article.car-card img').evaluateAll((is) => is.slice(0, 2).map((i) => [i.loading, i.getAttribute('fetchpriority'), !!i.getAttribute('srcset')]));
      assertJsonEqual(cards, [['eager', 'high', true], ['lazy', null, true]], 'search cards');
    });

    await test('a photo the host cannot serve shows the not-found placeholder', async () => {
      const { site: s, car } = need(find((c) => c.images.length >= 2), 'a car with photos');
      await page.route(/\/images\/photos\/[^/]+\.jpg$/, (route) => route.fulfill({ status: 404, body: '', headers: { 'x-test': 'missing-photo' } }));
      try {
        await open(s, car);
        await page.waitForFunction(() => document.querySelector('.gallery__item img')?.getAttribute('src') === '/images/no-photo.svg');
        assertJsonEqual(await page.locator('.gallery__item img').first().getAttribute('srcset'), null, 'srcset after the failure');
      } finally {
        await page.unroute(/\/images\/photos\/[^/]+\.jpg$/);
        // These 404s were asked for.
        failed.splice(0, failed.length, ...failed.filter((f) => !f.includes('/images/photos/')));
      }
    });

    // ---------------------------------------------------------- sharing
    await test('share bar: X hidden where the dealer says, the share window is 550 x 400, copy link says "Copied" for 1.5 s', async () => {
      const hidden = need(sites.find((st) => st.site.detail_page.hide_x_share), 'a dealer with detail_page.hide_x_share');
      const shown = need(sites.find((st) => !st.site.detail_page.hide_x_share), 'a dealer showing the X button');
      await open(hidden, hidden.cars.find((c) => c.in_stock));
      assertJsonEqual(await page.locator('.share__link--x').count(), 0, 'X buttons when hidden');
      const car = shown.cars.find((c) => c.in_stock);
      await open(shown, car);
      const canonical = `${shown.site.base_url}/cars/${car.slug}/`;
      assertJsonEqual(decodeURIComponent(new URL(await page.locator('.share__link--x').getAttribute('href')).searchParams.get('url')), canonical, 'X link');
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator('.share__link--facebook').click()]);
      await popup.waitForLoadState();
      assertJsonEqual(new URL(popup.url()).searchParams.get('u'), canonical, 'Facebook shares the car page');
      const size = await popup.evaluate(() => [window.outerWidth, window.outerHeight, window.innerWidth]);
      assert(Math.abs(size[0] - 550) <= 20 && Math.abs(size[1] - 400) <= 90, `share window ${size[0]} x ${size[1]}`);
      await popup.close();
      const t0 = Date.now();
      await page.getByRole('button', { name: 'Copy link' }).click();
      await page.locator('.share__copy').getByText('Copied', { exact: true }).waitFor();
      assertJsonEqual(await page.evaluate(() => navigator.clipboard.readText()), canonical, 'clipboard');
      await page.locator('.share__copy').getByText('Copy link', { exact: true }).waitFor({ timeout: 3000 });
      const shownFor = Date.now() - t0;
      assert(shownFor >= 1400 && shownFor < 2600, `"Copied" showed for ${shownFor} ms`);
    });

    await test('Print: the share bar opens the print dialog; on paper the car page shows every row, tab and comment, and leaves out what only works on a screen', async () => {
      const { site: s, car } = need(
        find((c) => c.specs.length > 4 && c.detail.features.length > 8 && c.detail.key_information.length > 8 && c.images.length > 2 && c.in_stock),
        'a car in stock with many specs, features, key facts and photos',
      );
      await open(s, car);
      await page.evaluate(() => {
        globalThis.__printed = 0;
        window.print = () => void globalThis.__printed++;
      });
      const button = page.locator('.share').getByRole('button', { name: /^Print/ });
      await button.focus();
      await page.keyboard.press('Enter');
      assertJsonEqual(await page.evaluate(() => globalThis.__printed), 1, 'print dialogs opened');
      // While printing, the title (what "Save as PDF" names the file) is the car's slug.
      const titles = await page.evaluate(() => {
        const before = document.title;
        dispatchEvent(new Event('beforeprint'));
        const printing = document.title;
        dispatchEvent(new Event('afterprint'));
        return [before, printing, document.title];
      });
      assertJsonEqual(titles[1], car.slug, 'the title while printing');
      assertJsonEqual(titles[2], titles[0], 'the title after printing');
      await page.emulateMedia({ media: 'print' });
      try {
        const visible = (sel) => page.locator(sel).evaluateAll((els) => els.filter((e) => e.checkVisibility()).length);
        assertJsonEqual(await visible('#specs-list .spec-grid__row'), car.specs.length, 'spec rows on paper');
        assertJsonEqual(await visible('#key-info-list .spec-grid__row'), car.detail.key_information.length, 'key information rows on paper');
        assertJsonEqual(await visible('.tabs__panel .feature-list li'), car.detail.features.length, 'features on paper');
        const panels = await page.locator('.tabs__panel').count();
        assertJsonEqual(await visible('.tabs__panel'), panels, 'tab panels on paper');
        assertJsonEqual(await visible('.gallery__item'), 1, 'photos on paper (the first)');
        for (const sel of ['.site-header', '.site-footer', '.share', '.car-actions', '#enquire', '.tabs__list', '[data-disclosure-toggle]', '.sticky-bar']) {
          assertJsonEqual(await visible(sel), 0, `${sel} on paper`);
        }
        const dealer = page.locator('.car-page__print-dealer');
        assert(await dealer.isVisible(), "the dealer's line is not on paper");
        assert((await dealer.innerText()).includes(`/cars/${car.slug}/`), "the dealer's line names the car's address");
        // A4 pages, and nothing wider than the page.
        const pdf = await page.pdf({ format: 'A4' });
        assert(pdf.length > 10_000, `the printed car is ${pdf.length} bytes`);
      } finally {
        await page.emulateMedia({ media: 'screen' });
      }
      assert(!(await page.locator('.car-page__print-dealer').isVisible()), "the dealer's line shows on screen");
    });

    // ------------------------------------------------------ sticky bars
    await test('the sticky bar shows after 900 px of scrolling and never covers the focused element', async () => {
      const { site: s, car } = need(find((c, st) => st.site.detail_page.sticky_sidebar && c.in_stock), 'a dealer with detail_page.sticky_sidebar');
      await open(s, car);
      const bar = page.locator('[data-sticky-bar]');
      // Let the islands' answers arrive first (the finance quote grows above the
      // fold; scroll anchoring then moves scrollY past 900 while the test waits).
      await settled(page);
      await frames(page);
      await page.evaluate(() => window.scrollTo(0, 850));
      await frames(page);
      if (await bar.isVisible()) {
        const state = await page.evaluate(() => [scrollY, document.visibilityState, document.querySelector('[data-sticky-bar]')?.hidden, document.documentElement.scrollHeight]);
        throw new Error(`bar visible at 850 px (scrollY, visibility, hidden, height: ${JSON.stringify(state)})`);
      }
      await page.evaluate(() => window.scrollTo(0, 950));
      await bar.waitFor({ state: 'visible' });
      await bar.getByRole('link', { name: 'Enquire Now' }).waitFor();
      assertJsonEqual(await bar.locator('.sticky-bar__price').innerText(), car.price_text, 'price in the bar');
      await page.evaluate(() => window.scrollTo(0, 0));
      await bar.waitFor({ state: 'hidden' });
    });

    await test("the sticky bar's Enquire Now (#enquire) takes focus to the enquiry, not to <body>; the next Tab is in the form", async () => {
      const { site: s, car } = need(find((c, st) => st.site.detail_page.sticky_sidebar && c.in_stock), 'a dealer with detail_page.sticky_sidebar');
      await open(s, car);
      const bar = page.locator('[data-sticky-bar]');
      await page.evaluate(() => window.scrollTo(0, 950));
      await bar.waitFor({ state: 'visible' });
      await bar.getByRole('link', { name: 'Enquire Now' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/#enquire$/);
      const focus = await page.evaluate(() => (document.activeElement === document.body ? 'body' : (document.activeElement?.closest('#enquire') ? 'enquiry' : document.activeElement?.outerHTML.slice(0, 80))));
      assertJsonEqual(focus, 'enquiry', 'focus after Enquire Now');
      await page.keyboard.press('Tab');
      assert(await page.evaluate(() => !!document.activeElement?.closest('#enquire form')), `Tab after Enquire Now went to ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}`);
    });

    await test('phone footer after 50 px: Call Now works only while the car\'s location is open, in its own time zone', async () => {
      const { site: s, car } = need(find((c, st) => st.site.detail_page.sticky_mobile_footer && c.in_stock && st.site.locations.find((l) => l.id === c.location.id)?.hours.some((h) => h.department === 'sales')), 'a dealer with features.sticky_mobile_footer and a car at a location with sales hours');
      const none = sites.find((st) => !st.site.detail_page.sticky_mobile_footer);
      const footer = page.locator('[data-mobile-footer]');
      const call = footer.locator('[data-call]');
      const at = async (iso) => {
        await context.clock.setFixedTime(new Date(iso));
        await open(s, car, { width: 375, height: 812 });
        await page.evaluate(() => window.scrollTo(0, 30));
        await frames(page);
        assert(!(await footer.isVisible()), 'footer visible at 30 px');
        await page.evaluate(() => window.scrollTo(0, 60));
        await footer.waitFor({ state: 'visible' });
        // The footer's hours are checked once it shows (lib/car-page/call-now.ts sets data-open-now).
        await page.waitForFunction(() => document.querySelector('[data-mobile-footer]')?.hasAttribute('data-open-now'));
        return { href: await call.getAttribute('href'), disabled: await call.getAttribute('aria-disabled') };
      };
      try {
        const tz = s.site.locations.find((l) => l.id === car.location.id).timezone;
        need(tz === 'Australia/Brisbane', `the footer dealer's time zone (Australia/Brisbane expected, got ${tz})`);
        // Friday 20 November 2026, 10:00 in Brisbane (+10): open.
        const open10 = await at('2026-11-20T00:00:00Z');
        // A masked number's Call Now is a button that reveals it when pressed (the next test).
        const openHref = s.site.features.phone_reveal ? null : `tel:${car.location.phone.replace(/[^\d+]/g, '')}`;
        assertJsonEqual(open10, { href: openHref, disabled: null }, 'Call Now at 10:00 on a Friday');
        // Friday 20:00 in Brisbane (10:00Z): closed, though it is still business hours in Perth's 18:00? no: closed everywhere; and Sunday.
        assertJsonEqual(await at('2026-11-20T10:00:00Z'), { href: null, disabled: 'true' }, 'Call Now at 20:00');
        assertJsonEqual(await at('2026-11-22T00:00:00Z'), { href: null, disabled: 'true' }, 'Call Now on a Sunday');
        // 08:00 Brisbane is before opening although Sydney (+11) is already at 09:00.
        assertJsonEqual(await at('2026-11-19T22:00:00Z'), { href: null, disabled: 'true' }, 'Call Now at 08:00');
        await footer.getByText('closed now').waitFor();
      } finally {
        await context.clock.setFixedTime(clock);
      }
      if (none) {
        await open(none, none.cars.find((c) => c.in_stock), { width: 375, height: 812 });
        assertJsonEqual(await page.locator('[data-mobile-footer]').count(), 0, 'footer at a dealer without it');
      }
    });

    await test('a masked number (features.phone_reveal) is on no car page before a reveal; the sticky bar\'s Call Now reveals it, records the click and calls it', async () => {
      const masked = sites.filter((st) => st.site.features.phone_reveal);
      need(masked.length > 0 && sites.some((st) => !st.site.features.phone_reveal), 'a dealer masking the number and one showing it');
      const digits = (p) => p.replace(/[^\d]/g, '');
      for (const st of sites) {
        const main = digits(st.site.contact.phone);
        let pages = 0;
        for (const car of st.cars) {
          const file = path.join(st.dist, 'cars', car.slug, 'index.html');
          if (!fs.existsSync(file)) continue;
          pages++;
          // The dealer's own comments are shown as written (docs/behaviour/phone-reveal.md).
          const html = fs.readFileSync(file, 'utf8').replace(/<div class="comments__full"[\s\S]*?<\/div>|<div class="tabs__panel"[^>]*id="tab-dealer-comments-panel"[\s\S]*?<\/div>/g, '');
          const number = locationPhone(st.site, car);
          // The car's data carries it masked, as its page shows it.
          if (st.site.features.phone_reveal) assert(/X{4}$/.test(car.location.phone) && !car.location.phone.includes(number), `${st.site.slug} ${car.slug}: cars.json carries ${car.location.phone}`);
          // The site's own number (header, footer) is not the one the reveal hides.
          if (digits(number) === main) continue;
          const carries = html.includes(number) || html.includes(`tel:${digits(number)}`);
          assertJsonEqual(carries, !st.site.features.phone_reveal, `${st.site.slug} ${car.slug} carries ${number}`);
        }
        assert(pages > 0, `${st.site.slug}: no car pages read`);
        // Nor the search index (a public file the search pages fetch), nor a result card's Call Dealer.
        const index = fs.readFileSync(path.join(st.dist, 'search-index.json'), 'utf8');
        const numbers = [...new Set(st.cars.map((c) => locationPhone(st.site, c)).filter((n) => digits(n) !== main))];
        need(numbers.length > 0, `${st.site.slug}: a car at a location with a number of its own`);
        for (const number of numbers) assertJsonEqual(index.includes(number), !st.site.features.phone_reveal, `${st.site.slug} search-index.json carries ${number}`);
        if (st.site.features.phone_reveal) assert(!st.site.cards.buttons.includes('call_dealer'), `${st.site.slug}: result cards offer Call Dealer`);
      }
      const { site: s, car } = need(find((c, st) => st.site.features.phone_reveal && st.site.detail_page.sticky_sidebar && c.in_stock && digits(locationPhone(st.site, c)) !== digits(st.site.contact.phone)), 'a masked dealer with the sticky bar');
      const number = locationPhone(s.site, car);
      const reveals = [];
      // A tab of its own: the call ends in a tel: navigation, which leaves Chromium's tab waiting on the
      // external protocol (later clicks in that tab were lost); closing the tab ends it.
      const tab = await context.newPage();
      watch(tab);
      await tab.route(/\/api\/phone-reveal$/, (route) => {
        reveals.push(route.request().postDataJSON());
        return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ phone: number, location_id: car.location.id }) });
      });
      try {
        await tab.setViewportSize({ width: 1280, height: 900 });
        await tab.goto(carUrl(s, car), { waitUntil: 'load' });
        await tab.evaluate(() => window.scrollTo(0, 1200));
        const call = tab.locator('[data-sticky-bar] [data-reveal-call]');
        await call.waitFor({ state: 'visible' });
        await call.focus();
        await tab.keyboard.press('Enter');
        await tab.waitForFunction(() => document.querySelector('[data-sticky-bar] [data-reveal-call]')?.dataset.revealed);
        assertJsonEqual(await call.getAttribute('data-revealed'), `tel:${digits(number)}`, 'the number called');
        assertJsonEqual(reveals, [{ car_id: car.id, location_id: car.location.id, website_id: s.site.slug }], 'one reveal asked');
        const layer = await tab.evaluate(() => window.dataLayer.map((e) => e.event_id));
        assertJsonEqual(layer.filter((id) => id === 25).length, 1, `one phone click in the dataLayer (${layer})`);
        assert(layer.includes(4), `the car page view in the dataLayer (${layer})`);
      } finally {
        await tab.close();
      }
    });

    await test('every car page declares the analytics events of its actions on the built controls (docs/behaviour/analytics.md): 4 on load, 18 history report, 48 print, 49 share, 61 photo viewer', async () => {
      const seen = { 18: 0, 48: 0, 49: 0, 61: 0 };
      for (const st of sites) {
        for (const car of st.cars) {
          const file = path.join(st.dist, 'cars', car.slug, 'index.html');
          if (!fs.existsSync(file)) continue;
          const html = fs.readFileSync(file, 'utf8');
          assert(html.includes('data-event-load="4"'), `${st.site.slug} ${car.slug}: no page view event`);
          assert(html.includes(`<meta name="dealergen:events" content="events" data-api-base="${st.site.api_base}" data-sink="${st.site.features.analytics}" data-car="${car.id}"`) || html.includes(`<meta name="dealergen:events" content="events" data-api-base data-sink="${st.site.features.analytics}" data-car="${car.id}"`), `${st.site.slug} ${car.slug}: the events meta`);
          // Each control, as the components render it, with the event it sends.
          for (const [control, id] of [[/<a [^>]*href="https:\/\/reports\.[^"]*"[^>]*>/g, 18], [/<button [^>]*data-print[ >][^>]*>/g, 48], [/<a [^>]*data-share-popup[^>]*>|<button [^>]*data-copy-link[^>]*>/g, 49], [/<a [^>]*data-viewer-open=[^>]*>/g, 61]]) {
            for (const m of html.matchAll(control)) {
              assert(m[0].includes(`data-event="${id}"`), `${st.site.slug} ${car.slug}: ${m[0].slice(0, 120)} sends no ${id}`);
              seen[id]++;
            }
          }
        }
      }
      for (const [id, n] of Object.entries(seen)) need(n > 0, `a demo car page with the control of event ${id}`);
      // And on a real page, in Chromium: the view on load, then Copy link and the photo viewer.
      const { site: s, car } = need(find((c) => c.in_stock && c.images.length > 1), 'a car with photos');
      await open(s, car);
      const layer = () => page.evaluate(() => JSON.stringify((window.dataLayer ?? []).map((e) => e.event_id)));
      const pushed = async (id) => {
        try {
          await page.waitForFunction((want) => window.dataLayer?.some((e) => e.event_id === want), id, { timeout: 10_000 });
        } catch {
          throw new Error(`event ${id} not in the dataLayer (${await layer()})`);
        }
      };
      await pushed(4);
      await page.locator('[data-copy-link]').click();
      await pushed(49);
      await page.locator('[data-viewer-open]').first().click();
      await pushed(61);
      await page.keyboard.press('Escape');
    });

    // --------------------------------------------------------- metadata
    await test('JSON-LD Car with an AUD Offer, odometer in KMT, VIN, stock number as sku, the location as AutoDealer; Open Graph and canonical', async () => {
      const { site: s, car } = need(find((c) => c.in_stock && c.price > 10 && c.vin && c.stocknum && c.images.length > 0), 'a priced car with a VIN, stock number and photos');
      await open(s, car);
      const ld = JSON.parse(await page.locator('script[type="application/ld+json"]').first().textContent());
      const url = `${s.site.base_url}/cars/${car.slug}/`;
      assertJsonEqual([ld['@type'], ld.url, ld.vehicleIdentificationNumber, ld.sku], ['Car', url, car.vin, car.stocknum], 'Car');
      assertJsonEqual(ld.mileageFromOdometer, { '@type': 'QuantitativeValue', value: car.km, unitCode: 'KMT' }, 'odometer');
      assertJsonEqual([ld.offers.priceCurrency, ld.offers.price, ld.offers.availability], ['AUD', car.price, 'https://schema.org/InStock'], 'offer');
      const location = s.site.locations.find((l) => l.id === car.location.id);
      // A masked number is left out of the seller (its url, the location's page, has it).
      const telephone = s.site.features.phone_reveal ? undefined : location.phone;
      assertJsonEqual([ld.offers.seller['@type'], ld.offers.seller.name, ld.offers.seller.telephone], ['AutoDealer', location.name, telephone], 'seller');
      const meta = async (p) => page.locator(`meta[property="${p}"]`).getAttribute('content');
      assertJsonEqual([await meta('og:type'), await meta('og:url')], ['product', url], 'Open Graph');
      assert((await meta('og:image')).startsWith(`${s.site.base_url}/`), 'og:image is absolute');
      assertJsonEqual(await page.locator('link[rel="canonical"]').getAttribute('href'), url, 'canonical');
    });

    await test('axe: no violations on car page variants at 375 and 1280 px (tabs, collapsed lists, badges, sold, no photos, caravan)', async () => {
      const variants = [
        need(find((c) => c.detail.certified), 'a certified car'),
        need(find((c) => c.status === 'sold'), 'a sold car'),
        need(find((c) => c.images.length === 0), 'a car without photos'),
        need(find((c) => c.specs.some((r) => r.label === 'Body length')), 'a caravan'),
        need(find((c) => c.detail.service_advantage), 'a car with Service Advantage'),
        need(find((c) => c.detail.below_market), 'a below-market car'),
      ];
      const problems = [];
      for (const [width, height] of [[375, 812], [1280, 900]]) {
        for (const { site: s, car } of variants) {
          await open(s, car, { width, height });
          for (const v of await axe()) problems.push(`${width}px /cars/${car.slug}/: ${v}`);
        }
        // The phone footer and the sticky bar, shown.
        const sticky = find((c, st) => (width < 768 ? st.site.detail_page.sticky_mobile_footer : st.site.detail_page.sticky_sidebar) && c.in_stock);
        if (sticky) {
          await open(sticky.site, sticky.car, { width, height });
          await page.evaluate(() => window.scrollTo(0, 1000));
          await page.locator(width < 768 ? '[data-mobile-footer]' : '[data-sticky-bar]').waitFor({ state: 'visible' });
          for (const v of await axe()) problems.push(`${width}px sticky /cars/${sticky.car.slug}/: ${v}`);
        }
      }
      assertJsonEqual(problems.length, 0, `violations:\n${problems.slice(0, 8).join('\n')}`);
    });

    await test('nothing left 127.0.0.1, every resource loaded, no page errors', async () => {
      assertJsonEqual(outside.length, 0, `requests to other hosts: ${[...new Set(outside)].slice(0, 4).join(', ')}`);
      assertJsonEqual(failed.length, 0, `failed responses: ${[...new Set(failed)].slice(0, 4).join(', ')}`);
      assertJsonEqual(errors.length, 0, `errors: ${errors.slice(0, 4).join(' | ')}`);
      assert(shared.length > 0, 'the share window never opened');
    });
  });
}

await run(main);
