/**
 * What a page costs Astro to render, by page type: reads the Astro build
 * logs of a sites folder (each page's "(+N ms)" line, in a dealer's own
 * project and in the batches' /dealergen-batch/<slug>/ paths), gives each
 * page its kind from the dealer's page table (pages.json: car, search,
 * landing, home...; an endpoint by its file name), and prints pages, total
 * and mean ms per kind, heaviest first. Pages restored from the page cache
 * cost nothing here and are not counted.
 *
 *   node scripts/bench-build/render-cost.mjs <sites dir> [--json]
 *
 * Part of scripts/bench-build.sh (never a test). Astro renders one page at
 * a time (build.concurrency 1), so the times add up to the render stage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { addressOf } from '../pr-pictures/pages.mjs';

const [sitesDir, flag] = process.argv.slice(2);
if (!sitesDir) {
  console.error('usage: node scripts/bench-build/render-cost.mjs <sites dir> [--json]');
  process.exit(2);
}

/** The kind of each page of a dealer, from the page table next to its data. */
function kindsOf(dataDir) {
  const table = path.join(dataDir, 'pages.json');
  if (!fs.existsSync(table)) return new Map();
  return new Map(JSON.parse(fs.readFileSync(table, 'utf8')).map((p) => [p.path, p.kind]));
}

/** An endpoint or a page the table does not list: named by its shape. */
function shapeOf(p) {
  if (/^\/cars\/[^/]+\.json$/.test(p)) return 'endpoint: /cars/<slug>.json';
  if (p.endsWith('.json') || p.endsWith('.xml') || p.endsWith('.txt')) return `endpoint: ${p}`;
  if (p.endsWith('.html')) return `page: ${p}`;
  return 'other';
}

const LINE = /[├└]─ (\S+) \(\+(\d+)ms\)/;
const cost = new Map();
const add = (kind, ms) => {
  const c = cost.get(kind) ?? { pages: 0, ms: 0, max: 0 };
  c.pages += 1;
  c.ms += ms;
  c.max = Math.max(c.max, ms);
  cost.set(kind, c);
};

for (const entry of fs.readdirSync(sitesDir, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue;
  const project = path.join(sitesDir, entry.name);
  const log = path.join(project, 'build.log');
  if (!fs.existsSync(log)) continue;
  const batch = entry.name.startsWith('.batch-');
  const tables = new Map();
  const kinds = (slug) => {
    if (!tables.has(slug)) tables.set(slug, kindsOf(batch ? path.join(project, 'src', 'data', slug) : path.join(project, 'src', 'data')));
    return tables.get(slug);
  };
  for (const line of fs.readFileSync(log, 'utf8').split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    let file = m[1];
    let slug = entry.name;
    const inBatch = /^\/dealergen-batch\/([^/]+)(\/.*)$/.exec(file);
    if (inBatch) [, slug, file] = inBatch;
    // The log's paths start with '/'; addressOf takes them relative to dist.
    const p = addressOf(file.slice(1));
    add(kinds(slug).get(p) ?? shapeOf(p), Number(m[2]));
  }
}

const rows = [...cost].map(([kind, c]) => ({ kind, ...c, mean: c.ms / c.pages })).sort((a, b) => b.ms - a.ms);
if (flag === '--json') {
  console.log(JSON.stringify(rows));
} else {
  const total = rows.reduce((t, r) => t + r.ms, 0);
  console.log(`${'page type'.padEnd(36)} ${'pages'.padStart(7)} ${'total s'.padStart(8)} ${'share'.padStart(6)} ${'mean ms'.padStart(8)} ${'max ms'.padStart(7)}`);
  for (const r of rows) {
    console.log(
      `${r.kind.slice(0, 36).padEnd(36)} ${String(r.pages).padStart(7)} ${(r.ms / 1000).toFixed(2).padStart(8)} ${`${((100 * r.ms) / total).toFixed(0)}%`.padStart(6)} ${r.mean.toFixed(1).padStart(8)} ${String(r.max).padStart(7)}`,
    );
  }
  console.log(`${'all rendered pages'.padEnd(36)} ${String(rows.reduce((t, r) => t + r.pages, 0)).padStart(7)} ${(total / 1000).toFixed(2).padStart(8)}`);
}
