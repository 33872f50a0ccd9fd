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
// Only node: imports here: astro.config.mjs loads this file with Node's
// own TypeScript support, which resolves no extensionless imports;
// lib/build-data.ts takes dataDir and dataStamp from here.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { AstroIntegration } from 'astro';

/** The data files of a dealer's project that its pages read. */
const DATA_FILES = ['site.json', 'cars.json', 'pages.json', 'search-index.json'];

/** The generated-data folder of the project being built or served (Astro runs in the project's folder). */
export const dataDir = (): string => path.join(process.cwd(), 'src/data');

/** The sizes and modification times of the data files in `dir`: a new stamp, new data. */
export function dataStamp(dir: string): string {
  return DATA_FILES.map((f) => {
    const s = statSync(path.join(dir, f));
    return `${s.size}:${s.mtimeMs}`;
  }).join(',');
}

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
