import { describe, expect, it } from 'vitest';
import { pageCount, pageItems, pageLinks, searchPageHref } from '../src/lib/pagination';

describe('pagination', () => {
  it('counts pages, at least one', () => {
    expect(pageCount(0, 12)).toBe(1);
    expect(pageCount(12, 12)).toBe(1);
    expect(pageCount(13, 12)).toBe(2);
    expect(() => pageCount(10, 0)).toThrow(/page size/);
  });

  it('puts page 1 at /search/ and the rest under /search/page/n/', () => {
    expect(searchPageHref(1)).toBe('/search/');
    expect(searchPageHref(3)).toBe('/search/page/3/');
  });

  it('slices a page', () => {
    const items = Array.from({ length: 26 }, (_, i) => i);
    expect(pageItems(items, 1, 12)).toHaveLength(12);
    expect(pageItems(items, 3, 12)).toEqual([24, 25]);
  });

  it('shows first, last and neighbours with gaps', () => {
    const render = (current: number, count: number) =>
      pageLinks(current, count)
        .map((l) => (l.kind === 'gap' ? '…' : l.current ? `[${l.n}]` : String(l.n)))
        .join(' ');
    expect(render(1, 1)).toBe('[1]');
    expect(render(2, 9)).toBe('1 [2] 3 … 9');
    expect(render(5, 9)).toBe('1 … 4 [5] 6 … 9');
    expect(render(9, 9)).toBe('1 … 8 [9]');
  });
});
