// What the watchlist page shows for a saved car id (/watchlist-cars.json):
// the worker stores ids only, and a separate file keeps the page small and
// is fetched only by the one page that needs it.
import type { Car, SiteData } from '@app/types/site';
import { watchlistCars } from '@app/lib/watchlist-cars';
import carsJson from '../data/cars.json';
import siteJson from '../data/site.json';

export function GET() {
  return new Response(JSON.stringify(watchlistCars(carsJson as Car[], (siteJson as SiteData).images)), { headers: { 'Content-Type': 'application/json' } });
}
