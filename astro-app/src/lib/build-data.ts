/**
 * The generated data a dealer's pages are built from (`dealergen build`
 * writes site.json, cars.json and search-index.json into the project's
 * src/data/, or src/data/<slug>/ in a batched build), read from disk at
 * build time and never imported as modules. Two reasons:
 *
 * - a batched build shares one bundle among many dealers, which must not
 *   carry every dealer's data;
 * - Astro's incremental build (`experimental.incrementalBuild`) skips a page
 *   only when the hash of its route's module graph is unchanged: an imported
 *   cars.json is part of that graph, so one car's new price would re-render
 *   every page of every route that imports it. Read from disk, the data
 *   reaches a page only through its props, and `keyed` gives each path a
 *   cache key that is the hash of exactly those props (so a refresh renders
 *   again only the pages whose props changed).
 *
 * The rule that makes the cache sound: a route with `getStaticPaths` reads
 * the data only inside `getStaticPaths` and hands the page everything it
 * shows as props (astro-app/test/build-data.test.ts checks every route file).
 * Build-time only: this module uses node:fs and is never shipped.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CODE_KEY_ENV } from '../integrations/code-key';
import { dataDir, dataStamp } from '../integrations/live-data';
import type { Car, PageEntry, PageKind, SearchIndex, SiteData } from '../types/site';

/** One dealer's generated data. */
export interface DealerData {
  slug: string;
  site: SiteData;
  cars: Car[];
  /**
   * The page table (pages.json, generator/src/pipeline/site_data/page_table.rs):
   * every page of the site, with the kind of page it is. A route makes the
   * pages of its kind (`pagesOf`), never a list of its own.
   */
  pages: PageEntry[];
  index: SearchIndex;
}

