#!/usr/bin/env node
/**
 * The W3C Nu Html Checker (the `vnu-jar` npm package, run with the
 * machine's Java) over every page type of each built demo dealer: one page
 * of each kind in the site's page table (src/data/pages.json) and the
 * states a build can produce (a sold car, a car without photos, a caravan,
 * a certified car, a reserved car, search page 2, a landing page's page 2,
 * the 404 page). Prints each error with its page and line; exits 1 when
 * the checker finds any (a gate of scripts/test.sh).
 *
 *   node scripts/html-check.mjs [sites/<slug>/dist ...]   (default: the three demo dealers)
 *
 * The checker reads the files as Cloudflare serves them (the built HTML);
 * it is offline (no page is fetched).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEMO = ['brisbane-motor-group', 'perth-auto-collective', 'sunshine-coast-toyota'];
const dists = process.argv.slice(2).length ? process.argv.slice(2).map((d) => path.resolve(d)) : DEMO.map((d) => path.join(root, 'sites', d, 'dist'));
const jar = path.join(root, 'node_modules/vnu-jar/build/dist/vnu.jar');
if (!fs.existsSync(jar)) {
  console.log(`no ${path.relative(root, jar)}: run scripts/install.sh (npm ci)`);
  process.exit(1);
}
const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
if (java.status !== 0) {
  console.log('no Java runtime: scripts/install.sh installs one (Debian default-jre-headless)');
  process.exit(1);
}

/** The site path's file in dist (Astro's directory format). */
const fileOf = (dist, p) => path.join(dist, p.replace(/^\/+|\/+$/g, ''), 'index.html');

/** One page of each kind of the page table, and the build's states; each `[why, file]`. */
function pagesOf(dist) {
  const data = path.join(dist, '..', 'src', 'data');
  const table = JSON.parse(fs.readFileSync(path.join(data, 'pages.json'), 'utf8'));
  const cars = JSON.parse(fs.readFileSync(path.join(data, 'cars.json'), 'utf8'));
  const picked = new Map();
  const add = (why, p) => p && !picked.has(p) && picked.set(p, why);
  // Form pages are each their own layout (trade-in, finance, parts, unsubscribe, the feedback pages…): every one of them.
  const kindOf = (e) => (e.kind === 'form' ? `form ${e.key}` : e.kind);
  for (const e of table) if (!picked.has(e.path) && ![...picked.values()].includes(kindOf(e))) add(kindOf(e), e.path);
  const carPage = (why, test) => add(why, cars.find(test) && `/cars/${cars.find(test).slug}/`);
  carPage('sold car', (c) => c.status === 'sold');
  carPage('car without photos', (c) => c.images.length === 0);
  carPage('caravan', (c) => c.item_type === 'caravan');
  carPage('certified car', (c) => c.certified);
  carPage('reserved car', (c) => c.reserved);
  add('search page 2', table.find((e) => e.kind === 'search' && e.n === 2)?.path);
  add('landing page 2', table.find((e) => e.kind === 'landing' && e.n === 2)?.path);
  const files = [...picked].map(([p, why]) => [why, fileOf(dist, p)]);
  files.push(['404', path.join(dist, '404.html')]);
  return files.filter(([, f]) => fs.existsSync(f));
}

const started = Date.now();
const checked = dists.flatMap((dist) => pagesOf(dist).map(([why, file]) => ({ dealer: path.basename(path.dirname(dist)), why, file })));
// A page with a known error, checked in the same run: the gate proves the
// checker reads the files it is given and reports what it finds.
const canary = path.join(root, '.tmp/html-check-canary.html');
fs.mkdirSync(path.dirname(canary), { recursive: true });
fs.writeFileSync(canary, '<!DOCTYPE html><html lang="en"><head><title>canary</title><meta name="x"></head><body></body></html>\n');
const run = spawnSync('java', ['-Xss4m', '-jar', jar, '--errors-only', '--format', 'json', '--exit-zero-always', canary, ...checked.map((c) => c.file)], {
  encoding: 'utf8',
  maxBuffer: 1 << 28,
});
if (run.status !== 0) {
  console.log(`the checker did not run (${run.status}): ${run.stderr}`);
  process.exit(1);
}
const { messages } = JSON.parse(run.stderr || run.stdout);
const all = messages.filter((m) => m.type === 'error' || m.subType === 'fatal');
const isCanary = (m) => fileURLToPath(m.url) === canary;
if (!all.some((m) => isCanary(m) && /missing one or more of the following attributes: “content”/.test(m.message))) {
  console.log(`the checker did not report the canary page's error: ${JSON.stringify(all.filter(isCanary))}`);
  process.exit(1);
}
const errors = all.filter((m) => !isCanary(m));
const byFile = new Map(checked.map((c) => [c.file, c]));
const kinds = new Map();
for (const m of errors) {
  const file = fileURLToPath(m.url);
  const c = byFile.get(file);
  const page = path.relative(path.join(path.dirname(file).split(`${path.sep}dist`)[0], 'dist'), file);
  console.log(`${c?.dealer ?? '?'} ${c?.why ?? ''} ${page}:${m.lastLine ?? '?'}: ${m.message}`);
  kinds.set(m.message, (kinds.get(m.message) ?? 0) + 1);
}
for (const [message, n] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(4)} × ${message}`);
const types = [...new Set(checked.map((c) => c.why))];
console.log(`page types and states: ${types.join(', ')}`);
console.log(
  `${errors.length === 0 ? 'ok  ' : 'FAILED'} the Nu Html Checker: ${errors.length} error(s) on ${checked.length} pages of ${dists.length} dealer(s) (${new Set(checked.map((c) => c.why)).size} page types and states), in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(errors.length === 0 ? 0 : 1);
