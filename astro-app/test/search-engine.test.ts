/**
 * The embedded engine against the fixture site's index (written by the Rust
 * generator, see generator/tests/integration/build.rs), with plain filtering of the
 * fixture cars.json as the oracle.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyBaseFilters, createEngine, decodeIndex } from '../src/lib/search/engine';
import { planner } from '../src/lib/search/query-plan';
import { EMPTY_STATE, type SearchState } from '../src/lib/search/types';
import type { Car, SearchIndex, SiteData, SortOption } from '../src/types/site';

const data = new URL('./fixtures/site/src/data/', import.meta.url);
const index = JSON.parse(fs.readFileSync(new URL('search-index.json', data), 'utf8')) as SearchIndex;
const cars = JSON.parse(fs.readFileSync(new URL('cars.json', data), 'utf8')) as Car[];
const sortOptions = (JSON.parse(fs.readFileSync(new URL('site.json', data), 'utf8')) as SiteData).search.sort_options;
const decoded = decodeIndex(index);
const engine = createEngine(decoded, { hitsPerPage: 5, priceAscExcludesZero: true, sortOptions, strict: true });
/** "Most relevant" without a keyword: custom_rank descending, then the index (feed) order. */
const relevance = [...cars].sort((a, b) => (b.custom_rank ?? 0) - (a.custom_rank ?? 0));
const state = (s: Partial<SearchState>): SearchState => ({ ...EMPTY_STATE, refinementList: {}, range: {}, ...s });

