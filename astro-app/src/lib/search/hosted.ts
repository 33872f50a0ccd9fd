/**
 * The hosted search service (Algolia-compatible API; docs/behaviour/search.md §7): host,
 * application id, index name (e.g. Car_production, ranked by custom_rank
 * descending), the search-only public key and the replica of each sort
 * order (site.search.sort_options, from `search.sort_replicas`) come from
 * the dealer YAML. The main search sends the spec's request: the query,
 * an offset (and length) rather than a page, the sort through the
 * replica, the dealer's base `filters`, the shopper's refinements apart
 * from them (search_filters: the service's facetFilters and
 * numericFilters) and hitsPerPage. Disjunctive facets need one extra
 * query per group of refined attributes (each without those refinements),
 * sent together in one multi-query request; the answers merge into the
 * same response the embedded engine gives. The spec's other searches (by
 * filters with a limit, the manufacturer/model catalogue, the dealership
 * listing) are not asked of the service: what they fed is built from the
 * stock at build time (docs/behaviour/search.md § 'Decision: the hosted
 * service answers the search page only'). The keyword goes to the service as
 * typed: its own typo tolerance and synonyms apply, not the embedded
 * engine's.
 * Loaded only on sites that use it (a dynamic import), so embedded sites
 * do not ship it. Its hits are raw feed records: the tag banner and the
 * price texts come from the generator's own rules (./present), unless a
 * record already carries them.
 */
import type { BaseFilters, HitRules, HostedSearch, SortOption } from '../../types/site';
import { hostedBaseFilter } from './base-filters';
import { PRICED } from './priced';
import { currentPrice, priceText, tagBanner, wasPriceText } from './present';
import {
  ALL_FACETS,
  OWN_ALSO,
  RANGE_ATTRIBUTES,
  sortKeyOf,
  sortOptionOf,
  type Hit,
  type SearchClient,
  type SearchResponse,
  type SearchState,
} from './types';

export interface HostedOptions {
  config: HostedSearch;
  baseFilters: BaseFilters;
  hitsPerPage: number;
  priceAscExcludesZero: boolean;
  /** The dealer's sort options: each names the index (replica) its order is asked of. */
  sortOptions: readonly SortOption[];
  /** The dealer's card rules (site.search.hit_rules). */
  rules: HitRules;
  fetch?: typeof fetch;
  /** Unix seconds, for the sold window of the base filter. */
  now?: () => number;
  /** Where the service answers; https://{config.host} unless a test's stand-in. */
  origin?: string;
}

export interface HostedRequest {
  indexName: string;
  params: string;
}

/**
 * The dealer's filter string: the base filters (the same rules that chose
 * the visible stock) and, for price low-to-high where the dealer says so,
 * price above 0. The shopper's refinements travel apart (searchFilters).
 */
export function filterString(state: SearchState, base: string, o: Pick<HostedOptions, 'priceAscExcludesZero' | 'sortOptions'>): string {
  return o.priceAscExcludesZero && sortKeyOf(state.sortBy, o.sortOptions) === 'price_asc' ? `${base} AND price > 0` : base;
}

/** A facet filter value as the service reads it ("make:Toyota"; a leading minus escaped, or it would negate). */
const facetFilter = (attr: string, v: string) => `${attr}:${v.startsWith('-') ? `\\${v}` : v}`;

/**
 * The shopper's refinements (the spec's search_filters), leaving out the
 * attributes in `except` (a disjunctive facet's own): facet values as the
 * service's facetFilters (a list is OR, the lists AND) and ranges as its
 * numericFilters.
 */
export function searchFilters(state: SearchState, except: ReadonlySet<string> = new Set()): { facetFilters: string[][]; numericFilters: string[] } {
  const facetFilters: string[][] = [];
  for (const [attr, values] of Object.entries(state.refinementList)) {
    if (!except.has(attr) && values.length) facetFilters.push(values.map((v) => facetFilter(attr, v)));
  }
  const numericFilters: string[] = [];
  for (const [attr, r] of Object.entries(state.range)) {
    if (except.has(attr)) continue;
    // No price (0) is within no price range (price-ranges PRICED).
    if (PRICED.has(attr) && !(r.min !== undefined && r.min > 0)) numericFilters.push(`${attr}>0`);
    if (r.min !== undefined) numericFilters.push(`${attr}>=${r.min}`);
    if (r.max !== undefined) numericFilters.push(`${attr}<=${r.max}`);
  }
  return { facetFilters, numericFilters };
}

