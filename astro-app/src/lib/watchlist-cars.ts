/** The entries of /watchlist-cars.json (build time): what the watchlist page lists per saved id. */
import type { Car } from '../types/site';

export interface WatchlistCar {
  id: string;
  slug: string;
  name: string;
  price_text: string;
  image: string | null;
}

export function watchlistCars(cars: readonly Car[]): WatchlistCar[] {
  return cars.map((c) => ({ id: c.id, slug: c.slug, name: c.name, price_text: c.price_text, image: c.images[0] ?? null }));
}
