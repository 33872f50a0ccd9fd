#!/usr/bin/env node
/**
 * Benchmark case (not a test): how long `dealergen dev` takes from a saved
 * edit to the open page showing it, what a marketer waits for. Runs
 * `dealergen dev --no-edge --port 0` on a copy of a dealer (live pages, the
 * default; `--built` as a fifth argument: the published build, rebuilt
 * whole per save), waits for its first build (the event stream's `hello`)
 * and the first page, then saves two edits one after the other and times
 * each from the save to the `reload` event and to the reloaded page's
 * HTML with the change in it:
 *   - a navigation label in the dealer's YAML (every page's header shows
 *     it), the home page fetched;
 *   - one car's price in the stock feed, the car's page fetched.
 * Prints `label <s>` and `price <s>` lines (the save to the page) for
 * scripts/bench-build.sh.
 *
 *   node scripts/bench-build/dev-reload.mjs <dealergen> <work dir> <slug> <as-of> [--built]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { watchOutput } from '../lib/output.mjs';

const [bin, work, slug, asOf, mode] = process.argv.slice(2);
if (!bin || !work || !slug || !asOf) {
  console.error('usage: dev-reload.mjs <dealergen> <work dir> <slug> <as-of>');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '../..');
const dealers = path.join(work, 'dev-dealers');
const sites = path.join(work, 'dev-sites');
fs.rmSync(dealers, { recursive: true, force: true });
fs.rmSync(sites, { recursive: true, force: true });
fs.mkdirSync(path.join(dealers, 'stock'), { recursive: true });
fs.copyFileSync(path.join(root, 'dealers', `${slug}.yaml`), path.join(dealers, `${slug}.yaml`));
fs.copyFileSync(path.join(root, 'dealers/dealer.schema.json'), path.join(dealers, 'dealer.schema.json'));
if (fs.existsSync(path.join(root, 'dealers', slug))) fs.cpSync(path.join(root, 'dealers', slug), path.join(dealers, slug), { recursive: true });
const yamlFile = path.join(dealers, `${slug}.yaml`);
const feedName = fs.readFileSync(yamlFile, 'utf8').match(/^\s*feed:\s*(\S+)/m)?.[1];
if (!feedName) throw new Error(`${yamlFile} names no stock feed`);
fs.copyFileSync(path.join(root, 'dealers', feedName), path.join(dealers, feedName));
const feedFile = path.join(dealers, feedName);

const dev = spawn(bin, ['--dealers-dir', dealers, '--sites-dir', sites, 'dev', '--dealer', slug, '--port', '0', '--no-edge', '--as-of', asOf, ...(mode === '--built' ? ['--built'] : [])], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
});
const output = watchOutput(dev, 'dealergen dev');
const stop = () => {
  if (dev.exitCode === null) dev.kill('SIGINT');
};
process.on('exit', stop);

const [, url] = await output.waitFor(/serving \S+ at (http:\/\/127\.0\.0\.1:\d+)/, 0, 300_000);
// The page's event stream, as the dev script in every page listens to it.
const events = [];
const waiters = [];
http.get(`${url}/__dealergen/events`, (res) => {
  let buf = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => {
    buf += chunk;
    let at;
    while ((at = buf.indexOf('\n\n')) >= 0) {
      const frame = buf.slice(0, at);
      buf = buf.slice(at + 2);
      const name = frame.match(/^event: (\S+)/m)?.[1];
      if (!name) continue;
      events.push(name);
      for (const w of waiters.splice(0)) w();
    }
  });
});
/** Resolves when an event named `name` arrives after the `from`th event. */
function event(name, from, ms = 300_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${name} event; got ${events.join(', ')}:\n${output.text.slice(-2000)}`)), ms);
    const check = () => {
      if (events.slice(from).includes(name)) {
        clearTimeout(timer);
        resolve();
      } else {
        waiters.push(check);
      }
    };
    check();
  });
}
await event('hello', 0);

/** The page at `pathname`, as the reloaded browser asks for it. */
async function page(pathname) {
  const res = await fetch(`${url}${pathname}`);
  if (res.status !== 200) throw new Error(`${pathname}: ${res.status}`);
  return res.text();
}

/**
 * Saves `edit`'s change to `file` and times it to the page's reload and
 * to `pathname`'s HTML containing `shows`.
 */
async function timeEdit(what, file, edit, pathname, shows) {
  const before = fs.readFileSync(file, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`${what}: the edit changed nothing in ${file}`);
  if ((await page(pathname)).includes(shows)) throw new Error(`${what}: ${pathname} shows ${shows} already`);
  const from = events.length;
  const t0 = performance.now();
  fs.writeFileSync(file, after);
  await event('reload', from);
  const reload = (performance.now() - t0) / 1000;
  const html = await page(pathname);
  const secs = (performance.now() - t0) / 1000;
  if (!html.includes(shows)) throw new Error(`${what}: ${pathname} does not show ${shows} after the reload`);
  const built = output.text.match(/(built {2}|preview )\S+: .* in [\d.]+s/g)?.at(-1) ?? '';
  console.log(`${what} ${secs.toFixed(2)}  (reload event ${reload.toFixed(2)} s; ${built})`);
}

try {
  const cars = JSON.parse(fs.readFileSync(feedFile, 'utf8'));
  const car = cars.find((c) => c.status === 'in_stock' && Number(c.price) > 1000);
  if (!car) throw new Error('no car in stock with a price');
  const price = Number(car.price) - 500;
  // The first page of each kind (astro dev compiles a route on its first request).
  await page('/');
  await page(`/cars/${car.slug}/`);
  await timeEdit('label', yamlFile, (text) => text.replace(/(\{ label: )Home(, href: \/ \})/, '$1Start$2'), '/', '>Start<');
  await timeEdit('price', feedFile, (text) => {
    const all = JSON.parse(text);
    all.find((c) => c.slug === car.slug).price = price;
    return JSON.stringify(all);
  }, `/cars/${car.slug}/`, `$${price.toLocaleString('en-AU')}`);
} finally {
  stop();
}
