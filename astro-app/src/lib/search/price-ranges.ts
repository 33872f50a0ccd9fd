/**
 * The price_range and weekly_price_range facets (docs/behaviour/search.md §3): a car's
 * price (or weekly subscription price) in a band. The value is the band as
 * "lo-hi" dollars (hi excluded) or "lo+" for the top band, so a link like
 * `refinementList[price_range][0]=20000-30000` reads plainly; the label is
 * what the filter panel shows ("$20,000 – $30,000").
 */
import { dollars } from '../format';

/** Lower edges of the price bands (dollars). */
export const PRICE_BANDS = [0, 10_000, 20_000, 30_000, 40_000, 50_000, 75_000, 100_000];
/** Lower edges of the weekly price bands (dollars a week). */
export const WEEKLY_BANDS = [0, 100, 150, 200, 250, 300];

/** The band of `amount` ('' for 0 or less: no price, not counted). */
export function band(amount: number, edges: readonly number[]): string {
  if (!(amount > 0)) return '';
  let i = edges.length - 1;
  while (i > 0 && amount < edges[i]!) i--;
  const next = edges[i + 1];
  return next === undefined ? `${edges[i]}+` : `${edges[i]}-${next}`;
}

/** Order of band values: by their lower edge. */
export const bandStart = (value: string): number => Number.parseInt(value, 10) || 0;

/** "$20,000 – $30,000", "Under $10,000", "$100,000 and over"; weekly bands add "/ week". */
export function bandLabel(value: string, weekly = false): string {
  const m = /^(\d+)(?:-(\d+)|\+)$/.exec(value);
  if (!m) return value;
  const unit = weekly ? ' / week' : '';
  const lo = Number(m[1]);
  if (m[2] === undefined) return `${dollars(lo)}${unit} and over`;
  if (lo === 0) return `Under ${dollars(Number(m[2]))}${unit}`;
  return `${dollars(lo)} – ${dollars(Number(m[2]))}${unit}`;
}
