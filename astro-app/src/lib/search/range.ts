/**
 * Range slider rules (docs/behaviour/search.md §5, §9): bounds from the facet statistics
 * (0 to 100000 without them), step one hundredth of the range rounded
 * (whole thousands for price and km: sliderStep), price and km snap to
 * the nearest 1000, the minimum stays at or below the
 * maximum, and out-of-range input is ignored (only logged).
 */
import type { FacetStatsValue, RangeRefinement } from './types';
import { dollars, formatKm } from '../format';

export const DEFAULT_BOUNDS: FacetStatsValue = { min: 0, max: 100_000 };
const SNAPPED = new Set(['price', 'km']);
const SNAP = 1000;
export const SLIDER_DEBOUNCE_MS = 400;

/**
 * The slider's ends: the facet statistics (0 to 100000 without them); for
 * price and km widened to whole thousands, so that every step of the
 * slider lands on a value the snapping keeps (see sliderStep).
 */
export function sliderBounds(stats: FacetStatsValue | undefined, attr = ''): FacetStatsValue {
  const b = meaningful(stats) ? stats : DEFAULT_BOUNDS;
  if (!SNAPPED.has(attr)) return b;
  return { min: Math.floor(b.min / SNAP) * SNAP, max: Math.max(Math.ceil(b.max / SNAP) * SNAP, Math.floor(b.min / SNAP) * SNAP + SNAP) };
}

/** Statistics a slider can be built on: both ends finite, the minimum not above the maximum. */
export function meaningful(stats: FacetStatsValue | undefined): stats is FacetStatsValue {
  return !!stats && Number.isFinite(stats.min) && Number.isFinite(stats.max) && stats.min <= stats.max;
}

/**
 * The statistics a slider shows: this search's; when it has none (no car
 * matched), the last meaningful ones (`kept`, updated here), so a search
 * with no results keeps the sliders it had instead of 0 to 100,000.
 */
export function keptStats(attr: string, stats: FacetStatsValue | undefined, kept: Record<string, FacetStatsValue>): FacetStatsValue | undefined {
  if (meaningful(stats)) kept[attr] = stats;
  return kept[attr];
}

/**
 * One hundredth of the range, rounded (at least 1). For price and km a
 * whole number of thousands, at least 1000: below that (a span under
 * 50,000 gave steps under 500) an arrow key's step snapped back to where
 * the thumb was, so the keyboard could not move it.
 */
export function sliderStep(bounds: FacetStatsValue, attr = ''): number {
  const step = Math.max(1, Math.round((bounds.max - bounds.min) / 100));
  return SNAPPED.has(attr) ? Math.max(SNAP, Math.round(step / SNAP) * SNAP) : step;
}

/** Price and km snap to the nearest 1000; other attributes stay as they are. */
export function snap(attr: string, value: number): number {
  return SNAPPED.has(attr) ? Math.round(value / SNAP) * SNAP : value;
}

export type Thumbs = [number, number];

/**
 * The slider after the shopper sets one thumb to `value`. Input outside the
 * bounds (or not a number) is ignored: the previous thumbs come back and the
 * problem is logged. A snapped value is kept inside the bounds; the minimum
 * never passes the maximum (nor the maximum the minimum).
 */
export function moveThumb(
  attr: string,
  current: Thumbs,
  which: 'min' | 'max',
  value: number,
  bounds: FacetStatsValue,
  log: (message: string) => void = console.warn,
): Thumbs {
  if (!Number.isFinite(value) || value < bounds.min || value > bounds.max) {
    log(`range ${attr}: ${value} is outside ${bounds.min}..${bounds.max}; ignored`);
    return current;
  }
  const v = Math.min(bounds.max, Math.max(bounds.min, snap(attr, value)));
  return which === 'min' ? [Math.min(v, current[1]), current[1]] : [current[0], Math.max(v, current[0])];
}

/** The thumbs for a URL refinement (missing ends at the bounds; clamped). */
export function thumbsOf(refinement: RangeRefinement | undefined, bounds: FacetStatsValue): Thumbs {
  const lo = Math.max(bounds.min, Math.min(bounds.max, refinement?.min ?? bounds.min));
  const hi = Math.max(lo, Math.min(bounds.max, refinement?.max ?? bounds.max));
  return [lo, hi];
}

/**
 * The two ends a slider says: its thumbs, except that while the thumbs are
 * those of the address's refinement (not moved since), a set end is the
 * refinement's own number even where it lies outside the slider's bounds
 * (a search with no results keeps the last results' bounds, so "$1,000 to
 * $2,000" would otherwise read "$6,000 – $6,000" beside its chip).
 */
export function shownEnds(refinement: RangeRefinement | undefined, bounds: FacetStatsValue, [lo, hi]: Thumbs): Thumbs {
  const own = thumbsOf(refinement, bounds);
  return lo === own[0] && hi === own[1] ? [refinement?.min ?? lo, refinement?.max ?? hi] : [lo, hi];
}

/** The refinement for thumbs: an end at its bound is left open; both open is no refinement. */
export function refinementOf(thumbs: Thumbs, bounds: FacetStatsValue): RangeRefinement | undefined {
  const min = thumbs[0] > bounds.min ? thumbs[0] : undefined;
  const max = thumbs[1] < bounds.max ? thumbs[1] : undefined;
  return min === undefined && max === undefined ? undefined : { min, max };
}

/** Labels (docs/behaviour/search.md §9): price in dollars, subscription price per week, year plain, km with the unit. */
export function rangeLabel(attr: string, value: number): string {
  if (attr === 'price') return dollars(value);
  if (attr === 'subscription_price') return `${dollars(value)} / week`;
  if (attr === 'km') return formatKm(value);
  return String(value);
}
