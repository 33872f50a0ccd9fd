#!/usr/bin/env node
/**
 * Benchmark (not a test) of the embedded search engine
 * (astro-app/src/lib/search/engine.ts), side by side with established
 * JavaScript engines on the same cars and the same queries. Three classes:
 *
 * 1. facets: median time of one search (filters + disjunctive facet counts
 *    + range stats + sort + one page of hits) at 1,000, 5,000 and 20,000
 *    cars, against itemsjs (a client-side facet library).
 * 2. keyword: median time of a keyword search (keyword + the same facets +
 *    a page of hits) at the same sizes, against MiniSearch (keyword only:
 *    it has no facets) and Orama (keyword + facets); the embedded engine's
 *    broad and selective queries are reported apart (a selective query must
 *    be no slower than a broad one). Goals: <= 1 ms median at 5,000 cars,
 *    <= 3 ms at 20,000.
 * 3. quality: the graded query set scripts/bench-search/graded-queries.json
 *    (what shoppers type, and the cars they want) over the three demo
 *    dealers' cars: precision at 5 and the zero-result rate, per class,
 *    beside MiniSearch and Orama with their typo tolerance and prefix
 *    search on. Goals: at least MiniSearch's precision, and no zero-result
 *    page where the stock has a match; every query that misses either is
 *    listed with what each engine returned. The "need and budget" class
 *    (needs and budgets in shoppers' words, numbers as words,
 *    body and drive words of the trade) has its own goals: P@5 >= 0.95,
 *    and no car without a price on a budget query's first page.
 *
 * 4. words: searches in shoppers' words (scripts/bench-search/word-queries.json:
 *    "cheap diesel", "under 25 grand", "ute under 40k with low kms", "white
 *    ute") asked of each demo dealer's own built search index
 *    (sites/<dealer>/src/data/search-index.json: run `dealergen build --all`
 *    first) as the search page does: the query, then its words moved into
 *    filters (chips.ts withIntents). Prints what each became (its chips and
 *    remaining words) and how many of the first five results fit.
 *
 *   node scripts/bench-search.mjs [rounds] [--only facets|keyword|quality|words]   (default 30 rounds)
 *
 * MiniSearch, Orama and itemsjs are dev dependencies: nothing here ships.
 * The speed classes use the demo feeds repeated with new ids, stock
 * numbers, prices and km (deterministic).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MiniSearch from 'minisearch';
import { create as oramaCreate, insertMultiple as oramaInsert, search as oramaSearch } from '@orama/orama';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const itemsjs = require('itemsjs');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 30);
const SIZES = [1000, 5000, 20000];
const PAGE = 21;
const FACETS = ['make', 'model', 'car_type', 'body', 'fuel', 'transmission', 'colour', 'city', 'year'];
const DEMO = ['brisbane-motor-group', 'sunshine-coast-toyota', 'perth-auto-collective'];

// The engine is TypeScript: bundle it (and its keyword planner) once for Node.
const out = path.join(root, '.tmp/bench/engine.mjs');
fs.mkdirSync(path.dirname(out), { recursive: true });
const entry = path.join(root, '.tmp/bench/entry.ts');
fs.writeFileSync(
  entry,
  [
    "export * from '../../astro-app/src/lib/search/engine';",
    "export { planner, cheapLimit } from '../../astro-app/src/lib/search/query-plan';",
    "export { valueAt } from '../../astro-app/src/lib/search/columns';",
    "export { chipsOf, withIntents } from '../../astro-app/src/lib/search/chips';",
    "export { EMPTY_STATE } from '../../astro-app/src/lib/search/types';",
    '',
  ].join('\n'),
);
const esbuild = spawnSync(path.join(root, 'node_modules/.bin/esbuild'), [entry, '--bundle', '--format=esm', '--platform=node', `--outfile=${out}`, '--log-level=warning'], { cwd: root, stdio: 'inherit' });
if (esbuild.status !== 0) process.exit(1);
const { createEngine, decodeIndex, planner, valueAt, chipsOf, withIntents, EMPTY_STATE, cheapLimit } = await import(pathToFileURL(out).href);

const feeds = DEMO.map((d) => JSON.parse(fs.readFileSync(path.join(root, `dealers/stock/${d}.json`), 'utf8')));
/** The features the generator keeps for the filtered_features facet (generator/src/pipeline/stock/features.rs FEATURE_FILTERS). */
const FEATURE_FILTERS = fs
  .readFileSync(path.join(root, 'generator/src/pipeline/stock/features.rs'), 'utf8')
  .match(/FEATURE_FILTERS: \[&str; \d+\] = \[([\s\S]*?)\];/)[1]
  .match(/"[^"]+"/g)
  .map((s) => JSON.parse(s));

