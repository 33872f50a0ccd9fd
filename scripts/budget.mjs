#!/usr/bin/env node
/**
 * Size budgets of what shoppers download, printed as figures; exits 1 when
 * one is exceeded (a gate in scripts/test.sh).
 *
 *   node scripts/budget.mjs [sites/<slug>/dist]   (default: sites/brisbane-motor-group/dist)
 *
 * Each budget is at most 25% above the figure measured when it was set
 * (printed as "set at"), so growth past it is a decision (raise the budget
 * here, with the reason) rather than an accident. Gzip level 9 throughout.
 *
 * 1. Search page JavaScript on top of the React runtime every island page
 *    shares: the scripts /search/ loads (the island, its chunks, lazily
 *    loaded chunks such as the hosted client, the inline island loader)
 *    minus the React renderer's own chunks. 19.3 KB when set; 24 KB.
 * 2. The home page's "Show me N cars" widget: its island and every chunk
 *    it loads, eagerly or on the first change (the search client, the
 *    engine, base filters, cache and URL code, the hosted client's lazy
 *    chunk), minus the React runtime. 8.0 KB when set; 10 KB. It needs the
 *    search client but none of the island's filters, cards or sliders, so
 *    it stays far under the search page's figure; the budget also catches
 *    it pulling in the whole search island again (it once did, through one
 *    shared constant: 12.7 KB). It hydrates only when visible.
 * 3. The embedded index for 2,000 cars: the generator builds a dealer whose
 *    feed is the demo feed grown to 2,000 cars (new ids, slugs, stock
 *    numbers, VINs and per-car CDN-style photo URLs, so nothing compresses
 *    better than real stock would) with --no-astro; its search-index.json.
 *    58.3 KB when set; 72 KB. The island fetches it on the first search.
 * 4. The embedded search engine alone (lib/search/engine.ts and what it
 *    imports, minified by esbuild as Vite does, gzip): what every search
 *    page runs for filters, facets, sort and paging. The goal is
 *    6 KB; 3.8 KB when set; 4.7 KB.
 * 5. Its keyword planner (lib/search/query-plan.ts: vocabulary, typos,
 *    synonyms, intents, scores), a chunk of its own loaded on the first
 *    keyword or when the keyword box gets focus. 4.4 KB when set; 5.5 KB.
 *    Together with the engine it is above the 6 KB goal for the
 *    engine: printed, so the figure is not lost.
 * Search page JavaScript grew from 19.3 KB to 25.4 KB with the keyword
 * search (the keyword planner chunk, suggestions, chips, folded facets,
 * compare and favourites): with React's 67.2 KB, 92.6 KB, within the 101 KB goal;
 * the budget is 31 KB, 22% above the new figure; raised to 32.5 KB for
 * analytics: every page now records its analytics events (phone
 * clicks on any tel: link, the fleet enquiry) to the dealer's dataLayer,
 * and the event sender it loads on the first event (events + api chunks,
 * 1.4 KB, counted here because this figure includes lazily loaded chunks)
 * took the page from 30.8 to 31.7 KB.
 * 6. Car pages (carPageBudgets): the JavaScript a car page loads up front,
 *    in Chromium at 375 and 1,280 px without scrolling (React, the islands
 *    hydrated on load, idle or already visible; the calculator, enquiry form
 *    and other below-the-fold islands wait until scrolled to), for the
 *    first car, a car with lender figures, one asking for a quote and one
 *    in stock with photos and every sidebar button, the
 *    largest: 76.4 KB when set; 84 KB (the calculator must not be among
 *    them). The HTML of every car page, gzip, the largest: 9.4 KB when set;
 *    20 KB, a ceiling above the 25% rule (CAR_PAGE_HTML says why). The
 *    finance calculator island and its chunks over the React runtime (it
 *    loads when scrolled to; some chunks are shared with the islands
 *    already loaded): 5.5 KB when set; 6.9 KB.
 * The e2e test (scripts/e2e/site.mjs) also caps what its own visit to the
 * first car page loads (88 KB); the worker's wasm is capped by
 * scripts/edge/build.sh.
 * 7. The home page's own script (no island: the content windows, the
 *    sliders' buttons, the popup; lib/content/home.ts) and everything it
 *    imports (the windows chunk it shares with the offer pages). 1.2 KB
 *    when set; 1.5 KB, raised to 1.7 KB for the popup's focus rules: the popup
 *    now opens on scrolling or after a delay, waits while a field has
 *    focus, and gives focus back where it was when closed (1.58 KB
 *    measured); a popup that takes the first key press is the bug it
 *    fixes. The New Vehicles mega-menu adds
 *    nothing to any page until it is opened (its cards are fetched then;
 *    its code is in the header menus' script, capped by
 *    scripts/e2e/keyboard.mjs, as is the hours tables' script).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './lib/chromium.mjs';
import { serveInWorkerd } from './lib/workerd-site.mjs';
import { dealergenBin } from './lib/dealergen.mjs';
import { htmlFiles } from './pr-pictures/pages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.argv[2] ?? path.join(root, 'sites/brisbane-motor-group/dist'));
/**
 * KB gzip: the figure when the budget was set (2026-11-23), and the budget.
 * The search page: 32.5 -> 32.7 KB for three findings of a browser walk
 * (issue 39): Escape closes the phone's filter panel and the panel ends
 * with "Show N cars" (focus to the results), and a price slider beside a
 * search with no results says its chip's ends: 32.45 -> 32.56 KB, and
 * 0.14 KB of room, as chunk sizes move by some bytes between builds (a
 * budget with 22 bytes of room failed a fresh clone's run).
 * 32.7 -> 33.0 KB when the car page lost React up front (issue 39 finding
 * 11): the toast is drawn by framework-free code (lib/toast-host.ts) that
 * the search cards' React <Toast> now calls too, and the Save rules moved
 * to lib/save-car.ts for both pages; two chunks where React drew it made
 * the search page 32.56 -> 32.8 KB, for 67.5 KB off every car page.
 */
