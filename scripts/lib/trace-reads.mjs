/**
 * A Vite plugin for scripts/site-data-reads.mjs: the pages get a dealer's
 * data from `app/src/lib/build-data.ts`, which reads `src/data/site.json`;
 * here that module is replaced by one whose `dealer()` gives the same data
 * with `site` wrapped in a Proxy that appends each property path read
 * ("site.locations[].address.street") to a file. Its `paths` (the routes'
 * one way to the data) gives that dealer's paths without cache keys:
 * hashing the props would read every field (and this build is thrown
 * away). A file, not memory: Astro may render pages in another module graph
 * or process than the one that runs its hooks.
 */
import fs from 'node:fs';

const VIRTUAL = '\0dealergen-traced-build-data';
const BUILD_DATA = /\/lib\/build-data(\.ts)?$/;

export function traceSiteJson(readsFile) {
  let realId = null;
  return {
    name: 'dealergen-trace-site-json',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (importer === VIRTUAL || !BUILD_DATA.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      realId = resolved.id;
      return VIRTUAL;
    },
    load(id) {
      if (id !== VIRTUAL) return null;
      return `import * as real from ${JSON.stringify(realId)};
import { traced } from ${JSON.stringify(new URL('./trace-reads.mjs', import.meta.url).pathname)};
export * from ${JSON.stringify(realId)};
let site;
export function dealer() {
  const d = real.dealer();
  site ??= traced(d.site, 'site', ${JSON.stringify(readsFile)});
  return { ...d, site };
}
// The whole traced site for every route: the stock and clock guards of
// build-data would copy the site, reading every top-level field.
export function paths(each) {
  return real.pathsOf([dealer()], false, each, { stock: true, clock: true });
}
`;
    },
  };
}

const seen = new Set();

/** `value` wrapped so that reads under it are recorded as paths from `at`. */
export function traced(value, at, readsFile) {
  if (value === null || typeof value !== 'object') return value;
  const record = (p) => {
    if (seen.has(p)) return;
    seen.add(p);
    fs.appendFileSync(readsFile, `${p}\n`);
  };
  return new Proxy(value, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof key === 'symbol' || !Object.hasOwn(target, key)) return v;
      // A list's length says nothing about which of its fields are used.
      if (Array.isArray(target) && key === 'length') return v;
      const p = Array.isArray(target) ? `${at}[]` : `${at}.${key}`;
      if (v === null || typeof v !== 'object') {
        record(p);
        return v;
      }
      return traced(v, p, readsFile);
    },
  });
}
