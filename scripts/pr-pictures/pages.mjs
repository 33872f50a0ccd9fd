/**
 * Which pages a change alters, from the two built sites themselves: every
 * HTML page of `before` and `after` (two `dist/` folders built at the same
 * instant, `dealergen build --as-of`) compared byte for byte. This list is
 * what the pictures show; it is the truth the data-level `dealergen diff`
 * explains, so a page is never left out because the diff missed a rule.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Every `.html` file under `dist`, as paths relative to it with `/` separators. */
export function htmlFiles(dist) {
  const out = [];
  const walk = (dir, rel) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, r);
      else if (entry.name.endsWith('.html') && fs.statSync(full).isFile()) out.push(r);
    }
  };
  walk(dist, '');
  return out.sort();
}

/** The address a page file is served at: `cars/x/index.html` → `/cars/x/`, `404.html` → `/404.html`. */
export function addressOf(file) {
  if (file === 'index.html') return '/';
  if (file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  return `/${file}`;
}

/**
 * How much of a page changed: the words and tags (split at spaces and
 * angle brackets) one side has more often than the other. A car whose
 * price changed scores above the cars that only list it among similar
 * cars, so its page is the one pictured.
 */
export function changeSize(a, b) {
  const counts = new Map();
  for (const t of a.split(/[\s<>]+/)) counts.set(t, (counts.get(t) ?? 0) + 1);
  for (const t of b.split(/[\s<>]+/)) counts.set(t, (counts.get(t) ?? 0) - 1);
  let size = 0;
  for (const n of counts.values()) size += Math.abs(n);
  return size;
}

/**
 * `{ changed, added, removed, unchanged, sizes }`: addresses of the pages
 * whose bytes differ, that only `after` has, that only `before` has, the
 * count of the rest, and each changed page's `changeSize`. `before` null:
 * a site not published yet.
 */
export function comparePages(before, after) {
  const a = new Set(before ? htmlFiles(before) : []);
  const b = new Set(htmlFiles(after));
  const changed = [];
  const added = [];
  const removed = [];
  const sizes = {};
  let unchanged = 0;
  for (const file of b) {
    if (!a.has(file)) {
      added.push(addressOf(file));
      continue;
    }
    const old = fs.readFileSync(path.join(before, file));
    const now = fs.readFileSync(path.join(after, file));
    if (old.equals(now)) {
      unchanged++;
    } else {
      changed.push(addressOf(file));
      sizes[addressOf(file)] = changeSize(old.toString('utf8'), now.toString('utf8'));
    }
  }
  for (const file of a) if (!b.has(file)) removed.push(addressOf(file));
  return { changed, added, removed, unchanged, sizes };
}

/**
 * The kind of page an address is, in the order shoppers visit them most
 * (the home page and car pages first, legal pages last); the pictures
 * take pages kind by kind in this order.
 */
const KINDS = [
  ['home', (p) => p === '/'],
  ['car', (p) => /^\/cars\/[^/]+\/$/.test(p)],
  ['search', (p) => p === '/search/'],
  ['search landing', (p) => p.startsWith('/search/')],
  ['offers', (p) => p.startsWith('/special-offers/')],
  ['contact', (p) => p.startsWith('/contact-us/') || p.startsWith('/locations/')],
  ['models', (p) => p.startsWith('/models/')],
  ['car form', (p) => p.startsWith('/cars/')],
  ['not found', (p) => p === '/404.html'],
  ['other', () => true],
];

/** The kind of page at `address` (see KINDS). */
export function kindOf(address) {
  return KINDS.find(([, test]) => test(address))[0];
}

/**
 * At most `max` of `pages` (`{ address, status, size }`), one of each kind
 * in turn in KINDS order, then a second of each, and so on: a change that
 * reaches 300 car pages and the home page shows the home page and a few
 * car pages, not 12 car pages. Within a kind, the most changed first
 * (`size`, see changeSize; added and removed pages count as whole).
 */
export function pick(pages, max) {
  const byKind = new Map(KINDS.map(([k]) => [k, []]));
  for (const p of pages) byKind.get(kindOf(p.address)).push(p);
  for (const list of byKind.values()) list.sort((x, y) => (y.size ?? Infinity) - (x.size ?? Infinity) || (x.address < y.address ? -1 : 1));
  const out = [];
  for (let round = 0; out.length < max; round++) {
    let any = false;
    for (const list of byKind.values()) {
      if (round < list.length && out.length < max) {
        out.push(list[round]);
        any = true;
      }
    }
    if (!any) break;
  }
  return out;
}
