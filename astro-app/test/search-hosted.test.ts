/** The hosted search client: requests, disjunctive queries, merging, the cache. */
import { describe, expect, it, vi } from 'vitest';
import { cached } from '../src/lib/search/client';
import { buildRequests, createHostedClient, filterString, searchFilters, type HostedOptions } from '../src/lib/search/hosted';
import { EMPTY_STATE, type SearchState } from '../src/lib/search/types';

const options: HostedOptions = {
  config: { host: 'abc-dsn.algolia.net', app_id: 'ABC', index: 'Car_production', public_key: 'search-only' },
  baseFilters: { include_sold_days: 3, min_photos: 3, in_stock_only: false, exclude_makes: ['Lada'], exclude_car_types: [], exclude_stock_numbers: [] },
  hitsPerPage: 21,
  priceAscExcludesZero: true,
  sortOptions: [
    { key: 'relevance', label: 'Most relevant', value: 'Car_production' },
    { key: 'latest', label: 'Latest', value: 'Car_production_latest' },
    { key: 'price_asc', label: 'Price: lowest', value: 'Car_production_price_asc' },
  ],
  rules: { electric_hybrid_tag: false, certified_badge_make: null, certified_badge_image: null, new_arrival_text: 'New Arrival', sold_text: 'SOLD', no_price_text: 'Enquire for price.', subscriptions: false },
};
const NOW = 1_763_596_800;
const BASE = 'show_on_dealer_website:true AND photos_count >= 3 AND (status:in_stock OR status:coming_soon OR sold_date_timestamp >= 1763337600) AND NOT make:"Lada"';
const state: SearchState = { ...EMPTY_STATE, query: 'suv', refinementList: { make: ['Toyota', 'Kia'], body: ['SUV'] }, range: { price: { min: 5000, max: 30000 } }, page: 2 };

