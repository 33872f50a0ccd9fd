// The search index the browser fetches (/search-index.json): written by the
// generator into src/data, served as a static file so pages never inline it.
import { paths, routeProps } from '@app/lib/build-data';

export function getStaticPaths() {
  return paths((d) => [{ params: {}, props: { index: d.index } }]);
}

export function GET({ props }: { props: object }) {
  const { index } = routeProps({ props }, getStaticPaths);
  return new Response(JSON.stringify(index), { headers: { 'Content-Type': 'application/json' } });
}
