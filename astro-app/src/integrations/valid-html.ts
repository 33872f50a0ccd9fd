/**
 * Valid HTML where Astro's own output is not: Astro writes the islands'
 * `<style>astro-island,…{display:contents}</style>` where the page's first
 * island is, inside <body>, and HTML allows <style> only in <head> (the W3C
 * Nu checker, scripts/html-check.mjs, reports it on every page with an
 * island). After the build, every page has it moved into its <head>,
 * unchanged (its CSP hash stays the same). Idempotent: a page already
 * moved (one the page cache restored) is left as it is.
 */
// Only node: imports here: astro.config.mjs loads this file with Node's
// own TypeScript support (see live-data.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

export function dealergenValidHtml(): AstroIntegration {
  return {
    name: 'dealergen-valid-html',
    hooks: {
      'astro:build:done': ({ dir }) => {
        for (const file of pages(fileURLToPath(dir))) {
          const html = readFileSync(file, 'utf8');
          const fixed = moveIslandStyle(html);
          if (fixed !== html) writeFileSync(file, fixed);
        }
      },
    },
  };
}
