/**
 * A built dealer site served by workerd, Cloudflare's runtime (`wrangler
 * dev --local`), as a site worker with static assets configured as
 * deployment configures it (rules/vectors/site-worker.json): the site's
 * `_headers`, `_redirects`, trailing-slash redirects and 404 page are
 * Cloudflare's own handling, not an imitation of it.
 *
 * The site worker's own script (templates/site-worker/worker.mjs) runs as
 * deployed, for the older platform's query-string addresses.
 *
 * With `edge: '<worker name>'`, /api/* goes to that worker, running in
 * another `wrangler dev` (edge/tests/harness.mjs), through the `EDGE`
 * service binding, by the site worker's own script, as a preview's site
 * worker does (`dealergen deploy --preview`); production's zone route
 * `host/api/*` reaches the edge the same way, the request unchanged (its
 * URL is the site's). With `apiOrigin: 'http://127.0.0.1:N'`, /api/* goes
 * to a local stand-in of the edge's answers instead, through a few-line
 * router (api-router.mjs) in front of the script.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, ROOT, startDev } from './wrangler.mjs';

const SETTINGS = JSON.parse(fs.readFileSync(path.join(ROOT, 'rules/vectors/site-worker.json'), 'utf8'));

/**
 * Serves `dist` on 127.0.0.1: `{ origin, dev, close }`. Resolves once
 * wrangler says it is ready; fails with wrangler's output if it exits first.
 * `port` fixes the port (the caller needs the origin before the site
 * starts), else a free one is picked.
 */
export async function serveInWorkerd(dist, { edge, apiOrigin, port: fixedPort } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-site-'));
  // The deployed site worker's script (the older platform's query-string addresses).
  fs.copyFileSync(path.join(ROOT, SETTINGS.main), path.join(dir, 'worker.mjs'));
  const config = {
    // Wrangler takes lowercase letters, digits and dashes only (a temporary folder's name has capitals).
    name: `dealergen-e2e-site-${path.basename(path.dirname(path.resolve(dist)))}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 63),
    compatibility_date: SETTINGS.compatibility_date,
    main: 'worker.mjs',
    assets: { directory: path.resolve(dist), ...SETTINGS.assets },
  };
  // The dealer's query-string redirects: their paths run the script first too, as deployed (deploy::configs::run_worker_first).
  const table = path.join(dist, 'query-redirects.json');
  if (fs.existsSync(table)) {
    const { paths } = JSON.parse(fs.readFileSync(table, 'utf8'));
    config.assets.run_worker_first = [...config.assets.run_worker_first, ...paths.filter((p) => !config.assets.run_worker_first.includes(p))];
  }
  if (edge || apiOrigin) {
    // As a preview's site worker runs (deploy::configs::site_preview): the
    // script first for /api/* too, handing it to the edge worker (EDGE).
    config.assets.run_worker_first = [...config.assets.run_worker_first, '/api/*'];
    if (edge) config.services = [{ binding: 'EDGE', service: edge }];
    else {
      fs.copyFileSync(path.join(import.meta.dirname, 'api-router.mjs'), path.join(dir, 'api-router.mjs'));
      config.main = 'api-router.mjs';
      config.vars = { API_ORIGIN: apiOrigin };
    }
  }
  fs.writeFileSync(path.join(dir, 'wrangler.json'), JSON.stringify(config, null, 2));
  const args = ['--config', path.join(dir, 'wrangler.json'), '--persist-to', path.join(dir, 'state')];
  // A port found free can be taken before wrangler binds it (other wranglers
  // open ports of their own meanwhile): try another one, twice at most.
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await freePort());
    const dev = startDev({ port, args, cwd: dir });
    try {
      await dev.waitForLog(/Ready on http:\/\/127\.0\.0\.1:\d+/, 0, 60_000);
    } catch (error) {
      await dev.stop();
      if (fixedPort || attempt >= 3 || !/Address already in use/.test(dev.log)) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw error;
      }
      continue;
    }
    const close = async () => {
      await dev.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
    return { origin: `http://127.0.0.1:${port}`, dev, close };
  }
}
