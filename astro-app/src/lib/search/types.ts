/**
 * The search state (what the URL holds) and the response shape. The
 * response follows the hosted search service's (Algolia) single-index
 * response so the embedded engine and a hosted index are interchangeable
 * behind one `SearchClient`.
 */
import type { CarType, SortOption, SortOrder } from '../../types/site';
import type { Intent } from './intents';

export type { Intent };

/** Numeric range refinement; an open end is undefined. */
export interface RangeRefinement {
  min?: number;
  max?: number;
}

/** InstantSearch's single-index UI state (DESIGN contract 3). */
export interface SearchState {
  query: string;
  /** attribute → selected values (OR within an attribute, AND across). */
  refinementList: Record<string, string[]>;
  range: Record<string, RangeRefinement>;
  /** 1-based, as in the URL. */
  page: number;
  /** Replica name; '' is the default (first) sort. */
  sortBy: string;
}

export const EMPTY_STATE: SearchState = { query: '', refinementList: {}, range: {}, page: 1, sortBy: '' };

/** What a result card shows. */
export interface Hit {
  objectID: string;
  slug: string;
  name: string;
  year: number;
  make: string;
  model: string;
  badge: string;
  series: string;
  car_type: CarType;
  status: 'in_stock' | 'coming_soon' | 'sold';
  price: number;
  price_text: string;
  was_price_text: string;
  price_type: string;
  km: number;
  transmission: string;
  fuel: string;
  body: string;
  tag_banner: string;
  /** Reserved according to the stock (the index's `reserved` number; a hosted record's flag). */
  reserved?: boolean;
  image: string;
  photos_count: number;
  location_name: string;
  city: string;
  state: string;
  phone: string;
}

export interface FacetStatsValue {
  min: number;
  max: number;
}

/** What the embedded engine understood of the keyword query. */
export interface QueryInfo {
  /** The query without its intents. */
  rest: string;
  /** Price, year, km and seat limits and colour families typed as words ("under 30k", "white"), applied as filters. */
  intents: Intent[];
  /** Words that match nothing in the stock: left out of the search. */
  unmatched: string[];
  /** Words the stock has, but no car has together with the others: left out of the search. */
  ignored: string[];
  /** A query close to this one that the stock matches, when nothing matched. */
  didYouMean?: string;
  /**
   * What the words that became a limit mean where the chip cannot say it:
   * "cheap" became "Price: up to $18,990", and a note says why that figure.
   */
  notes?: string[];
}

/** The hosted service's response (the fields the page reads). */
export interface SearchResponse {
  hits: Hit[];
  nbHits: number;
  nbPages: number;
  /** 0-based, as the hosted service returns it. */
  page: number;
  hitsPerPage: number;
  facets: Record<string, Record<string, number>>;
  facets_stats: Record<string, FacetStatsValue>;
  processingTimeMS: number;
  /** The embedded engine's reading of a keyword query (absent without one, and from a hosted service). */
  query?: QueryInfo;
  /**
   * A built page's refined facets whose other values are listed without
   * their counts (lib/search/static-page.ts): per facet, every value in the
   * order the counts give; `facets` keeps the counts of the refined values
   * only. Absent from every answer the browser gets.
   */
  uncounted?: Record<string, string[]>;
}

/** Anything that answers a search: the embedded engine or the hosted service. */
export interface SearchClient {
  search(state: SearchState): Promise<SearchResponse>;
  /** Gets keyword search ready ahead of the first keyword (the box got focus); optional. */
  prepareKeyword?(): void;
}

/**
 * Facet attributes with one value per car (docs/behaviour/search.md §3). The index stores
 * most of them (generator/src/pipeline/search_index.rs FACET_ATTRIBUTES); the engine
 * derives city, location_name and state from the car's location,
 * make_model ("Toyota|Corolla", the per-make model picker), year, seats and
 * certified from numbers, and price_range and weekly_price_range from the
 * price and the weekly subscription price (lib/search/price-ranges.ts).
 */
export const FACET_ATTRIBUTES = [
  'make',
  'model',
  'make_model',
  'badge',
  'car_type',
  'body',
  'fuel',
  'transmission',
  'drive',
  'colour',
  'colour_family',
  'city',
  'location_name',
  'state',
  'year',
  'status',
  'item_type',
  'seats',
  'tag',
  'certified',
  'dealership_slug',
  'dealership_name',
  'price_range',
  'weekly_price_range',
] as const;

/** Facet attributes with a list of values per car (the index's `sets`). */
export const SET_ATTRIBUTES = ['categories', 'filtered_features'] as const;

/** Every facet attribute a search counts and may refine. */
export const ALL_FACETS: readonly string[] = [...FACET_ATTRIBUTES, ...SET_ATTRIBUTES];

/**
 * Facets whose counts also leave out other attributes' refinements: the
 * model picker lists every make's models whatever make or model is
 * ticked, and a model ticked in one make's picker leaves the other makes
 * listed (to add a Ranger to a HiLux). The engine and the hosted client's
 * disjunctive queries both follow it.
 */
export const OWN_ALSO: Readonly<Record<string, readonly string[]>> = { make: ['model'], make_model: ['make', 'model'] };

/** Range (slider) attributes, as in search_index.rs RANGE_ATTRIBUTES. */
export const RANGE_ATTRIBUTES = ['price', 'km', 'year', 'subscription_price'] as const;

export type SortKey = SortOrder;

/**
 * The dealer's sort option a URL `sortBy` names (site.search.sort_options:
 * index names come from the dealer's YAML, so only the list knows which
 * order a name stands for). '' (the URL leaves the default out) and a name
 * the dealer does not offer are the default, the first option.
 */
export function sortOptionOf(sortBy: string, options: readonly SortOption[]): SortOption | undefined {
  return options.find((o) => o.value === sortBy) ?? options[0];
}

/** The order `sortBy` stands for among `options`; relevance when the dealer lists none. */
export function sortKeyOf(sortBy: string, options: readonly SortOption[]): SortKey {
  return sortOptionOf(sortBy, options)?.key ?? 'relevance';
}
