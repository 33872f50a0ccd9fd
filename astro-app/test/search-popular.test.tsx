// @vitest-environment jsdom
/**
 * Popular searches: what may be reported (the same normaliser
 * and personal-data rules as the edge, through the shared cases), when a
 * search is reported (submitted at once, paused on after a while, each
 * once, nothing personal), which popular queries are offered (only those
 * that find cars here), and the "Popular searches" group of the keyword
 * combobox: on focus of the empty box, among the suggestions when they fit,
 * chosen with the keyboard; never asked for before the box is used.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { engineFor } from '../src/lib/search/client';
import { createReporter, judge, looksPersonal, PAUSE_MS, popularSuggestions } from '../src/lib/search/popular';
import { planner } from '../src/lib/search/query-plan';
import { popularFor, type Suggestion } from '../src/lib/search/suggest';
import { words } from '../src/lib/search/text';
import { EMPTY_STATE, type SearchClient, type SearchState } from '../src/lib/search/types';
import type { SearchIndex, SiteData } from '../src/types/site';
import cases from '../src/lib/search/vocabulary/query-cases.json';

const data = `${__dirname}/fixtures/site/src/data/`;
const site = JSON.parse(fs.readFileSync(`${data}site.json`, 'utf8')) as SiteData;
const index = JSON.parse(fs.readFileSync(`${data}search-index.json`, 'utf8')) as SearchIndex;
const engine = engineFor(index, site.search, 2_000_000_000, true);
const kw = planner(engine.decoded, site.search.synonyms);
const searchFor = async (query: string) => engine.search({ ...EMPTY_STATE, query }, kw);

const calls: SearchState[] = [];
vi.mock('../src/lib/search/client', async (original) => {
  const real = await original<typeof import('../src/lib/search/client')>();
  return {
    ...real,
    createClient: async (): Promise<SearchClient> => ({
      async search(s) {
        calls.push(s);
        return engine.search(s, s.query ? kw : undefined);
      },
    }),
  };
});
const { default: SearchApp } = await import('../src/islands/search/SearchApp');
const { KeywordBox } = await import('../src/islands/search/KeywordBox');
const { landing_pages: _l, ...search } = site.search;

/** A fetch stand-in answering the popular list and recording every call. */
function edge(queries: unknown = ['hilux', 'corolla', 'zzzqqq', 'toyota xyzzy', 'me@example.com']) {
  const got: Array<{ url: string; method: string; body: unknown }> = [];
  const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    // The site's own static list of search pages, asked for at the box's first focus: not the edge.
    if (String(url) === '/search-pages.json') return new Response('[]', { headers: { 'content-type': 'application/json' } });
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    got.push({ url: String(url), method: init?.method ?? 'GET', body });
    const answer = String(url).includes('/api/search/popular') ? { queries, days: 30 } : { recorded: true };
    return new Response(JSON.stringify(answer), { status: String(url).includes('popular') ? 200 : 202, headers: { 'content-type': 'application/json' } });
  });
  return { got, fetchImpl: fetchImpl as unknown as typeof fetch };
}

