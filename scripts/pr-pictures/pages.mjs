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
 * A page's HTML without what differs between two Astro runs of the same
 * input: an island's `uid` hashes its component's file path, so the same
 * page built in two folders (the base branch's checkout and the pull
 * request's) differs there alone. The same rule as generator/tests/integration/build.rs
 * `normalized`.
 */
export function comparable(html) {
  return html.replace(/(<astro-island) uid="[^"]*"/g, '$1');
}

/** The words of a page a shopper reads: without scripts, styles, tags and their attributes (island props). */
export function visibleText(html) {
  return html
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ');
}

/** Tokens one of `a` and `b` has more often than the other. */
function tokenChange(a, b, split) {
  const counts = new Map();
  for (const t of a.split(split)) counts.set(t, (counts.get(t) ?? 0) + 1);
  for (const t of b.split(split)) counts.set(t, (counts.get(t) ?? 0) - 1);
  let size = 0;
  for (const n of counts.values()) size += Math.abs(n);
  return size;
}

/**
 * How much of a page changed: `{ text, size }`, the words a shopper reads
 * that changed, and the words and tags of the whole HTML that did. A car
 * whose price changed scores above the cars that only list it among similar
 * cars, so its page is the one pictured; a page whose change is only in
 * its data (an island's props, a number the phone reveal masks) has text 0.
 */
export function changeSize(a, b) {
  return { text: tokenChange(visibleText(a), visibleText(b), /\s+/), size: tokenChange(a, b, /[\s<>]+/) };
}

/**
 * `{ changed, added, removed, unchanged, sizes }`: addresses of the pages
 * whose HTML differs (`comparable`), that only `after` has, that only `before` has, the
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
    const old = comparable(fs.readFileSync(path.join(before, file), 'utf8'));
    const now = comparable(fs.readFileSync(path.join(after, file), 'utf8'));
    if (old === now) {
      unchanged++;
    } else {
      changed.push(addressOf(file));
      sizes[addressOf(file)] = changeSize(old, now);
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
 * At most `max` of `pages` (`{ address, status, size }`, `size` as
 * changeSize gives it; added and removed pages count as wholly changed):
 * pages whose shown text changed first, then the others. In each of the
 * two, one of each kind in turn in KINDS order, then a second of each, and
 * so on, the most changed page of a kind first: a change that reaches 300
 * car pages and the home page shows the home page and a few car pages, not
 * 12 car pages.
 */
export function pick(pages, max) {
  const whole = { text: Infinity, size: Infinity };
  const sized = pages.map((p) => ({ page: p, size: p.size ?? whole }));
  const out = [];
  for (const shown of [true, false]) {
    const byKind = new Map(KINDS.map(([k]) => [k, []]));
    for (const p of sized) if (p.size.text > 0 === shown) byKind.get(kindOf(p.page.address)).push(p);
    for (const list of byKind.values()) {
      list.sort((x, y) => y.size.text - x.size.text || y.size.size - x.size.size || (x.page.address < y.page.address ? -1 : 1));
    }
    for (let round = 0; out.length < max; round++) {
      let any = false;
      for (const list of byKind.values()) {
        if (round < list.length && out.length < max) {
          out.push(list[round].page);
          any = true;
        }
      }
      if (!any) break;
    }
  }
  return out;
}
