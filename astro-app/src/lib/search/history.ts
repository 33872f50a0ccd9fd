/**
 * Search history (spec 002 §2.7): the last 5 searches, each its refinements
 * plus the path, newest first, kept on the shopper's device.
 */
import type { SearchState } from './types';

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
