/**
 * `astro dev` as the live preview of `dealergen dev`: a page asked for
 * after dealergen rewrote the project's data (src/data/) is rendered from
 * the new data.
 *
 * The data is read from disk, not imported (lib/build-data.ts), so Vite's
 * module graph never sees it change, and Astro's dev server keeps each
 * route's `getStaticPaths` result while the route's module is unchanged:
 * a car added to the stock would be a 404 and a repriced car's page would
 * keep its old props. So before each request this middleware compares the
 * data files' stamp with the one it saw last and, when it moved, clears
 * the route cache the way Astro's own content layer does after a content
 * change (the `astro:content-changed` event to the server environments).
 * Checked before the request, not on a file watcher's event, so a reload
 * that follows dealergen's write at once cannot beat it.
 */
import type { AstroIntegration } from 'astro';
import { dataDir, dataStamp } from '../lib/build-data';

/** The Vite environments that run the pages' server code in `astro dev`. */
const SERVER_ENVIRONMENTS = ['ssr', 'prerender'];

export function dealergenLiveData(): AstroIntegration {
  return {
    name: 'dealergen-live-data',
    hooks: {
      'astro:server:setup': ({ server }) => {
        let seen: string | undefined;
        server.middlewares.use((_req, _res, next) => {
          let stamp: string;
          try {
            stamp = dataStamp(dataDir());
          } catch {
            // A write under way (a file replaced): the next request looks again.
            return next();
          }
          if (seen !== undefined && stamp !== seen) {
            for (const name of SERVER_ENVIRONMENTS) server.environments[name]?.hot.send('astro:content-changed', {});
          }
          seen = stamp;
          next();
        });
      },
    },
  };
}