describe('hosted search', () => {
  it("keeps the dealer's base filter apart from the shopper's refinements (search_filters: facetFilters and numericFilters)", () => {
    expect(filterString(state, BASE, { ...options, priceAscExcludesZero: false })).toBe(BASE);
    expect(filterString({ ...state, sortBy: 'Car_production_price_asc' }, BASE, options)).toBe(`${BASE} AND price > 0`);
    expect(filterString({ ...state, sortBy: 'Car_production_price_asc' }, BASE, { ...options, priceAscExcludesZero: false })).toBe(BASE);
    expect(searchFilters(state)).toEqual({ facetFilters: [['make:Toyota', 'make:Kia'], ['body:SUV']], numericFilters: ['price>=5000', 'price<=30000'] });
    expect(searchFilters(state, new Set(['make', 'price']))).toEqual({ facetFilters: [['body:SUV']], numericFilters: [] });
    // A budget lists priced cars: no price (0) is within no price range (docs/behaviour/search.md §5).
    const budget: SearchState = { ...EMPTY_STATE, refinementList: {}, range: { price: { max: 30000 }, km: { max: 50000 } } };
    expect(searchFilters(budget).numericFilters).toEqual(['price>0', 'price<=30000', 'km<=50000']);
    // A value starting with a minus would read as a negation: escaped.
    expect(searchFilters({ ...state, refinementList: { badge: ['-X'] }, range: {} }).facetFilters).toEqual([['badge:\\-X']]);
  });

  it('asks one main query with offset, length and hitsPerPage (custom_rank index unless sorted) plus one per refined group without its refinements', () => {
    const reqs = buildRequests(state, options, NOW);
    expect(reqs.map((r) => r.indexName)).toEqual(['Car_production', 'Car_production', 'Car_production', 'Car_production']);
    const params = reqs.map((r) => new URLSearchParams(r.params));
    expect(params[0]!.get('offset')).toBe('21');
    expect(params[0]!.get('length')).toBe('21');
    expect(params[0]!.get('hitsPerPage')).toBe('21');
    expect(params[0]!.get('page')).toBeNull();
    expect(params[0]!.get('query')).toBe('suv');
    expect(params[0]!.get('filters')).toBe(BASE);
    expect(JSON.parse(params[0]!.get('facetFilters')!)).toEqual([['make:Toyota', 'make:Kia'], ['body:SUV']]);
    expect(JSON.parse(params[0]!.get('numericFilters')!)).toEqual(['price>=5000', 'price<=30000']);
    // The make list, and the model picker, leave out the make (and model) refinements; body and price their own.
    expect(params.slice(1).map((p) => JSON.parse(p.get('facets')!))).toEqual([['make', 'make_model'], ['body'], ['price']]);
    expect(params[1]!.get('facetFilters')).toBe(JSON.stringify([['body:SUV']]));
    expect(params[1]!.get('hitsPerPage')).toBe('0');
    expect(buildRequests({ ...state, sortBy: 'Car_production_latest' }, options, NOW)[0]!.indexName).toBe('Car_production_latest');
    // A ticked model: the make list and the picker leave it out (the other makes stay listed).
    const model = buildRequests({ ...EMPTY_STATE, refinementList: { model: ['HiLux'] }, range: {} }, options, NOW).slice(1);
    expect(model.map((r) => [JSON.parse(new URLSearchParams(r.params).get('facets')!), new URLSearchParams(r.params).get('facetFilters')])).toEqual([[['make', 'model', 'make_model'], null]]);
  });

  it("asks the replica the dealer's YAML names for each sort order (search.sort_replicas)", () => {
    const named: HostedOptions = {
      ...options,
      config: { ...options.config, index: 'bmg_cars' },
      sortOptions: [
        { key: 'latest', label: 'Latest', value: 'bmg_cars_newest' },
        { key: 'relevance', label: 'Most relevant', value: 'bmg_cars' },
        { key: 'price_asc', label: 'Price: lowest', value: 'bmg_cars_cheapest' },
      ],
    };
    const ask = (sortBy: string) => buildRequests({ ...state, sortBy }, named, NOW);
    expect(ask('bmg_cars_cheapest').map((r) => r.indexName)).toEqual(['bmg_cars_cheapest', 'bmg_cars_cheapest', 'bmg_cars_cheapest', 'bmg_cars_cheapest']);
    // price_asc known by its replica's name, whatever it is called.
    expect(new URLSearchParams(ask('bmg_cars_cheapest')[0]!.params).get('filters')).toMatch(/ AND price > 0$/);
    expect(ask('bmg_cars')[0]!.indexName).toBe('bmg_cars');
    // The URL leaves the default out: the dealer's first order, not the bare index.
    expect(ask('')[0]!.indexName).toBe('bmg_cars_newest');
    // A name the dealer does not offer (an old link) is not sent to the service.
    expect(ask('Car_production_price_asc')[0]!.indexName).toBe('bmg_cars_newest');
  });

  it('merges the disjunctive facets into one response and maps hits to card fields', async () => {
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const n = JSON.parse(String(init.body)).requests.length;
      const results = Array.from({ length: n }, (_, i) => ({
        hits: i === 0 ? [{ objectID: '9', slug: 'kia-9', make: 'Kia', model: 'Rio', year: 2020, price: 19990, status: 'in_stock', car_type: 'used', primary_image_url: '/a.jpg', location: { name: 'Newstead', phone: '07 3000 0000' } }] : [],
        nbHits: 1,
        nbPages: 1,
        page: 0,
        hitsPerPage: 21,
        facets: i === 0 ? { make: { Kia: 1 }, body: { SUV: 1 } } : i === 1 ? { make: { Kia: 1, Toyota: 4, Mazda: 2 }, make_model: { 'Kia|Rio': 1, 'Toyota|HiLux': 4 } } : { body: { SUV: 1, Ute: 3 } },
        facets_stats: i === 3 ? { price: { min: 990, max: 90000 } } : { price: { min: 19990, max: 19990 } },
        processingTimeMS: 1,
      }));
      return new Response(JSON.stringify({ results }), { status: 200 });
    });
    const client = cached(createHostedClient({ ...options, fetch: fetchMock as unknown as typeof fetch, now: () => NOW }));
    const r = await client.search(state);
    expect(fetchMock.mock.calls[0]![0]).toBe('https://abc-dsn.algolia.net/1/indexes/*/queries');
    const headers = fetchMock.mock.calls[0]![1].headers as Record<string, string>;
    expect(headers['X-Algolia-API-Key']).toBe('search-only');
    expect(r.facets.make).toEqual({ Kia: 1, Toyota: 4, Mazda: 2 });
    expect(r.facets.make_model).toEqual({ 'Kia|Rio': 1, 'Toyota|HiLux': 4 });
    // Pages from the count and the offset (the service gives none with offset/length).
    expect([r.page, r.nbPages, r.hitsPerPage]).toEqual([1, 1, 21]);
    expect(r.facets.body).toEqual({ SUV: 1, Ute: 3 });
    expect(r.facets_stats.price).toEqual({ min: 990, max: 90000 });
    expect(r.hits[0]).toMatchObject({ objectID: '9', slug: 'kia-9', price_text: '$19,990', image: '/a.jpg', location_name: 'Newstead' });
    // The same state again comes from the cache.
    await client.search({ ...state, refinementList: { body: ['SUV'], make: ['Kia', 'Toyota'] } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('reports a failing service as an error (the page keeps the previous results)', async () => {
    const client = createHostedClient({ ...options, fetch: (async () => new Response('no', { status: 503 })) as unknown as typeof fetch });
    await expect(client.search(EMPTY_STATE)).rejects.toThrow(/503/);
  });
});
