#!/usr/bin/env node
/**
 * Lighthouse benchmark (not a test): mobile scores and Core Web Vitals of a
 * built site's main page types, served on 127.0.0.1, median of N runs.
 *   node scripts/bench-lighthouse.mjs [sites/<slug>/dist] [runs, default 3]
 * Lighthouse comes from the npm registry on first use (npm exec), pinned;
 * Chromium is Debian's (installed by scripts/install.sh). Nothing leaves the machine.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM } from './lib/chromium.mjs';
import { startServer } from './lib/static-server.mjs';

const LIGHTHOUSE = 'lighthouse@13.5.0';
// Async: the site is served from this process, so it must not block.
const run = promisify(execFile);
const dist = path.resolve(process.argv[2] ?? 'sites/brisbane-motor-group/dist');
const runs = Number(process.argv[3] ?? 3);
const cars = JSON.parse(fs.readFileSync(path.join(dist, '..', 'src', 'data', 'cars.json'), 'utf8'));
const site = JSON.parse(fs.readFileSync(path.join(dist, '..', 'src', 'data', 'site.json'), 'utf8'));
const car = cars.find((c) => c.images.length > 0 && c.in_stock) ?? cars[0];
// The content pages too, when the dealer has them: a location, offers, an offer, models, a model.
const offer = site.content?.offers.items[0];
const model = site.content?.models.find((m) => m.page);
const pages = [
  '/',
  '/search/',
  `/cars/${car.slug}/`,
  '/contact-us/',
  site.locations[0] && `/contact-us/${site.locations[0].slug}/`,
  '/special-offers/',
  offer?.path,
  model && '/models/',
  model?.page,
].filter(Boolean);

const tmp = path.resolve('.tmp/lighthouse');
fs.mkdirSync(tmp, { recursive: true });
const server = await startServer(dist);
const origin = `http://127.0.0.1:${server.address().port}`;
const flags = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  '--host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"',
].join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  console.log(`Lighthouse ${LIGHTHOUSE}, mobile, median of ${runs} run(s), ${origin}`);
  console.log('page                                        perf   LCP ms   FCP ms   TBT ms     CLS');
  for (const p of pages) {
    const rows = [];
    for (let i = 0; i < runs; i++) {
      const out = path.join(tmp, 'report.json');
      await run('npm', ['exec', '--yes', `--package=${LIGHTHOUSE}`, '--', 'lighthouse', origin + p,
        '--output=json', `--output-path=${out}`, '--quiet', '--only-categories=performance', `--chrome-flags=${flags}`], {
        env: { ...process.env, CHROME_PATH: CHROMIUM, TMPDIR: tmp },
        maxBuffer: 64 * 1024 * 1024,
      });
      const r = JSON.parse(fs.readFileSync(out, 'utf8'));
      const a = r.audits;
      rows.push({
        perf: Math.round(r.categories.performance.score * 100),
        lcp: a['largest-contentful-paint'].numericValue,
        fcp: a['first-contentful-paint'].numericValue,
        tbt: a['total-blocking-time'].numericValue,
        cls: a['cumulative-layout-shift'].numericValue,
      });
    }
    const m = (k) => median(rows.map((r) => r[k]));
    console.log(
      `${p.slice(0, 42).padEnd(42)} ${String(m('perf')).padStart(5)} ${m('lcp').toFixed(0).padStart(8)} ${m('fcp').toFixed(0).padStart(8)} ${m('tbt').toFixed(0).padStart(8)} ${m('cls').toFixed(3).padStart(7)}`,
    );
  }
} finally {
  server.close();
}
