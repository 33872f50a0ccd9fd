#!/usr/bin/env node
// Generated dealers for the build benchmark (scripts/bench-build.sh):
//   node scripts/bench-build/gen-dealers.mjs <out dir> <dealers> <cars per dealer>
// Dealer i is a copy of one of the three demo dealers in turn (so the
// presets vary: multi-brand group, franchise group, single manufacturer),
// with its own slug, name and origin, its offers, locations and content
// folder, and a feed of <cars> cars made from that demo dealer's stock
// (full spec rows and photos), each with its own id and slug, all for sale.
// Deterministic: the same arguments write the same files.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const [outArg, dealersArg = '100', carsArg = '300'] = process.argv.slice(2);
if (!outArg) {
  console.error('usage: gen-dealers.mjs <out dir> [dealers=100] [cars=300]');
  process.exit(2);
}
const out = resolve(outArg);
const count = Number(dealersArg);
const cars = Number(carsArg);
const bases = ['brisbane-motor-group', 'perth-auto-collective', 'sunshine-coast-toyota'];

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'stock'), { recursive: true });
cpSync(join(root, 'dealers/dealer.schema.json'), join(out, 'dealer.schema.json'));
const feeds = Object.fromEntries(bases.map((b) => [b, JSON.parse(readFileSync(join(root, 'dealers/stock', `${b}.json`), 'utf8'))]));
const yamls = Object.fromEntries(bases.map((b) => [b, readFileSync(join(root, 'dealers', `${b}.yaml`), 'utf8')]));

for (let i = 0; i < count; i++) {
  const base = bases[i % bases.length];
  const n = String(i + 1).padStart(3, '0');
  const slug = `bench-${n}-${base}`;
  const yaml = yamls[base]
    .replace(/^name: .*$/m, `name: Bench Dealer ${n}`)
    .replace(/^site_url: .*$/m, `site_url: https://www.bench-${n}.example.com.au`)
    .replace(/^(\s*feed:\s*).*$/m, `$1stock/${slug}.json`);
  writeFileSync(join(out, `${slug}.yaml`), yaml);
  // The dealer's own pages and content (its gated routes name them).
  if (existsSync(join(root, 'dealers', base))) cpSync(join(root, 'dealers', base), join(out, slug), { recursive: true });
  const source = feeds[base];
  const feed = [];
  for (let j = 0; j < cars; j++) {
    const c = source[j % source.length];
    feed.push({
      ...c,
      id: 1_000_000 * (i + 1) + j,
      slug: `${c.slug}-b${j}`,
      stocknum: `B${n}-${j}`,
      status: 'in_stock',
      show_on_dealer_website: true,
      sold_date_timestamp: undefined,
    });
  }
  writeFileSync(join(out, 'stock', `${slug}.json`), JSON.stringify(feed));
}
console.log(`${count} dealers x ${cars} cars in ${out}`);
