// /cars/ids.json: each car's id with its page and, where it has one, its
// online-reservation page. Read only by the site worker
// (templates/site-worker/worker.mjs) to answer the older platform's
// addresses that name a car in their query string (/print?car_id=,
// /checkout-journey?car_id=), which _redirects cannot match.
import { paths, routeProps } from '@app/lib/build-data';

export function getStaticPaths() {
  return paths((d) => [
    {
      params: {},
      props: {
        ids: Object.fromEntries(
          d.cars.map((car) => [
            String(car.id),
            { page: `/cars/${car.slug}/`, checkout: car.checkout ? `/cars/${car.slug}/${d.site.features.checkout_path}/` : null },
          ]),
        ),
      },
    },
  ]);
}

export function GET({ props }: { props: object }) {
  const { ids } = routeProps({ props }, getStaticPaths);
  return new Response(JSON.stringify(ids), { headers: { 'Content-Type': 'application/json' } });
}
