/**
 * The routes of every dealer site, injected from one folder (src/routes/)
 * into both kinds of generated project:
 *
 * - a dealer's own project (`sites/<slug>/`, data in src/data/): each file
 *   at its own path, `routes/cars/[slug].astro` at `/cars/[slug]`;
 * - a batch of dealers built in one Astro run (`sites/.batch-<n>/`, data in
 *   src/data/<slug>/ and their list in src/data/dealers.json): the same
 *   files under `/dealergen-batch/[dealer]`, split into each dealer's site
 *   afterwards (generator/src/run/batch.rs).
 *
 * One set of route bodies serves both, so a page cannot differ between a
 * dealer built alone and one built in a batch, and both get per-page cache
 * keys (lib/build-data.ts `paths`). The file layout of src/routes/ is the
 * page list: a pattern is a file's path without its extension, `index`
 * dropped, as in Astro's own src/pages/.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** The route segment a batch renders each dealer under (generator/src/run/batch.rs DEALERS_SEGMENT). */
export const BATCH_PREFIX = '/dealergen-batch/[dealer]';

/** The folder of route files, beside this one. */
export const ROUTES_DIR = fileURLToPath(new URL('../routes/', import.meta.url));

/** A route: its URL pattern (single-dealer form) and its file under src/routes/. */
export interface RouteFile {
  pattern: string;
  file: string;
}

const ROUTE_EXTENSIONS = /\.(astro|ts)$/;

/** Every route file under `dir` with its pattern, sorted by file. */
export function routeFiles(dir = ROUTES_DIR): RouteFile[] {
  const walk = (rel: string): string[] =>
    readdirSync(path.join(dir, rel), { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((e) => (e.isDirectory() ? walk(path.join(rel, e.name)) : ROUTE_EXTENSIONS.test(e.name) ? [path.join(rel, e.name)] : []));
  return walk('').map((file) => {
    const bare = file.replaceAll(path.sep, '/').replace(ROUTE_EXTENSIONS, '');
    const pattern = '/' + bare.replace(/(^|\/)index$/, '');
    return { pattern: pattern === '/' ? '/' : pattern.replace(/\/$/, ''), file };
  });
}

/** Is the project at `root` a batch (src/data/dealers.json) rather than one dealer's (src/data/site.json)? */
export const isBatchProject = (root: string): boolean => existsSync(path.join(root, 'src/data/dealers.json'));

/** The pattern a route is injected at: its own, or under the batch's dealer segment. */
export const injectedPattern = (pattern: string, batch: boolean): string => (batch ? BATCH_PREFIX + (pattern === '/' ? '' : pattern) : pattern);

/** The Astro integration that injects every route of src/routes/ (see above). */
export function dealergenRoutes(): AstroIntegration {
  return {
    name: 'dealergen-routes',
    hooks: {
      'astro:config:setup': ({ config, injectRoute }) => {
        const batch = isBatchProject(fileURLToPath(config.root));
        for (const { pattern, file } of routeFiles()) {
          injectRoute({ pattern: injectedPattern(pattern, batch), entrypoint: path.join(ROUTES_DIR, file), prerender: true });
        }
      },
    },
  };
}
