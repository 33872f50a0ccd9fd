/**
 * The search page's headings: a landing page's title ("Used cars for
 * sale") is only true while its filters are still the ones applied; once
 * the shopper changes them the page says what it shows ("53 cars for sale")
 * and so does the document title. Shared by SearchPage.astro (build time)
 * and the island (after every search).
 */
import type { SearchState } from '../../lib/search/types';

/** The page title before the site name: "Cars for sale", "Used cars for sale – page 2". */
export function searchPageTitle(landingTitle: string, page: number): string {
  const base = landingTitle || 'Cars for sale';
  return page > 1 ? `${base} – page ${page}` : base;
}

/**
 * Whether a landing page's title still describes `state`: every attribute
 * the landing page filters on has exactly its values (the shopper may add
 * filters on other attributes: "Used cars" with Kia ticked are still used
 * cars; ticking New as well, or unticking Used, makes the title untrue).
 */
export function landingHolds(landing: Record<string, string[]>, state: Pick<SearchState, 'refinementList'>): boolean {
  return Object.keys(landing).every((attr) => {
    const want = new Set(landing[attr] ?? []);
    const have = new Set(state.refinementList[attr] ?? []);
    return want.size === have.size && [...want].every((v) => have.has(v));
  });
}

/**
 * The landing title to show for `state`, or '' when the page should show
 * the count heading instead (plain /search/, or the landing's filters changed).
 */
export function shownLandingTitle(landingTitle: string, landing: Record<string, string[]>, state: Pick<SearchState, 'refinementList'>): string {
  return landingTitle && landingHolds(landing, state) ? landingTitle : '';
}

/** `document.title` for `state`: the page title and the site name, as BaseLayout writes it. */
export function searchDocumentTitle(shownTitle: string, page: number, siteName: string): string {
  const title = searchPageTitle(shownTitle, page);
  return siteName ? `${title} | ${siteName}` : title;
}