const SEARCH_JS = { setAt: 25.4, budget: 33.0 };
const ENGINE_JS = { setAt: 3.8, budget: 4.7 };
const PLANNER_JS = { setAt: 4.4, budget: 5.5 };
/** The size goal for the engine (scripts/bench-search.mjs measures its speed). */
const ENGINE_GOAL_KB = 6;
// The home page's "Show me N cars": set at 8.0 KB as a React island (React's
// 67 KB runtime not counted); since issue 39 a plain script (9.8 KB with the
// search client it loads on the first change), and no React on the page.
const HOME_WIDGET_JS = { setAt: 8.0, budget: 10 };
const INDEX_2000 = { setAt: 58.3, budget: 72 };
const HOME_CONTENT_JS = { setAt: 1.2, budget: 1.7 };
const CARS = 2000;
// 81 -> 82 KB at stop 18: the sticky bar's focus fix (a bar that appears
// over the focused element moves it above the bar; WCAG 2.4.11) added
// about 0.1 KB to the car page's own script, which was at 81.0.
// 82 -> 84 KB for analytics: a car page records its view (event 4)
// once loaded, so the event sender (events + api chunks, 1.4 KB) loads up
// front on every car page; the page went from 81.5 to 83.1 KB.
// 84 -> 20 KB at stop 53 (issue 39 finding 11: at most 80 KB up front):
// the views line, Favourite, Save to Watchlist and the finance quote are
// Astro components with small scripts, so no React loads up front
// (83.2 -> 15.7 KB); React comes with the enquiry form when it scrolls
// into view, or with a first touch of the phone reveal or Make an Offer.
const CAR_PAGE_UPFRONT_JS = { setAt: 15.7, budget: 20 };
// A fixed ceiling for a car page, above the 25% rule on purpose: the
// page is still gaining its gallery, specification tabs and sharing.
const CAR_PAGE_HTML = { setAt: 9.4, budget: 20 };
const CALCULATOR_JS = { setAt: 5.5, budget: 6.9 };

const kb = (bytes) => bytes / 1024;
/** "+3.1%" / "-0.4%" / "0%": the figure against the one the budget was set at. */
function change(now, then) {
  const pct = Math.round(((now - then) / then) * 1000) / 10;
  return pct === 0 ? '0%' : `${pct > 0 ? '+' : ''}${pct}%`;
}
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const results = [];
function check(name, valueKb, { setAt, budget }, detail = '') {
  const ok = valueKb <= budget;
  results.push(ok);
  console.log(`${ok ? 'ok  ' : 'OVER'} ${name}: ${valueKb.toFixed(1)} KB gzip (budget ${budget} KB; ${setAt.toFixed(1)} KB when set, ${change(valueKb, setAt)})${detail ? `  ${detail}` : ''}`);
}

