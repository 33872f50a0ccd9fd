/**
 * The lead's `lead_attributes` (docs/behaviour/car-page.md "Lead payload"): the pages the
 * shopper saw in this visit (`visited_pages`) and the query parameters of
 * the link they arrived by (`linked_query_params`: utm_source, gclid...),
 * as lib/forms/visit.ts records them on every page (sessionStorage).
 */

/** The key lib/forms/visit.ts writes (not imported: that module must stay alone in the header's script). */
const KEY = 'dealergen:visit';

export interface LeadAttributes {
  visited_pages: string[];
  linked_query_params: Record<string, string>;
}

type Store = Pick<Storage, 'getItem'>;

function session(): Store | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** What a lead carries about the visit so far (a missing or corrupt record: nothing). */
export function leadAttributes(store: Store | null = session()): LeadAttributes {
  try {
    const v = JSON.parse(store?.getItem(KEY) ?? 'null') as LeadAttributes | null;
    if (v && Array.isArray(v.visited_pages) && typeof v.linked_query_params === 'object' && v.linked_query_params) {
      return { visited_pages: v.visited_pages.map(String), linked_query_params: v.linked_query_params };
    }
  } catch {
    // A corrupt entry counts as none.
  }
  return { visited_pages: [], linked_query_params: {} };
}
