/**
 * The lead's `lead_attributes` (spec 001 "Lead payload"): the pages the
 * shopper saw in this visit (`visited_pages`) and the query parameters of
 * the link they arrived by (`linked_query_params`: utm_source, gclid...),
 * kept in sessionStorage (this tab, this visit; nothing leaves the device
 * until a form is sent).
 *
 * `recordVisit` runs on every page from the header's script (it must stay
 * tiny: that script is the only JavaScript of pages without islands).
 */

const KEY = 'dealergen:visit';
/** Most recent pages kept; older ones are dropped first. */
export const MAX_PAGES = 20;
/** Query parameters kept from the landing link, and the longest value kept. */
export const MAX_PARAMS = 20;
const MAX_VALUE = 200;

export interface LeadAttributes {
  visited_pages: string[];
  linked_query_params: Record<string, string>;
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function read(store: Store): LeadAttributes {
  try {
    const v = JSON.parse(store.getItem(KEY) ?? 'null') as LeadAttributes | null;
    if (v && Array.isArray(v.visited_pages) && typeof v.linked_query_params === 'object' && v.linked_query_params) return v;
  } catch {
    // A corrupt entry is replaced.
  }
  return { visited_pages: [], linked_query_params: {} };
}

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
  const visit = read(store);
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
    store.setItem(KEY, JSON.stringify(visit));
  } catch {
    // Quota: the lead goes without its history.
  }
}

/** What a lead carries about the visit so far. */
export function leadAttributes(store: Store | null = session()): LeadAttributes {
  return store ? read(store) : { visited_pages: [], linked_query_params: {} };
}
