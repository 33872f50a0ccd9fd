/**
 * The watchlist page's list (client:load: the list is the page). The saved
 * ids come from GET /api/watchlist; names, prices and photos from the
 * site's own /watchlist-cars.json (written at build time), so the worker
 * stores ids only. Remove works like the car page's toggle: optimistic,
 * 'Car Removed' toast on success, revert and alert on failure.
 */
import { useEffect, useState } from 'react';
import { getSession, signInHref, WATCHLIST_PATH } from '../lib/session';
import { toastStore } from '../lib/toast';
import { changeWatchlist, loadWatchlist, removedToast } from '../lib/watchlist';
import type { WatchlistCar } from '../lib/watchlist-cars';
import Toast from './Toast';


export interface WatchlistListProps {
  apiBase: string;
  /** "/watchlist-cars.json". */
  carsUrl: string;
  fetchImpl?: typeof fetch;
  alert?: (message: string) => void;
}

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out' }
  | { kind: 'error' }
  | { kind: 'ready'; ids: string[]; cars: Map<string, WatchlistCar>; phone?: string };

export default function WatchlistList({ apiBase, carsUrl, fetchImpl, alert }: WatchlistListProps) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const alertUser = alert ?? ((m: string) => window.alert(m));

  useEffect(() => {
    let live = true;
    (async () => {
      const session = await getSession(apiBase, fetchImpl);
      // A failed check is not "signed out": saying "Sign in" to a signed-in shopper would mislead.
      if (session.unknown) return live && setState({ kind: 'error' });
      if (!session.signedIn) return live && setState({ kind: 'signed-out' });
      const doFetch = fetchImpl ?? fetch.bind(globalThis);
      const [ids, cars] = await Promise.all([
        loadWatchlist(apiBase, fetchImpl),
        doFetch(carsUrl)
          .then((r) => (r.ok ? (r.json() as Promise<WatchlistCar[]>) : []))
          .catch(() => [] as WatchlistCar[]),
      ]);
      if (!live) return;
      if (!ids) return setState({ kind: 'error' });
      // Newest save last on the server; show the newest first.
      setState({ kind: 'ready', ids: [...ids].reverse(), cars: new Map(cars.map((c) => [c.id, c])), phone: session.phone });
    })();
    return () => {
      live = false;
    };
  }, [apiBase, carsUrl, fetchImpl]);

  async function remove(id: string, name: string) {
    if (state.kind !== 'ready') return;
    const before = state.ids;
    setState({ ...state, ids: before.filter((x) => x !== id) }); // optimistic
    const result = await changeWatchlist(apiBase, { carId: id, save: false, phone: state.phone }, fetchImpl);
    if (!result.ok) {
      setState((s) => (s.kind === 'ready' ? { ...s, ids: before } : s));
      alertUser(result.error);
      return;
    }
    toastStore.show({ ...removedToast(name), action: { label: 'View List', href: WATCHLIST_PATH } });
  }

  let body;
  if (state.kind === 'loading') body = <p className="muted">Loading your saved cars…</p>;
  else if (state.kind === 'signed-out')
    body = (
      <p>
        <a href={signInHref('watchlist', WATCHLIST_PATH, '/')}>Sign in</a> to see the cars you saved.
      </p>
    );
  else if (state.kind === 'error') body = <p role="alert">Your watchlist could not be loaded. Please try again later.</p>;
  else if (state.ids.length === 0)
    body = (
      <p>
        You have no saved cars yet. <a href="/search/">Search our stock</a> and press Save to Watchlist on a car you like.
      </p>
    );
  else
    body = (
      <ul className="watchlist" aria-label="Saved cars">
        {state.ids.map((id) => {
          const car = state.cars.get(id);
          const name = car?.name ?? 'A car that is no longer listed';
          return (
            <li key={id} className="watchlist__item">
              {car?.image && <img src={car.image} alt="" width={160} height={120} loading="lazy" className="watchlist__image" />}
              <div className="watchlist__text">
                {car ? (
                  <a href={`/cars/${car.slug}/`} className="watchlist__name">
                    {car.name}
                  </a>
                ) : (
                  <span className="watchlist__name">{name}</span>
                )}
                {car && <span className="watchlist__price">{car.price_text}</span>}
              </div>
              <button type="button" className="button button--outline" onClick={() => remove(id, name)} aria-label={`Remove ${name} from your watchlist`}>
                Remove
              </button>
            </li>
          );
        })}
      </ul>
    );

  return (
    <div aria-busy={state.kind === 'loading'}>
      {body}
      <Toast />
    </div>
  );
}
