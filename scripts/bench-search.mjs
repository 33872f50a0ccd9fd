#!/usr/bin/env node
/**
 * Benchmark (not a test): median time of one search (filters + disjunctive
 * facet counts + range stats + sort + one page of hits) of the embedded
 * engine (astro-app/src/lib/search/engine.ts) for 1,000, 5,000 and 20,000
 * cars, side by side with itemsjs (an established client-side facet
 * library) on the same cars and the same queries. Target: under 5 ms at
 * 5,000 cars and faster than itemsjs.
 *
 *   node scripts/bench-search.mjs [rounds]   (default 30 rounds of every query)
 *
 * The cars are the demo dealer's feed repeated with new ids, prices and km
 * (deterministic). Keyword search is left out of the queries: itemsjs ranks
 * text through its own full-text index, a different job.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const itemsjs = require('itemsjs');
const rounds = Number(process.argv[2] ?? 30);
const SIZES = [1000, 5000, 20000];
const PAGE = 21;
const FACETS = ['make', 'model', 'car_type', 'body', 'fuel', 'transmission', 'colour', 'city', 'year'];

// The engine is TypeScript: bundle it once for Node.
const out = path.join(root, '.tmp/bench/engine.mjs');
fs.mkdirSync(path.dirname(out), { recursive: true });
const esbuild = spawnSync(path.join(root, 'node_modules/.bin/esbuild'), ['astro-app/src/lib/search/engine.ts', '--bundle', '--format=esm', '--platform=node', `--outfile=${out}`, '--log-level=warning'], { cwd: root, stdio: 'inherit' });
if (esbuild.status !== 0) process.exit(1);
const { createEngine, decodeIndex } = await import(pathToFileURL(out).href);

const demo = JSON.parse(fs.readFileSync(path.join(root, 'dealers/stock/brisbane-motor-group.json'), 'utf8'));

function cars(n) {
  return Array.from({ length: n }, (_, i) => {
    const c = demo[i % demo.length];
    const r = ((i + 1) * 2654435761) % 4294967296;
    return {
      id: String(100000 + i),
      slug: `${c.slug}-${i}`,
      name: c.name,
      make: c.make,
      model: c.model,
      badge: c.badge ?? '',
      car_type: c.car_type,
      body: c.simple_body ?? '',
      fuel: c.simple_fuel ?? '',
      transmission: c.simple_transmission ?? '',
      colour: c.colour ?? '',
      city: c.city ?? '',
      year: c.year,
      price: (r % 120) * 1000 + 990,
      km: (r >>> 8) % 200000,
      created_at: 1_760_000_000 - i * 60,
      image: `https://images.example/cars/${i}.jpg`,
    };
  });
}

/** The generator's index layout (generator/src/search_index.rs) for these cars. */
function toIndex(list) {
  const dict = (key) => {
    const values = [...new Set(list.map((c) => c[key]).filter(Boolean))].sort();
    const code = new Map(values.map((v, i) => [v, i]));
    return { values, codes: list.map((c) => code.get(c[key]) ?? -1) };
  };
  const cities = [...new Set(list.map((c) => c.city))].sort();
  return {
    version: 1,
    count: list.length,
    text: Object.fromEntries(['make', 'model', 'badge', 'car_type', 'body', 'fuel', 'transmission', 'colour'].map((k) => [k, dict(k)])),
    numbers: {
      year: list.map((c) => c.year),
      price: list.map((c) => c.price),
      km: list.map((c) => c.km),
      created_at: list.map((c) => c.created_at),
      location: list.map((c) => cities.indexOf(c.city)),
    },
    strings: { id: list.map((c) => c.id), slug: list.map((c) => c.slug), name: list.map((c) => c.name), image: list.map((c) => c.image) },
    locations: cities.map((city) => ({ id: city, name: city, city, state: 'QLD', phone: '' })),
    facets: {},
    facets_stats: {},
  };
}

