/**
 * What the forms keep on the shopper's device (localStorage):
 *  - the customer's details, to fill the next form, stored only when name,
 *    e-mail and phone are all present (docs/behaviour/content.md §4);
 *  - the last sent lead's category and car, read by the success page
 *    (docs/behaviour/car-page.md §4: "the car and a success category are stored locally").
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