/** A chunk and every chunk it imports, statically or lazily (site paths like /_astro/x.js). */
function closure(entry, seen = new Set(), { lazy = true } = {}) {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const file = path.join(dist, entry);
  const text = fs.readFileSync(file, 'utf8');
  const dir = path.posix.dirname(entry);
  for (const m of text.matchAll(/(?:import|from)\s*\(?\s*"(\.{1,2}\/[^"]+\.js)"/g)) closure(path.posix.join(dir, m[1]), seen, { lazy });
  // Vite lists lazily loaded chunks (dynamic imports) in __vite__mapDeps, relative to the site root.
  if (lazy) for (const m of text.matchAll(/"(_astro\/[^"]+\.js)"/g)) closure(`/${m[1]}`, seen, { lazy });
  return seen;
}

/**
 * Whether a chunk is React's runtime, which every island page shares and no
 * budget here counts: the renderer's chunks and their imports, and React's
 * JSX runtime, whichever chunk Vite puts it in (a chunk of its own once a
 * page has several islands).
 */
function reactRuntime(html) {
  const renderers = [...html.matchAll(/renderer-url="([^"]+)"/g)].map((m) => m[1]);
  const runtime = new Set(renderers.flatMap((r) => [...closure(r)]));
  return { has: (f) => runtime.has(f) || /\/jsx-runtime\.[^/]+\.js$/.test(f), renderer: [...runtime] };
}

function searchPageJs() {
  const html = fs.readFileSync(path.join(dist, 'search/index.html'), 'utf8');
  const components = [...html.matchAll(/component-url="([^"]+)"/g)].map((m) => m[1]);
  const modules = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
  if (components.length === 0) throw new Error('/search/ has no island (component-url missing)');
  const runtime = reactRuntime(html);
  const page = new Set([...components, ...modules].flatMap((c) => [...closure(c)]));
  const own = [...page].filter((f) => !runtime.has(f));
  const ownBytes = own.reduce((sum, f) => sum + gz(fs.readFileSync(path.join(dist, f))), 0);
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
  const inlineBytes = gz(Buffer.from(inline));
  const runtimeBytes = runtime.renderer.reduce((sum, f) => sum + gz(fs.readFileSync(path.join(dist, f))), 0);
  check(
    'search page JavaScript over the React runtime',
    kb(ownBytes + inlineBytes),
    SEARCH_JS,
    `(${own.length} chunks ${kb(ownBytes).toFixed(1)} KB + inline loader ${kb(inlineBytes).toFixed(1)} KB; React runtime ${kb(runtimeBytes).toFixed(1)} KB not counted)`,
  );
}

function homeWidgetJs() {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  // The form was the home page's only React island: React (67 KB gzip) on the most visited page for two selects and a button.
  if (/<astro-island/.test(html)) throw new Error('the home page has a React island: it was meant to ship no React (components/search/ShowMe.astro)');
  const entry = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]).find((u) => /\/ShowMe\.astro_astro_type_script[^/]*\.js$/.test(u));
  if (!entry) throw new Error('the home page has no "Show me N cars" script (ShowMe.astro\'s <script> missing)');
  // Its module and what it loads on the first change (the search client).
  const own = [...closure(entry)];
  const bytes = own.reduce((sum, f) => sum + gz(fs.readFileSync(path.join(dist, f))), 0);
  check('home page "Show me N cars" JavaScript (no React)', kb(bytes), HOME_WIDGET_JS, `(${own.length} chunks: ${own.map((f) => path.posix.basename(f).replace(/\.[^.]+\.js$/, '')).join(', ')})`);
}

function homeContentJs() {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entry = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]).find((u) => /\/HomePage\.astro_astro_type_script[^/]*\.js$/.test(u));
  if (!entry) throw new Error("the home page has no script of its own (HomePage.astro's <script> missing)");
  const files = [...closure(entry)];
  const bytes = files.reduce((sum, f) => sum + gz(fs.readFileSync(path.join(dist, f))), 0);
  check("home page's own script (content windows, sliders, popup)", kb(bytes), HOME_CONTENT_JS, `(${files.length} file${files.length === 1 ? '' : 's'})`);
}

