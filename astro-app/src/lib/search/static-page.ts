/**
 * What a built search page shows (/search/, /search/page/N/, a landing
 * page), computed in its route's getStaticPaths with the same engine the
 * browser uses: the search state and its first results, counts and
 * facets. They, not the whole search index, are the page's props, so the
 * page's cache key (lib/build-data.ts) changes only when what it shows
 * does: one car's new price re-renders the search pages that list it (and
 * any whose counts or price range it moves), not every one.
 *
 * A page's counts are those of its own results: a refined facet's other
 * values (the other makes on /search/ford/, New and Demo on
 * /search/used-cars/) are listed, in the order their counts give, without
 * the counts (`withoutOutsideCounts`), and the island shows them once it
 * has the index. Otherwise every landing page changed with any car sold or
 * added anywhere in the stock (issue 42: 171 of 171 search pages per
 * hourly refresh).
 */
import { engineFor } from './client';
import { facetEntries } from './facet-lists';
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
  /**
   * Every make's landing page (/search/ford/), by name: how a shopper
   * without JavaScript reaches another make (the make filter's checkboxes
   * need the island). Moves only when a make comes or goes.
   */
  makeLinks: MakeLink[];
}

export interface MakeLink {
  /** Below /search/, as the landing page's `path`. */
  path: string;
  make: string;
}

// What the build judged once per dealer's index and build: the engine
// (decoding the index once, not once per page) and the promo tiles open.
const judged = new WeakMap<SearchIndex, { engine: Engine; tilesOpen: string[]; makeLinks: MakeLink[] }>();

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
      makeLinks: makeLinksOf(site.search.landing_pages),
    };
    judged.set(index, known);
  }
  return known;
}

/** Page `page` (1-based) of the dealer's search, or of one of its landing pages. */
export function staticSearch(site: SiteData, index: SearchIndex, page: number, landing?: LandingPage): StaticSearch {
  const { engine, tilesOpen, makeLinks } = judgedFor(site, index);
  const refinementList = Object.fromEntries(Object.entries(landing?.refinements ?? {}).map(([k, v]) => [k, v ?? []]));
  const state: SearchState = { ...EMPTY_STATE, refinementList, range: {}, page };
  // The time the search took at build time means nothing on the page, and
  // a figure that differs from run to run would change the page's cache
  // key on every build.
  return { state, initial: withoutOutsideCounts({ ...engine.search(state), processingTimeMS: 0 }, state.refinementList), tilesOpen, makeLinks };
}

/** The landing pages that refine one make and nothing else, by make name. */
export function makeLinksOf(landings: LandingPage[]): MakeLink[] {
  const links: MakeLink[] = [];
  for (const l of landings) {
    const attrs = Object.keys(l.refinements);
    const makes = l.refinements['make'] ?? [];
    if (attrs.length === 1 && makes.length === 1) links.push({ path: l.path, make: makes[0]! });
  }
  return links.sort((a, b) => a.make.localeCompare(b.make));
}

/**
 * `response` with each refined facet's other values listed without their
 * counts: `facets[attr]` keeps the refined values' counts (within the
 * page's results), `uncounted[attr]` lists every value in the order the
 * full counts give (so the list does not move when the island adds them).
 */
export function withoutOutsideCounts(response: SearchResponse, refinementList: Record<string, string[]>): SearchResponse {
  const facets = { ...response.facets };
  const uncounted: Record<string, string[]> = {};
  for (const [attr, refined] of Object.entries(refinementList)) {
    const counts = facets[attr];
    if (refined.length === 0 || !counts) continue;
    const order = facetEntries(attr, counts, refined).map((e) => e.value);
    if (order.every((v) => refined.includes(v))) continue;
    facets[attr] = Object.fromEntries(Object.entries(counts).filter(([v]) => refined.includes(v)));
    uncounted[attr] = order;
  }
  // The model picker's counts ("Toyota|Corolla") are counted with the make
  // facet's: on a make's page, the other makes' models are outside too.
  // The picker is closed in the HTML, so nothing lists them there.
  const makes = refinementList['make'] ?? [];
  const makeModel = facets['make_model'];
  if (uncounted['make'] && makeModel) {
    facets['make_model'] = Object.fromEntries(Object.entries(makeModel).filter(([k]) => makes.includes(k.slice(0, k.indexOf('|')))));
  }
  return Object.keys(uncounted).length === 0 ? response : { ...response, facets, uncounted };
}
