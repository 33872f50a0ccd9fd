// /cars/{slug}.json: a car's summary for the compare and favourites pages
// (astro-app/src/lib/search/car-summary.ts), fetched only for the cars
// a shopper compares or keeps.
import type { Car } from '@app/types/site';
import { carSummary } from '@app/lib/search/car-summary';
import carsJson from '../../data/cars.json';

export function getStaticPaths() {
  return (carsJson as Car[]).map((car) => ({ params: { slug: car.slug }, props: { car } }));
}

export function GET({ props }: { props: { car: Car } }) {
  return new Response(JSON.stringify(carSummary(props.car)), { headers: { 'Content-Type': 'application/json' } });
}
