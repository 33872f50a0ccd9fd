/**
 * The car page's Save to Watchlist buttons (components/car/SaveCarButton.astro),
 * wired to lib/save-car.ts: the state the shopper's list gives once known,
 * the label and data-saved following it, aria-busy while a press is
 * answered, and the toast drawn in the page's toast host.
 */
import { isSaved, pressSave, type SaveCar } from '../save-car';
import { mountToastHost } from '../toast-host';
import { showSaveButton } from '../watchlist';

export interface SaveButtonsOptions {
  fetchImpl?: typeof fetch;
  navigate?: (href: string) => void;
  alert?: (message: string) => void;
}

/** Wires every `[data-save-car]` button and the first toast host of `doc`. */
export function wireSaveButtons(doc: Document, options: SaveButtonsOptions = {}): Promise<void> {
  const win = doc.defaultView;
  const host = doc.querySelector<HTMLElement>('[data-toast-host]');
  if (host) mountToastHost(host);
  const navigate = options.navigate ?? ((href: string) => win?.location.assign(href));
  const alert = options.alert ?? ((message: string) => win?.alert(message));
  const loads: Promise<void>[] = [];
  for (const button of doc.querySelectorAll<HTMLButtonElement>('button[data-save-car]')) {
    const { saveCar = '', carName = '', apiBase = '' } = button.dataset;
    const sold = button.dataset['sold'] === 'true';
    const car: SaveCar = { apiBase, carId: saveCar, carName, analytics: button.dataset['analytics'] === 'true', fetchImpl: options.fetchImpl, navigate, alert };
    const label = button.querySelector<HTMLElement>('[data-save-label]');
    // null until the session and list are known.
    let saved: boolean | null = null;
    // Set by a press: the first load may answer after the shopper has
    // already pressed, and must not undo the optimistic state.
    let touched = false;
    let pending = false;
    const show = (on: boolean) => {
      saved = on;
      button.dataset['saved'] = String(on);
      if (label) label.textContent = on ? 'Remove from Watchlist' : 'Save to Watchlist';
      button.hidden = !showSaveButton(sold, on);
    };
    button.addEventListener('click', () => {
      if (pending) return;
      pending = touched = true;
      button.setAttribute('aria-busy', 'true');
      void pressSave(car, saved, show).finally(() => {
        pending = false;
        button.setAttribute('aria-busy', 'false');
      });
    });
    button.dataset['wired'] = '';
    loads.push(
      isSaved(apiBase, car.carId, options.fetchImpl).then((on) => {
        if (!touched) show(on);
      }),
    );
  }
  return Promise.all(loads).then(() => undefined);
}