/** A feed record as the fields the engines index (the generator's presentation of it). */
function carOf(c, i, vary) {
  const r = ((i + 1) * 2654435761) % 4294967296;
  const features = Array.isArray(c.standardEquipment) ? c.standardEquipment : [];
  return {
    id: String(100000 + i),
    slug: `${c.slug}-${i}`,
    name: c.name,
    make: c.make,
    model: c.model,
    badge: c.badge ?? '',
    series: c.series ?? '',
    car_type: c.car_type,
    status: c.status,
    body: c.simple_body ?? '',
    fuel: c.simple_fuel ?? '',
    transmission: c.simple_transmission ?? '',
    drive: c.drive ?? '',
    colour: c.colour ?? '',
    city: c.city ?? '',
    location_name: c.location_name ?? '',
    item_type: c.item_type ?? '',
    year: c.year,
    price: vary ? (r % 120) * 1000 + 990 : Math.round(c.offer_price || c.price || 0),
    km: vary ? (r >>> 8) % 200000 : Math.round(c.km ?? 0),
    seats: c.seats ?? 0,
    stocknum: vary ? `ST${String(100000 + i)}` : (c.stocknum ?? ''),
    created_at: 1_760_000_000 - i * 60,
    features: FEATURE_FILTERS.filter((f) => features.some((g) => String(g).toLowerCase() === f.toLowerCase())),
    image: `https://images.example/cars/${i}.jpg`,
  };
}

const demoCars = feeds.flat();
/** n cars: the demo feeds repeated with new ids, stock numbers, prices and km. */
const cars = (n) => Array.from({ length: n }, (_, i) => carOf(demoCars[i % demoCars.length], i, true));

/** The generator's index layout (generator/src/pipeline/search_index.rs) for these cars. */
function toIndex(list) {
  const dict = (key) => {
    const values = [...new Set(list.map((c) => c[key]).filter(Boolean))].sort();
    const code = new Map(values.map((v, i) => [v, i]));
    return { values, codes: list.map((c) => code.get(c[key]) ?? -1) };
  };
  const locations = [...new Set(list.map((c) => `${c.city}|${c.location_name}`))].sort();
  const features = [...new Set(list.flatMap((c) => c.features))].sort();
  return {
    version: 2,
    count: list.length,
    text: Object.fromEntries(['make', 'model', 'badge', 'series', 'car_type', 'status', 'body', 'fuel', 'transmission', 'drive', 'colour', 'item_type'].map((k) => [k, dict(k)])),
    numbers: {
      year: list.map((c) => c.year),
      price: list.map((c) => c.price),
      km: list.map((c) => c.km),
      seats: list.map((c) => c.seats),
      created_at: list.map((c) => c.created_at),
      location: list.map((c) => locations.indexOf(`${c.city}|${c.location_name}`)),
    },
    strings: { id: list.map((c) => c.id), slug: list.map((c) => c.slug), name: list.map((c) => c.name), image: list.map((c) => c.image), stocknum: list.map((c) => c.stocknum) },
    sets: { filtered_features: { values: features, masks: list.map((c) => c.features.reduce((m, f) => m | (1 << features.indexOf(f)), 0)) } },
    locations: locations.map((l) => {
      const [city, name] = l.split('|');
      return { id: l, name, city, state: 'QLD', phone: '' };
    }),
    facets: {},
    facets_stats: {},
  };
}

/** The engine learns which order a sortBy names from the dealer's sort options. */
const SORT_OPTIONS = [
  { key: 'relevance', label: 'Most relevant', value: 'Car_production' },
  ...Object.entries({ Car_production_price_desc: 'price_desc', Car_production_km_asc: 'km_asc', Car_production_latest: 'latest' }).map(([value, key]) => ({ key, label: key, value })),
];
/** The engine as the site runs it: keyword searches go through the keyword planner (built with the engine here). */
function engineOf(list, hitsPerPage = PAGE) {
  const engine = createEngine(decodeIndex(toIndex(list)), { hitsPerPage, priceAscExcludesZero: false, sortOptions: SORT_OPTIONS, strict: true });
  const kw = planner(engine.decoded);
  return { search: (s) => engine.search(s, s.query ? kw : undefined) };
}
const state = (q) => ({ query: q.query ?? '', refinementList: q.refinementList ?? {}, range: q.range ?? {}, page: q.page ?? 1, sortBy: q.sortBy ?? '' });

