/**
 * Search-as-you-type suggestions for the keyword box: the makes and models
 * of this stock (most cars first), then its body, fuel, drive and
 * transmission words, each with the number of cars it finds. Drawn from
 * the stock's own facet values (the same vocabulary the keyword search
 * matches), so a suggestion never leads to an empty page. Kept out of the
 * engine's bundle: only the keyword box needs it.
 */
import type { SearchResponse } from './types';

export interface Suggestion {
  /** What the box is filled with when chosen. */
  query: string;
  /** Cars it finds (over the whole stock). */
  count: number;
  kind: 'make' | 'model' | 'word' | 'page' | 'popular';
  /** A search page's path below /search/ ("toyota/hilux"): choosing it goes there. */
  path?: string;
}

/** What a search page offers as a suggestion (`site.search.landing_pages`, trimmed). */
export interface SearchPageLink {
  path: string;
  title: string;
  count: number;
}

/**
 * Where the site's search pages are listed for the keyword box
 * (routes/search-pages.json.ts). Fetched when the box first gets focus,
 * not carried in every search page's props: their counts move with every
 * car sold or added, and a page's props are its cache key (lib/build-data.ts).
 */
export const SEARCH_PAGES_URL = '/search-pages.json';

/** The site's search pages (SEARCH_PAGES_URL); rejects on a failed download or a body that is not a list of them. */
export async function fetchSearchPages(fetchImpl: typeof fetch = fetch): Promise<SearchPageLink[]> {
  const res = await fetchImpl(SEARCH_PAGES_URL);
  if (!res.ok) throw new Error(`${SEARCH_PAGES_URL}: ${res.status}`);
  const body: unknown = await res.json();
  const isLink = (p: unknown): p is SearchPageLink => {
    const o = p as Partial<SearchPageLink> | null;
    return typeof o?.path === 'string' && typeof o.title === 'string' && typeof o.count === 'number';
  };
  if (!Array.isArray(body) || !body.every(isLink)) throw new Error(`${SEARCH_PAGES_URL}: not a list of search pages`);
  return body;
}

/** "Toyota HiLux for sale" → "Toyota HiLux"; "Used cars for sale" → "Used cars". */
export const pageLabel = (title: string) => title.replace(/ for sale$/i, '');

const wordsOf = (s: string) => s.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
const compact = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

/**
 * Whether a suggestion fits what was typed: every typed word starts a word
 * of it ("toy hi" → "Toyota HiLux"), or the typed text starts it joined up
 * ("landcr" → "Toyota LandCruiser 300" through "landcruiser").
 */
export function fits(label: string, typed: string): boolean {
  const ws = wordsOf(label);
  const typedWords = wordsOf(typed);
  if (!typedWords.length) return false;
  if (typedWords.every((t) => ws.some((w) => w.startsWith(t)))) return true;
  const c = compact(typed);
  return ws.some((_, i) => ws.slice(i).join('').startsWith(c));
}

/**
 * Up to `limit` suggestions for `typed` from the facet counts of the whole
 * stock (an unfiltered search's `facets`).
 */
export function suggest(typed: string, facets: SearchResponse['facets'], limit = 8): Suggestion[] {
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  const add = (query: string, count: number, kind: Suggestion['kind']) => {
    const key = query.toLowerCase();
    if (count > 0 && !seen.has(key) && fits(query, typed)) {
      seen.add(key);
      out.push({ query, count, kind });
    }
  };
  const byCount = (f: Record<string, number> | undefined) => Object.entries(f ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const [make, count] of byCount(facets.make)) add(make, count, 'make');
  for (const [mm, count] of byCount(facets.make_model)) add(mm.replace('|', ' '), count, 'model');
  for (const attr of ['body', 'fuel', 'drive', 'transmission']) for (const [v, count] of byCount(facets[attr])) add(v, count, 'word');
  return out.slice(0, limit);
}

/**
 * Up to `limit` of the site's search pages (its landing pages: car types,
 * makes, models, bodies) whose name fits `typed`, most cars first. Their
 * names are matched without "cars" or "for sale", so "c" does not offer
 * every page. Choosing one goes to that page, with its filters and title.
 */
export function suggestPages(typed: string, pages: SearchPageLink[] | undefined, limit = 3): Suggestion[] {
  return (pages ?? [])
    .filter((p) => p.count > 0 && fits(pageLabel(p.title).replace(/ cars$/i, ''), typed))
    .sort((a, b) => b.count - a.count || a.title.localeCompare(b.title))
    .slice(0, limit)
    .map((p) => ({ query: pageLabel(p.title), count: p.count, kind: 'page', path: p.path }));
}

/**
 * The popular searches to offer (lib/search/popular.ts): all of them while
 * the box is empty, else those that fit what is typed (not what is typed
 * itself), at most `limit`.
 */
export function popularFor(typed: string, popular: Suggestion[], limit = 5): Suggestion[] {
  const t = wordsOf(typed).join(' ');
  return (t ? popular.filter((p) => p.query !== t && fits(p.query, typed)) : popular).slice(0, limit);
}
