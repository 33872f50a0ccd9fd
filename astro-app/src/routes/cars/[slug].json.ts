// /cars/{slug}.json: a car's summary for the compare and favourites pages
// (astro-app/src/lib/search/car-summary.ts), fetched only for the cars
// a shopper compares or keeps.
import type { Car } from '@app/types/site';
import { carSummary } from '@app/lib/search/car-summary';
import { carWithoutSimilar, paths } from '@app/lib/build-data';

export function getStaticPaths() {
  return paths(({ cars }) => cars.map((car) => ({ params: { slug: car.slug }, props: { car: carWithoutSimilar(car) } })));
}

export function GET({ props }: { props: { car: Car } }) {
  return new Response(JSON.stringify(carSummary(props.car)), { headers: { 'Content-Type': 'application/json' } });
}
