/**
 * The car page's Favourite toggles (components/car/FavouriteButton.astro):
 * pressed while the car is on the device's list (lib/search/saved.ts),
 * kept in step when the list changes elsewhere (another tab, the compare
 * bar), "View favourites" shown while it is. Adding sends event 60
 * (lib/events.ts favourite_add), loaded when first needed.
 */
import { loadFavourites, onSavedChange, toggleFavourite, type Favourite } from '../search/saved';

type Store = Parameters<typeof loadFavourites>[0];

/** Wires every `[data-favourite]` of `doc`; the returned function stops following the list. */
export function wireFavourites(doc: Document, storage: Store): () => void {
  const stops: Array<() => void> = [];
  for (const box of doc.querySelectorAll<HTMLElement>('[data-favourite]')) {
    let car: Favourite;
    try {
      car = JSON.parse(box.dataset['favourite'] ?? '') as Favourite;
    } catch {
      continue; // not written by FavouriteButton.astro
    }
    const button = box.querySelector<HTMLButtonElement>('button');
    const list = box.querySelector<HTMLAnchorElement>('.favourite__list');
    if (!button) continue;
    const show = (on: boolean) => {
      button.setAttribute('aria-pressed', String(on));
      if (list) list.hidden = !on;
    };
    const sync = () => show(loadFavourites(storage).some((f) => f.id === car.id));
    button.addEventListener('click', () => {
      const added = toggleFavourite(storage, car).some((f) => f.id === car.id);
      if (added) void import('../events').then((m) => m.sendPageEvent(doc, m.EVENTS.favourite_add));
      show(added);
    });
    sync();
    stops.push(onSavedChange(sync));
    box.dataset['wired'] = '';
  }
  return () => stops.forEach((stop) => stop());
}