const encode = (p: Record<string, string | number | unknown[]>) =>
  Object.entries(p)
    .filter(([, v]) => !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? JSON.stringify(v) : String(v))}`)
    .join('&');

/**
 * The main query (the spec's request: query, offset, sort through the
 * replica, filters, search_filters, hitsPerPage) plus the disjunctive
 * ones: for each group of facets refined by the same attributes, one
 * query without those refinements counting them (the model picker's
 * make_model and the make list also without the model: engine OWN_ALSO).
 */
export function buildRequests(state: SearchState, o: HostedOptions, nowSeconds: number): HostedRequest[] {
  const base = hostedBaseFilter(o.baseFilters, nowSeconds);
  // The chosen order's replica; the dealer's default order for '' or a name it does not offer.
  const indexName = sortOptionOf(state.sortBy, o.sortOptions)?.value ?? o.config.index;
  const filters = filterString(state, base, o);
  const page = Math.max(0, state.page - 1);
  const requests: HostedRequest[] = [
    {
      indexName,
      params: encode({
        query: state.query,
        offset: page * o.hitsPerPage,
        length: o.hitsPerPage,
        hitsPerPage: o.hitsPerPage,
        facets: [...ALL_FACETS, ...RANGE_ATTRIBUTES],
        filters,
        ...searchFilters(state),
      }),
    },
  ];
  const refined = new Set([...Object.keys(state.refinementList).filter((a) => (state.refinementList[a] ?? []).length > 0), ...Object.keys(state.range)]);
  const groups = new Map<string, { except: Set<string>; facets: string[] }>();
  for (const facet of [...ALL_FACETS, ...RANGE_ATTRIBUTES]) {
    const own = [facet, ...(OWN_ALSO[facet] ?? [])].filter((a) => refined.has(a)).sort();
    if (!own.length) continue;
    const key = own.join(',');
    const g = groups.get(key) ?? { except: new Set(own), facets: [] };
    if (!g.facets.includes(facet)) g.facets.push(facet);
    groups.set(key, g);
  }
  for (const g of groups.values()) {
    requests.push({
      indexName,
      params: encode({ query: state.query, hitsPerPage: 0, offset: 0, length: 0, facets: g.facets, filters, ...searchFilters(state, g.except) }),
    });
  }
  return requests;
}

type Raw = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0);

/**
 * A hosted hit (the spec's Car fields) as a card hit; tag and price texts
 * by the generator's rules at `nowMs` (the new-arrival window).
 */
export function hitFromHosted(raw: Raw, rules: HitRules, nowMs: number): Hit {
  const loc = (raw.location ?? {}) as Raw;
  const status = str(raw.status) as Hit['status'];
  // As cars.json: the offer price when there is one.
  const price = currentPrice(raw) ?? 0;
  const images = Array.isArray(raw.images) ? (raw.images as Raw[]) : [];
  return {
    objectID: str(raw.objectID ?? raw.id),
    slug: str(raw.slug),
    name: str(raw.name),
    year: num(raw.year),
    make: str(raw.make),
    model: str(raw.model),
    badge: str(raw.badge),
    series: str(raw.series),
    car_type: (str(raw.car_type) || 'used') as Hit['car_type'],
    status: status || 'in_stock',
    price,
    price_text: str(raw.price_text) || priceText(raw, rules),
    was_price_text: str(raw.was_price_text) || (wasPriceText(raw) ?? ''),
    price_type: str(raw.price_type),
    km: num(raw.km),
    transmission: str(raw.simple_transmission ?? raw.transmission),
    fuel: str(raw.simple_fuel ?? raw.fuel),
    body: str(raw.simple_body ?? raw.body),
    tag_banner: str(raw.tag_banner) || (tagBanner(raw, rules, nowMs) ?? ''),
    reserved: raw.reserved === true,
    image: str(raw.primary_image_url) || str((images[0] as Raw | undefined)?.url),
    photos_count: num(raw.photos_count),
    location_name: str(raw.location_name ?? loc.name),
    city: str(raw.city),
    state: str(raw.state),
    phone: str(loc.phone),
  };
}

interface RawResult {
  hits: Raw[];
  nbHits: number;
  nbPages: number;
  page: number;
  hitsPerPage: number;
  facets?: Record<string, Record<string, number>>;
  facets_stats?: Record<string, { min: number; max: number }>;
  processingTimeMS?: number;
}

/**
 * Merges the main result with the disjunctive ones (each supplies the
 * facets and statistics it was asked for). Pages come from the hit count:
 * with offset and length the service answers no page numbers.
 */
export function mergeResults(results: RawResult[], requests: HostedRequest[], rules: HitRules, nowMs: number, hitsPerPage = results[0]?.hitsPerPage ?? 21): SearchResponse {
  const [main, ...rest] = results;
  if (!main) throw new Error('the search service returned no results');
  const facets = { ...(main.facets ?? {}) };
  const facets_stats = { ...(main.facets_stats ?? {}) };
  rest.forEach((r, i) => {
    const asked = JSON.parse(new URLSearchParams(requests[i + 1]!.params).get('facets') ?? '[]') as string[];
    for (const attr of asked) {
      facets[attr] = r.facets?.[attr] ?? {};
      const stats = r.facets_stats?.[attr];
      if (stats) facets_stats[attr] = stats;
    }
  });
  const offset = Number(new URLSearchParams(requests[0]!.params).get('offset') ?? 0);
  return {
    hits: main.hits.map((h) => hitFromHosted(h, rules, nowMs)),
    nbHits: main.nbHits,
    nbPages: Math.ceil(main.nbHits / hitsPerPage),
    page: Math.floor(offset / hitsPerPage),
    hitsPerPage,
    facets,
    facets_stats,
    processingTimeMS: results.reduce((t, r) => t + (r.processingTimeMS ?? 0), 0),
  };
}

/** Posts a multi-query to the service (its documented multi-index queries endpoint). */
async function post(o: HostedOptions, requests: HostedRequest[]): Promise<RawResult[]> {
  const res = await (o.fetch ?? fetch)(`${o.origin ?? `https://${o.config.host}`}/1/indexes/*/queries`, {
    method: 'POST',
    headers: {
      'X-Algolia-Application-Id': o.config.app_id,
      'X-Algolia-API-Key': o.config.public_key,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ requests }),
  });
  if (!res.ok) throw new Error(`search service answered ${res.status}`);
  return ((await res.json()) as { results: RawResult[] }).results;
}

export function createHostedClient(o: HostedOptions): SearchClient {
  const now = o.now ?? (() => Math.floor(Date.now() / 1000));
  return {
    async search(state) {
      const nowSeconds = now();
      const requests = buildRequests(state, o, nowSeconds);
      return mergeResults(await post(o, requests), requests, o.rules, nowSeconds * 1000, o.hitsPerPage);
    },
  };
}