/** MiniSearch as its documentation sets it up for a catalogue: prefix search, fuzzy 0.2, the names boosted. */
const SEARCH_FIELDS = ['make', 'model', 'badge', 'series', 'body', 'fuel', 'drive', 'transmission', 'colour', 'car_type', 'year', 'features'];
function miniSearchOf(list) {
  const ms = new MiniSearch({
    fields: SEARCH_FIELDS,
    storeFields: ['id'],
    extractField: (doc, f) => (Array.isArray(doc[f]) ? doc[f].join(' ') : String(doc[f] ?? '')),
    searchOptions: { prefix: true, fuzzy: 0.2, boost: { make: 3, model: 3, badge: 2, series: 2 } },
  });
  ms.addAll(list);
  return ms;
}
/** Orama with its typo tolerance (1) and the same boosts; facets on the same attributes for the keyword class. */
async function oramaOf(list) {
  const db = oramaCreate({ schema: { ...Object.fromEntries(SEARCH_FIELDS.map((f) => [f, 'string'])), id: 'string', city: 'string', price: 'number', km: 'number' } });
  await oramaInsert(
    db,
    list.map((c) => ({ ...Object.fromEntries(SEARCH_FIELDS.map((f) => [f, Array.isArray(c[f]) ? c[f].join(' ') : String(c[f] ?? '')])), id: c.id, city: c.city, price: c.price, km: c.km })),
  );
  return db;
}
const ORAMA_OPTS = { properties: SEARCH_FIELDS, tolerance: 1, boost: { make: 3, model: 3, badge: 2, series: 2 } };

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(fn) {
  const t0 = process.hrtime.bigint();
  const r = await fn();
  return [Number(process.hrtime.bigint() - t0) / 1e6, r];
}
const ms = (x) => x.toFixed(2).padStart(8);

