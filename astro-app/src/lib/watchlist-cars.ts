/** The entries of /watchlist-cars.json (build time): what the watchlist page lists per saved id. */
import type { Car, ImagesConfig } from '../types/site';
import { thumbUrl } from './images';

export interface WatchlistCar {
  id: string;
  slug: string;
  name: string;
  price_text: string;
  image: string | null;
}

/** `images`: the dealer's photo settings; the list's 160 px photo is the smallest size (sharp on 3x screens). */
export function watchlistCars(cars: readonly Car[], images?: ImagesConfig): WatchlistCar[] {
  return cars.map((c) => {
    const first = c.images[0];
    const image = first === undefined ? null : images ? thumbUrl(first, images) : first;
    return { id: c.id, slug: c.slug, name: c.name, price_text: c.price_text, image };
  });
}
