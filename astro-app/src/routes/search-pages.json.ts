// The site's search pages for the keyword box's suggestions
// (/search-pages.json: path, title, count), fetched when the box first gets
// focus (lib/search/suggest.ts). Kept out of the search pages' props: the
// counts move with every car sold or added, and would give every search
// page a new cache key.
import { paths, routeProps } from '@app/lib/build-data';

export function getStaticPaths() {
  return paths((d) => [{ params: {}, props: { pages: d.site.search.landing_pages.map(({ path, title, count }) => ({ path, title, count })) } }]);
}

export function GET({ props }: { props: object }) {
  const { pages } = routeProps({ props }, getStaticPaths);
  return new Response(JSON.stringify(pages), { headers: { 'Content-Type': 'application/json' } });
}
