// A built search page's props (lib/search/static-page.ts) are what it
// shows, so its cache key follows its content: one car's new price
// re-renders the search pages that list that car, not every one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { propsKey } from '@app/lib/build-data';
import { staticSearch } from '@app/lib/search/static-page';
import type { SearchIndex, SiteData } from '@app/types/site';

const data = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/site/src/data/${name}`, import.meta.url), 'utf8'));
const site = data('site.json') as SiteData;
const baseIndex = data('search-index.json') as SearchIndex;

/** The fixture index with car `i`'s price changed (a new object, as a new build reads). */
function repriced(i: number, price: number): SearchIndex {
  const index = structuredClone(baseIndex);
  (index.numbers as Record<string, number[]>).price![i] = price;
  return index;
}

const pageKeys = (index: SearchIndex) => [1, 2, 3].map((page) => propsKey({ search: staticSearch(site, index, page) }));

describe('staticSearch', () => {
  it('gives the same props for the same data, with no build-time timing in them', () => {
    const a = staticSearch(site, baseIndex, 2);
    const b = staticSearch(site, structuredClone(baseIndex), 2);
    expect(a.initial.processingTimeMS).toBe(0);
    expect(b).toEqual(a);
    expect(a.state.page).toBe(2);
    expect(a.initial.hits.length).toBeGreaterThan(0);
  });

  it('changes the key of the page that lists a repriced car, and of no other', () => {
    const before = pageKeys(baseIndex);
    // Which page lists which car: find a car listed on page 2 only.
    const page2 = staticSearch(site, baseIndex, 2).initial.hits.map((h) => h.slug);
    const prices = (baseIndex.numbers as Record<string, number[]>).price!;
    const cars = data('cars.json') as { slug: string }[];
    // A small change that moves no price bucket and neither end of the range.
    const i = cars.findIndex((c, k) => page2.includes(c.slug) && prices[k]! % 10000 > 1000 && prices[k]! % 10000 < 9000 && prices[k]! > 20000 && prices[k]! < 50000);
    expect(i, 'a car on page 2 with a mid-range price').toBeGreaterThanOrEqual(0);
    const after = pageKeys(repriced(i, prices[i]! - 500));
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[2]).toBe(before[2]);
  });
});
