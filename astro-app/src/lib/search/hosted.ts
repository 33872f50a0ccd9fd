/**
 * The hosted search service (Algolia-compatible API; spec 000 §7): host,
 * application id, index name (e.g. Car_production, ranked by custom_rank
 * descending), the search-only public key and the replica of each sort
 * order (site.search.sort_options, from `search.sort_replicas`) come from
 * the dealer YAML.
 * Disjunctive facets need one extra query per refined attribute (each
 * without its own refinement), sent together in one multi-query request;
 * the answers merge into the same response the embedded engine gives.
 * Loaded only on sites that use it (a dynamic import), so embedded sites
 * do not ship it. Its hits are raw feed records: the tag banner and the
 * price texts come from the generator's own rules (./present), unless a
 * record already carries them.
 */
import type { BaseFilters, HitRules, HostedSearch, SortOption } from '../../types/site';
import { hostedBaseFilter } from './base-filters';
import { currentPrice, priceText, tagBanner, wasPriceText } from './present';
import {
  FACET_ATTRIBUTES,
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
}

export interface HostedRequest {
  indexName: string;
  params: string;
}

const q = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** The filter string for `state`, leaving out the refinement of `except` (its disjunctive query). */
export function filterString(
  state: SearchState,
  base: string,
  o: Pick<HostedOptions, 'priceAscExcludesZero' | 'sortOptions'>,
  except?: string,
): string {
  const parts = [base];
  for (const [attr, values] of Object.entries(state.refinementList)) {
    if (attr === except || values.length === 0) continue;
    parts.push(`(${values.map((v) => `${attr}:${q(v)}`).join(' OR ')})`);
  }
  for (const [attr, r] of Object.entries(state.range)) {
    if (attr === except) continue;
    if (r.min !== undefined) parts.push(`${attr} >= ${r.min}`);
    if (r.max !== undefined) parts.push(`${attr} <= ${r.max}`);
  }
  if (o.priceAscExcludesZero && sortKeyOf(state.sortBy, o.sortOptions) === 'price_asc') parts.push('price > 0');
  return parts.join(' AND ');
}

/** The main query plus one per refined facet or range attribute. */
export function buildRequests(state: SearchState, o: HostedOptions, nowSeconds: number): HostedRequest[] {
  const base = hostedBaseFilter(o.baseFilters, nowSeconds);
  // The chosen order's replica; the dealer's default order for '' or a name it does not offer.
  const indexName = sortOptionOf(state.sortBy, o.sortOptions)?.value ?? o.config.index;
  const params = (p: Record<string, string | number>) =>
    Object.entries(p)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&');
  const requests: HostedRequest[] = [
    {
      indexName,
      params: params({
        query: state.query,
        hitsPerPage: o.hitsPerPage,
        page: Math.max(0, state.page - 1),
        facets: JSON.stringify([...FACET_ATTRIBUTES, ...RANGE_ATTRIBUTES]),
        filters: filterString(state, base, o),
      }),
    },
  ];
  const refined = [
    ...Object.keys(state.refinementList).filter((a) => (state.refinementList[a] ?? []).length > 0),
    ...Object.keys(state.range),
  ];
  for (const attr of new Set(refined)) {
    requests.push({
      indexName,
      params: params({
        query: state.query,
        hitsPerPage: 0,
        page: 0,
        facets: JSON.stringify([attr]),
        filters: filterString(state, base, o, attr),
      }),
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

/** Merges the main result with the disjunctive ones (each supplies its own attribute's facet and stats). */
export function mergeResults(results: RawResult[], requests: HostedRequest[], rules: HitRules, nowMs: number): SearchResponse {
  const [main, ...rest] = results;
  if (!main) throw new Error('the search service returned no results');
  const facets = { ...(main.facets ?? {}) };
  const facets_stats = { ...(main.facets_stats ?? {}) };
  rest.forEach((r, i) => {
    const attr = (JSON.parse(new URLSearchParams(requests[i + 1]!.params).get('facets') ?? '[]') as string[])[0];
    if (!attr) return;
    facets[attr] = r.facets?.[attr] ?? {};
    const stats = r.facets_stats?.[attr];
    if (stats) facets_stats[attr] = stats;
  });
  return {
    hits: main.hits.map((h) => hitFromHosted(h, rules, nowMs)),
    nbHits: main.nbHits,
    nbPages: main.nbPages,
    page: main.page,
    hitsPerPage: main.hitsPerPage,
    facets,
    facets_stats,
    processingTimeMS: results.reduce((t, r) => t + (r.processingTimeMS ?? 0), 0),
  };
}

export function createHostedClient(o: HostedOptions): SearchClient {
  const doFetch = o.fetch ?? fetch;
  const now = o.now ?? (() => Math.floor(Date.now() / 1000));
  return {
    async search(state) {
      const nowSeconds = now();
      const requests = buildRequests(state, o, nowSeconds);
      const res = await doFetch(`https://${o.config.host}/1/indexes/*/queries`, {
        method: 'POST',
        headers: {
          'X-Algolia-Application-Id': o.config.app_id,
          'X-Algolia-API-Key': o.config.public_key,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ requests }),
      });
      if (!res.ok) throw new Error(`search service answered ${res.status}`);
      const body = (await res.json()) as { results: RawResult[] };
      return mergeResults(body.results, requests, o.rules, nowSeconds * 1000);
    },
  };
}
