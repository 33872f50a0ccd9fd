/**
 * The page cache's key for the browser code (lib/build-data.ts adds it to
 * every page's cache key).
 *
 * Astro's incremental build keeps a page when its route's module graph,
 * the config, the lockfile and the page's own cache key are unchanged. The
 * module graph is the server's: a module imported only by a component's
 * `<script>` (the header's menus and event listener, the car page's
 * scripts) or loaded lazily by an island is not in it. Yet a change there
 * renames the bundled script every page names (`/_astro/<name>.<hash>.js`),
 * so a page copied from the cache would name a script the new build no
 * longer has (the publish check's "dead link to /_astro/...", seen when
 * lib/event-clicks.ts changed). So the key covers every file of the app's
 * source: a code change re-renders every page, a data change (the stock,
 * the YAML: src/data/, outside the app) only the pages that show it.
 *
 * The key covers the project's astro.config.mjs as text too. Astro's own
 * check of the config compares it serialised, and a RegExp (the chunk
 * groups' `test`) serialises to `{}`: a changed chunk grouping renamed the
 * car page's scripts while the cache kept pages naming the old ones, and
 * the build said it had built.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** The app's source folder (astro-app/src, copied to a project's app/src). */
export const SRC_DIR = fileURLToPath(new URL('../', import.meta.url));

/** The hash of every file under `dir`, by path and content, and of each of `files`. */
export function codeKey(dir = SRC_DIR, files: readonly string[] = []): string {
  const h = createHash('sha256');
  for (const file of files) h.update(path.basename(file)).update('\0').update(readFileSync(file)).update('\0');
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(rel, e.name);
      if (e.isDirectory()) walk(file);
      else h.update(file.replaceAll(path.sep, '/')).update('\0').update(readFileSync(path.join(dir, file))).update('\0');
    }
  };
  walk('');
  return h.digest('hex');
}

/** The environment variable lib/build-data.ts reads the key from. */
export const CODE_KEY_ENV = 'DEALERGEN_CODE_KEY';

/** Sets the key for this build, once the config is read. */
export function dealergenCodeKey(): AstroIntegration {
  return {
    name: 'dealergen-code-key',
    hooks: {
      'astro:config:setup': ({ config }) => {
        const projectConfig = fileURLToPath(new URL('astro.config.mjs', config.root));
        process.env[CODE_KEY_ENV] = codeKey(SRC_DIR, existsSync(projectConfig) ? [projectConfig] : []);
      },
    },
  };
}
