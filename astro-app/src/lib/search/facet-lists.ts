/**
 * How facet values are listed (docs/behaviour/search.md §9, content.md §2.7): car types in the
 * order new, demo, used; makes by popularity with the first 7 (or the
 * dealer's popular-makes count) shown before "Show all makes"; the city list
 * capped at 20 and the dealership/location list at 40; per-make model lists
 * capped at 30; dropdowns with a separator after 20 items; and the result
 * count above 1999 replaced by the configured stock count or the facet sum.
 */
import { bandStart } from './price-ranges';

export const CAR_TYPE_ORDER = ['new', 'demo', 'used'];
export const FACET_LIMITS: Record<string, number> = { city: 20, location_name: 40 };
export const DEFAULT_POPULAR_MAKES = 7;
export const MODEL_PICKER_CAP = 30;
export const DROPDOWN_SEPARATOR_AFTER = 20;
/** The hosted service stops counting exactly here. */
export const COUNT_CAP = 1999;

export interface FacetEntry {
  value: string;
  /** null: listed without its count (a built page's value outside its own results). */
  count: number | null;
  refined: boolean;
}

/**
 * The values of one facet, ordered for display; refined values stay listed
 * (count 0 when the other filters leave none) so they can be unticked.
 * With `uncounted` (a built page's order for this facet:
 * SearchResponse.uncounted), the values come in that order and only those
 * in `counts` have a count.
 */
export function facetEntries(attr: string, counts: Record<string, number> | undefined, refined: string[] = [], uncounted?: string[]): FacetEntry[] {
  if (uncounted) {
    const listed = uncounted.map((value) => ({ value, count: counts?.[value] ?? null, refined: refined.includes(value) }));
    for (const v of refined) if (!uncounted.includes(v)) listed.push({ value: v, count: counts?.[v] ?? 0, refined: true });
    return listed;
  }
  const all = new Map(Object.entries(counts ?? {}));
  for (const v of refined) if (!all.has(v)) all.set(v, 0);
  const entries = [...all].map(([value, count]) => ({ value, count, refined: refined.includes(value) }));
  if (attr === 'car_type') {
    const rank = (v: string) => (CAR_TYPE_ORDER.includes(v) ? CAR_TYPE_ORDER.indexOf(v) : CAR_TYPE_ORDER.length);
    entries.sort((a, b) => rank(a.value) - rank(b.value) || a.value.localeCompare(b.value));
  } else if (attr === 'year') {
    entries.sort((a, b) => Number(b.value) - Number(a.value));
  } else if (attr === 'seats' || attr === 'price_range' || attr === 'weekly_price_range') {
    // Numbers and bands in their own order, not by count.
    entries.sort((a, b) => bandStart(a.value) - bandStart(b.value));
  } else {
    entries.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  }
  const limit = FACET_LIMITS[attr];
  if (limit === undefined) return entries;
  // A refined value past the limit is still listed so it can be unticked.
  return entries.filter((e, i) => i < limit || e.refined);
}

/**
 * Whether a facet is worth a widget: it tells cars apart (two values or
 * more, or one value only some cars have: "Certified pre-owned"), or the
 * shopper has refined it (so it can be unticked). A stock whose cars all
 * share one value (every car a "car", one dealership) gets no widget.
 */
export function worthShowing(entries: FacetEntry[], total: number): boolean {
  return entries.length >= 2 || entries.some((e) => e.refined) || (entries.length === 1 && (entries[0]!.count ?? 0) < total);
}

/** Makes before and after "Show all makes". */
export function splitPopular<T>(entries: T[], popular = DEFAULT_POPULAR_MAKES): { shown: T[]; extra: T[] } {
  return { shown: entries.slice(0, popular), extra: entries.slice(popular) };
}

/** The models of one make from the make_model facet ("Toyota|Corolla"), most cars first, at most 30. */
export function modelsOfMake(makeModel: Record<string, number> | undefined, make: string): Array<{ value: string; count: number }> {
  const prefix = `${make}|`;
  return Object.entries(makeModel ?? {})
    .filter(([k]) => k.startsWith(prefix))
    .map(([k, count]) => ({ value: k.slice(prefix.length), count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
    .slice(0, MODEL_PICKER_CAP);
}

export type DropdownItem<T> = { kind: 'option'; option: T } | { kind: 'separator' };

/** Dropdown options with a separator after every 20. */
export function withSeparators<T>(options: T[], every = DROPDOWN_SEPARATOR_AFTER): DropdownItem<T>[] {
  const out: DropdownItem<T>[] = [];
  options.forEach((option, i) => {
    if (i > 0 && i % every === 0) out.push({ kind: 'separator' });
    out.push({ kind: 'option', option });
  });
  return out;
}

/** The count shown: above 1999 the configured stock count, else the sum of the car-type facet counts. */
export function displayCount(nbHits: number, facets: Record<string, Record<string, number>>, override: number | null): number {
  if (nbHits <= COUNT_CAP) return nbHits;
  if (override !== null) return override;
  return Object.values(facets.car_type ?? {}).reduce((a, b) => a + b, 0);
}
