/**
 * What a built search page shows (/search/, /search/page/N/, a landing
 * page), computed in its route's getStaticPaths with the same engine the
 * browser uses: the search state and its first results, counts and
 * facets. They, not the whole search index, are the page's props, so the
 * page's cache key (lib/build-data.ts) changes only when what it shows
 * does: one car's new price re-renders the search pages that list it (and
 * any whose counts or price range it moves), not every one.
 */
import { engineFor } from './client';
import { tileOpen } from './promo';
import { EMPTY_STATE, type SearchResponse, type SearchState } from './types';
import type { Engine } from './engine';
import type { LandingPage, SearchIndex, SiteData } from '../../types/site';

/** A search page's state and results as built. */
export interface StaticSearch {
  state: SearchState;
  initial: SearchResponse;
  /** The promo tiles open when the stock was judged (SearchApp's `tilesOpen`). */
  tilesOpen: string[];
}

// What the build judged once per dealer's index and build: the engine
// (decoding the index once, not once per page) and the promo tiles open.
const judged = new WeakMap<SearchIndex, { engine: Engine; tilesOpen: string[] }>();

function judgedFor(site: SiteData, index: SearchIndex) {
  let known = judged.get(index);
  if (!known) {
    // The instant the generator judged the stock at (its --as-of, if
    // given), so these counts match cars.json and the landing pages'.
    // The new-arrival tags too are judged at that instant, not at the
    // moment this page happens to render.
    const at = Math.floor(site.built_at);
    known = {
      engine: engineFor(index, site.search, at, false, () => at * 1000),
      // Which tiles are open, not the instant: the instant moves every hour.
      tilesOpen: site.search.promo_tiles.filter((t) => tileOpen(t, at * 1000)).map((t) => t.id),
    };
    judged.set(index, known);
  }
  return known;
}

/** Page `page` (1-based) of the dealer's search, or of one of its landing pages. */
export function staticSearch(site: SiteData, index: SearchIndex, page: number, landing?: LandingPage): StaticSearch {
  const { engine, tilesOpen } = judgedFor(site, index);
  const refinementList = Object.fromEntries(Object.entries(landing?.refinements ?? {}).map(([k, v]) => [k, v ?? []]));
  const state: SearchState = { ...EMPTY_STATE, refinementList, range: {}, page };
  // The time the search took at build time means nothing on the page, and
  // a figure that differs from run to run would change the page's cache
  // key on every build.
  return { state, initial: { ...engine.search(state), processingTimeMS: 0 }, tilesOpen };
}
