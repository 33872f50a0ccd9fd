/**
 * Search history (docs/behaviour/content.md §2.7): the last 5 searches, each its refinements
 * plus the path, newest first, kept on the shopper's device.
 */
import { rangeLabel } from './range';
import { EMPTY_STATE, type SearchState } from './types';
import { stateOfAddress } from './addresses';

export const HISTORY_SIZE = 5;
export const HISTORY_KEY = 'dealergen:search-history';

export interface HistoryEntry {
  refinements: SearchState['refinementList'];
  path: string;
}

/** The list after a search: the entry first, an equal older entry dropped, at most 5. */
export function addToHistory(list: HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  const same = (a: HistoryEntry) => a.path === entry.path;
  return [entry, ...list.filter((e) => !same(e))].slice(0, HISTORY_SIZE);
}

/** Reads the stored list; anything unreadable is an empty history. */
export function loadHistory(storage: Pick<Storage, 'getItem'> | undefined): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(HISTORY_KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as HistoryEntry[]).slice(0, HISTORY_SIZE) : [];
  } catch {
    return [];
  }
}

export function recordSearch(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined, entry: HistoryEntry): HistoryEntry[] {
  const next = addToHistory(loadHistory(storage), entry);
  try {
    storage?.setItem(HISTORY_KEY, JSON.stringify(next));
  } catch {
    // Private mode or a full quota: history is a convenience, not worth an error.
  }
  return next;
}

/**
 * The search a stored path stands for: "/search/?refinementList[make][0]=Kia"
 * (the island's URLs), "/search/page/3/" (the static pages), "/search/",
 * or a landing page's "/search/toyota/page/2/", whose refinements are the
 * entry's own (`refinements`).
 */
export function stateOfPath(path: string, refinements: Record<string, string[]> = {}): SearchState {
  const q = path.indexOf('?');
  const pathname = q < 0 ? path : path.slice(0, q);
  const plain = stateOfAddress(pathname, q < 0 ? '' : path.slice(q));
  if (plain) return plain;
  const paged = /\/page\/(\d+)\/?$/.exec(pathname);
  return { ...EMPTY_STATE, refinementList: { ...refinements }, range: {}, page: paged ? Math.max(1, Number(paged[1])) : 1 };
}

const RANGE_NAMES: Record<string, string> = { price: 'Price', km: 'Kilometres', year: 'Year', subscription_price: 'Subscription' };

/**
 * A short label of a past search for the "Recent searches" list, e.g.
 * `"suv" · Toyota Corolla · Used · Price $10,000–$30,000`; "All cars" when
 * nothing was refined.
 */
export function historyLabel(entry: HistoryEntry): string {
  const state = stateOfPath(entry.path);
  const parts: string[] = [];
  if (state.query) parts.push(`"${state.query}"`);
  // The stored refinements and the path agree; the path also has ranges and the query.
  const refinements = Object.keys(state.refinementList).length ? state.refinementList : entry.refinements;
  const models = new Set(refinements.model ?? []);
  for (const [attr, values] of Object.entries(refinements)) {
    if (attr === 'model') continue;
    for (const v of values) {
      if (attr === 'make_model') parts.push(v.replace('|', ' '));
      else if (attr === 'car_type') parts.push(v.charAt(0).toUpperCase() + v.slice(1));
      else parts.push(v);
    }
  }
  // Models follow their make ("Toyota Corolla" reads better than "Toyota · Corolla").
  if (models.size) parts.push([...models].join(', '));
  for (const [attr, r] of Object.entries(state.range)) {
    const lo = r.min === undefined ? 'any' : rangeLabel(attr, r.min);
    const hi = r.max === undefined ? 'any' : rangeLabel(attr, r.max);
    parts.push(`${RANGE_NAMES[attr] ?? attr} ${lo}–${hi}`);
  }
  if (state.page > 1) parts.push(`page ${state.page}`);
  return parts.length ? parts.join(' · ') : 'All cars';
}
