/**
 * The search client the island talks to: the embedded engine over
 * /search-index.json (fetched once, decoded, base filters re-applied at the
 * shopper's clock) or, when the dealer configured one, the hosted service;
 * either way behind the result cache (10 entries, oldest evicted).
 */
import type { Search, SearchIndex } from '../../types/site';
import { ResultCache } from './cache';
import { applyBaseFilters, createEngine, decodeIndex, type Engine } from './engine';
import type { Planner } from './query-plan';
import type { SearchClient, SearchResponse, SearchState } from './types';
import { stateKey } from './url';

export const INDEX_URL = '/search-index.json';

/** Wraps a client with the result cache; a failed search is not cached. */
export function cached(client: SearchClient, cache = new ResultCache<SearchResponse>()): SearchClient {
  return {
    prepareKeyword: () => client.prepareKeyword?.(),
    async search(state) {
      const key = stateKey(state);
      const hit = cache.get(key);
      if (hit) return hit;
      const response = await client.search(state);
      cache.set(key, response);
      return response;
    },
  };
}

/**
 * The embedded engine over `index`, its base filters (the sold window)
 * applied at `nowSeconds`; `now` (ms) judges the new-arrival tags, the
 * browser's clock at each search by default.
 */
export function engineFor(index: SearchIndex, search: Search, nowSeconds: number, strict = false, now?: () => number): Engine {
  const decoded = decodeIndex(index);
  return createEngine(decoded, {
    hitsPerPage: search.page_size,
    priceAscExcludesZero: search.price_asc_excludes_zero,
    sortOptions: search.sort_options,
    keep: applyBaseFilters(decoded, search.base_filters, nowSeconds),
    newArrivalText: search.hit_rules.new_arrival_text,
    strict,
    now,
  });
}

/** Loads the keyword half of the engine (a chunk of its own). */
export const loadPlanner = () => import('./query-plan');

/**
 * The embedded engine over the index `fetchIndex` gives: fetched and decoded
 * on the first search; the keyword planner (query-plan.ts) loaded and built
 * on the first keyword, or earlier through `prepareKeyword` (the keyword box
 * gets focus), so typing never waits for it.
 */
export function embeddedClient(search: Search, fetchIndex: () => Promise<SearchIndex>, load: typeof loadPlanner = loadPlanner): SearchClient {
  let engine: Promise<Engine> | undefined;
  let planner: Promise<Planner> | undefined;
  const ready = () => (engine ??= fetchIndex().then((index) => engineFor(index, search, Math.floor(Date.now() / 1000), DEV)));
  const keyword = () => (planner ??= Promise.all([ready(), load()]).then(([e, m]) => m.planner(e.decoded, search.synonyms)));
  return {
    async search(state: SearchState) {
      try {
        const e = await ready();
        return e.search(state, state.query.trim() ? await keyword() : undefined);
      } catch (error) {
        // A failed download is retried on the next search.
        engine = undefined;
        planner = undefined;
        throw error;
      }
    },
    prepareKeyword() {
      keyword().catch(() => (planner = undefined));
    },
  };
}

/** Development builds reject a refinement on an attribute the index lacks; production warns. */
const DEV = (import.meta as { env?: { DEV?: boolean } }).env?.DEV === true;

export async function createClient(search: Search): Promise<SearchClient> {
  if (search.hosted) {
    const { createHostedClient } = await import('./hosted');
    return cached(
      createHostedClient({
        config: search.hosted,
        baseFilters: search.base_filters,
        hitsPerPage: search.page_size,
        priceAscExcludesZero: search.price_asc_excludes_zero,
        sortOptions: search.sort_options,
        rules: search.hit_rules,
      }),
    );
  }
  return cached(
    embeddedClient(search, async () => {
      const res = await fetch(INDEX_URL);
      if (!res.ok) throw new Error(`${INDEX_URL}: ${res.status}`);
      return (await res.json()) as SearchIndex;
    }),
  );
}
