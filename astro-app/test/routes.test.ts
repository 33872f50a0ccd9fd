// One set of routes (astro-app/src/routes) for a dealer's own project and
// for a batch of dealers: the patterns injected for each, and the paths
// and props the same route file gives in each.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { carWithoutSimilar, paths, propsKey, routeProps } from '@app/lib/build-data';
import { getStaticPaths as carJsonPaths } from '@app/routes/cars/[slug].json';
import { BATCH_PREFIX, injectedPattern, routeFiles } from '@app/integrations/routes';

describe('routeFiles: the file layout is the page list', () => {
  const byFile = new Map(routeFiles().map((r) => [r.file, r.pattern]));

  it.each([
    ['index.astro', '/'],
    ['404.astro', '/404'],
    ['search/index.astro', '/search'],
    ['search/page/[page].astro', '/search/page/[page]'],
    ['cars/[slug].astro', '/cars/[slug]'],
    ['cars/[slug].json.ts', '/cars/[slug].json'],
    ['search-index.json.ts', '/search-index.json'],
    ['[...form].astro', '/[...form]'],
  ])('%s is at %s', (file, pattern) => {
    expect(byFile.get(file)).toBe(pattern);
  });

  it('gives every file one pattern, none twice', () => {
    const patterns = [...byFile.values()];
    expect(new Set(patterns).size).toBe(patterns.length);
    expect(patterns.length).toBeGreaterThan(20);
  });

  it('puts a batch under the dealer segment, the home page at the segment itself', () => {
    expect(injectedPattern('/cars/[slug]', false)).toBe('/cars/[slug]');
    expect(injectedPattern('/cars/[slug]', true)).toBe(`${BATCH_PREFIX}/cars/[slug]`);
    expect(injectedPattern('/', true)).toBe(BATCH_PREFIX);
    expect(injectedPattern('/', false)).toBe('/');
  });
});

/** A generated project's data folder: one dealer's, or a batch's. */
function writeDealer(dir: string, slug: string, cars: string[], sold = 0, builtAt = 1_795_132_800) {
  mkdirSync(dir, { recursive: true });
  const site = {
    slug,
    built_at: builtAt,
    name: slug.toUpperCase(),
    stock_summary: { by_type: [{ type: 'used', count: cars.length - sold }] },
    search: { page_size: 21, landing_pages: [{ path: 'used-cars', count: cars.length - sold }] },
    content: { offers: { items: [] }, models: [{ slug: 'corolla', stock_count: cars.length - sold }] },
  };
  writeFileSync(path.join(dir, 'site.json'), JSON.stringify(site));
  writeFileSync(path.join(dir, 'cars.json'), JSON.stringify(cars.map((c) => ({ slug: c, price: c.length }))));
  writeFileSync(path.join(dir, 'search-index.json'), JSON.stringify({ count: cars.length }));
  // The page table the generator would write for these cars (the routes make its pages).
  const pages = [{ path: '/', kind: 'home', key: null, n: null }, ...cars.map((c) => ({ path: `/cars/${c}/`, kind: 'car', key: c, n: null }))];
  writeFileSync(path.join(dir, 'pages.json'), JSON.stringify(pages));
}

