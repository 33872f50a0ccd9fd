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

  it("judges the new-arrival tags at the instant the stock was judged, not at the render's clock", () => {
    const created = (baseIndex.numbers as Record<string, number[]>).created_at![0]!;
    const slug = (baseIndex.strings as Record<string, string[]>).slug![0]!;
    // A fresh index object per build, as a new build reads.
    const tagAt = (builtAt: number) => {
      const judgedAt = { ...site, built_at: builtAt };
      const index = structuredClone(baseIndex);
      const hit = [1, 2, 3].flatMap((page) => staticSearch(judgedAt, index, page).initial.hits).find((h) => h.slug === slug);
      expect(hit, slug).toBeDefined();
      return hit!.tag_banner;
    };
    expect(tagAt(created + 86_400)).toBe(site.search.hit_rules.new_arrival_text);
    expect(tagAt(created + 30 * 86_400)).toBe('');
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
