/**
 * The active filters as removable chips above the results (a facet value,
 * a slider's range, or a limit typed in the keyword box: "under 30k"
 * becomes "Price: up to $30,000"), and the typed limits moved out of the
 * query into the URL's ranges, so a chip, the slider and a shared link all
 * say the same thing.
 */
import { facetTitle, rangeText, valueLabel } from './labels';
import type { QueryInfo, RangeRefinement, SearchState } from './types';
import { withFilters } from './url';

export interface Chip {
  /** Stable key (list rendering). */
  key: string;
  /** "Make: Toyota", "Price: up to $30,000". */
  label: string;
  /** The search without this filter. */
  without: SearchState;
}

export function chipsOf(state: SearchState): Chip[] {
  const chips: Chip[] = [];
  for (const [attr, values] of Object.entries(state.refinementList)) {
    for (const v of values) {
      const rest = values.filter((x) => x !== v);
      const refinementList = { ...state.refinementList, [attr]: rest };
      if (!rest.length) delete refinementList[attr];
      chips.push({ key: `r:${attr}:${v}`, label: `${facetTitle(attr)}: ${valueLabel(attr, v)}`, without: withFilters(state, { refinementList }) });
    }
  }
  for (const [attr, r] of Object.entries(state.range)) {
    if (r.min === undefined && r.max === undefined) continue;
    const range = { ...state.range };
    delete range[attr];
    chips.push({ key: `g:${attr}`, label: `${facetTitle(attr)}: ${rangeText(attr, r)}`, without: withFilters(state, { range }) });
  }
  return chips;
}

/**
 * The search with the query's typed limits moved into its ranges (each
 * narrowing any range already there) and its colour words into the Colour
 * filter, the query left with its words; undefined when the query typed none.
 */
export function withIntents(state: SearchState, info: QueryInfo | undefined): SearchState | undefined {
  if (!info?.intents.length) return undefined;
  const range: Record<string, RangeRefinement> = { ...state.range };
  const refinementList = { ...state.refinementList };
  for (const it of info.intents) {
    // A colour word: its family refines the Colour filter ("Colour: White").
    if (it.value !== undefined) {
      const now = refinementList[it.attr] ?? [];
      if (!now.includes(it.value)) refinementList[it.attr] = [...now, it.value];
      continue;
    }
    // "cheap" the engine could not price (no priced car matched): the word goes.
    if (it.min === undefined && it.max === undefined) continue;
    const r = range[it.attr] ?? {};
    const min = it.min === undefined ? r.min : Math.max(it.min, r.min ?? -Infinity);
    const max = it.max === undefined ? r.max : Math.min(it.max, r.max ?? Infinity);
    range[it.attr] = { min, max };
  }
  return withFilters(state, { query: info.rest, range, refinementList });
}

