// The site worker's script when a served site's API is a local stand-in
// (scripts/lib/workerd-site.mjs `apiOrigin`, the Lighthouse benchmark):
// /api/* goes to API_ORIGIN unchanged, as production's zone route
// `host/api/*` sends it to the edge worker. Every other path this script
// sees (assets.run_worker_first) is the site worker's own (worker.mjs,
// copied beside it), which also forwards /api/* to a real edge worker
// bound as EDGE, as a preview's does.
import site from './worker.mjs';

export default {
  fetch(request, env) {
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/api/')) return site.fetch(request, env);
    return fetch(new Request(new URL(url.pathname + url.search, env.API_ORIGIN), request));
  },
};