/** The same queries in both engines' terms. */
const QUERIES = [
  { name: 'no filters, relevance', refinementList: {}, range: {}, sortBy: '' },
  { name: '2 makes + used, price high-low', refinementList: { make: ['Toyota', 'Kia'], car_type: ['used'] }, range: {}, sortBy: 'Car_production_price_desc' },
  { name: 'price 10k-40k + SUV, km low-high', refinementList: { body: ['SUV'] }, range: { price: { min: 10000, max: 40000 } }, sortBy: 'Car_production_km_asc' },
  { name: 'make+model+fuel, km 0-50k, latest, page 2', refinementList: { make: ['Toyota'], model: ['Corolla', 'RAV4'], fuel: ['Hybrid'] }, range: { km: { min: 0, max: 50000 } }, sortBy: 'Car_production_latest', page: 2 },
];
/** The engine learns which order a sortBy names from the dealer's sort options. */
const SORT_OPTIONS = [
  { key: 'relevance', label: 'Most relevant', value: 'Car_production' },
  ...Object.entries({ Car_production_price_desc: 'price_desc', Car_production_km_asc: 'km_asc', Car_production_latest: 'latest' }).map(([value, key]) => ({ key, label: key, value })),
];
const ITEMSJS_SORT = {
  Car_production_price_desc: 'price_desc',
  Car_production_km_asc: 'km_asc',
  Car_production_latest: 'latest',
};

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn) {
  const t0 = process.hrtime.bigint();
  const r = fn();
  return [Number(process.hrtime.bigint() - t0) / 1e6, r];
}

console.log(`median ms per search (filter + disjunctive facets + sort + page of ${PAGE}), ${rounds} rounds of ${QUERIES.length} queries; node ${process.version}`);
console.log('cars    embedded  itemsjs   speed-up   (setup: embedded / itemsjs)');
for (const n of SIZES) {
  const list = cars(n);
  const [setupOurs, engine] = time(() => createEngine(decodeIndex(toIndex(list)), { hitsPerPage: PAGE, priceAscExcludesZero: false, sortOptions: SORT_OPTIONS }));
  const [setupTheirs, lib] = time(() =>
    itemsjs(list, {
      sortings: {
        price_desc: { field: 'price', order: 'desc' },
        km_asc: { field: 'km', order: 'asc' },
        latest: { field: 'created_at', order: 'desc' },
      },
      aggregations: Object.fromEntries(FACETS.map((f) => [f, { title: f, size: 1000, conjunction: false }])),
      searchableFields: [],
    }),
  );
  const ours = [];
  const theirs = [];
  for (let r = 0; r < rounds + 3; r++) {
    for (const q of QUERIES) {
      const state = { query: '', refinementList: q.refinementList, range: q.range, page: q.page ?? 1, sortBy: q.sortBy };
      const [a, ra] = time(() => engine.search(state));
      const [b, rb] = time(() =>
        lib.search({
          per_page: PAGE,
          page: q.page ?? 1,
          sort: ITEMSJS_SORT[q.sortBy],
          filters: q.refinementList,
          // itemsjs has no range facets, and its `filter` function needs its
          // full-text index: ranges become the list of ids (timed too).
          ids: Object.keys(q.range).length
            ? list.filter((item) => Object.entries(q.range).every(([k, v]) => item[k] >= (v.min ?? -Infinity) && item[k] <= (v.max ?? Infinity))).map((c) => c.id)
            : undefined,
        }),
      );
      if (r === 0 && ra.nbHits !== rb.pagination.total) {
        throw new Error(`${n} cars, "${q.name}": embedded finds ${ra.nbHits}, itemsjs ${rb.pagination.total}`);
      }
      // The first rounds warm up the JIT.
      if (r >= 3) {
        ours.push(a);
        theirs.push(b);
      }
    }
  }
  const mo = median(ours);
  const mt = median(theirs);
  console.log(
    `${String(n).padEnd(7)} ${mo.toFixed(2).padStart(8)}  ${mt.toFixed(2).padStart(8)}   ${(mt / mo).toFixed(1).padStart(6)}x   (${setupOurs.toFixed(0)} / ${setupTheirs.toFixed(0)} ms)`,
  );
}