// ------------------------------------------------------------- 1. facets
async function facetsClass() {
  /** The same queries in both engines' terms. */
  const QUERIES = [
    { name: 'no filters, relevance', refinementList: {}, range: {}, sortBy: '' },
    { name: '2 makes + used, price high-low', refinementList: { make: ['Toyota', 'Kia'], car_type: ['used'] }, range: {}, sortBy: 'Car_production_price_desc' },
    { name: 'price 10k-40k + SUV, km low-high', refinementList: { body: ['SUV'] }, range: { price: { min: 10000, max: 40000 } }, sortBy: 'Car_production_km_asc' },
    { name: 'make+model+fuel, km 0-50k, latest, page 2', refinementList: { make: ['Toyota'], model: ['Corolla', 'RAV4'], fuel: ['Hybrid'] }, range: { km: { min: 0, max: 50000 } }, sortBy: 'Car_production_latest', page: 2 },
  ];
  const ITEMSJS_SORT = { Car_production_price_desc: 'price_desc', Car_production_km_asc: 'km_asc', Car_production_latest: 'latest' };
  console.log(`\n1. facets: median ms per search (filter + disjunctive facets + sort + page of ${PAGE}), ${rounds} rounds of ${QUERIES.length} queries`);
  console.log('cars    embedded   itemsjs   speed-up   (setup: embedded / itemsjs)');
  for (const n of SIZES) {
    const list = cars(n);
    const [setupOurs, engine] = await time(() => engineOf(list));
    const [setupTheirs, lib] = await time(() =>
      itemsjs(list, {
        sortings: { price_desc: { field: 'price', order: 'desc' }, km_asc: { field: 'km', order: 'asc' }, latest: { field: 'created_at', order: 'desc' } },
        aggregations: Object.fromEntries(FACETS.map((f) => [f, { title: f, size: 1000, conjunction: false }])),
        searchableFields: [],
      }),
    );
    const ours = [];
    const theirs = [];
    for (let r = 0; r < rounds + 3; r++) {
      for (const q of QUERIES) {
        const [a, ra] = await time(() => engine.search(state(q)));
        const [b, rb] = await time(() =>
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
        if (r === 0 && ra.nbHits !== rb.pagination.total) throw new Error(`${n} cars, "${q.name}": embedded finds ${ra.nbHits}, itemsjs ${rb.pagination.total}`);
        // The first rounds warm up the JIT.
        if (r >= 3) {
          ours.push(a);
          theirs.push(b);
        }
      }
    }
    const mo = median(ours);
    const mt = median(theirs);
    console.log(`${String(n).padEnd(7)} ${ms(mo)}  ${ms(mt)}   ${(mt / mo).toFixed(1).padStart(6)}x   (${setupOurs.toFixed(0)} / ${setupTheirs.toFixed(0)} ms)`);
  }
}

// ------------------------------------------------------------ 2. keyword
async function keywordClass() {
  const QUERIES = [
    { name: 'broad make', query: 'toyota', kind: 'broad' },
    { name: 'broad body', query: 'suv', kind: 'broad' },
    { name: 'misspelt make', query: 'hyundia', kind: 'broad' },
    { name: 'synonym', query: 'four wheel drive', kind: 'broad' },
    { name: 'intent', query: 'petrol wagon under 25k', kind: 'selective' },
    { name: 'joined model', query: 'landcruiser 300', kind: 'selective' },
    { name: 'misspelt model', query: 'landcruser prado', kind: 'selective' },
    { name: 'stock number', query: 'ST100777', kind: 'selective' },
  ];
  console.log(`\n2. keyword: median ms per keyword search, ${rounds} rounds of ${QUERIES.length} queries (${QUERIES.map((q) => `"${q.query}"`).join(', ')})`);
  console.log('   embedded: keyword + disjunctive facets + range stats + page of 21; MiniSearch: keyword only (no facets); Orama: keyword + facets');
  console.log('cars    embedded  MiniSearch     Orama   | embedded broad / selective   (setup: embedded / MiniSearch / Orama)');
  const figures = {};
  for (const n of SIZES) {
    const list = cars(n);
    const [s1, engine] = await time(() => engineOf(list));
    const [s2, mini] = await time(() => miniSearchOf(list));
    const [s3, db] = await time(() => oramaOf(list));
    const t = { ours: [], broad: [], selective: [], mini: [], orama: [] };
    for (let r = 0; r < rounds + 3; r++) {
      for (const q of QUERIES) {
        const [a, ra] = await time(() => engine.search(state(q)));
        const [b] = await time(() => mini.search(q.query));
        const [c] = await time(() => oramaSearch(db, { term: q.query, ...ORAMA_OPTS, limit: PAGE, facets: Object.fromEntries(FACETS.filter((f) => f !== 'year' && f !== 'city').map((f) => [f, {}])) }));
        if (r === 0 && ra.nbHits === 0) throw new Error(`${n} cars: "${q.query}" finds nothing`);
        if (r >= 3) {
          t.ours.push(a);
          t[q.kind].push(a);
          t.mini.push(b);
          t.orama.push(c);
        }
      }
    }
    figures[n] = { ours: median(t.ours), broad: median(t.broad), selective: median(t.selective) };
    console.log(
      `${String(n).padEnd(7)} ${ms(median(t.ours))}  ${ms(median(t.mini))}  ${ms(median(t.orama))}   | ${ms(median(t.broad))} / ${ms(median(t.selective)).trim()}   (${s1.toFixed(0)} / ${s2.toFixed(0)} / ${s3.toFixed(0)} ms)`,
    );
  }
  const goal = (ok) => (ok ? 'met' : 'NOT met');
  console.log(
    `goals: <= 1 ms at 5,000 cars (${goal(figures[5000].ours <= 1)}), <= 3 ms at 20,000 (${goal(figures[20000].ours <= 3)}), selective no slower than broad (${goal(SIZES.every((n) => figures[n].selective <= figures[n].broad * 1.1))})`,
  );
}

// ------------------------------------------------------------ 3. quality
/** Whether a car is one the shopper wants (graded-queries.json `want`). */
function wanted(car, want) {
  const holds = (v, w) => {
    if (Array.isArray(w)) return w.some((x) => holds(v, x));
    if (w !== null && typeof w === 'object') return (w.min === undefined || v >= w.min) && (w.max === undefined || v <= w.max);
    if (typeof w === 'number') return v === w;
    const s = String(v ?? '').toLowerCase();
    const x = w.toLowerCase();
    if (x.endsWith('*')) return s.startsWith(x.slice(0, -1));
    if (x.startsWith('~')) return s.includes(x.slice(1));
    return s === x;
  };
  return Object.entries(want).every(([k, w]) => holds(car[k], w));
}

async function qualityClass() {
  const { queries } = JSON.parse(fs.readFileSync(path.join(root, 'scripts/bench-search/graded-queries.json'), 'utf8'));
  const list = demoCars.map((c, i) => carOf(c, i, false));
  const byId = new Map(list.map((c) => [c.id, c]));
  const engine = engineOf(list, 5);
  const mini = miniSearchOf(list);
  const db = await oramaOf(list);
  const engines = {
    embedded: async (q) => {
      const r = engine.search(state({ query: q }));
      return { ids: r.hits.map((h) => h.objectID), total: r.nbHits, page: r.hits.map((h) => byId.get(h.objectID)) };
    },
    MiniSearch: async (q) => {
      const r = mini.search(q);
      return { ids: r.slice(0, 5).map((h) => h.id), total: r.length };
    },
    Orama: async (q) => {
      const r = await oramaSearch(db, { term: q, ...ORAMA_OPTS, limit: 5 });
      return { ids: r.hits.map((h) => h.document.id), total: r.count };
    },
  };
  const names = Object.keys(engines);
  const rows = [];
  for (const g of queries) {
    const relevant = list.filter((c) => wanted(c, g.want)).length;
    if (relevant === 0) throw new Error(`graded query "${g.query}": no car in the demo stock is wanted (fix the query set)`);
    const row = { ...g, relevant, by: {} };
    for (const name of names) {
      const r = await engines[name](g.query);
      const good = r.ids.filter((id) => wanted(byId.get(id), g.want)).length;
      row.by[name] = { p5: good / Math.min(5, relevant), zero: r.total === 0, total: r.total, top: r.ids.slice(0, 5).map((id) => byId.get(id)), page: r.page ?? [] };
    }
    rows.push(row);
  }
  const classes = [...new Set(rows.map((r) => r.class)), 'all'];
  console.log(`\n3. quality: ${rows.length} graded queries over the ${list.length} demo cars; P@5 = wanted cars among the first 5 / min(5, wanted cars in stock); zero = queries answered with no car although the stock has a wanted one`);
  console.log(`class            queries ${names.map((n) => `| ${n.padEnd(10)} P@5  zero`).join(' ')}`);
  const summary = {};
  for (const cls of classes) {
    const sel = cls === 'all' ? rows : rows.filter((r) => r.class === cls);
    const cells = names.map((n) => {
      const p = sel.reduce((s, r) => s + r.by[n].p5, 0) / sel.length;
      const z = sel.filter((r) => r.by[n].zero).length;
      if (cls === 'all') summary[n] = { p, z };
      return `| ${' '.repeat(10)} ${p.toFixed(2)} ${String(z).padStart(2)}/${String(sel.length).padEnd(2)}`;
    });
    console.log(`${cls.padEnd(16)} ${String(sel.length).padStart(7)} ${cells.join(' ')}`);
  }
  const ok = summary.embedded.p >= summary.MiniSearch.p;
  // The 'need and budget' class: needs and budgets in shoppers' words. A budget lists priced
  // cars: a car without a price (0) among a budget query's first page is a miss.
  const needs = rows.filter((r) => r.class === 'need and budget');
  const needP = needs.reduce((s, r) => s + r.by.embedded.p5, 0) / Math.max(1, needs.length);
  const unpriced = rows.filter((r) => r.want.price).reduce((s, r) => s + r.by.embedded.page.filter((c) => !(c.price > 0)).length, 0);
  console.log(`goals (need and budget): P@5 >= 0.95 (${needP.toFixed(3)}: ${needP >= 0.95 ? 'met' : 'NOT met'}), no unpriced car in a budget's results (${unpriced}: ${unpriced === 0 ? 'met' : 'NOT met'})`);
  console.log(`goals: P@5 at least MiniSearch's (${summary.embedded.p.toFixed(3)} vs ${summary.MiniSearch.p.toFixed(3)}: ${ok ? 'met' : 'NOT met'}), no zero-result page where the stock has a match (${summary.embedded.z === 0 ? 'met' : `NOT met: ${summary.embedded.z}`})`);
  const short = (c) => (c ? `${c.year} ${c.make} ${c.model} ${c.badge}`.trim() : '?');
  const misses = rows.filter((r) => r.by.embedded.zero || r.by.embedded.p5 < r.by.MiniSearch.p5 || r.by.embedded.p5 < 1);
  if (misses.length) {
    console.log('queries where the embedded engine is below 1.00 or below MiniSearch:');
    for (const r of misses) {
      console.log(`  "${r.query}" (${r.relevant} wanted): ${names.map((n) => `${n} ${r.by[n].p5.toFixed(2)} (${r.by[n].total} hits)`).join(', ')}`);
      console.log(`      embedded top: ${r.by.embedded.top.map(short).join('; ') || 'nothing'}`);
    }
  }
}

// ------------------------------------------------------------ 4. words
/** Car `i` of a decoded index as the fields a word query is judged on. */
function carAt(d, i) {
  const t = (a) => valueAt(d.text[a], i);
  return { make: t('make'), model: t('model'), badge: t('badge'), body: t('body'), fuel: t('fuel'), colour: t('colour'), colour_family: t('colour_family'), year: d.num.year[i], price: d.num.price[i], km: d.num.km[i], seats: d.num.seats?.[i] ?? 0 };
}

async function wordsClass() {
  const { queries } = JSON.parse(fs.readFileSync(path.join(root, 'scripts/bench-search/word-queries.json'), 'utf8'));
  console.log(`\n4. words: ${queries.length} searches in shoppers' words over each demo dealer's built index; fit = the first five results that fit / min(5, cars that fit)`);
  let pairs = 0;
  let passed = 0;
  const misses = [];
  for (const dealer of DEMO) {
    const file = path.join(root, `sites/${dealer}/src/data/search-index.json`);
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run dealergen build --all first`);
    const d = decodeIndex(JSON.parse(fs.readFileSync(file, 'utf8')));
    const engine = createEngine(d, { hitsPerPage: 5, priceAscExcludesZero: false, sortOptions: [], newArrivalText: '' });
    const kw = planner(d);
    const cars = Array.from({ length: d.n }, (_, i) => carAt(d, i));
    const byId = new Map(d.str.id.map((id, i) => [id, i]));
    console.log(`\n  ${dealer} (${d.n} cars)`);
    for (const q of queries) {
      const { cheap, ...rest } = q.want;
      const fitting = cars.filter((c) => wanted(c, rest));
      let fits = fitting;
      if (cheap) {
        const limit = cheapLimit(fitting.map((c) => c.price).filter((p) => p > 0));
        fits = limit === undefined ? [] : fitting.filter((c) => c.price > 0 && c.price <= limit);
      }
      if (fits.length === 0) continue;
      pairs++;
      const typed = { ...EMPTY_STATE, refinementList: {}, range: {}, query: q.query };
      const first = engine.search(typed, kw);
      const moved = withIntents(typed, first.query);
      const final = moved ? engine.search(moved, kw) : first;
      const shown = moved ?? typed;
      const became = [...chipsOf(shown).map((c) => c.label), ...(shown.query ? [`words "${shown.query}"`] : [])].join('; ') || 'nothing';
      const top = final.hits.slice(0, 5).map((h) => cars[byId.get(h.objectID)]);
      const good = top.filter((c) => fits.includes(c)).length;
      const need = Math.min(5, fits.length);
      const ok = good >= need;
      if (ok) passed++;
      else misses.push({ dealer, query: q.query, top });
      console.log(`    ${ok ? 'ok  ' : 'MISS'} ${q.query.padEnd(36)} ${String(good)}/${need} fit (${final.nbHits} hits, ${fits.length} in stock) -> ${became}`);
    }
  }
  console.log(`\n  words: ${passed} of ${pairs} applicable query-dealer pairs have only fitting cars among their first five (${((100 * passed) / Math.max(1, pairs)).toFixed(0)}%)`);
  for (const m of misses) console.log(`    miss: ${m.dealer} "${m.query}": ${m.top.map((c) => `${c.year} ${c.make} ${c.model} ${c.body} ${c.colour} $${c.price} ${c.km} km`).join('; ')}`);
}

console.log(`dealergen search bench; node ${process.version}`);
if (!only || only === 'facets') await facetsClass();
if (!only || only === 'keyword') await keywordClass();
if (!only || only === 'quality') await qualityClass();
if (!only || only === 'words') await wordsClass();