const read = (dir: string, file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
const loaded = new Map<string, { stamp: string; data: DealerData }>();

/**
 * The data in `dir` (site.json, cars.json, pages.json, search-index.json), read once
 * while its files stay the same. A build reads them once; `astro dev`
 * (the live preview of `dealergen dev`) keeps this module loaded across
 * requests while dealergen rewrites the files, so a changed size or
 * modification time reads them again.
 */
export function readDealer(dir: string): DealerData {
  const stamp = dataStamp(dir);
  const known = loaded.get(dir);
  if (known?.stamp === stamp) return known.data;
  const site = read(dir, 'site.json') as SiteData;
  const data = {
    slug: site.slug,
    site,
    cars: read(dir, 'cars.json') as Car[],
    pages: read(dir, 'pages.json') as PageEntry[],
    index: read(dir, 'search-index.json') as SearchIndex,
  };
  loaded.set(dir, { stamp, data });
  return data;
}

/** The generated-data folder of the project (defined beside the live pages' stamp, integrations/live-data.ts). */
export { dataDir };

/** A single-dealer project's dealer (src/data/). */
export const dealer = (): DealerData => readDealer(dataDir());

/** A batched project's dealers, in the order of src/data/dealers.json. */
export function batchDealers(): DealerData[] {
  return (read(dataDir(), 'dealers.json') as string[]).map((slug) => ({ ...readDealer(path.join(dataDir(), slug)), slug }));
}

/**
 * Is this build a batch of dealers? The same test as the routes
 * integration's (integrations/routes.ts), which injects the routes under
 * `/dealergen-batch/[dealer]` when it holds.
 */
export const batched = (): boolean => existsSync(path.join(dataDir(), 'dealers.json'));

/** A page of the table as its route uses it: the entry's key and number are there. */
export interface TablePage extends PageEntry {
  key: string;
  n: number;
}

/**
 * The pages of `kinds` in the dealer's page table, in path order. `key`
 * and `n` are the entry's, or '' and 1 for a kind without them; the route
 * finds what it builds the page from by `key` (a car by slug, a location
 * by slug...) and fails the build when it is not there.
 */
export function pagesOf(d: Pick<DealerData, 'pages'>, ...kinds: PageKind[]): TablePage[] {
  return d.pages.filter((p) => kinds.includes(p.kind)).map((p) => ({ ...p, key: p.key ?? '', n: p.n ?? 1 }));
}

/** The one item of `items` the page table's `entry` names by `key`, or an error naming the page. */
export function named<T>(items: readonly T[], entry: PageEntry, key: (item: T) => string): T {
  const found = entry.key ? items.find((item) => key(item) === entry.key) : undefined;
  if (found === undefined) throw new Error(`the page table's ${entry.path} (${entry.kind} ${entry.key ?? 'without a key'}) names nothing in the site data`);
  return found;
}

/** The part of a table page's path below `prefix`, without slashes at either end ("/search/toyota/page/2/" below "/search/": "toyota/page/2"). */
export function below(entry: PageEntry, prefix: string): string {
  if (!entry.path.startsWith(prefix)) throw new Error(`the page table's ${entry.path} is not under ${prefix}`);
  return entry.path.slice(prefix.length).replace(/^\/+|\/+$/g, '');
}

/** One path of a route, before `paths` adds the dealer. */
export interface RoutePath<P, T> {
  params: P;
  props: T;
}

/**
 * What a route's pages read of `site` that moves without the dealer's
 * configuration changing:
 *
 * - `stock`: `stock_summary` (counts per type and make),
 *   `search.landing_pages` (the stock's search pages, with their counts)
 *   and `content.models` (each model's cars in stock). They move with
 *   every car sold or added.
 * - `clock`: `built_at`, the instant the stock was judged at. A build
 *   without `--as-of` judges it at the start of the hour (judged_now in
 *   generator/src/selection.rs), so it moves with every hourly refresh;
 *   were it in every page's key, each refresh would render every page
 *   again. The time rules the generator applies (sold window, new
 *   arrivals, the offers' lists) reach the pages as their outcomes in the
 *   data; a page that judges a window itself (an offer's or a slide's)
 *   declares it.
 *
 * A page whose props include them gets a new cache key whenever they move.
 * So only a route that declares `{ stock: true }` or `{ clock: true }`
 * gets them; every other page's `site` has them as properties that throw
 * when read (and that hashing skips), so a page that reads them without
 * declaring it fails the build instead of being served stale.
 */
export interface PathsOptions {
  stock?: boolean;
  clock?: boolean;
}

/** Site fields derived from the stock (see `PathsOptions`). */
export const STOCK_FIELDS = ['stock_summary', 'search.landing_pages', 'content.models'] as const;

const guardedSites = new WeakMap<SiteData, Map<string, SiteData>>();

/**
 * `site` with the fields `opts` does not declare guarded (one object per
 * site and declaration, so its hash is computed once).
 */
export function siteFor(site: SiteData, opts: PathsOptions = {}): SiteData {
  if (opts.stock && opts.clock) return site;
  const which = `${opts.stock ? 'stock' : ''}|${opts.clock ? 'clock' : ''}`;
  let known = guardedSites.get(site);
  if (!known) guardedSites.set(site, (known = new Map()));
  let guarded = known.get(which);
  if (!guarded) {
    const refuse = (field: string, moves: string, option: string) => () => {
      throw new Error(`a page read site.${field}, which ${moves}: declare it with paths(each, { ${option}: true }) in its route (lib/build-data.ts)`);
    };
    const stock = (field: string) => refuse(field, 'moves with the stock', 'stock');
    guarded = { ...site };
    if (!opts.stock) {
      guarded.search = Object.defineProperty({ ...site.search }, 'landing_pages', { get: stock('search.landing_pages'), enumerable: false });
      guarded.content = Object.defineProperty({ ...site.content }, 'models', { get: stock('content.models'), enumerable: false });
      Object.defineProperty(guarded, 'stock_summary', { get: stock('stock_summary'), enumerable: false });
    }
    if (!opts.clock) Object.defineProperty(guarded, 'built_at', { get: refuse('built_at', 'moves with every hourly build', 'clock'), enumerable: false });
    known.set(which, guarded);
  }
  return guarded;
}

const withoutSimilar = new WeakMap<Car, Car>();

/**
 * A car for the pages about it other than its own page (the checkout,
 * `/cars/{slug}.json`): its similar cars (`detail.similar`,
 * with their prices) guarded as `siteFor` guards the stock fields.
 * They change whenever one of those cars is repriced, sold or arrives; only
 * the car page shows them, so only its key should move with them.
 */
export function carWithoutSimilar(car: Car): Car {
  let guarded = withoutSimilar.get(car);
  if (!guarded) {
    const detail = Object.defineProperty({ ...car.detail }, 'similar', {
      get: () => {
        throw new Error(`a page read car.detail.similar, which moves with other cars' prices: only the car page's route passes the car with it (lib/build-data.ts)`);
      },
      enumerable: false,
    });
    guarded = { ...car, detail };
    withoutSimilar.set(car, guarded);
  }
  return guarded;
}

/**
 * The paths of a route, for a dealer's own build and a batched one alike:
 * `each(d)` gives one dealer's params and props; every path gets the
 * dealer's `site` in its props (without the stock fields and the clock
 * unless `opts` declares them), the `dealer` param in a batch, and a cache key (`keyed`).
 * The one place a route reads the generated data.
 */
export function paths<P extends Record<string, string | undefined>, T extends Record<string, unknown>>(
  each: (d: DealerData) => RoutePath<P, T>[],
  opts: PathsOptions = {},
) {
  const batch = batched();
  return keyed(pathsOf(batch ? batchDealers() : [dealer()], batch, each, opts));
}

/** `paths` of the given dealers, without cache keys (scripts/lib/trace-reads.mjs builds with these). */
export function pathsOf<P extends Record<string, string | undefined>, T extends Record<string, unknown>>(
  dealers: DealerData[],
  batch: boolean,
  each: (d: DealerData) => RoutePath<P, T>[],
  opts: PathsOptions = {},
) {
  return dealers.flatMap((d) => {
    const site = siteFor(d.site, opts);
    return each(d).map(({ params, props }) => ({ params: batch ? { ...params, dealer: d.slug } : params, props: { ...props, site } }));
  });
}

/**
 * The props of a route without params of its own (`/`, `/compare/`, an
 * endpoint): Astro calls its `getStaticPaths` in a batch, where the route
 * has the `dealer` param, but not in a dealer's own build, where the route
 * is static and gets no props. There they come from the same
 * `getStaticPaths`, whose one path is the dealer's.
 */
export function routeProps<T>(astro: { props: object }, getStaticPaths: () => { props: T }[]): T {
  if ('site' in astro.props) return astro.props as T;
  const [only, ...more] = getStaticPaths();
  if (!only || more.length > 0) throw new Error(`a route without params has ${more.length + (only ? 1 : 0)} paths: expected 1`);
  return only.props;
}

// Hashes of the data objects already seen. The data is parsed JSON that no
// page mutates, so an object's hash never changes during a build; sharing it
// means the 100 KB site object is hashed once, not once per page.
const hashes = new WeakMap<object, string>();

function hashOf(value: unknown): string {
  const memo = value !== null && typeof value === 'object';
  if (memo) {
    const known = hashes.get(value);
    if (known) return known;
  }
  const h = createHash('sha256')
    .update(JSON.stringify(value) ?? 'undefined')
    .digest('hex');
  if (memo) hashes.set(value, h);
  return h;
}

// A page's HTML depends on the runtime as well as on its props: prices and
// dates are formatted with Node's ICU data in the build's time zone. Astro's
// own key covers the server code, config and lockfile, not these, nor the
// browser code whose bundled names every page carries: the app's code key
// (integrations/code-key.ts, set by its integration before any page renders).
const RUNTIME = [
  process.versions.node,
  process.versions.icu,
  Intl.DateTimeFormat().resolvedOptions().timeZone,
  process.env[CODE_KEY_ENV] ?? '',
].join('|');

/** The cache key of a page: the hash of the runtime and of its props, name by name. */
export function propsKey(props: Record<string, unknown> | undefined): string {
  const h = createHash('sha256').update(RUNTIME).update('\0');
  for (const name of Object.keys(props ?? {}).sort()) {
    h.update(name).update('\0').update(hashOf(props?.[name])).update('\0');
  }
  return h.digest('hex');
}

/**
 * `getStaticPaths` entries with a `cacheKey` each: the hash of the props,
 * which (by the rule above) are all the data the page reads. Astro adds the
 * hash of the route's code, the config and the lockfile.
 */
export function keyed<P, T extends Record<string, unknown>>(paths: { params: P; props: T }[]): { params: P; props: T; cacheKey: string }[] {
  return paths.map((p) => ({ ...p, cacheKey: propsKey(p.props) }));
}
