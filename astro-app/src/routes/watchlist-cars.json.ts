// What the watchlist page shows for a saved car id (/watchlist-cars.json):
// the worker stores ids only, and a separate file keeps the page small and
// is fetched only by the one page that needs it.
import { watchlistCars } from '@app/lib/watchlist-cars';
import { paths, routeProps } from '@app/lib/build-data';

export function getStaticPaths() {
  return paths((d) => [{ params: {}, props: { cars: d.cars } }]);
}

export function GET({ props }: { props: object }) {
  const { site, cars } = routeProps({ props }, getStaticPaths);
  return new Response(JSON.stringify(watchlistCars(cars, site.images)), { headers: { 'Content-Type': 'application/json' } });
}
