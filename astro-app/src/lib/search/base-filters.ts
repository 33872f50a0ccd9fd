/**
 * The dealer's base search filters (docs/behaviour/search.md §9): photo threshold, sold
 * window, in-stock only, excluded makes / car types / stock numbers. The
 * generator applied them when it built the index; the browser applies them
 * again at the shopper's clock (a site built yesterday must not list a car
 * whose sold window ended this morning), and sends the same rules as a
 * filter string to a hosted service. Pinned to the Rust rules by
 * rules/vectors/base-filters.json.
 */
import type { BaseFilters } from '../../types/site';

const DAY = 86_400;

export interface BaseFilterFacts {
  status: string;
  /** Unix seconds; null when unknown. */
  sold_at: number | null;
  show_on_dealer_website: boolean;
  photos_count: number;
  make: string;
  car_type: string;
  stocknum: string | null;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Mirrors rules/src/visibility.rs `check` (now in unix seconds). */
export function matchesBaseFilters(car: BaseFilterFacts, rules: BaseFilters, now: number): boolean {
  if (!car.show_on_dealer_website) return false;
  if (car.status === 'sold') {
    // A sold car without a sale date cannot be placed in the window: hidden.
    if (rules.in_stock_only || car.sold_at === null) return false;
    if (now - car.sold_at > rules.include_sold_days * DAY) return false;
  } else if (car.status === 'coming_soon') {
    if (rules.in_stock_only) return false;
  } else if (car.status !== 'in_stock') {
    return false;
  }
  if (car.photos_count < rules.min_photos) return false;
  if (rules.exclude_makes.some((m) => same(m, car.make))) return false;
  if (rules.exclude_car_types.some((t) => same(t, car.car_type))) return false;
  const stocknum = car.stocknum;
  if (stocknum !== null && rules.exclude_stock_numbers.some((s) => same(s, stocknum))) return false;
  return true;
}

const quoted = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** The same rules in the hosted service's filter syntax (conjunction of disjunctions). */
export function hostedBaseFilter(rules: BaseFilters, now: number): string {
  const parts = ['show_on_dealer_website:true', `photos_count >= ${rules.min_photos}`];
  parts.push(
    rules.in_stock_only
      ? 'status:in_stock'
      : `(status:in_stock OR status:coming_soon OR sold_date_timestamp >= ${now - rules.include_sold_days * DAY})`,
  );
  for (const m of rules.exclude_makes) parts.push(`NOT make:${quoted(m)}`);
  for (const t of rules.exclude_car_types) parts.push(`NOT car_type:${quoted(t)}`);
  for (const s of rules.exclude_stock_numbers) parts.push(`NOT stocknum:${quoted(s)}`);
  return parts.join(' AND ');
}
