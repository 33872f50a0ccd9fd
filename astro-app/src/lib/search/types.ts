/**
 * The search state (what the URL holds) and the response shape. The
 * response follows the hosted search service's (Algolia) single-index
 * response so the embedded engine and a hosted index are interchangeable
 * behind one `SearchClient`.
 */
import type { CarType, SortOption, SortOrder } from '../../types/site';

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
}

/** Anything that answers a search: the embedded engine or the hosted service. */
export interface SearchClient {
  search(state: SearchState): Promise<SearchResponse>;
}

/** Facet attributes, as in generator/src/search_index.rs FACET_ATTRIBUTES. */
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
  'city',
  'location_name',
  'state',
  'year',
] as const;

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
