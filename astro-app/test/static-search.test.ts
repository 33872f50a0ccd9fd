// A built search page's props (lib/search/static-page.ts) are what it
// shows, so its cache key follows its content: one car's new price
// re-renders the search pages that list that car, not every one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { propsKey } from '@app/lib/build-data';
import { facetEntries } from '@app/lib/search/facet-lists';
import { makeLinksOf, staticSearch } from '@app/lib/search/static-page';
import type { LandingPage, SearchIndex, SiteData } from '@app/types/site';

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

  const landing = (path: string): LandingPage => {
    const l = site.search.landing_pages.find((p) => p.path === path);
    expect(l, `the fixture's landing page ${path}`).toBeDefined();
    return l!;
  };
  /** The fixture index with car `i`'s make changed to `make` (one sold and one arrived, as far as the make counts go). */
  function remade(i: number, make: string): SearchIndex {
    const index = structuredClone(baseIndex);
    const col = (index.text as Record<string, { values: string[]; codes: number[] }>).make!;
    col.codes[i] = col.values.indexOf(make);
    expect(col.codes[i]).toBeGreaterThanOrEqual(0);
    return index;
  }

  it("lists a landing page's other makes without counts, in the order their counts give; its own counts stay", () => {
    const ford = landing('ford');
    const page = staticSearch(site, baseIndex, 1, ford).initial;
    const full = staticSearch(site, baseIndex, 1).initial;
    expect(page.facets['make']).toEqual({ Ford: full.facets['make']!['Ford'] });
    // The order the whole stock's counts give (by popularity), every make listed.
    expect(page.uncounted?.['make']).toEqual(facetEntries('make', full.facets['make'], []).map((e) => e.value));
    expect(page.uncounted?.['make']).toContain('Toyota');
    // Facets the page does not refine count its own results (the Ford models), not the stock's.
    expect(page.uncounted?.['model']).toBeUndefined();
    expect(Object.values(page.facets['car_type']!).reduce((a, b) => a + b, 0)).toBe(page.nbHits);
    // The entries the island renders from it: Ford with its count, the rest with none.
    const entries = facetEntries('make', page.facets['make'], ['Ford'], page.uncounted?.['make']);
    expect(entries.find((e) => e.value === 'Ford')).toEqual({ value: 'Ford', count: page.nbHits, refined: true });
    expect(entries.filter((e) => e.value !== 'Ford').every((e) => e.count === null && !e.refined)).toBe(true);
    // The model picker's counts: Ford's only (the picker lists a make's models when opened).
    expect(Object.keys(page.facets['make_model'] ?? {}).every((k) => k.startsWith('Ford|'))).toBe(true);
    expect(Object.keys(full.facets['make_model'] ?? {}).some((k) => k.startsWith('Toyota|'))).toBe(true);
    // A page that refines nothing keeps every count.
    expect(full.uncounted).toBeUndefined();
  });

  it("keeps a make's landing page unchanged when other makes' counts move, and changes the pages that show them", () => {
    const makes = (baseIndex.text as Record<string, { values: string[]; codes: number[] }>).make!;
    const toyota = makes.codes.indexOf(makes.values.indexOf('Toyota'));
    const moved = remade(toyota, 'Mazda');
    const key = (index: SearchIndex, path?: string) => propsKey({ search: staticSearch(site, index, 1, path ? landing(path) : undefined) });
    expect(key(moved, 'ford')).toBe(key(baseIndex, 'ford'));
    expect(key(moved, 'toyota')).not.toBe(key(baseIndex, 'toyota'));
    expect(key(moved, 'mazda')).not.toBe(key(baseIndex, 'mazda'));
    expect(key(moved)).not.toBe(key(baseIndex));
  });

  it('links every make landing page for a shopper without JavaScript, by name', () => {
    const links = staticSearch(site, baseIndex, 1).makeLinks;
    expect(links.map((l) => l.make)).toEqual(['Ford', 'Hyundai', 'Kia', 'Mazda', 'MG', 'Toyota']);
    expect(links.find((l) => l.make === 'Ford')?.path).toBe('ford');
    // Not a model's page, nor a condition's.
    expect(makeLinksOf([landing('ford/ranger'), landing('used-cars'), landing('ford')]).map((l) => l.path)).toEqual(['ford']);
  });
});
