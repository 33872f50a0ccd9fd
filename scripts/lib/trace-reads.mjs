/**
 * A Vite plugin for scripts/site-data-reads.mjs: every import of a site's
 * `src/data/site.json` gets the same data wrapped in a Proxy that appends
 * each property path read ("site.locations[].address.street") to a file.
 * A file, not memory: Astro may render pages in another module graph or
 * process than the one that runs its hooks.
 */
import fs from 'node:fs';

const VIRTUAL = '\0dealergen-traced-site-json';

export function traceSiteJson(readsFile) {
  let sitePath = null;
  return {
    name: 'dealergen-trace-site-json',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!source.endsWith('data/site.json')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      sitePath = resolved.id;
      return VIRTUAL;
    },
    load(id) {
      if (id !== VIRTUAL) return null;
      const json = fs.readFileSync(sitePath, 'utf8');
      return `import { traced } from ${JSON.stringify(new URL('./trace-reads.mjs', import.meta.url).pathname)};
export default traced(JSON.parse(${JSON.stringify(json)}), 'site', ${JSON.stringify(readsFile)});`;
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
