/**
 * The search client the island talks to: the embedded engine over
 * /search-index.json (fetched once, decoded, base filters re-applied at the
 * shopper's clock) or, when the dealer configured one, the hosted service;
 * either way behind the result cache (10 entries, oldest evicted).
 */
import type { Search, SearchIndex } from '../../types/site';
import { ResultCache } from './cache';
import { applyBaseFilters, createEngine, decodeIndex, type Engine } from './engine';
import type { SearchClient, SearchResponse, SearchState } from './types';
import { stateKey } from './url';

export const INDEX_URL = '/search-index.json';

/** Wraps a client with the result cache; a failed search is not cached. */
export function cached(client: SearchClient, cache = new ResultCache<SearchResponse>()): SearchClient {
  return {
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

export function engineFor(index: SearchIndex, search: Search, nowSeconds: number): Engine {
  const decoded = decodeIndex(index);
  return createEngine(decoded, {
    hitsPerPage: search.page_size,
    priceAscExcludesZero: search.price_asc_excludes_zero,
    sortOptions: search.sort_options,
    keep: applyBaseFilters(decoded, search.base_filters, nowSeconds),
  });
}

export function embeddedClient(search: Search, fetchIndex: () => Promise<SearchIndex>): SearchClient {
  let engine: Promise<Engine> | undefined;
  return {
    async search(state: SearchState) {
      engine ??= fetchIndex().then((index) => engineFor(index, search, Math.floor(Date.now() / 1000)));
      try {
        return (await engine).search(state);
      } catch (error) {
        // A failed download is retried on the next search.
        engine = undefined;
        throw error;
      }
    },
  };
}

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
