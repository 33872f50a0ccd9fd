/**
 * Valid HTML where Astro's own output is not: Astro writes the islands'
 * `<style>astro-island,…{display:contents}</style>` where the page's first
 * island is, inside <body>, and HTML allows <style> only in <head> (the W3C
 * Nu checker, scripts/html-check.mjs, reports it on every page with an
 * island). After the build, every page has it moved into its <head>,
 * unchanged (its CSP hash stays the same), and so is the page cache's copy
 * of it. Idempotent: a page already moved (one the page cache restored) is
 * left as it is.
 */
// Only node: imports here: astro.config.mjs loads this file with Node's
// own TypeScript support (see live-data.ts).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Astro's island style (astro/dist/runtime/server/astro-island-styles.js), as it writes it. */
export const ISLAND_STYLE = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';

/** `html` with the island style out of <body> and once at the end of <head>; the same text when it is not in <body>. */
export function moveIslandStyle(html: string): string {
  const head = html.indexOf('</head>');
  if (head < 0 || html.indexOf(ISLAND_STYLE, head) < 0) return html;
  const body = html.slice(head).split(ISLAND_STYLE).join('');
  const top = html.slice(0, head).includes(ISLAND_STYLE) ? html.slice(0, head) : html.slice(0, head) + ISLAND_STYLE;
  return top + body;
}

function pages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * Where Astro's page cache (experimental.incrementalBuild) keeps its copy of
 * the page at `rel` (relative to the output folder): `<cacheDir>/dist/<rel>`
 * (astro/dist/core/build/incremental.js).
 */
const cachedCopy = (cacheDir: string, rel: string): string => path.join(cacheDir, 'dist', rel);

export function dealergenValidHtml(): AstroIntegration {
  let cacheDir = '';
  return {
    name: 'dealergen-valid-html',
    hooks: {
      'astro:config:done': ({ config }) => {
        cacheDir = fileURLToPath(config.cacheDir);
      },
      'astro:build:done': ({ dir }) => {
        const out = fileURLToPath(dir);
        for (const file of pages(out)) {
          // A page linked from the page cache (a restored page in a warm
          // Astro process) is the cache's copy, fixed when it was rendered.
          if (statSync(file).nlink > 1) continue;
          const html = readFileSync(file, 'utf8');
          const fixed = moveIslandStyle(html);
          if (fixed === html) continue;
          writeFileSync(file, fixed);
          // The page cache keeps the page as published, so that the next
          // build restores it as it is: the warm Astro process restores a
          // page by linking the cache's file (generator/src/run/astro_server.mjs),
          // and a page fixed again would be a copy of its own.
          const cached = cachedCopy(cacheDir, path.relative(out, file));
          if (existsSync(cached)) writeFileSync(cached, fixed);
        }
      },
    },
  };
}
