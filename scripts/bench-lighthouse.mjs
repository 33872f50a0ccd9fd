/**
 * Lighthouse benchmark (not a test): mobile scores in all four categories
 * (performance, accessibility, best practices, SEO) and the Core Web Vitals
 * of a built site's main page types (home, /search/used-cars/, a car page
 * with photos, contact), served on 127.0.0.1, median of N runs. The goals
 * are printed next to the figures: performance >= 95 and
 * accessibility 100 on mobile; `--strict` exits 1 when a page misses one.
 *   node scripts/bench-lighthouse.mjs [sites/<slug>/dist] [runs, default 3] [--strict]
 * Lighthouse comes from the npm registry on first use (npm exec), pinned;
 * Chromium is Debian's (installed by scripts/install.sh). Nothing leaves the machine.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { CHROMIUM } from './lib/chromium.mjs';
import { serveInWorkerd } from './lib/workerd-site.mjs';

const LIGHTHOUSE = 'lighthouse@13.5.0';
// Async: the site is served from this process, so it must not block.
const run = promisify(execFile);
const args = process.argv.slice(2).filter((a) => a !== '--strict');
const strict = process.argv.includes('--strict');
const dist = path.resolve(args[0] ?? 'sites/brisbane-motor-group/dist');
const runs = Number(args[1] ?? 3);
const cars = JSON.parse(fs.readFileSync(path.join(dist, '..', 'src', 'data', 'cars.json'), 'utf8'));
// A car page with what real stock has: several full-size photos, the sidebar, finance.
const car = cars.find((c) => c.images.length >= 8 && c.in_stock && c.price > 0) ?? cars.find((c) => c.images.length > 0 && c.in_stock) ?? cars[0];
const site = JSON.parse(fs.readFileSync(path.join(dist, '..', 'src', 'data', 'site.json'), 'utf8'));
const search = site.search.landing_pages.some((l) => l.path === 'used-cars') ? '/search/used-cars/' : '/search/';
// The content pages too, when the dealer has them: a location, offers, an offer, models, a model.
const offer = site.content?.offers.items[0];
const table = JSON.parse(fs.readFileSync(path.join(dist, '..', 'src', 'data', 'pages.json'), 'utf8'));
const model = table.find((p) => p.kind === 'model')?.path;
const pages = [
  '/',
  search,
  `/cars/${car.slug}/`,
  '/contact-us/',
  site.locations[0] && `/contact-us/${site.locations[0].slug}/`,
  '/special-offers/',
  offer?.path,
  model && '/models/',
  model,
].filter(Boolean);
const GOALS = { performance: 95, accessibility: 100 };
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

const tmp = path.resolve('.tmp/lighthouse');
fs.mkdirSync(tmp, { recursive: true });
// The edge API as a signed-out visit sees it, so the pages' calls succeed as
// in production (a missing API would count as console errors).
const api = http.createServer((req, res) => {
  const p = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const body = p.endsWith('/view.json') ? { views: 12 } : p === '/api/auth/me' ? { signed_in: false } : p === '/api/youx/quote' ? { weeklyRepaymentAmount: 123, comparisonRate: 9.1, advertisedRate: 8.5 } : {};
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
await new Promise((r) => api.listen(0, '127.0.0.1', r));
// Served by workerd as the site worker serves it (compressed, its headers).
const server = await serveInWorkerd(dist, { apiOrigin: `http://127.0.0.1:${api.address().port}` });
const { origin } = server;
const flags = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  '--host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"',
].join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const misses = [];
try {
  console.log(`Lighthouse ${LIGHTHOUSE}, mobile, median of ${runs} run(s), ${origin}; goals: performance >= ${GOALS.performance}, accessibility ${GOALS.accessibility}`);
  console.log('page                                        perf  a11y    bp   seo   LCP ms   FCP ms   TBT ms     CLS  goals');
  for (const p of pages) {
    const rows = [];
    for (let i = 0; i < runs; i++) {
      const out = path.join(tmp, 'report.json');
      await run('npm', ['exec', '--yes', `--package=${LIGHTHOUSE}`, '--', 'lighthouse', origin + p,
        '--output=json', `--output-path=${out}`, '--quiet', `--only-categories=${CATEGORIES.join(',')}`, `--chrome-flags=${flags}`], {
        env: { ...process.env, CHROME_PATH: CHROMIUM, TMPDIR: tmp },
        maxBuffer: 64 * 1024 * 1024,
      });
      const r = JSON.parse(fs.readFileSync(out, 'utf8'));
      const a = r.audits;
      rows.push({
        perf: Math.round(r.categories.performance.score * 100),
        a11y: Math.round(r.categories.accessibility.score * 100),
        bp: Math.round(r.categories['best-practices'].score * 100),
        seo: Math.round(r.categories.seo.score * 100),
        failing: CATEGORIES.flatMap((c) => r.categories[c].auditRefs.filter((a) => a.weight > 0 && r.audits[a.id].score !== null && r.audits[a.id].score < 1 && c !== 'performance').map((a) => `${c}:${a.id}`)),
        lcp: a['largest-contentful-paint'].numericValue,
        fcp: a['first-contentful-paint'].numericValue,
        tbt: a['total-blocking-time'].numericValue,
        cls: a['cumulative-layout-shift'].numericValue,
        // What Lighthouse says could still be saved (render-blocking CSS,
        // unused JavaScript, image sizes...): its estimate in ms and bytes.
        savings: Object.entries(a)
          .filter(([, x]) => x.score !== null && x.score < 1)
          .map(([id, x]) => {
            const ms = Math.max(0, ...Object.values(x.metricSavings ?? {}).map(Number), x.details?.overallSavingsMs ?? 0);
            const bytes = x.details?.overallSavingsBytes ?? 0;
            return { id, ms, bytes };
          })
          .filter((x) => x.ms >= 50 || x.bytes >= 10 * 1024),
      });
    }
    const m = (k) => median(rows.map((r) => r[k]));
    const missed = [m('perf') < GOALS.performance && 'performance', m('a11y') < GOALS.accessibility && 'accessibility'].filter(Boolean);
    if (missed.length) misses.push(`${p}: ${missed.join(', ')}`);
    console.log(
      `${p.slice(0, 42).padEnd(42)} ${[m('perf'), m('a11y'), m('bp'), m('seo')].map((x) => String(x).padStart(5)).join(' ')} ${m('lcp').toFixed(0).padStart(8)} ${m('fcp').toFixed(0).padStart(8)} ${m('tbt').toFixed(0).padStart(8)} ${m('cls').toFixed(3).padStart(7)}  ${missed.length ? `MISSED ${missed.join(', ')}` : 'met'}`,
    );
    const audits = [...new Set(rows.flatMap((r) => r.failing))];
    if (audits.length) console.log(`${''.padEnd(43)}audits not passed: ${audits.join(', ')}`);
    // The last run's estimated savings (50 ms or 10 KiB and more).
    const saved = rows.at(-1)?.savings ?? [];
    if (saved.length) console.log(`${''.padEnd(43)}could save: ${saved.map((x) => `${x.id} ${[x.ms && `${Math.round(x.ms)} ms`, x.bytes && `${Math.round(x.bytes / 1024)} KiB`].filter(Boolean).join(', ')}`).join('; ')}`);
  }
} finally {
  await server.close();
  api.close();
}
if (misses.length) console.log(`goals missed: ${misses.join('; ')}`);
if (strict && misses.length) process.exit(1);