function countBy(list: Car[], key: (c: Car) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of list) {
    const k = key(c);
    if (k) out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

describe('search engine', () => {
  it('counts the same facets and ranges as the generator over the whole index', () => {
    const r = engine.search(state({}));
    // Every facet attribute the generator counts, each with counts (not vacuous
    // on an empty fixture index); the engine adds the price bands it derives.
    expect(Object.keys(r.facets).sort()).toEqual([...Object.keys(index.facets), 'price_range', 'weekly_price_range'].sort());
    expect(Object.values(index.facets).every((counts) => Object.keys(counts ?? {}).length > 0)).toBe(true);
    for (const [attr, counts] of Object.entries(index.facets)) expect(r.facets[attr], attr).toEqual(counts);
    expect(r.facets_stats).toEqual(index.facets_stats);
    expect(r.nbHits).toBe(cars.length);
  });

  it('answers in the hosted service shape with 0-based pages', () => {
    const r = engine.search(state({ page: 2 }));
    expect(Object.keys(r).sort()).toEqual(
      ['facets', 'facets_stats', 'hits', 'hitsPerPage', 'nbHits', 'nbPages', 'page', 'processingTimeMS'].sort(),
    );
    expect(r.page).toBe(1);
    expect(r.hitsPerPage).toBe(5);
    expect(r.nbPages).toBe(Math.ceil(cars.length / 5));
    expect(r.hits.map((h) => h.slug)).toEqual(relevance.slice(5, 10).map((c) => c.slug));
  });

  it('keeps counts of the other values of a refined facet (disjunctive) and narrows the other facets', () => {
    const toyota = cars.filter((c) => c.make === 'Toyota');
    const r = engine.search(state({ refinementList: { make: ['Toyota'] } }));
    expect(r.nbHits).toBe(toyota.length);
    expect(r.facets.make).toEqual(countBy(cars, (c) => c.make));
    expect(r.facets.model).toEqual(countBy(toyota, (c) => c.model));
    expect(r.facets.car_type).toEqual(countBy(toyota, (c) => c.car_type));
  });

  it('ORs values within a facet and ANDs across facets', () => {
    const want = cars.filter((c) => ['Toyota', 'Mazda'].includes(c.make) && c.car_type === 'used');
    const r = engine.search(state({ refinementList: { make: ['Toyota', 'Mazda'], car_type: ['used'] } }));
    expect(r.nbHits).toBe(want.length);
    // The make facet counts used cars of every make; car_type counts Toyota and Mazda of every type.
    expect(r.facets.make).toEqual(countBy(cars.filter((c) => c.car_type === 'used'), (c) => c.make));
    expect(r.facets.car_type).toEqual(countBy(cars.filter((c) => ['Toyota', 'Mazda'].includes(c.make)), (c) => c.car_type));
  });

  it('filters ranges inclusively and computes the range stats without the range itself', () => {
    const want = cars.filter((c) => Math.round(c.price) >= 20000 && Math.round(c.price) <= 40000);
    const r = engine.search(state({ range: { price: { min: 20000, max: 40000 } } }));
    expect(r.nbHits).toBe(want.length);
    expect(r.facets_stats.price).toEqual(index.facets_stats.price);
    const km = want.map((c) => c.km);
    expect(r.facets_stats.km).toEqual({ min: Math.min(...km), max: Math.max(...km) });
  });

  it('sorts by price, km and listing date; relevance is custom_rank, then the index order', () => {
    const all = { hitsPerPage: 100, priceAscExcludesZero: false, sortOptions };
    const e = createEngine(decoded, all);
    const prices = e.search(state({ sortBy: 'Car_production_price_desc' })).hits.map((h) => h.price);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const km = e.search(state({ sortBy: 'Car_production_km_asc' })).hits.map((h) => h.km);
    expect(km).toEqual([...km].sort((a, b) => a - b));
    const latest = e.search(state({ sortBy: 'Car_production_latest' })).hits.map((h) => h.slug);
    const byDate = [...cars].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || cars.indexOf(a) - cars.indexOf(b));
    expect(latest).toEqual(byDate.map((c) => c.slug));
    expect(cars.some((c) => (c.custom_rank ?? 0) > 0)).toBe(true);
    expect(e.search(state({})).hits.map((h) => h.slug)).toEqual(relevance.map((c) => c.slug));
    expect(e.search(state({})).hits[0]!.slug).not.toBe(cars[0]!.slug);
  });

  it("knows a sort by the dealer's index names, not by their spelling; the default is the dealer's first option", () => {
    const named: SortOption[] = [
      { key: 'price_desc', label: 'Price: highest', value: 'bmg_dearest' },
      { key: 'price_asc', label: 'Price: lowest', value: 'bmg_cheapest' },
      { key: 'relevance', label: 'Most relevant', value: 'bmg' },
    ];
    const e = createEngine(decoded, { hitsPerPage: 100, priceAscExcludesZero: true, sortOptions: named });
    const prices = (sortBy: string) => e.search(state({ sortBy })).hits.map((h) => h.price);
    const desc = [...prices('bmg_dearest')];
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect(desc).not.toEqual(prices('bmg'));
    // No sortBy, or one the dealer does not offer (a stale link): the first option.
    expect(prices('')).toEqual(desc);
    expect(prices('Car_production_price_asc')).toEqual(desc);
    // price_asc by its own name leaves out price 0 (price_asc_excludes_zero).
    const asc = prices('bmg_cheapest');
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(asc.length).toBe(cars.filter((c) => Math.round(c.price) > 0).length);
  });

  it('leaves out price 0 when sorting price ascending, where the dealer says so', () => {
    const priced = cars.filter((c) => Math.round(c.price) > 0).length;
    expect(priced).toBeLessThan(cars.length);
    expect(engine.search(state({ sortBy: 'Car_production_price_asc' })).nbHits).toBe(priced);
    const keepZero = createEngine(decoded, { hitsPerPage: 5, priceAscExcludesZero: false, sortOptions });
    expect(keepZero.search(state({ sortBy: 'Car_production_price_asc' })).nbHits).toBe(cars.length);
  });

  it('matches keywords by word or word prefix, in any case, with the keyword planner (the keyword rules: search-keyword.test.ts)', () => {
    const kw = planner(decoded);
    const r = engine.search(state({ query: 'toyota hil' }), kw);
    expect(r.nbHits).toBe(cars.filter((c) => c.make === 'Toyota' && c.model.startsWith('HiLux')).length);
    expect(r.nbHits).toBeGreaterThan(0);
    expect(engine.search(state({ query: 'zzzz' }), kw).nbHits).toBe(0);
    const hybrids = cars.filter((c) => c.fuel === 'Hybrid').length;
    expect(engine.search(state({ query: 'HYBRID' }), kw).nbHits).toBe(hybrids);
    // Without the planner (not loaded yet) a strict engine says so rather than ignore the keyword.
    expect(() => engine.search(state({ query: 'toyota' }))).toThrow(/keyword planner/);
  });

  it('refuses (strict) or warns about and leaves out a refinement on an attribute the index lacks', () => {
    expect(() => engine.search(state({ refinementList: { colour_name: ['Red'] } }))).toThrow(/colour_name/);
    expect(() => engine.search(state({ range: { weight: { min: 1 } } }))).toThrow(/weight/);
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (m: string) => warnings.push(m);
    try {
      const lenient = createEngine(decoded, { hitsPerPage: 5, priceAscExcludesZero: false, sortOptions });
      const r = lenient.search(state({ refinementList: { colour_name: ['Red'] } }));
      lenient.search(state({ refinementList: { colour_name: ['Blue'] } }));
      expect(r.nbHits).toBe(cars.length);
      expect(warnings).toEqual(['search: no attribute "colour_name" in this index; left out']);
    } finally {
      console.warn = warn;
    }
  });

  it('supports the dealer filter link refinementList[dealership_slug][0]=…', () => {
    const slug = Object.keys(index.facets.dealership_slug ?? {})[0]!;
    expect(engine.search(state({ refinementList: { dealership_slug: [slug] } })).nbHits).toBe(cars.length);
    expect(engine.search(state({ refinementList: { dealership_slug: ['another-dealer'] } })).nbHits).toBe(0);
  });

  it('returns card fields for a hit', () => {
    const car = relevance[0]!;
    const hit = engine.search(state({})).hits[0]!;
    expect(hit).toMatchObject({
      objectID: car.id,
      slug: car.slug,
      year: car.year,
      make: car.make,
      model: car.model,
      price_text: car.price_text,
      km: car.km,
      tag_banner: car.tag_banner ?? '',
      image: car.images[0] ?? '',
      location_name: car.location.name,
      city: car.location.suburb,
    });
  });

  it('re-applies the base filters at the shopper clock (a sold window ending after the build)', () => {
    const sold = cars.filter((c) => c.status === 'sold');
    expect(sold.length).toBeGreaterThan(0);
    const rules = { include_sold_days: 3, min_photos: 0, in_stock_only: false, exclude_makes: ['Ford'], exclude_car_types: [], exclude_stock_numbers: [] };
    const later = Math.max(...sold.map((c) => c.sold_at ?? 0)) + 4 * 86_400;
    const e = createEngine(decoded, { hitsPerPage: 5, priceAscExcludesZero: false, sortOptions, keep: applyBaseFilters(decoded, rules, later) });
    const r = e.search(state({}));
    expect(r.nbHits).toBe(cars.filter((c) => c.status !== 'sold' && c.make !== 'Ford').length);
    expect(r.facets.make?.Ford).toBeUndefined();
  });

  it('refuses an index of another layout version', () => {
    expect(() => decodeIndex({ ...index, version: 99 })).toThrow(/version 99/);
  });
});
