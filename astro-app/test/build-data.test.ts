// The page cache of a generated project (Astro's incremental build,
// templates/site/astro.config.mjs.j2) reuses a page when its route code and
// its cache key are unchanged. These tests pin the two things that make
// that sound: the key is the hash of everything in the props, and a route
// hands its page everything it shows as props (it reads the dealer's data
// only inside getStaticPaths).
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { below, keyed, named, pagesOf, propsKey, readDealer } from '@app/lib/build-data';
import type { PageEntry } from '@app/types/site';
import { routeFiles } from '@app/integrations/routes';

const repo = fileURLToPath(new URL('../../', import.meta.url));

describe('propsKey', () => {
  const site = { slug: 'demo', name: 'Demo Motors', finance: { rate: 8.99 } };
  const car = { slug: 'car-1', price: 19990, detail: { features: ['ABS', 'Cruise'] } };

  it('is the same for the same props, whatever the order of their names', () => {
    expect(propsKey({ site, car })).toBe(propsKey({ car: structuredClone(car), site: structuredClone(site) }));
  });

  it('changes with any value a page could show, however deep', () => {
    const base = propsKey({ site, car });
    expect(propsKey({ site, car: { ...car, price: 17490 } })).not.toBe(base);
    expect(propsKey({ site, car: { ...car, detail: { features: ['ABS'] } } })).not.toBe(base);
    expect(propsKey({ site: { ...site, finance: { rate: 9.49 } }, car })).not.toBe(base);
    expect(propsKey({ site, car, page: 2 })).not.toBe(base);
  });

  it('tells a value under one name from the same value under another', () => {
    expect(propsKey({ a: 1, b: 2 })).not.toBe(propsKey({ a: 2, b: 1 }));
    expect(propsKey({ model: null })).not.toBe(propsKey({}));
  });

  it('keyed gives each path the key of its props and keeps params and props', () => {
    const paths = keyed([{ params: { slug: 'car-1' }, props: { site, car } }]);
    expect(paths).toEqual([{ params: { slug: 'car-1' }, props: { site, car }, cacheKey: propsKey({ site, car }) }]);
  });
});

/** The route's server code: an .astro file's frontmatter and template, or a .ts endpoint. */
function splitGetStaticPaths(source: string): { inside: string; outside: string } | null {
  const start = source.indexOf('export function getStaticPaths()');
  if (start < 0) return null;
  const open = source.indexOf('{', start);
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '{') depth++;
    if (source[i] === '}' && --depth === 0) {
      return { inside: source.slice(open, i + 1), outside: source.slice(0, start) + source.slice(i + 1) };
    }
  }
  throw new Error('getStaticPaths has no end');
}

