/**
 * Save-to-watchlist toggle (docs/behaviour/search.md §4, §7, §8), for the car page and the
 * result cards (client:visible). Signed out: off to /sign-in/ and back
 * here. Signed in: the button flips at once (optimistic), then the call is
 * made; success shows the one toast with 'View List' (and sends event 39
 * on a save), failure flips it back and alerts the server's message.
 * When the session check itself fails (offline, 5xx) the shopper may be
 * signed in: the save is tried anyway and the worker's 401 sends them to
 * sign in, so a flaky check never blocks saving.
 */
import { useEffect, useRef, useState } from 'react';
import { getSession, herePath, resetSession, signInHref, WATCHLIST_PATH } from '../lib/session';
import { toastStore } from '../lib/toast';
import { changeWatchlist, loadWatchlist, removedToast, savedToast, showSaveButton } from '../lib/watchlist';
import Toast from './Toast';

export interface SaveCarButtonProps {
  /** Origin of the edge worker, "" for the same origin. */
  apiBase: string;
  carId: string;
  carName: string;
  /** Not in stock: no button unless the car is already saved. */
  sold: boolean;
  /** `site.features.analytics`: send event 39 on a save. */
  analytics: boolean;
  className?: string;
  /** Injected by tests. */
  fetchImpl?: typeof fetch;
  navigate?: (href: string) => void;
  alert?: (message: string) => void;
}

export default function SaveCarButton(props: SaveCarButtonProps) {
  const { apiBase, carId, carName, sold, analytics, fetchImpl, className = 'button button--outline save-car' } = props;
  // null until the session and list are known (a sold car renders nothing till then).
  const [saved, setSaved] = useState<boolean | null>(null);
  const pending = useRef(false);
  // Set by a click: the first load may answer after the shopper has already
  // toggled, and must not undo the optimistic state.
  const touched = useRef(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    (async () => {
      const session = await getSession(apiBase, fetchImpl);
      const ids = session.signedIn ? await loadWatchlist(apiBase, fetchImpl) : null;
      if (live && !touched.current) setSaved(ids?.has(carId) ?? false);
    })();
    return () => {
      live = false;
    };
  }, [apiBase, carId, fetchImpl]);

  const navigate = props.navigate ?? ((href: string) => window.location.assign(href));
  const alertUser = props.alert ?? ((message: string) => window.alert(message));

  async function onClick() {
    if (pending.current) return;
    pending.current = true;
    touched.current = true;
    setBusy(true);
    try {
      const session = await getSession(apiBase, fetchImpl);
      const here = herePath();
      if (!session.signedIn && !session.unknown) {
        navigate(signInHref('watchlist', here, here));
        return;
      }
      // Clicked before the list arrived: decide from the list, not from "unknown".
      const current = saved ?? (session.signedIn ? (await loadWatchlist(apiBase, fetchImpl))?.has(carId) : false) ?? false;
      const next = !current;
      setSaved(next); // optimistic: the list changes before the call
      const result = await changeWatchlist(apiBase, { carId, save: next, phone: session.phone }, fetchImpl);
      if (!result.ok) {
        setSaved(!next);
        if (result.status === 401) {
          // The session expired since the page loaded: sign in again.
          resetSession();
          navigate(signInHref('watchlist', here, here));
        } else {
          alertUser(result.error);
        }
        return;
      }
      const message = next ? savedToast(carName) : removedToast(carName);
      toastStore.show({ ...message, action: { label: 'View List', href: WATCHLIST_PATH } });
      // Loaded when first needed: not up front on every car page.
      if (next) void import('../lib/events').then((m) => m.sendEvent({ apiBase, sink: analytics, fetchImpl }, m.EVENTS.save_car, {}, carId));
    } finally {
      pending.current = false;
      setBusy(false);
    }
  }

  if (!showSaveButton(sold, saved === true)) return <Toast />;
  return (
    <>
      <button type="button" className={className} onClick={onClick} aria-busy={busy} data-saved={saved ? 'true' : 'false'}>
        {saved ? 'Remove from Watchlist' : 'Save to Watchlist'}
        {/* A page of cards has many of these: each names its car for screen readers. */}
        <span className="visually-hidden"> {carName}</span>
      </button>
      <Toast />
    </>
  );
}