beforeEach(() => {
  calls.length = 0;
  localStorage.clear();
  history.replaceState(null, '', '/search/');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('what may be reported', () => {
  it('agrees with the edge on every shared case (normalised words, or why not)', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    for (const c of cases as Array<{ raw: string; query?: string; dropped?: string }>) {
      expect(judge(c.raw), c.raw).toEqual(c.query !== undefined ? { query: c.query } : { dropped: c.dropped });
      // The same words the keyword search itself reads (text.ts).
      if (c.query !== undefined) expect(words(c.raw).join(' ')).toBe(c.query);
    }
  });

  it('tells personal data from car searches with numbers in them', () => {
    for (const raw of ['a@b.co', '0412 345 678', '(02) 9876-5432', '+61412345678', '1234567', 'rego abc12345']) expect(looksPersonal(raw), raw).toBe(true);
    for (const raw of ['2019 hilux', '2015-2020', 'under 40000 km', '20000 to 30000', 'cx5', 'lc300', 'bt-50 xtr']) expect(looksPersonal(raw), raw).toBe(false);
  });
});

describe('reporting', () => {
  it('a submitted search is sent at once with its count; a paused one only after the pause; each query once', async () => {
    vi.useFakeTimers();
    const { got, fetchImpl } = edge();
    const r = createReporter({ apiBase: 'https://api.example', fetchImpl });
    r.searched('Toyota  HiLux', 3, true);
    expect(got).toEqual([{ url: 'https://api.example/api/search/queries', method: 'POST', body: { query: 'toyota hilux', hits: 3 } }]);
    // Typing on: "hil" is superseded by "hilux" before the pause is over.
    r.searched('hil', 5, false);
    vi.advanceTimersByTime(PAUSE_MS - 1);
    r.searched('corolla', 3, false);
    vi.advanceTimersByTime(PAUSE_MS - 1);
    expect(got).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(got.at(-1)!.body).toEqual({ query: 'corolla', hits: 3 });
    // The same words again (another page, another spelling) are not counted twice.
    r.searched('COROLLA', 3, true);
    r.searched('toyota hilux', 3, true);
    expect(got).toHaveLength(2);
    // Personal data never leaves the device, submitted or not.
    r.searched('jane@example.com', 0, true);
    r.searched('0412 345 678', 0, false);
    vi.advanceTimersByTime(PAUSE_MS * 2);
    expect(got).toHaveLength(2);
    // A pending report is dropped by cancel (the island going away).
    r.searched('mazda', 4, false);
    r.cancel();
    vi.advanceTimersByTime(PAUSE_MS * 2);
    expect(got).toHaveLength(2);
  });
});

describe('the popular list', () => {
  it('keeps only queries that find cars here, with every word understood, counted on this stock', async () => {
    const { got, fetchImpl } = edge();
    const out = await popularSuggestions('', searchFor, fetchImpl);
    expect(got[0]).toMatchObject({ url: '/api/search/popular?limit=8', method: 'GET' });
    const hilux = (await searchFor('hilux')).nbHits;
    expect(hilux).toBeGreaterThan(0);
    expect(out).toEqual([
      { query: 'hilux', count: hilux, kind: 'popular' },
      { query: 'corolla', count: (await searchFor('corolla')).nbHits, kind: 'popular' },
    ]);
  });

  it('is empty when the edge fails or answers nonsense', async () => {
    const down = vi.fn(async () => new Response('oops', { status: 500 })) as unknown as typeof fetch;
    expect(await popularSuggestions('', searchFor, down)).toEqual([]);
    expect(await popularSuggestions('', searchFor, edge({ not: 'a list' }).fetchImpl)).toEqual([]);
    expect(await popularSuggestions('', searchFor, edge([42, null, 'hilux']).fetchImpl)).toHaveLength(1);
  });

  it('offers all of them in an empty box, and those that fit what is typed otherwise', () => {
    const popular: Suggestion[] = ['hilux', 'corolla hybrid', 'ranger xlt'].map((query) => ({ query, count: 2, kind: 'popular' }));
    expect(popularFor('', popular).map((p) => p.query)).toEqual(['hilux', 'corolla hybrid', 'ranger xlt']);
    expect(popularFor('cor hy', popular).map((p) => p.query)).toEqual(['corolla hybrid']);
    expect(popularFor('Hilux', popular)).toEqual([]);
    expect(popularFor('', popular, 2)).toHaveLength(2);
  });
});

const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const props = (over: Partial<typeof search> = {}) => ({
  config: {
    search: { ...search, ...over },
    cards: { buttons: site.cards.buttons, checkout: false, checkoutDeposit: 0, checkoutPath: 'checkout', checkoutHoldHours: 48, usedGuarantee: site.cards.used_car_guarantee },
    features: { favourites: false, compare: false, watchlist: false },
    logos: [],
    apiBase: '',
  },
  initialState: EMPTY_STATE,
  initial: engine.search(EMPTY_STATE),
  tilesOpen: [] as string[],
  title: '',
});

describe('the "Popular searches" group in the keyword combobox', () => {
  it('is asked for only when the box gets focus, shows in the empty box, and is chosen with the keyboard (searched and reported)', async () => {
    const { got, fetchImpl } = edge();
    vi.stubGlobal('fetch', fetchImpl);
    render(<SearchApp {...props()} />);
    await settle();
    expect(got).toEqual([]);
    const input = screen.getByRole('combobox', { name: 'Keyword' });
    await act(async () => {
      input.focus();
      fireEvent.focus(input);
    });
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
    expect(got.filter((g) => g.url.includes('/api/search/popular'))).toHaveLength(1);
    const list = screen.getByRole('listbox', { name: 'Suggestions' });
    const group = within(list).getByRole('group', { name: 'Popular searches' });
    const options = within(group).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([`hilux (${(await searchFor('hilux')).nbHits} cars)`, `corolla (${(await searchFor('corolla')).nbHits} cars)`]);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(calls.at(-1)?.query).toBe('corolla'));
    expect((input as HTMLInputElement).value).toBe('corolla');
    // Submitted: reported at once, with the cars it found.
    const corolla = (await searchFor('corolla')).nbHits;
    await waitFor(() => expect(got.filter((g) => g.method === 'POST')).toEqual([{ url: '/api/search/queries', method: 'POST', body: { query: 'corolla', hits: corolla } }]));
    // Focus again: the list is not asked for twice.
    fireEvent.blur(input);
    fireEvent.focus(input);
    await settle();
    expect(got.filter((g) => g.url.includes('/api/search/popular'))).toHaveLength(1);
  });

  it('among the typed suggestions, popular searches that fit come last in the same arrow order', () => {
    const words: Suggestion[] = [{ query: 'Toyota', count: 9, kind: 'make' }];
    const popular: Suggestion[] = [{ query: 'toyota hilux sr5', count: 2, kind: 'popular' }];
    const onSubmit = vi.fn();
    render(<KeywordBox value="toy" placeholder="" suggestions={words} popular={popular} onType={() => {}} onSubmit={onSubmit} />);
    const input = screen.getByRole('combobox');
    fireEvent.change(input, { target: { value: 'toy' } });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    const last = screen.getByRole('option', { name: /toyota hilux sr5/ });
    expect(input.getAttribute('aria-activedescendant')).toBe(last.id);
    expect(last.closest('[role="group"]')?.getAttribute('aria-label')).toBe('Popular searches');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSubmit).toHaveBeenCalledWith('toyota hilux sr5');
  });

  it('an empty box without popular searches opens nothing', () => {
    render(<KeywordBox value="" placeholder="" suggestions={[]} onType={() => {}} onSubmit={() => {}} />);
    const input = screen.getByRole('combobox');
    fireEvent.focus(input);
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('group')).toBeNull();
  });

  it('a hosted search service gets no popular searches and reports nothing', async () => {
    const { got, fetchImpl } = edge();
    vi.stubGlobal('fetch', fetchImpl);
    render(<SearchApp {...props({ hosted: { endpoint: 'http://127.0.0.1:9/search', app_id: 'x', api_key: 'y', index: 'cars' } as never })} />);
    await settle();
    const input = screen.getByRole('combobox', { name: 'Keyword' });
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'hilux' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    await settle();
    expect(calls.at(-1)?.query).toBe('hilux');
    expect(got.filter((g) => g.url.includes('/api/search/'))).toEqual([]);
  });
});
