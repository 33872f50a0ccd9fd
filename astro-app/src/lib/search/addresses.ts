/**
 * The addresses of searches: the static pages' (/search/, /search/page/N/,
 * a landing page and its pages /search/toyota/page/N/, which work without
 * JavaScript) and the query addresses of every other search (./url). Apart
 * from ./url because only the search island and its recent searches need
 * them: the home page's widget shares ./url and should not load these.
 */
import { EMPTY_STATE, type SearchState } from './types';
import { parseSearchState, serialiseSearchState } from './url';

/**
 * The static search page a search page was built as: `/search/` (path '')
 * or a landing page (`/search/toyota/corolla/`: path 'toyota/corolla',
 * with the refinements it applies).
 */
export interface SearchBase {
  path: string;
  refinements: Record<string, string[]>;
}

/** The plain search: /search/ and /search/page/N/. */
export const PLAIN_SEARCH: SearchBase = { path: '', refinements: {} };

/** `/search/` or `/search/{path}/`, and page n under it: `/search/{path}/page/{n}/`. */
export function staticSearchHref(base: SearchBase, page: number): string {
  const root = base.path ? `/search/${base.path}/` : '/search/';
  return page > 1 ? `${root}page/${page}/` : root;
}

function sameRefinements(a: Record<string, string[]>, b: Record<string, string[]>): boolean {
  const keys = (r: Record<string, string[]>) => Object.keys(r).filter((k) => (r[k] ?? []).length > 0);
  const ka = keys(a);
  if (ka.length !== keys(b).length) return false;
  return ka.every((k) => {
    const va = new Set(a[k]);
    const vb = new Set(b[k] ?? []);
    return va.size === vb.size && [...va].every((v) => vb.has(v));
  });
}

/**
 * The address of a search. A search that is exactly what a static page
 * shows (no keyword, sort or range; the plain search's or `base`'s
 * refinements) gets that page's address, page n included, so paging works
 * without JavaScript too; any other search is `/search/?…`.
 */
export function searchHref(state: SearchState, base: SearchBase = PLAIN_SEARCH): string {
  const unrefined = !state.query && !state.sortBy && Object.keys(state.range).length === 0;
  if (unrefined) {
    // This page's own first: a landing page of all types refines nothing, as /search/ does.
    for (const b of base.path ? [base, PLAIN_SEARCH] : [PLAIN_SEARCH]) {
      if (sameRefinements(state.refinementList, b.refinements)) return staticSearchHref(b, state.page);
    }
  }
  return `/search/${serialiseSearchState(state)}`;
}

/**
 * The search an address of this page stands for (Back and Forward):
 * `/search/?…`, a static page of the plain search or of `base`; null for
 * any other address.
 */
export function stateOfAddress(pathname: string, search: string, base: SearchBase = PLAIN_SEARCH): SearchState | null {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  if (path === '/search/') return parseSearchState(search);
  for (const b of base.path ? [PLAIN_SEARCH, base] : [PLAIN_SEARCH]) {
    const root = staticSearchHref(b, 1);
    if (!path.startsWith(root)) continue;
    const rest = path.slice(root.length);
    const paged = /^page\/(\d+)\/$/.exec(rest);
    if (rest !== '' && !paged) continue;
    const refinementList = Object.fromEntries(Object.entries(b.refinements).map(([k, v]) => [k, [...v]]));
    return { ...EMPTY_STATE, refinementList, range: {}, page: paged ? Math.max(1, Number(paged[1])) : 1 };
  }
  return null;
}
