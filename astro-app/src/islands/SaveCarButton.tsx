/**
 * Save-to-watchlist toggle on the search cards (client:visible); its rules
 * are lib/save-car.ts's, shared with the car page's button
 * (components/car/SaveCarButton.astro, no React up front).
 */
import { useEffect, useRef, useState } from 'react';
import { isSaved, pressSave } from '../lib/save-car';
import { showSaveButton } from '../lib/watchlist';
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
    void isSaved(apiBase, carId, fetchImpl).then((on) => {
      if (live && !touched.current) setSaved(on);
    });
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
      await pressSave({ apiBase, carId, carName, analytics, fetchImpl, navigate, alert: alertUser }, saved, setSaved);
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