describe('paths and routeProps in each kind of project', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'dealergen-routes-'));
    vi.spyOn(process, 'cwd').mockReturnValue(root);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  });

  // What cars/[slug].astro and index.astro declare.
  const carPaths = () => paths((d) => d.cars.map((car) => ({ params: { slug: car.slug }, props: { car } })));
  const homePaths = () => paths((d) => [{ params: {}, props: { cars: d.cars } }]);

  it("a dealer's own project: its params, its site in every page's props, a key per page", () => {
    writeDealer(path.join(root, 'src/data'), 'alpha', ['a-1', 'a-22']);
    const got = carPaths();
    expect(got.map((p) => p.params)).toEqual([{ slug: 'a-1' }, { slug: 'a-22' }]);
    expect(got.every((p) => (p.props.site as { slug: string }).slug === 'alpha')).toBe(true);
    expect(got[0]?.cacheKey).toBe(propsKey(got[0]?.props));
    expect(got[0]?.cacheKey).not.toBe(got[1]?.cacheKey);
    // A static route gets no props from Astro here: they come from its paths.
    const home = routeProps({ props: {} }, homePaths);
    expect((home.site as { slug: string }).slug).toBe('alpha');
    expect(home.cars).toHaveLength(2);
  });

  it('a batch: every dealer, each path with its dealer param and its own site', () => {
    mkdirSync(path.join(root, 'src/data'), { recursive: true });
    writeFileSync(path.join(root, 'src/data/dealers.json'), JSON.stringify(['alpha', 'beta']));
    writeDealer(path.join(root, 'src/data/alpha'), 'alpha', ['a-1']);
    writeDealer(path.join(root, 'src/data/beta'), 'beta', ['b-1', 'b-2']);
    const got = carPaths();
    expect(got.map((p) => p.params)).toEqual([
      { slug: 'a-1', dealer: 'alpha' },
      { slug: 'b-1', dealer: 'beta' },
      { slug: 'b-2', dealer: 'beta' },
    ]);
    expect(got.map((p) => (p.props.site as { slug: string }).slug)).toEqual(['alpha', 'beta', 'beta']);
    // Astro hands a batched static route its dealer's props, used as they are.
    const beta = homePaths()[1]!;
    expect(routeProps({ props: beta.props }, homePaths)).toBe(beta.props);
  });

  it('the same car has the same cache key alone and in a batch', () => {
    writeDealer(path.join(root, 'src/data'), 'alpha', ['a-1']);
    const alone = carPaths()[0]?.cacheKey;
    writeFileSync(path.join(root, 'src/data/dealers.json'), JSON.stringify(['alpha']));
    writeDealer(path.join(root, 'src/data/alpha'), 'alpha', ['a-1']);
    expect(carPaths()[0]?.cacheKey).toBe(alone);
  });

  it('a page gets the stock-derived site fields only when its route declares them, and its key ignores them otherwise', () => {
    writeDealer(path.join(root, 'src/data'), 'alpha', ['a-1', 'a-2']);
    const [car] = carPaths();
    const site = car!.props.site as { stock_summary: unknown; search: { landing_pages: unknown; page_size: number } };
    expect(() => site.stock_summary).toThrow(/site\.stock_summary, which moves with the stock: declare it with paths\(each, \{ stock: true \}\)/);
    expect(() => site.search.landing_pages).toThrow(/site\.search\.landing_pages/);
    expect(() => (site as unknown as { content: { models: unknown } }).content.models).toThrow(/site\.content\.models/);
    expect((site as unknown as { content: { offers: unknown } }).content.offers).toEqual({ items: [] });
    expect(site.search.page_size).toBe(21);
    expect(JSON.stringify(site)).not.toMatch(/landing_pages|stock_summary|stock_count/);
    const home = paths((d) => [{ params: {}, props: { cars: d.cars } }], { stock: true })[0]!;
    expect((home.props.site as { stock_summary: unknown }).stock_summary).toEqual({ by_type: [{ type: 'used', count: 2 }] });
    // A car sold elsewhere moves the counts: the car page keeps its key, the home page does not.
    const other = mkdtempSync(path.join(os.tmpdir(), 'dealergen-routes-'));
    try {
      vi.spyOn(process, 'cwd').mockReturnValue(other);
      writeDealer(path.join(other, 'src/data'), 'alpha', ['a-1', 'a-2'], 1);
      expect(carPaths()[0]!.cacheKey).toBe(car!.cacheKey);
      expect(paths((d) => [{ params: {}, props: { cars: d.cars } }], { stock: true })[0]!.cacheKey).not.toBe(home.cacheKey);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('a page gets the instant the stock was judged at only when its route declares the clock, and keeps its key from hour to hour otherwise', () => {
    writeDealer(path.join(root, 'src/data'), 'alpha', ['a-1', 'a-2']);
    const [car] = carPaths();
    const site = car!.props.site as { built_at: number };
    expect(() => site.built_at).toThrow(/site\.built_at, which moves with every hourly build: declare it with paths\(each, \{ clock: true \}\)/);
    expect(JSON.stringify(site)).not.toMatch(/built_at/);
    const offers = () => paths(() => [{ params: {}, props: {} }], { clock: true })[0]!;
    expect((offers().props.site as { built_at: number }).built_at).toBe(1_795_132_800);
    // Both guards at once: the stock fields and the clock.
    const stockOnly = paths(() => [{ params: {}, props: {} }], { stock: true })[0]!.props.site as { built_at: number; stock_summary: unknown };
    expect(stockOnly.stock_summary).toBeTruthy();
    expect(() => stockOnly.built_at).toThrow(/clock: true/);
    // The next hour's build of the same stock: the car page keeps its key, a page that judges windows does not.
    const offersKey = offers().cacheKey;
    const other = mkdtempSync(path.join(os.tmpdir(), 'dealergen-routes-'));
    try {
      vi.spyOn(process, 'cwd').mockReturnValue(other);
      writeDealer(path.join(other, 'src/data'), 'alpha', ['a-1', 'a-2'], 0, 1_795_132_800 + 3600);
      expect(carPaths()[0]!.cacheKey).toBe(car!.cacheKey);
      expect(offers().cacheKey).not.toBe(offersKey);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("the car's other pages (checkout, JSON) keep their key when a similar car is repriced; the car page's key moves", () => {
    const write = (dir: string, otherPrice: number) => {
      writeDealer(dir, 'alpha', []);
      const similar = [{ slug: 'a-2', name: 'A 2', price_text: `$${otherPrice}` }];
      const cars = [
        { slug: 'a-1', price: 100, detail: { features: ['ABS'], similar } },
        { slug: 'a-2', price: otherPrice, detail: { features: [], similar: [] } },
      ];
      writeFileSync(path.join(dir, 'cars.json'), JSON.stringify(cars));
    };
    write(path.join(root, 'src/data'), 200);
    const json = carJsonPaths()[0]!;
    const page = carPaths()[0]!;
    const car = json.props.car as unknown as { detail: { similar: unknown; features: string[] } };
    expect(car.detail.features).toEqual(['ABS']);
    expect(() => car.detail.similar).toThrow(/car\.detail\.similar, which moves with other cars' prices/);
    expect(JSON.stringify(car)).not.toMatch(/similar/);
    const other = mkdtempSync(path.join(os.tmpdir(), 'dealergen-routes-'));
    try {
      vi.spyOn(process, 'cwd').mockReturnValue(other);
      write(path.join(other, 'src/data'), 250);
      expect(carJsonPaths()[0]!.cacheKey).toBe(json.cacheKey);
      expect(carPaths()[0]!.cacheKey).not.toBe(page.cacheKey);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    // One guarded object per car: its hash is computed once.
    const plain = { slug: 'x', detail: { similar: [] } } as unknown as Parameters<typeof carWithoutSimilar>[0];
    expect(carWithoutSimilar(plain)).toBe(carWithoutSimilar(plain));
  });

  it('routeProps refuses a static route with more than one path', () => {
    writeDealer(path.join(root, 'src/data'), 'alpha', ['a-1', 'a-2']);
    expect(() => routeProps({ props: {} }, carPaths)).toThrow(/2 paths/);
  });
});
