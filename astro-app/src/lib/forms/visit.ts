/**
 * Records the visit for a lead's `lead_attributes` (docs/behaviour/car-page.md "Lead
 * payload"): the pages the shopper saw in this visit and the query
 * parameters of the link they arrived by, in sessionStorage (this tab,
 * this visit; nothing leaves the device until a form is sent).
 *
 * Runs on every page from the header's script, which is the only
 * JavaScript of pages without islands: this module stays tiny and imports
 * nothing (shared with the forms, Vite would split it into a second file
 * every page loads). lib/forms/attribution.ts reads what it writes; one
 * test checks the two agree.
 */

export const VISIT_KEY = 'dealergen:visit';
/** Most recent pages kept; older ones are dropped first. */
export const MAX_PAGES = 20;
/** Query parameters kept from the landing link, and the longest value kept. */
export const MAX_PARAMS = 20;
const MAX_VALUE = 200;

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function session(): Store | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage blocked (private modes, sandboxed frames)
  }
}

/** Adds this page (path and query) to the visit; the first page of a visit also keeps its query parameters. */
export function recordVisit(loc: Pick<Location, 'pathname' | 'search'> = location, store: Store | null = session()): void {
  if (!store) return;
  let visit: { visited_pages: string[]; linked_query_params: Record<string, string> };
  try {
    visit = JSON.parse(store.getItem(VISIT_KEY) ?? 'null');
    if (!visit || !Array.isArray(visit.visited_pages) || typeof visit.linked_query_params !== 'object' || !visit.linked_query_params) throw 0;
  } catch {
    visit = { visited_pages: [], linked_query_params: {} };
  }
  const page = (loc.pathname + loc.search).slice(0, MAX_VALUE);
  if (visit.visited_pages.length === 0) {
    for (const [k, v] of new URLSearchParams(loc.search)) {
      if (Object.keys(visit.linked_query_params).length >= MAX_PARAMS) break;
      visit.linked_query_params[k.slice(0, 64)] = v.slice(0, MAX_VALUE);
    }
  }
  // A reload is not a second visit of the page.
  if (visit.visited_pages[visit.visited_pages.length - 1] !== page) visit.visited_pages.push(page);
  visit.visited_pages = visit.visited_pages.slice(-MAX_PAGES);
  try {
    store.setItem(VISIT_KEY, JSON.stringify(visit));
  } catch {
    // Quota: the lead goes without its history.
  }
}