const DATA_READERS = /\b(dealer|batchDealers|readDealer|paths|keyed)\(/;

describe('route files (astro-app/src/routes, one set for dealer and batch projects)', () => {
  const dir = path.join(repo, 'astro-app/src/routes');
  const files = routeFiles(dir).map((r) => r.file);

  it('has route files', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files)('%s imports no generated data as a module', (file) => {
    const source = readFileSync(path.join(dir, file), 'utf8');
    expect(source).not.toMatch(/from '[^']*data\/[^']*\.json'/);
  });

  // Every route has paths, keyed, in both kinds of build: a route without
  // them would be rendered on every build, and in a batch would have no
  // dealer param.
  it.each(files)('%s reads the data only through paths() in its getStaticPaths', (file) => {
    const source = readFileSync(path.join(dir, file), 'utf8');
    const split = splitGetStaticPaths(source);
    expect(split, 'a getStaticPaths').not.toBeNull();
    expect(split?.inside).toMatch(/\breturn paths\(/);
    expect(split?.outside).not.toMatch(DATA_READERS);
  });

  // Which pages exist is the page table's to say (generator/src/pipeline/
  // site_data/page_table.rs): a page route that enumerated the data itself
  // could make a page the table lacks (the build's guard would fail) or
  // drift from it. Endpoints (.ts) and the 404 page are no table pages.
  const pageRoutes = files.filter((f) => f.endsWith('.astro') && f !== '404.astro');
  it.each(pageRoutes)('%s takes its pages from the page table', (file) => {
    const split = splitGetStaticPaths(readFileSync(path.join(dir, file), 'utf8'));
    expect(split?.inside).toMatch(/\bpagesOf\(d, '[a-z_]+'/);
  });
});

describe('the page table as the routes read it', () => {
  const table: PageEntry[] = [
    { path: '/', kind: 'home', key: null, n: null },
    { path: '/cars/kia-1/', kind: 'car', key: 'kia-1', n: null },
    { path: '/offers/kia/eofy/', kind: 'offer', key: '/offers/kia/eofy/', n: null },
    { path: '/models/', kind: 'models', key: null, n: null },
    { path: '/search/toyota/page/2/', kind: 'landing', key: 'toyota', n: 2 },
  ];

  it('pagesOf gives the entries of the kinds asked, with key and number filled in', () => {
    expect(pagesOf({ pages: table }, 'car', 'landing').map((p) => [p.path, p.key, p.n])).toEqual([
      ['/cars/kia-1/', 'kia-1', 1],
      ['/search/toyota/page/2/', 'toyota', 2],
    ]);
    expect(pagesOf({ pages: table }, 'models').map((p) => [p.key, p.n])).toEqual([['', 1]]);
    expect(pagesOf({ pages: table }, 'model')).toEqual([]);
  });

  it('named finds the item by key and fails on an entry naming nothing or without a key', () => {
    const cars = [{ slug: 'kia-1' }, { slug: 'kia-2' }];
    expect(named(cars, table[1]!, (c) => c.slug)).toBe(cars[0]);
    const offers = [{ path: '/offers/kia/eofy/' }];
    expect(named(offers, table[2]!, (o) => o.path)).toBe(offers[0]);
    expect(() => named([{ slug: 'kia-2' }], table[1]!, (c) => c.slug)).toThrow(/\/cars\/kia-1\/ \(car kia-1\) names nothing/);
    expect(() => named([{ slug: '' }], table[3]!, (c) => c.slug)).toThrow(/without a key/);
  });

  it('below gives the route its params from the entry path', () => {
    expect(below(table[4]!, '/search/')).toBe('toyota/page/2');
    expect(below(table[1]!, '/cars/')).toBe('kia-1');
    expect(() => below(table[1]!, '/models/')).toThrow(/not under \/models\//);
  });
});

describe('the runtime in the key', () => {
  it('a different time zone (dates are formatted in it) gives every page another key', async () => {
    const props = { car: { slug: 'car-1', price: 19990 } };
    const here = propsKey(props);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone === 'Australia/Perth' ? 'Australia/Brisbane' : 'Australia/Perth';
    const before = process.env.TZ;
    process.env.TZ = zone;
    vi.resetModules();
    try {
      const fresh = await import('@app/lib/build-data');
      expect(fresh.propsKey(props)).not.toBe(here);
    } finally {
      process.env.TZ = before;
      if (before === undefined) delete process.env.TZ;
      vi.resetModules();
    }
  });
});

describe('the code key (integrations/code-key.ts)', () => {
  it('is the same for the same files and changes with any file, its name or its content', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, renameSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const { codeKey } = await import('@app/integrations/code-key');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'code-key-'));
    try {
      mkdirSync(path.join(dir, 'lib'));
      writeFileSync(path.join(dir, 'lib/a.ts'), 'export const a = 1;');
      writeFileSync(path.join(dir, 'b.astro'), '<p>b</p>');
      const first = codeKey(dir);
      expect(codeKey(dir)).toBe(first);
      writeFileSync(path.join(dir, 'lib/a.ts'), 'export const a = 2;');
      const edited = codeKey(dir);
      expect(edited).not.toBe(first);
      renameSync(path.join(dir, 'lib/a.ts'), path.join(dir, 'lib/c.ts'));
      expect(codeKey(dir)).not.toBe(edited);
      // The project's config, outside the source folder: its text is part of the key.
      const config = path.join(os.tmpdir(), `code-key-config-${process.pid}.mjs`);
      try {
        writeFileSync(config, "export default { vite: { build: { groups: [{ test: /react/ }] } } };");
        const withConfig = codeKey(dir, [config]);
        expect(withConfig).not.toBe(codeKey(dir));
        expect(codeKey(dir, [config])).toBe(withConfig);
        writeFileSync(config, "export default { vite: { build: { groups: [{ test: /react|scheduler/ }] } } };");
        expect(codeKey(dir, [config])).not.toBe(withConfig);
      } finally {
        rmSync(config, { force: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('covers the app’s own source by default, and every page’s cache key carries it', async () => {
    const { codeKey, CODE_KEY_ENV } = await import('@app/integrations/code-key');
    expect(codeKey()).toMatch(/^[0-9a-f]{64}$/);
    // build-data reads the key once, when it loads: a fresh copy under another key gives other page keys.
    const before = propsKey({ a: 1 });
    vi.resetModules();
    process.env[CODE_KEY_ENV] = 'another build of the app';
    try {
      const fresh = await import('@app/lib/build-data');
      expect(fresh.propsKey({ a: 1 })).not.toBe(before);
    } finally {
      delete process.env[CODE_KEY_ENV];
      vi.resetModules();
    }
  });
});

describe('readDealer', () => {
  it('reads a dealer once while its files stay the same, and again when one changes (astro dev keeps the module)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'build-data-'));
    try {
      const write = (label: string, when: number) => {
        writeFileSync(path.join(dir, 'site.json'), JSON.stringify({ slug: 'demo', name: label }));
        writeFileSync(path.join(dir, 'cars.json'), '[]');
        writeFileSync(path.join(dir, 'pages.json'), '[]');
        writeFileSync(path.join(dir, 'search-index.json'), '{}');
        for (const f of ['site.json', 'cars.json', 'pages.json', 'search-index.json']) utimesSync(path.join(dir, f), when, when);
      };
      write('Demo Motors', 1_000);
      const first = readDealer(dir);
      expect(first.site.name).toBe('Demo Motors');
      expect(readDealer(dir)).toBe(first);
      // Same size and time: still the object read before.
      write('Demo Motorz', 1_000);
      expect(readDealer(dir)).toBe(first);
      write('Demo Motors Group', 1_000);
      expect(readDealer(dir).site.name).toBe('Demo Motors Group');
      write('Demo Motorz Group', 2_000);
      expect(readDealer(dir).site.name).toBe('Demo Motorz Group');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