function index2000() {
  const work = path.join(root, '.tmp/budget');
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(path.join(work, 'dealers/stock'), { recursive: true });
  const base = JSON.parse(fs.readFileSync(path.join(root, 'dealers/stock/brisbane-motor-group.json'), 'utf8'));
  // Only cars the dealer would show, so the index really holds 2,000.
  const shown = base.filter((c) => c.show_on_dealer_website !== false && c.status !== 'sold' && (c.photos_count ?? c.images?.length ?? 0) >= 3);
  const now = new Date().toISOString();
  const feed = Array.from({ length: CARS }, (_, i) => {
    const c = structuredClone(shown[i % shown.length]);
    const id = 900000 + i;
    c.id = id;
    c.slug = `${c.slug.replace(/-\d+$/, '')}-${id}`;
    c.stocknum = `BG${String(id * 7919).slice(-6)}`;
    c.vin = `${(c.vin ?? 'MR0FR22G000000000').slice(0, 11)}${String(id * 104729).slice(-6)}`;
    c.created_at = new Date(Date.parse(now) - (i % 90) * 86_400_000 - i * 1000).toISOString();
    const key = (id * 2654435761) % 4294967296;
    c.images = Array.from({ length: 4 }, (_, k) => ({ url: `https://images.dealergen.example/cars/${id}/${key.toString(16)}-${k + 1}.jpg` }));
    c.photos_count = c.images.length;
    return c;
  });
  fs.writeFileSync(path.join(work, 'dealers/stock/budget.json'), JSON.stringify(feed));
  const yaml = fs
    .readFileSync(path.join(root, 'dealers/brisbane-motor-group.yaml'), 'utf8')
    .replace(/^(\s*feed:\s*).*$/m, '$1stock/budget.json');
  fs.writeFileSync(path.join(work, 'dealers/budget-dealer.yaml'), yaml);
  // The dealer's own folder (its Markdown pages, which its gated routes name).
  fs.cpSync(path.join(root, 'dealers/brisbane-motor-group'), path.join(work, 'dealers/budget-dealer'), { recursive: true });
  fs.copyFileSync(path.join(root, 'dealers/dealer.schema.json'), path.join(work, 'dealers/dealer.schema.json'));
  const run = spawnSync(
    dealergenBin(),
    ['--root', root, '--dealers-dir', path.join(work, 'dealers'), '--sites-dir', path.join(work, 'sites'), 'build', '--dealer', 'budget-dealer', '--no-astro'],
    { cwd: root, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`dealergen failed:\n${run.stdout}${run.stderr}`);
  const indexFile = path.join(work, 'sites/budget-dealer/src/data/search-index.json');
  const index = JSON.parse(fs.readFileSync(indexFile, 'utf8'));
  if (index.count !== CARS) throw new Error(`the index holds ${index.count} cars, expected ${CARS}`);
  const raw = fs.readFileSync(indexFile);
  check(`embedded index for ${CARS} cars`, kb(gz(raw)), INDEX_2000, `(${kb(raw.length).toFixed(0)} KB raw)`);
  fs.rmSync(work, { recursive: true, force: true });
}

/** One module and its imports bundled and minified as Vite does (esbuild), gzip bytes. */
function bundled(entry) {
  const run = spawnSync(path.join(root, 'node_modules/.bin/esbuild'), [entry, '--bundle', '--format=esm', '--minify', '--log-level=error'], { cwd: root, maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`esbuild ${entry}: ${run.stderr}`);
  return gz(run.stdout);
}

function engineJs() {
  const engine = kb(bundled('astro-app/src/lib/search/engine.ts'));
  const planner = kb(bundled('astro-app/src/lib/search/query-plan.ts'));
  check('embedded search engine (filters, facets, sort, paging)', engine, ENGINE_JS, `(issue goal ${ENGINE_GOAL_KB} KB)`);
  check('keyword planner chunk (loaded on the first keyword)', planner, PLANNER_JS, `(engine + planner ${(engine + planner).toFixed(1)} KB: ${engine + planner <= ENGINE_GOAL_KB ? 'within' : 'above'} the ${ENGINE_GOAL_KB} KB goal)`);
}

/**
 * Car pages: what loads up front (measured in Chromium: no scrolling, every
 * island that hydrates on load, idle or visibility and is already in view),
 * the HTML, and the calculator island (loaded when scrolled to).
 */
async function carPageBudgets() {
  const cars = JSON.parse(fs.readFileSync(path.join(dist, '../src/data/cars.json'), 'utf8'));
  const pick = [cars[0], cars.find((c) => c.finance?.lender && c.finance?.calculator), cars.find((c) => c.finance?.quote), cars.find((c) => c.in_stock && c.price > 0 && c.images.length >= 2 && c.detail.sidebar_buttons.length > 2)].filter(Boolean);
  if (pick.length < 4) throw new Error('car pages: the data lacks a car with lender figures, one asking for a quote or one in stock with photos and every sidebar button');
  const server = await serveInWorkerd(dist);
  const { origin } = server;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-budget-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, serviceWorkers: 'block' });
  // The edge's answers, so islands behave as on a live site (a quote shows).
  await context.route(/\/api\//, (route) => {
    const url = route.request().url();
    const body = url.includes('/youx/quote') ? { weeklyRepaymentAmount: 99, comparisonRate: 9.1, advertisedRate: 8.5 } : url.includes('/auth/me') ? { signed_in: false } : { views: 1 };
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  });
  let worst = { kb: 0, what: '' };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    for (const [width, height] of [[375, 812], [1280, 900]]) {
      await page.setViewportSize({ width, height });
      for (const car of pick) {
        const scripts = new Set();
        const onRequest = (req) => req.resourceType() === 'script' && scripts.add(new URL(req.url()).pathname);
        page.on('request', onRequest);
        await page.goto(`${origin}/cars/${car.slug}/`, { waitUntil: 'networkidle' });
        // client:idle islands hydrate after the load, in an idle callback.
        await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 300))));
        await page.waitForLoadState('networkidle');
        page.off('request', onRequest);
        const html = fs.readFileSync(path.join(dist, `cars/${car.slug}/index.html`), 'utf8');
        const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
        const bytes = [...scripts].reduce((sum, s) => sum + gz(fs.readFileSync(path.join(dist, s))), 0) + gz(Buffer.from(inline));
        if (kb(bytes) > worst.kb) worst = { kb: kb(bytes), what: `${width}px /cars/${car.slug}/, ${scripts.size} scripts: ${[...scripts].map((s) => path.posix.basename(s).replace(/\.[^.]+\.js$/, '')).join(', ')}` };
        if ([...scripts].some((s) => s.includes('FinanceCalculator'))) throw new Error(`the finance calculator loaded up front on /cars/${car.slug}/ at ${width}px`);
      }
    }
  } finally {
    await context.close();
    await server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  check('car page JavaScript up front (largest)', worst.kb, CAR_PAGE_UPFRONT_JS, `(${worst.what})`);

  // Every car's page (cars/ also holds each car's .json and the trade-in page).
  const sizes = cars.map((c) => c.slug).map((slug) => [slug, gz(fs.readFileSync(path.join(dist, 'cars', slug, 'index.html')))]);
  sizes.sort((a, b) => b[1] - a[1]);
  const median = sizes[Math.floor(sizes.length / 2)][1];
  check('car page HTML (largest)', kb(sizes[0][1]), CAR_PAGE_HTML, `(/cars/${sizes[0][0]}/; median ${kb(median).toFixed(1)} KB over ${sizes.length} pages)`);

  const html = fs.readFileSync(path.join(dist, `cars/${pick[1].slug}/index.html`), 'utf8');
  const calculator = [...html.matchAll(/component-url="([^"]+)"/g)].map((m) => m[1]).find((u) => /\/FinanceCalculator\.[^/]+\.js$/.test(u));
  if (!calculator) throw new Error('the car page has no finance calculator island (FinanceCalculator component-url missing)');
  const runtime = reactRuntime(html);
  // Its own chunks, minus the React runtime: what it imports statically
  // (the enquiry form it opens in a dialog, and that form's chunks, load
  // only on the first open).
  const own = [...closure(calculator, new Set(), { lazy: false })].filter((f) => !runtime.has(f));
  const bytes = own.reduce((sum, f) => sum + gz(fs.readFileSync(path.join(dist, f))), 0);
  check('finance calculator island over the React runtime', kb(bytes), CALCULATOR_JS, `(${own.length} chunks: ${own.map((f) => path.posix.basename(f).replace(/\.[^.]+\.js$/, '')).join(', ')}; loads when scrolled to)`);
}

