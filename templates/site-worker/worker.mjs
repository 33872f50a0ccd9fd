// A dealer's site worker (deployed by `dealergen deploy`, generator/src/deploy/configs.rs):
// the static assets answer every path, except the older platform's
// addresses whose meaning is in the query string, which _redirects cannot
// match (assets.run_worker_first lists them):
//   /print?car_id={id or slug}          301 the car's page (it prints itself)
//   /checkout-journey?car_id={id}       301 the car's reservation page, else its page
//   /models?body={body}                 301 /models/#{body} (a site without a models
//                                       page: its _redirects answer, e.g. the new-car search)
// A car no longer on the site goes to /search/. The car ids come from the
// site's own /cars/ids.json, read through the assets binding.
// Before those, the dealer's own query-string redirects (its `redirects:`
// whose `from` has a query, e.g. /used-cars?make=toyota), from the site's
// /query-redirects.json: the first rule for the path whose name=value pairs
// the request's query all has (config/src/redirect_rules.rs QueryRule).
// run_worker_first lists their paths too (deploy::configs::run_worker_first).
// A preview (`dealergen deploy --preview`) has no zone route sending
// /api/* to the edge worker: there the script runs first for /api/* too,
// and hands those calls to the previews' edge worker (the EDGE service
// binding). Production's script never sees /api/* and has no EDGE.

/** The dealer's query-string redirect for `url`, else null. */
export async function queryAnswer(url, env) {
  const table = await env.ASSETS.fetch(new URL('/query-redirects.json', url.origin));
  if (!table.ok) return null;
  const { rules } = await table.json();
  const bare = url.pathname.replace(/\/+$/, '') || '/';
  const rule = rules.find((r) => r.path === bare && r.query.every(([name, value]) => url.searchParams.getAll(name).includes(value)));
  return rule ? Response.redirect(new URL(rule.to, url.origin).toString(), rule.status) : null;
}

/** The answer for `request` when it is one of those addresses, else null. */
export async function legacyAnswer(request, env) {
  const url = new URL(request.url);
  const dealer = await queryAnswer(url, env);
  if (dealer) return dealer;
  const go = (path) => Response.redirect(new URL(path, url.origin).toString(), 301);
  if (url.pathname === '/models') {
    // The page itself (redirect: 'manual': the binding follows a redirect, and a site
    // without the page has one there).
    const models = await env.ASSETS.fetch(new URL('/models/', url.origin), { method: 'HEAD', redirect: 'manual' });
    if (models.status !== 200) return null;
    const body = (url.searchParams.get('body') ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    return go(`/models/${body ? `#${body}` : ''}`);
  }
  const checkout = url.pathname.replace(/\/$/, '') === '/checkout-journey';
  if (!checkout && url.pathname.replace(/\/$/, '') !== '/print') return null;
  const wanted = (url.searchParams.get('car_id') ?? '').trim();
  const car = await findCar(wanted, url, env);
  if (!car) return go('/search/');
  return go(checkout && car.checkout ? car.checkout : car.page);
}

/** The car named by an id (from /cars/ids.json) or by its slug (its page exists). */
async function findCar(wanted, url, env) {
  if (!wanted || wanted.length > 200) return null;
  const ids = await env.ASSETS.fetch(new URL('/cars/ids.json', url.origin));
  if (ids.ok) {
    const byId = (await ids.json())[wanted];
    if (byId) return byId;
  }
  if (!/^[a-z0-9][a-z0-9-]*$/.test(wanted)) return null;
  const page = `/cars/${wanted}/`;
  // A sold car's page redirects to its closest search: the binding follows it.
  const found = await env.ASSETS.fetch(new URL(page, url.origin), { method: 'HEAD' });
  return found.ok ? { page, checkout: null } : null;
}

export default {
  async fetch(request, env) {
    if (env.EDGE && new URL(request.url).pathname.startsWith('/api/')) return env.EDGE.fetch(request);
    return (await legacyAnswer(request, env)) ?? env.ASSETS.fetch(request);
  },
};
