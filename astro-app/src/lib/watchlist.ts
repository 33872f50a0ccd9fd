/**
 * The watchlist's calls and rules (docs/behaviour/search.md §4, §7, §8): the list of saved
 * car ids, save/remove, the toast wording and when a save button shows.
 */
import { api, type ApiResult } from './api';

export interface ToastMessage {
  title: string;
  text: string;
}

export const savedToast = (carName: string): ToastMessage => ({
  title: 'Car Saved In Watchlist',
  text: `${carName} is now available in your watchlist`,
});

export const removedToast = (carName: string): ToastMessage => ({
  title: 'Car Removed',
  text: `${carName} is no longer in your watchlist`,
});

/** A sold car that is not already saved shows no save button; a saved one keeps it (to remove). */
export function showSaveButton(sold: boolean, saved: boolean): boolean {
  return !sold || saved;
}

// The saved ids, fetched once per page view and kept current by every
// save/remove, so many buttons (a page of cards) cost one GET.
let cached: Promise<Set<string> | null> | null = null;

/** The signed-in shopper's saved car ids; null when signed out or the call failed. */
export function loadWatchlist(apiBase: string, fetchImpl?: typeof fetch): Promise<Set<string> | null> {
  cached ??= api<{ car_ids?: unknown }>(apiBase, '/api/watchlist', { fetchImpl }).then((r) =>
    r.ok && Array.isArray(r.data.car_ids) ? new Set(r.data.car_ids.map(String)) : null,
  );
  return cached;
}

export function resetWatchlist(): void {
  cached = null;
}

/**
 * Saves or removes a car. The session decides whose list; the phone is sent
 * as the spec's payload has it (the worker checks it equals the session's).
 */
export async function changeWatchlist(
  apiBase: string,
  change: { carId: string; save: boolean; phone?: string },
  fetchImpl?: typeof fetch,
): Promise<ApiResult<{ success?: boolean }>> {
  if (!change.phone) console.warn('watchlist: the session has no phone number');
  const path = change.save ? '/api/watchlist/save-car' : '/api/watchlist/remove-car';
  const body = { ...(change.phone ? { phone_number: change.phone } : {}), car_id: change.carId };
  const result = await api<{ success?: boolean }>(apiBase, path, { body, fetchImpl });
  if (result.ok && cached) {
    const ids = await cached;
    if (ids) {
      if (change.save) ids.add(change.carId);
      else ids.delete(change.carId);
    }
  }
  return result;
}
