/**
 * The car a form page was linked for (`?car_id=` on /finance and
 * /cars/trade-in): the page is one static file for every car, so it reads
 * the car's name and photo from /watchlist-cars.json (built with the site,
 * ~7 KB gzip for 300 cars) only when a car is named. The worker fills the
 * lead's vehicle from the stock itself; this is only what the shopper sees.
 */
import type { WatchlistCar } from '../watchlist-cars';

export async function findCar(id: string, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<WatchlistCar | null> {
  if (!id) return null;
  try {
    const res = await fetchImpl('/watchlist-cars.json');
    if (!res.ok) return null;
    const cars = (await res.json()) as WatchlistCar[];
    return Array.isArray(cars) ? (cars.find((c) => c.id === id) ?? null) : null;
  } catch {
    return null;
  }
}
