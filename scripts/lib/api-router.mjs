// The site worker's script when a served site has an API behind it
// (scripts/lib/workerd-site.mjs): /api/* goes on unchanged, as production's
// zone route `host/api/*` sends it to the edge worker. EDGE is a service
// binding to the edge worker in another `wrangler dev`; API_ORIGIN, a local
// stand-in of its answers (the Lighthouse benchmark). Any other path this
// script sees (assets.run_worker_first) is the site worker's own
// (worker.mjs, copied beside it); the static assets answer the rest first.
import site from './worker.mjs';

export default {
  fetch(request, env) {
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/api/')) return site.fetch(request, env);
    if (env.EDGE) return env.EDGE.fetch(request);
    return fetch(new Request(new URL(url.pathname + url.search, env.API_ORIGIN), request));
  },
};
