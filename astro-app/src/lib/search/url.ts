/**
 * Search state in the URL, in InstantSearch's single-index format (DESIGN
 * contract 3) so inbound links from the old sites keep working:
 * `query=suv&refinementList[make][0]=Toyota&range[price]=5000:30000&sortBy=Car_production_price_asc&page=2`.
 * Brackets may arrive percent-encoded (qs encodes them); both parse.
 */
import { EMPTY_STATE, type RangeRefinement, type SearchState } from './types';

/**
 * Set by the home page's "Show me N cars" widget: the results page scrolls
 * to the top on arrival (docs/behaviour/search.md §4). Here rather than in the search
 * island so the widget does not bundle the island to read one string.
 */
export const SCROLL_FLAG = 'dealergen:scroll-top';

const REFINEMENT = /^refinementList\[([^\]]+)\](?:\[(\d*)\])?$/;
const RANGE = /^range\[([^\]]+)\]$/;

function parseBound(s: string | undefined): number | undefined {
  if (s === undefined || s.trim() === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** Parses a query string ("?a=b" or "a=b"); unknown keys are ignored. */
export function parseSearchState(search: string): SearchState {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const state: SearchState = { ...EMPTY_STATE, refinementList: {}, range: {} };
  const indexed: Record<string, Array<[number, string]>> = {};
  for (const [key, value] of params) {
    let m: RegExpExecArray | null;
    if (key === 'query') state.query = value;
    else if (key === 'sortBy') state.sortBy = value;
    else if (key === 'page') {
      const p = Number.parseInt(value, 10);
      state.page = Number.isFinite(p) && p >= 1 ? p : 1;
    } else if ((m = REFINEMENT.exec(key))) {
      // An empty value (a form's "All" option) refines nothing.
      if (value === '') continue;
      const attr = m[1]!;
      const at = m[2] ? Number(m[2]) : Number.MAX_SAFE_INTEGER;
      (indexed[attr] ??= []).push([at, value]);
    } else if ((m = RANGE.exec(key))) {
      const [lo, hi] = value.split(':');
      const r: RangeRefinement = { min: parseBound(lo), max: parseBound(hi) };
      if (r.min !== undefined || r.max !== undefined) state.range[m[1]!] = r;
    }
  }
  for (const [attr, pairs] of Object.entries(indexed)) {
    // Values keep their [i] order; duplicates collapse.
    state.refinementList[attr] = [...new Set(pairs.sort((a, b) => a[0] - b[0]).map(([, v]) => v))];
  }
  return state;
}

/** Serialises the state (brackets left readable, values percent-encoded); empty parts are left out. */
export function serialiseSearchState(state: SearchState): string {
  const parts: string[] = [];
  const enc = encodeURIComponent;
  if (state.query) parts.push(`query=${enc(state.query)}`);
  for (const [attr, values] of Object.entries(state.refinementList)) {
    values.forEach((v, i) => parts.push(`refinementList[${enc(attr)}][${i}]=${enc(v)}`));
  }
  for (const [attr, r] of Object.entries(state.range)) {
    if (r.min === undefined && r.max === undefined) continue;
    parts.push(`range[${enc(attr)}]=${r.min ?? ''}:${r.max ?? ''}`);
  }
  if (state.sortBy) parts.push(`sortBy=${enc(state.sortBy)}`);
  if (state.page > 1) parts.push(`page=${state.page}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** A stable key of the state (the result cache's key). */
export function stateKey(state: SearchState): string {
  const sorted: SearchState = {
    ...state,
    refinementList: Object.fromEntries(
      Object.entries(state.refinementList)
        .filter(([, v]) => v.length > 0)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, [...v].sort()]),
    ),
    range: Object.fromEntries(Object.entries(state.range).sort(([a], [b]) => a.localeCompare(b))),
  };
  return serialiseSearchState(sorted);
}

/** Any change of filters, query or sort goes back to page 1 (docs/behaviour/search.md §4). */
export function withFilters(state: SearchState, change: Partial<Omit<SearchState, 'page'>>): SearchState {
  return { ...state, ...change, page: 1 };
}

/** Toggles one facet value. */
export function toggleRefinement(state: SearchState, attr: string, value: string): SearchState {
  const current = state.refinementList[attr] ?? [];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  const refinementList = { ...state.refinementList, [attr]: next };
  if (next.length === 0) delete refinementList[attr];
  return withFilters(state, { refinementList });
}
