#!/usr/bin/env node
/**
 * Benchmark case (not a test): how long `dealergen dev` takes from a saved
 * edit to the open page's reload, what a marketer waits for. Runs
 * `dealergen dev --no-edge --port 0` on a copy of a dealer, waits for its
 * first build (the event stream's `hello`), then saves two edits one after
 * the other and times each from the save to the `reload` event:
 *   - a navigation label in the dealer's YAML (every page's header shows it);
 *   - one car's price in the stock feed (its page, the cars listing it, the
 *     search pages that show it).
 * Prints `label <s>` and `price <s>` lines for scripts/bench-build.sh.
 *
 *   node scripts/bench-build/dev-reload.mjs <dealergen> <work dir> <slug> <as-of>
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { watchOutput } from '../lib/output.mjs';

const [bin, work, slug, asOf] = process.argv.slice(2);
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

const dev = spawn(bin, ['--dealers-dir', dealers, '--sites-dir', sites, 'dev', '--dealer', slug, '--port', '0', '--no-edge', '--as-of', asOf], {
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

/** Saves `edit`'s change to `file` and times it to the page's reload. */
async function timeEdit(what, file, edit) {
  const before = fs.readFileSync(file, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`${what}: the edit changed nothing in ${file}`);
  const from = events.length;
  const t0 = performance.now();
  fs.writeFileSync(file, after);
  await event('reload', from);
  const secs = (performance.now() - t0) / 1000;
  const built = output.text.match(/built {2}\S+: .*pages in [\d.]+s/g)?.at(-1) ?? '';
  console.log(`${what} ${secs.toFixed(2)}  (${built})`);
}

try {
  await timeEdit('label', yamlFile, (text) => text.replace(/(\{ label: )Home(, href: \/ \})/, '$1Start$2'));
  await timeEdit('price', feedFile, (text) => {
    const cars = JSON.parse(text);
    const car = cars.find((c) => c.status === 'in_stock' && Number(c.price) > 1000);
    if (!car) throw new Error('no car in stock with a price');
    car.price = Number(car.price) - 500;
    return JSON.stringify(cars);
  });
} finally {
  stop();
}
