#!/usr/bin/env node
/**
 * No dead config field, stage 2: every leaf of site.json must be read by a
 * page. Stage 1 (generator/tests/integration/config_fields.rs) proves each dealer field
 * changes the generated data; this proves the data is used.
 *
 * It builds the fixture dealer that sets every option
 * (generator/tests/fixtures/dealers/everything.yaml) with the real
 * generator, then runs Astro on it once with site.json wrapped in a Proxy
 * that records every property a page, a component or getStaticPaths reads
 * (scripts/lib/trace-reads.mjs). A site.json leaf (from its JSON Schema,
 * arrays as `[]`) nobody read is dead: consume it in astro-app/src or stop
 * generating it. The same build then goes through the publish step
 * (`dealergen check-links`): the fixture builds with zero dead links.
 *
 *   node scripts/site-data-reads.mjs
 *
 * Prints the leaves covered and the time; exits 1 on a dead leaf.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dealergenBin } from './lib/dealergen.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const AS_OF = '2026-11-20T00:00:00Z';
const DEALER = 'everything';

/**
 * site.json leaves read only outside the pages' build, each with the
 * reason. Keep it short; prefer using the field or not generating it.
 */
const READ_ELSEWHERE = {
  'Features.phone_reveal': "the e2e tests tell the dealers that mask numbers from those that show them (scripts/e2e/car-page.mjs, keyboard.mjs), an oracle independent of the generator's decision; pages render each car's decision (cars.json location.phone_masked)",
  'SiteData.built_at': 'the e2e tests set the browser clock to it (scripts/e2e/common.mjs); pages judge time on the client',
  'LandingPage.count': 'the e2e tests expect it on each landing page (scripts/e2e/site.mjs); the page counts the index itself',
  'Copy.no_price_text': 'the fixture-data script prices cars with it (scripts/e2e/make-fixture-data.mjs); pages get price texts computed (cars.json, search.hit_rules)',
  'Search.synonyms': 'the embedded search reads it in the browser (astro-app/src/lib/search/client.ts, keyword.ts tests); the fixture searches a hosted index, which has its own synonyms, so its site.json has none',
};

/**
 * Leaves another helper of this phase is wiring, with the owner. The
 * script fails when one of them is read ("stale entry"), so it only shrinks.
 */
const PENDING = {};

