// The site worker's script when a served site has an API behind it
// (scripts/lib/workerd-site.mjs): /api/* goes on unchanged, as production's
// zone route `host/api/*` sends it to the edge worker. EDGE is a service
// binding to the edge worker in another `wrangler dev`; API_ORIGIN, a local
// stand-in of its answers (the Lighthouse benchmark). The static assets
// answer every other path before this script runs
// (assets.run_worker_first: ["/api/*"]).
export default {
  fetch(request, env) {
    if (env.EDGE) return env.EDGE.fetch(request);
    const url = new URL(request.url);
    return fetch(new Request(new URL(url.pathname + url.search, env.API_ORIGIN), request));
  },
};
