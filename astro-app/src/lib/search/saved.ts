/**
 * Favourites and the compare list, kept on the shopper's device (docs/behaviour/search.md
 * §2, §5; 001: a favourite is stored locally per site as id, name, slug,
 * make, model and photo). Every island that shows them (cards, the car
 * page's button, the compare bar, /favourites/, /compare/) reads and
 * writes through here, and hears the others' changes: an event on this
 * page, the storage event from other tabs.
 */

export const FAVOURITES_KEY = 'dealergen:favourites';
export const COMPARE_KEY = 'dealergen:compare';
/** Cars compared side by side at most: four columns still read on a laptop, and scroll on a phone. */
export const COMPARE_LIMIT = 4;
export const SAVED_EVENT = 'dealergen:saved';

/** A favourite as stored (docs/behaviour/car-page.md). */
export interface Favourite {
  id: string;
  name: string;
  slug: string;
  make: string;
  model: string;
  primary_image_url: string;
}

/** A car in the compare list: its id and the slug its summary is fetched by. */
export interface Compared {
  id: string;
  slug: string;
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function read<T>(storage: Store | undefined, key: string, valid: (x: unknown) => x is T): T[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(key) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(valid) : [];
  } catch {
    return [];
  }
}

const isText = (v: unknown) => typeof v === 'string';
const isFavourite = (x: unknown): x is Favourite => {
  const f = x as Favourite;
  return !!f && isText(f.id) && isText(f.slug) && isText(f.name);
};
const isCompared = (x: unknown): x is Compared => !!x && isText((x as Compared).id) && isText((x as Compared).slug);

function write(storage: Store | undefined, key: string, list: unknown[]): void {
  try {
    storage?.setItem(key, JSON.stringify(list));
  } catch {
    // Private mode or a full quota: the toggle still works for this visit.
  }
  if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent(SAVED_EVENT, { detail: key }));
}

export function loadFavourites(storage: Store | undefined): Favourite[] {
  return read(storage, FAVOURITES_KEY, isFavourite);
}

export function loadCompared(storage: Store | undefined): Compared[] {
  return read(storage, COMPARE_KEY, isCompared).slice(0, COMPARE_LIMIT);
}

/** Adds the car, or removes it when it is there; the new list. */
export function toggleFavourite(storage: Store | undefined, car: Favourite): Favourite[] {
  const list = loadFavourites(storage);
  const next = list.some((f) => f.id === car.id) ? list.filter((f) => f.id !== car.id) : [...list, car];
  write(storage, FAVOURITES_KEY, next);
  return next;
}

export function removeFavourite(storage: Store | undefined, id: string): Favourite[] {
  const next = loadFavourites(storage).filter((f) => f.id !== id);
  write(storage, FAVOURITES_KEY, next);
  return next;
}

/**
 * Adds the car to the compare list, or removes it; a car past the limit is
 * refused (`full`), the list unchanged, so the shopper is told rather than
 * an earlier pick silently dropped.
 */
export function toggleCompared(storage: Store | undefined, car: Compared): { list: Compared[]; full: boolean } {
  const list = loadCompared(storage);
  if (list.some((c) => c.id === car.id)) {
    const next = list.filter((c) => c.id !== car.id);
    write(storage, COMPARE_KEY, next);
    return { list: next, full: false };
  }
  if (list.length >= COMPARE_LIMIT) return { list, full: true };
  const next = [...list, car];
  write(storage, COMPARE_KEY, next);
  return { list: next, full: false };
}

export function setCompared(storage: Store | undefined, list: Compared[]): Compared[] {
  const next = list.slice(0, COMPARE_LIMIT);
  write(storage, COMPARE_KEY, next);
  return next;
}

/** The shareable compare address: /compare/?cars=slug1,slug2 (slugs read better than ids, and name a car page too). */
export function compareHref(list: readonly Compared[]): string {
  return `/compare/?cars=${list.map((c) => encodeURIComponent(c.slug)).join(',')}`;
}

/** The slugs a compare address names (duplicates and blanks dropped, at most the limit). */
export function slugsOf(search: string): string[] {
  const raw = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).get('cars') ?? '';
  return [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))].slice(0, COMPARE_LIMIT);
}

/** Calls `onChange` when this page or another tab changes the saved lists; returns the unsubscribe. */
export function onSavedChange(onChange: () => void): () => void {
  const storage = (e: StorageEvent) => {
    if (e.key === FAVOURITES_KEY || e.key === COMPARE_KEY) onChange();
  };
  window.addEventListener(SAVED_EVENT, onChange);
  window.addEventListener('storage', storage);
  return () => {
    window.removeEventListener(SAVED_EVENT, onChange);
    window.removeEventListener('storage', storage);
  };
}
