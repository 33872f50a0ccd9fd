import type { Car } from '@app/types/site';
import { carSummary } from '@app/lib/search/car-summary';
import { perDealer } from '../../../../batch/dealers';

export function getStaticPaths() {
  return perDealer((d) => d.cars.map((car) => ({ params: { slug: car.slug }, props: { car } })));
}

export function GET({ props }: { props: { car: Car } }) {
  return new Response(JSON.stringify(carSummary(props.car)), { headers: { 'Content-Type': 'application/json' } });
}
