/**
 * Static pagination of the stock search page: page 1 is /search/, page n is
 * /search/page/n/. Kept separate from Astro's `paginate()` so page 1 can live
 * at the short URL and the maths can be unit-tested.
 */

export const SEARCH_PATH = '/search/';

/** Number of pages for `total` items; at least 1 so the empty page still renders. */
export function pageCount(total: number, pageSize: number): number {
  if (pageSize <= 0) throw new Error(`page size must be positive, got ${pageSize}`);
  return Math.max(1, Math.ceil(total / pageSize));
}

/** URL of search page `n` (1-based). */
export function searchPageHref(n: number): string {
  return n <= 1 ? SEARCH_PATH : `${SEARCH_PATH}page/${n}/`;
}

/** The items of page `n` (1-based). */
export function pageItems<T>(items: readonly T[], n: number, pageSize: number): T[] {
  const start = (n - 1) * pageSize;
  return items.slice(start, start + pageSize);
}

export type PageLink = { kind: 'page'; n: number; current: boolean } | { kind: 'gap' };

/**
 * Page numbers to show: first, last, and a window of `radius` around the
 * current page, with gaps marked. 1 2 3 … 9 for current 2 of 9.
 */
export function pageLinks(current: number, count: number, radius = 1): PageLink[] {
  const links: PageLink[] = [];
  let last = 0;
  for (let n = 1; n <= count; n++) {
    const near = Math.abs(n - current) <= radius;
    if (n === 1 || n === count || near) {
      if (n - last > 1) links.push({ kind: 'gap' });
      links.push({ kind: 'page', n, current: n === current });
      last = n;
    }
  }
  return links;
}