/**
 * Every page waits for at most one stylesheet: the site's, one cached file;
 * a page type's own CSS is inlined (templates/site/astro.config.mjs.j2,
 * assetsInlineLimit). A second render-blocking stylesheet cost the car and
 * content pages 100-150 ms in Lighthouse (issue 39 finding 10).
 */
function stylesheetsPerPage() {
  let worst = { links: -1, page: '' };
  const pages = htmlFiles(dist);
  for (const file of pages) {
    const links = (fs.readFileSync(path.join(dist, file), 'utf8').match(/<link[^>]*rel="stylesheet"[^>]*>/g) ?? []).length;
    if (links > worst.links) worst = { links, page: `/${file}` };
  }
  const ok = worst.links <= 1;
  results.push(ok);
  console.log(`${ok ? 'ok  ' : 'OVER'} render-blocking stylesheets per page: at most ${worst.links} (budget 1) over ${pages.length} pages (most: ${worst.page})`);
}

try {
  stylesheetsPerPage();
  searchPageJs();
  homeWidgetJs();
  engineJs();
  homeContentJs();
  index2000();
  await carPageBudgets();
} catch (error) {
  results.push(false);
  console.log(`FAIL ${error?.message ?? error}`);
}
process.exit(results.every(Boolean) ? 0 : 1);
