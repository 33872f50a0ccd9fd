/**
 * What the forms keep on the shopper's device (localStorage):
 *  - the customer's details, to fill the next form, stored only when name,
 *    e-mail and phone are all present (docs/behaviour/content.md §4);
 *  - the last sent lead's category and car, read by the success page
 *    (docs/behaviour/car-page.md §4: "the car and a success category are stored locally").
 *  - a form's typed text after a send that failed (sessionStorage, this tab
 *    only), so a reload or a later visit in the tab keeps what the shopper
 *    wrote until it is sent; never its boxes (the opt-in and the terms are
 *    ticked again, on the page the shopper sends from).
 * Storage may be blocked or full: every call degrades to doing nothing.
 */

const CUSTOMER_KEY = 'dealergen:customer';
const LAST_LEAD_KEY = 'dealergen:last-lead';

export interface CustomerDetails {
  name: string;
  email: string;
  phone: string;
  last_name?: string;
  postcode?: string;
}

export interface LastLead {
  category: string;
  subcategory?: string;
  /** The car the lead was about. */
  car?: { name: string; slug: string; car_type: string };
  /** ms since the epoch; the success page ignores an old record. */
  at: number;
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function local(): Store | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function get<T>(store: Store | null, key: string): T | null {
  if (!store) return null;
  try {
    return JSON.parse(store.getItem(key) ?? 'null') as T | null;
  } catch {
    return null;
  }
}

function set(store: Store | null, key: string, value: unknown): void {
  try {
    store?.setItem(key, JSON.stringify(value));
  } catch {
    // Full or blocked: nothing is kept.
  }
}

const filled = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Keeps the details for the next form, only when name, e-mail and phone are all present. Returns whether they were kept. */
export function saveCustomer(details: Partial<Record<keyof CustomerDetails, unknown>>, store: Store | null = local()): boolean {
  if (!filled(details.name) || !filled(details.email) || !filled(details.phone)) return false;
  const kept: CustomerDetails = { name: details.name.trim(), email: details.email.trim(), phone: details.phone.trim() };
  if (filled(details.last_name)) kept.last_name = details.last_name.trim();
  if (filled(details.postcode)) kept.postcode = details.postcode.trim();
  set(store, CUSTOMER_KEY, kept);
  return true;
}

/** The kept details (only complete ones are ever kept), or null. */
export function loadCustomer(store: Store | null = local()): CustomerDetails | null {
  const c = get<CustomerDetails>(store, CUSTOMER_KEY);
  return c && filled(c.name) && filled(c.email) && filled(c.phone) ? c : null;
}

export function saveLastLead(lead: Omit<LastLead, 'at'>, now = Date.now(), store: Store | null = local()): void {
  set(store, LAST_LEAD_KEY, { ...lead, at: now });
}

/** How long the success page trusts the stored lead: a day. */
export const LAST_LEAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export function loadLastLead(now = Date.now(), store: Store | null = local()): LastLead | null {
  const lead = get<LastLead>(store, LAST_LEAD_KEY);
  if (!lead || typeof lead.category !== 'string' || typeof lead.at !== 'number') return null;
  return now - lead.at <= LAST_LEAD_MAX_AGE_MS ? lead : null;
}

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const draftKey = (form: string) => `dealergen:draft:${form}`;

/** Keeps `values`' text (not its boxes) of the form `form` (its page and id) after a failed send. */
export function saveDraft(form: string, values: Record<string, unknown>, store: Store | null = session()): void {
  set(store, draftKey(form), Object.fromEntries(Object.entries(values).filter(([, v]) => filled(v))));
}

/** The text kept for `form`, or null. */
export function loadDraft(form: string, store: Store | null = session()): Record<string, string> | null {
  const draft = get<Record<string, unknown>>(store, draftKey(form));
  if (!draft || typeof draft !== 'object') return null;
  return Object.fromEntries(Object.entries(draft).filter((e): e is [string, string] => filled(e[1])));
}

/** Forgets the text kept for `form` (it was sent). */
export function clearDraft(form: string, store: Pick<Storage, 'removeItem'> | null = session()): void {
  try {
    store?.removeItem(draftKey(form));
  } catch {
    // Blocked: nothing was kept.
  }
}
