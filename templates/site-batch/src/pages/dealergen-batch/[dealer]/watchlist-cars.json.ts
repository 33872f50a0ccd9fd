import type { Car, SiteData } from '@app/types/site';
import { watchlistCars } from '@app/lib/watchlist-cars';
import { perDealer } from '../../../batch/dealers';

export function getStaticPaths() {
  return perDealer((d) => [{ params: {}, props: { cars: d.cars } }]);
}

export function GET({ props }: { props: { cars: Car[]; site: SiteData } }) {
  return new Response(JSON.stringify(watchlistCars(props.cars, props.site.images)), { headers: { 'Content-Type': 'application/json' } });
}
