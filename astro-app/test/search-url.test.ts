/** URL state in InstantSearch's single-index format (DESIGN contract 3). */
import { describe, expect, it } from 'vitest';
import { parseSearchState, serialiseSearchState, stateKey, toggleRefinement, withFilters } from '../src/lib/search/url';
import { searchHref, stateOfAddress, type SearchBase } from '../src/lib/search/addresses';
import { EMPTY_STATE } from '../src/lib/search/types';

describe('search URL state', () => {
  it('parses the InstantSearch keys, encoded brackets included', () => {
    const s = parseSearchState(
      '?query=suv&refinementList%5Bmake%5D%5B1%5D=Kia&refinementList[make][0]=Toyota&range[price]=5000%3A30000&range[km]=:20000&page=2&sortBy=Car_production_price_asc&utm_source=x',
    );
    expect(s).toEqual({
      query: 'suv',
      refinementList: { make: ['Toyota', 'Kia'] },
      range: { price: { min: 5000, max: 30000 }, km: { min: undefined, max: 20000 } },
      page: 2,
      sortBy: 'Car_production_price_asc',
    });
  });

  it('ignores broken pages and ranges, and empty values', () => {
    const s = parseSearchState('page=-3&range[price]=abc:&refinementList[make][0]=');
    expect(s.refinementList).toEqual({});
    expect(s.page).toBe(1);
    expect(s.range).toEqual({});
  });

  it('writes the same format back and round-trips', () => {
    const s = { query: 'hi lux', refinementList: { make: ['Toyota'], body: ['SUV', 'Ute'] }, range: { price: { min: 5000 } }, page: 3, sortBy: 'Car_production_latest' };
    const text = serialiseSearchState(s);
    expect(text).toBe(
      '?query=hi%20lux&refinementList[make][0]=Toyota&refinementList[body][0]=SUV&refinementList[body][1]=Ute&range[price]=5000:&sortBy=Car_production_latest&page=3',
    );
    expect(parseSearchState(text)).toEqual({ ...s, range: { price: { min: 5000, max: undefined } } });
    expect(serialiseSearchState(EMPTY_STATE)).toBe('');
  });

  it('resets paging on any filter change', () => {
    const s = { ...EMPTY_STATE, page: 4 };
    expect(toggleRefinement(s, 'make', 'Kia').page).toBe(1);
    expect(withFilters(s, { query: 'x' }).page).toBe(1);
    expect(withFilters(s, { sortBy: 'Car_production_latest' }).page).toBe(1);
  });

  it('toggles a value on and off, dropping an empty attribute', () => {
    const on = toggleRefinement(EMPTY_STATE, 'make', 'Kia');
    expect(on.refinementList).toEqual({ make: ['Kia'] });
    expect(toggleRefinement(on, 'make', 'Kia').refinementList).toEqual({});
  });

  it('keys equal states equally whatever the order of values', () => {
    const a = { ...EMPTY_STATE, refinementList: { make: ['Kia', 'Toyota'], body: ['SUV'] } };
    const b = { ...EMPTY_STATE, refinementList: { body: ['SUV'], make: ['Toyota', 'Kia'] } };
    expect(stateKey(a)).toBe(stateKey(b));
    expect(stateKey(a)).not.toBe(stateKey({ ...a, page: 2 }));
  });
});

describe('search addresses (static pages work without JavaScript)', () => {
  const toyota: SearchBase = { path: 'toyota', refinements: { make: ['Toyota'] } };
  const all: SearchBase = { path: 'new-used-and-demo-cars', refinements: {} };
  const state = (over: Partial<typeof EMPTY_STATE>) => ({ ...EMPTY_STATE, refinementList: {}, range: {}, ...over });

  it('gives the plain search its static pages', () => {
    expect(searchHref(state({}))).toBe('/search/');
    expect(searchHref(state({ page: 3 }))).toBe('/search/page/3/');
    expect(searchHref(state({ page: 3 }), toyota)).toBe('/search/page/3/');
  });

  it("gives a landing page's own search its pages: /search/toyota/page/2/", () => {
    expect(searchHref(state({ refinementList: { make: ['Toyota'] }, page: 2 }), toyota)).toBe('/search/toyota/page/2/');
    expect(searchHref(state({ refinementList: { make: ['Toyota'] } }), toyota)).toBe('/search/toyota/');
    // A landing page of every type refines nothing, as /search/ does: it keeps its own address.
    expect(searchHref(state({ page: 2 }), all)).toBe('/search/new-used-and-demo-cars/page/2/');
  });

  it('gives any other search a query address', () => {
    expect(searchHref(state({ refinementList: { make: ['Toyota'] }, page: 2 }))).toBe('/search/?refinementList[make][0]=Toyota&page=2');
    expect(searchHref(state({ refinementList: { make: ['Toyota', 'Kia'] }, page: 2 }), toyota)).toBe(
      '/search/?refinementList[make][0]=Toyota&refinementList[make][1]=Kia&page=2',
    );
    expect(searchHref(state({ refinementList: { make: ['Toyota'] }, query: 'suv' }), toyota)).toMatch(/^\/search\/\?query=suv/);
    expect(searchHref(state({ refinementList: { make: ['Toyota'] }, sortBy: 'price_asc' }), toyota)).toMatch(/^\/search\/\?/);
    expect(searchHref(state({ refinementList: { make: ['Toyota'] }, range: { price: { min: 1000 } } }), toyota)).toMatch(/^\/search\/\?/);
  });

  it('reads back every address it gives (Back and Forward)', () => {
    const cases = [
      state({}),
      state({ page: 4 }),
      state({ refinementList: { make: ['Toyota'] } }),
      state({ refinementList: { make: ['Toyota'] }, page: 2 }),
      state({ refinementList: { make: ['Kia'] }, page: 2 }),
      state({ query: 'ute', page: 2 }),
    ];
    for (const s of cases) {
      const href = new URL(searchHref(s, toyota), 'https://x.test');
      expect(stateOfAddress(href.pathname, href.search, toyota), href.pathname + href.search).toEqual(s);
    }
  });

  it('knows only its own static pages', () => {
    expect(stateOfAddress('/search/kia/page/2/', '', toyota)).toBeNull();
    expect(stateOfAddress('/search/toyota/page/x/', '', toyota)).toBeNull();
    expect(stateOfAddress('/search/toyota/corolla/', '', toyota)).toBeNull();
    expect(stateOfAddress('/search/page/2', '')).toMatchObject({ page: 2, refinementList: {} });
  });
});
