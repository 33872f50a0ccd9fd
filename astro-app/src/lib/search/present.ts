/**
 * The generator's card rules (generator/src/pipeline/stock/present.rs) for hits the
 * hosted search service returns as raw feed fields: the one tag banner in
 * priority order of docs/behaviour/search.md §4 and the price text of
 * docs/behaviour/car-page.md §4. Both
 * languages are checked against the same cases
 * (rules/vectors/present-cases.json), so a rule changed on one side
 * only fails a test.
 */
import { dollars } from '../format';
import type { HitRules } from '../../types/site';

/** Listed within this many days: the new-arrival tag (docs/behaviour/search.md §9). */
export const NEW_ARRIVAL_DAYS = 8;
const DAY_MS = 86_400_000;

/** The raw fields the rules read (the spec's Car, as the hosted index holds it). */
export interface RawCar {
  status?: unknown;
  simple_fuel?: unknown;
  reserved?: unknown;
  certified?: unknown;
  make?: unknown;
  tag?: unknown;
  created_at?: unknown;
  price?: unknown;
  offer_price?: unknown;
  before_price?: unknown;
  subscription_price?: unknown;
  preorder?: unknown;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const amount = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};


function inStock(status: string): boolean {
  return status === 'in_stock' || status === 'coming_soon';
}

/** The offer price when above 10, else the price (present.rs current_price). */
export function currentPrice(car: RawCar): number | undefined {
  const offer = amount(car.offer_price);
  return offer !== undefined && offer > 10 ? offer : amount(car.price);
}

/**
 * Milliseconds of an RFC 3339 time or a bare date (midnight UTC), as
 * present.rs parse_time; hosted records may also hold unix seconds.
 */
function timeOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v * 1000;
  const s = text(v);
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s)) return Date.parse(s);
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (!day) return undefined;
  const ms = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
  return Number.isFinite(ms) ? ms : undefined;
}

/** The certified badge's words: "Toyota Certified Pre-Owned" (generator/src/pipeline/stock/detail.rs `certified`). */
export function certifiedTitle(make: string): string {
  return `${make.trim()} Certified Pre-Owned`;
}

/**
 * The certified programme's badge image for a card whose tag is the
 * certified badge (`cards.certified_badge_image`), else null: the tag shows
 * as words. The words are the image's text alternative.
 */
export function certifiedImage(tag: string | null | undefined, rules: Pick<HitRules, 'certified_badge_make' | 'certified_badge_image'> | undefined): string | null {
  const make = rules?.certified_badge_make;
  if (!tag || !make || !rules?.certified_badge_image) return null;
  return tag === certifiedTitle(make) ? rules.certified_badge_image : null;
}

/**
 * The one tag banner: the dealer's sold text (SOLD) for cars not in stock; otherwise the first of
 * Electric/Hybrid (when the dealer enables it), Reserved, the certified
 * badge (configured make), the dealer's tag, COMING SOON, New Arrival.
 */
export function tagBanner(car: RawCar, rules: HitRules, nowMs: number): string | null {
  const status = text(car.status);
  if (!inStock(status)) return rules.sold_text;
  if (rules.electric_hybrid_tag) {
    const fuel = text(car.simple_fuel).toLowerCase();
    if (fuel === 'electric') return 'Electric';
    if (fuel === 'hybrid') return 'Hybrid';
  }
  if (car.reserved === true) return 'Reserved';
  const make = rules.certified_badge_make;
  if (make && car.certified === true && text(car.make).toLowerCase() === make.toLowerCase()) return certifiedTitle(make);
  const tag = text(car.tag).trim();
  if (tag) return tag;
  if (status === 'coming_soon') return 'COMING SOON';
  const created = timeOf(car.created_at);
  if (created !== undefined) {
    const age = nowMs - created;
    if (age >= 0 && age < NEW_ARRIVAL_DAYS * DAY_MS) return rules.new_arrival_text;
  }
  return null;
}

/** Price text in priority order: weekly subscription, price above 10, PREORDER, the no-price text. */
export function priceText(car: RawCar, rules: HitRules): string {
  const weekly = amount(car.subscription_price);
  if (rules.subscriptions && weekly !== undefined && weekly > 0) return `${dollars(weekly)} / week`;
  const price = currentPrice(car);
  if (price !== undefined && price > 10) return dollars(price);
  if (car.preorder === true) return 'PREORDER';
  return rules.no_price_text;
}

/** The was-price, only when the earlier price exceeds the current one. */
export function wasPriceText(car: RawCar): string | null {
  const now = currentPrice(car);
  if (now === undefined || now <= 10) return null;
  const before = amount(car.before_price);
  return before !== undefined && before > now ? dollars(before) : null;
}