const started = Date.now();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-reads-'));
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...opts });
  if (r.status !== 0) {
    console.log(`${cmd} ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
    process.exit(1);
  }
  return r.stdout;
};
const dealergen = dealergenBin();
const common = ['--root', root, '--dealers-dir', path.join(root, 'generator/tests/fixtures/dealers'), '--sites-dir', work];

try {
  run(dealergen, [...common, 'build', '--dealer', DEALER, '--no-astro', '--as-of', AS_OF]);
  const site = path.join(work, DEALER);
  const readsFile = path.join(work, 'reads.txt');
  fs.writeFileSync(
    path.join(site, 'astro.trace.config.mjs'),
    `// Written by scripts/site-data-reads.mjs: the site's config, with site.json traced.
import config from './astro.config.mjs';
import { traceSiteJson } from ${JSON.stringify(path.join(root, 'scripts/lib/trace-reads.mjs'))};
export default { ...config, vite: { ...config.vite, plugins: [...(config.vite?.plugins ?? []), traceSiteJson(${JSON.stringify(readsFile)})] } };
`,
  );
  const astroStarted = Date.now();
  run(process.execPath, [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--silent', '--config', 'astro.trace.config.mjs'], {
    cwd: site,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', DEALERGEN_OUT_DIR: './dist' },
  });
  const astroSeconds = (Date.now() - astroStarted) / 1000;
  const published = run(dealergen, [...common, 'check-links', '--dealer', DEALER, '--as-of', AS_OF]);

  const reads = new Set(fs.readFileSync(readsFile, 'utf8').split('\n').filter(Boolean));
  const schema = JSON.parse(fs.readFileSync(path.join(root, 'astro-app/src/types/site-data.schema.json'), 'utf8'));
  const data = JSON.parse(fs.readFileSync(path.join(site, 'src/data/site.json'), 'utf8'));
  // Leaves and reads are compared by the type that holds them
  // ("ContentPage.body_html", "SiteData.pages"): a field of a type is used
  // when a page reads it on any value of that type (the fixture cannot have
  // every page's Markdown wording and the built-in one at once).
  const leaves = new Map();
  for (const leaf of schemaLeaves(schema, schema.definitions.SiteData, 'site', 'SiteData')) leaves.set(leaf.owner, [...(leaves.get(leaf.owner) ?? []), leaf.path]);
  const present = dataPaths(data, 'site');
  const owners = ownersOf(schema);
  const readOwners = new Set();
  for (const r of reads) for (const o of owners(r)) readOwners.add(o);

  const problems = [];
  let covered = 0;
  for (const [owner, paths] of leaves) {
    const listed = READ_ELSEWHERE[owner] ?? PENDING[owner];
    const read = readOwners.has(owner);
    if (listed) {
      if (read && PENDING[owner]) problems.push(`${owner}: is read now; remove it from PENDING in scripts/site-data-reads.mjs`);
      continue;
    }
    if (!paths.some((p) => present.has(p))) problems.push(`${owner} (${paths[0].slice(5)}): the everything fixture's site.json has no value here (an empty list or null): make the fixture set it`);
    else if (!read) problems.push(`${owner} (${paths[0].slice(5)}): no page or component reads it: use it in astro-app/src, or stop generating it (and the dealer field behind it)`);
    else covered++;
  }
  const total = leaves.size;
  console.log(published.trim().split('\n').filter((l) => l.includes('links:')).join('\n'));
  console.log(
    `site.json fields: ${total} (by type), ${covered} read by the pages, ${Object.keys(READ_ELSEWHERE).length} read elsewhere, ${Object.keys(PENDING).length} pending, ${problems.length} failing; astro build ${astroSeconds.toFixed(1)} s, total ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const p of problems) console.log(`  ${p}`);
  process.exitCode = problems.length > 0 ? 1 : 0;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

function resolveIn(schema) {
  return (n) => {
  // schemars writes a described reference as `allOf: [{ $ref }]`.
    while (n && (n.$ref || n.allOf?.length === 1)) n = n.$ref ? schema.definitions[n.$ref.split('/').pop()] : n.allOf[0];
    return n ?? {};
  };
}
function refName(n) {
  while (n && !n.$ref && n.allOf?.length === 1) n = n.allOf[0];
  if (n?.$ref) return n.$ref.split('/').pop();
  const opts = (n?.anyOf ?? n?.oneOf ?? []).filter((o) => o.type !== 'null');
  return opts.length === 1 ? refName(opts[0]) : null;
}

/** Leaves of a JSON Schema node: { path: "site.locations[].address.street", owner: "Address.street" }. */
function schemaLeaves(schema, node, at, owner, out = []) {
  const resolve = resolveIn(schema);
  const named = refName(node);
  node = resolve(node);
  const options = (node.anyOf ?? node.oneOf ?? []).filter((o) => resolve(o).type !== 'null');
  if (options.length === 1 && !node.properties) return schemaLeaves(schema, options[0], at, refName(options[0]) ?? named ?? owner, out);
  const type = named ?? owner;
  if (node.properties) {
    for (const [k, v] of Object.entries(node.properties)) {
      const child = resolve(v);
      const isObject = child.properties || (child.anyOf ?? child.oneOf ?? []).some((o) => resolve(o).properties) || resolve(child.items).properties;
      if (isObject) schemaLeaves(schema, v, `${at}.${k}`, type, out);
      else out.push({ path: `${at}.${k}`, owner: `${type}.${k}` });
    }
  } else if ([node.type].flat().includes('array') && resolve(node.items).properties) {
    schemaLeaves(schema, node.items, `${at}[]`, refName(node.items) ?? type, out);
  }
  return out;
}

/** The leaf owners ("Type.field") a read path ("site.company.about_us.title") stands for. */
function ownersOf(schema) {
  const resolve = resolveIn(schema);
  return (readPath) => {
    const segs = readPath.replace(/^site\.?/, '').split('.').filter(Boolean);
    let node = schema.definitions.SiteData;
    let type = 'SiteData';
    const out = [];
    for (const seg of segs) {
      const [key, ...arr] = seg.split('[]');
      const n = resolve(node);
      const opts = (n.anyOf ?? n.oneOf ?? []).map(resolve).filter((o) => o.type !== 'null');
      const holder = n.properties ? n : opts.find((o) => o.properties) ?? n;
      const prop = holder.properties?.[key];
      if (!prop) break;
      out.push(`${type}.${key}`);
      type = refName(prop) ?? type;
      node = prop;
      for (let i = 0; i < arr.length; i++) {
        const items = resolve(node).items;
        if (!items) break;
        type = refName(items) ?? type;
        node = items;
      }
    }
    return out;
  };
}

/** Paths that hold a value (not null, not an empty list) in the data. */
function dataPaths(value, at, out = new Set()) {
  if (value === null || value === undefined) return out;
  if (Array.isArray(value)) {
    // A list of records is walked; a list of scalars or of lists (the
    // opening minutes of each day) is one value.
    if (value.some((v) => v !== null && typeof v === 'object' && !Array.isArray(v))) for (const v of value) dataPaths(v, `${at}[]`, out);
    else if (value.length > 0) out.add(at);
    return out;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) dataPaths(v, `${at}.${k}`, out);
    // A free-form value (JSON-LD) counts as present as a whole.
    out.add(at);
    return out;
  }
  out.add(at);
  return out;
}
