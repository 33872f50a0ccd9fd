/**
 * Save to Watchlist, one button's rules (docs/behaviour/search.md §4, §7,
 * §8), for the React button on the search cards (islands/SaveCarButton.tsx)
 * and the car page's own (components/car/SaveCarButton.astro, no React up front).
 * Signed out: off to /sign-in/ and back here. Signed in: the button flips
 * at once (optimistic), then the call is made; success shows the one toast
 * with 'View List' (and sends event 39 on a save), failure flips it back
 * and alerts the server's message. When the session check itself fails
 * (offline, 5xx) the shopper may be signed in: the save is tried anyway
 * and the worker's 401 sends them to sign in, so a flaky check never
 * blocks saving.
 */
import { getSession, herePath, resetSession, signInHref, WATCHLIST_PATH } from './session';
import { toastStore } from './toast';
import { changeWatchlist, loadWatchlist, removedToast, savedToast } from './watchlist';

export interface SaveCar {
  /** Origin of the edge worker, "" for the same origin. */
  apiBase: string;
  carId: string;
  carName: string;
  /** `site.features.analytics`: send event 39 on a save. */
  analytics: boolean;
  fetchImpl?: typeof fetch | undefined;
  navigate: (href: string) => void;
  alert: (message: string) => void;
}

/** Whether the car is on the signed-in shopper's list (false signed out or when the list is unknown). */
export async function isSaved(apiBase: string, carId: string, fetchImpl?: typeof fetch): Promise<boolean> {
  const session = await getSession(apiBase, fetchImpl);
  const ids = session.signedIn ? await loadWatchlist(apiBase, fetchImpl) : null;
  return ids?.has(carId) ?? false;
}

/**
 * One press of the button: `current` is what it shows (null before the
 * list arrived); `show` is called with the optimistic state, and again
 * with the old one when the call fails.
 */
export async function pressSave(car: SaveCar, current: boolean | null, show: (saved: boolean) => void): Promise<void> {
  const { apiBase, carId, fetchImpl } = car;
  const session = await getSession(apiBase, fetchImpl);
  const here = herePath();
  if (!session.signedIn && !session.unknown) {
    car.navigate(signInHref('watchlist', here, here));
    return;
  }
  // Pressed before the list arrived: decide from the list, not from "unknown".
  const was = current ?? (session.signedIn ? (await loadWatchlist(apiBase, fetchImpl))?.has(carId) : false) ?? false;
  const next = !was;
  show(next); // optimistic: the list changes before the call
  const result = await changeWatchlist(apiBase, { carId, save: next, phone: session.phone }, fetchImpl);
  if (!result.ok) {
    show(was);
    if (result.status === 401) {
      // The session expired since the page loaded: sign in again.
      resetSession();
      car.navigate(signInHref('watchlist', here, here));
    } else {
      car.alert(result.error);
    }
    return;
  }
  const message = next ? savedToast(car.carName) : removedToast(car.carName);
  toastStore.show({ ...message, action: { label: 'View List', href: WATCHLIST_PATH } });
  // Loaded when first needed: not up front on every page with a button.
  if (next) void import('./events').then((m) => m.sendEvent({ apiBase, sink: car.analytics, fetchImpl }, m.EVENTS.save_car, {}, carId));
}
