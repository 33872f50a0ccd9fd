// What the watchlist page shows for a saved car id (/watchlist-cars.json):
// the worker stores ids only, and a separate file keeps the page small and
// is fetched only by the one page that needs it.
import { watchlistCars } from '@app/lib/watchlist-cars';
import { dealer } from '@app/lib/build-data';

export function GET() {
  const { site, cars } = dealer();
  return new Response(JSON.stringify(watchlistCars(cars, site.images)), { headers: { 'Content-Type': 'application/json' } });
}
