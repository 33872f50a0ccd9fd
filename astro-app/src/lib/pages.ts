/**
 * Which pages a site has (site.json `pages`, written by the generator):
 * a component links to a page another part of the app builds (/fleet/,
 * /special-offers/, /finance/ ...) only when the dealer's site has it, so
 * no built page links to nothing. Mirrors page_path_of in
 * generator/src/pipeline/site_data/pages.rs.
 */
import type { SiteData } from '../types/site';

/**
 * The page path an internal href points at ("/fleet" -> "/fleet/", query
 * and fragment cut), or null for a file ("/brochure.pdf") or another site.
 */
export function pagePathOf(href: string): string | null {
  if (!href.startsWith('/') || href.startsWith('//')) return null;
  const path = href.split(/[?#]/)[0] ?? '/';
  const last = path.split('/').pop() ?? '';
  if (last.includes('.')) return null;
  return path.endsWith('/') ? path : `${path}/`;
}

/**
 * Whether a link to `href` leads somewhere: external links and files are
 * taken as they are (the build's link check judges files), a site path
 * must be one of the site's pages.
 */
export function hasPage(site: Pick<SiteData, 'pages'>, href: string): boolean {
  const path = pagePathOf(href);
  return path === null || site.pages.includes(path);
}
