// @vitest-environment jsdom
/**
 * Search page extras: the subscription price slider (docs/behaviour/search.md §9: '/ week'
 * labels; engine filtering and statistics over subscription_price), recent
 * searches (docs/behaviour/content.md §2.7: last 5, refinements plus path, shown as links
 * that restore the search) and the Fleet Enquiry event 19 (docs/behaviour/search.md §5).
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { engineFor } from '../src/lib/search/client';
import { HISTORY_KEY, historyLabel, stateOfPath } from '../src/lib/search/history';
import { EMPTY_STATE, type SearchClient, type SearchState } from '../src/lib/search/types';
import type { Car, SearchIndex, SiteData } from '../src/types/site';

const data = `${__dirname}/fixtures/site/src/data/`;
const site = JSON.parse(fs.readFileSync(`${data}site.json`, 'utf8')) as SiteData;
const cars = JSON.parse(fs.readFileSync(`${data}cars.json`, 'utf8')) as Car[];
const fixtureIndex = JSON.parse(fs.readFileSync(`${data}search-index.json`, 'utf8')) as SearchIndex;
// The fixture dealer offers no subscriptions (all 0); give every third car a weekly price.
const weekly = (i: number) => (i % 3 === 0 ? 100 + i * 10 : 0);
const index: SearchIndex = {
  ...fixtureIndex,
  numbers: { ...fixtureIndex.numbers, subscription_price: Array.from({ length: fixtureIndex.count }, (_, i) => weekly(i)) },
};
const engine = engineFor(index, site.search, 2_000_000_000);
const state = (s: Partial<SearchState>): SearchState => ({ ...EMPTY_STATE, refinementList: {}, range: {}, ...s });

const calls: SearchState[] = [];
vi.mock('../src/lib/search/client', async (original) => {
  const real = await original<typeof import('../src/lib/search/client')>();
  return {
    ...real,
    createClient: async (): Promise<SearchClient> => ({
      async search(s) {
        calls.push(s);
        return engine.search(s);
      },
    }),
  };
});
const { default: SearchApp } = await import('../src/islands/search/SearchApp');
const { landing_pages: _l, ...search } = site.search;
const props = (features: { analytics?: boolean; subscriptions?: boolean } = {}) => ({
  config: {
    search,
    cards: { buttons: site.cards.buttons, checkout: true, checkoutDeposit: 200, checkoutPath: 'checkout' },
    features: { favourites: true, compare: true, watchlist: false, ...features },
    apiBase: 'https://api.example.com',
    logos: [],
  },
  initialState: EMPTY_STATE,
  initial: engine.search(EMPTY_STATE),
  tilesOpen: [] as string[],
  title: '',
});

// jsdom cannot navigate; the links' own behaviour is not under test here.
const noNavigation = (e: Event) => e.preventDefault();
beforeEach(() => {
  calls.length = 0;
  localStorage.clear();
  history.replaceState(null, '', '/search/');
  document.addEventListener('click', noNavigation);
  // jsdom has no layout, hence no scrollIntoView.
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  document.removeEventListener('click', noNavigation);
  vi.unstubAllGlobals();
});

describe('subscription price range', () => {
  it('the engine filters on it and reports its statistics (the slider bounds)', () => {
    const all = engine.search(state({}));
    const prices = index.numbers.subscription_price!;
    expect(all.facets_stats.subscription_price).toEqual({ min: Math.min(...prices), max: Math.max(...prices) });
    const r = engine.search(state({ range: { subscription_price: { min: 150, max: 250 } } }));
    const expected = index.strings.id!.filter((_, i) => prices[i]! >= 150 && prices[i]! <= 250);
    expect(r.nbHits).toBe(expected.length);
    expect(r.nbHits).toBeGreaterThan(0);
    const ids = engine.search(state({ range: { subscription_price: { min: 150, max: 250 } }, page: 1 })).hits.map((h) => h.objectID);
    for (const id of ids) expect(expected).toContain(id);
    // Disjunctive: its own statistics ignore its own refinement.
    expect(r.facets_stats.subscription_price).toEqual(all.facets_stats.subscription_price);
  });

  it("shows a '/ week' slider only for dealers offering subscriptions", () => {
    render(<SearchApp {...props({ subscriptions: true })} />);
    const group = screen.getByRole('group', { name: 'Subscription price' });
    const max = Math.max(...index.numbers.subscription_price!);
    expect(within(group).getByLabelText('Maximum subscription price').getAttribute('aria-valuetext')).toBe(`$${max} / week`);
    expect(group.textContent).toContain('/ week');
    cleanup();
    render(<SearchApp {...props()} />);
    expect(screen.queryByRole('group', { name: 'Subscription price' })).toBeNull();
    expect(screen.getByRole('group', { name: 'Price' })).toBeTruthy();
  });

  it('leaves the slider out when no car has a weekly price', () => {
    const initial = engine.search(state({}));
    render(<SearchApp {...props({ subscriptions: true })} initial={{ ...initial, facets_stats: { ...initial.facets_stats, subscription_price: { min: 0, max: 0 } } }} />);
    expect(screen.queryByRole('group', { name: 'Subscription price' })).toBeNull();
  });

  it('cards lead with the weekly price text the generator wrote', () => {
    const hit = { ...engine.search(state({})).hits[0]!, price_text: '$129 / week' };
    render(<SearchApp {...props({ subscriptions: true })} initial={{ ...engine.search(state({})), hits: [hit] }} />);
    const card = document.querySelector('article.car-card')!;
    expect(card.querySelector('.price__amount')!.textContent).toBe('$129 / week');
  });
});

describe('recent searches', () => {
  it('labels a past search by its query, refinements, ranges and page', () => {
    expect(historyLabel({ refinements: {}, path: '/search/' })).toBe('All cars');
    expect(historyLabel({ refinements: {}, path: '/search/page/3/' })).toBe('page 3');
    expect(
      historyLabel({
        refinements: { make: ['Toyota'], model: ['Corolla'], car_type: ['used'] },
        path: '/search/?query=suv&refinementList[make][0]=Toyota&refinementList[model][0]=Corolla&refinementList[car_type][0]=used&range[price]=10000:30000&range[subscription_price]=:200',
      }),
    ).toBe('"suv" · Toyota · Used · Corolla · Price $10,000–$30,000 · Subscription any–$200 / week');
    expect(stateOfPath('/search/page/2/')).toMatchObject({ page: 2, refinementList: {} });
    expect(stateOfPath('/search/?refinementList[make][0]=Kia&page=2')).toMatchObject({ page: 2, refinementList: { make: ['Kia'] } });
    // A landing page's address: its refinements are the entry's.
    expect(stateOfPath('/search/toyota/page/2/', { make: ['Toyota'] })).toMatchObject({ page: 2, refinementList: { make: ['Toyota'] } });
    expect(historyLabel({ refinements: { make: ['Toyota'] }, path: '/search/toyota/page/2/' })).toBe('Toyota · page 2');
  });

  it('lists the stored searches but the one on screen, as links that restore the search', async () => {
    const kia = '/search/?refinementList[make][0]=Kia';
    const used = '/search/?refinementList[car_type][0]=used&range[km]=:50000';
    localStorage.setItem(
      HISTORY_KEY,
      JSON.stringify([
        { refinements: {}, path: '/search/' },
        { refinements: { make: ['Kia'] }, path: kia },
        { refinements: { car_type: ['used'] }, path: used },
      ]),
    );
    render(<SearchApp {...props()} />);
    await act(async () => {});
    const list = screen.getByRole('navigation', { name: 'Recent searches' });
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Kia', kia],
      ['Used · Kilometres any–50,000 km', used],
    ]);
    calls.length = 0;
    await act(async () => {
      fireEvent.click(links[1]!);
    });
    expect(calls.at(-1)).toMatchObject({ refinementList: { car_type: ['used'] }, range: { km: { max: 50000 } }, page: 1 });
    expect(location.pathname + location.search).toBe(used);
    expect(Element.prototype.scrollIntoView).toHaveBeenCalled();
    const usedCars = cars.filter((c) => c.car_type === 'used' && c.km <= 50000).length;
    expect(screen.getAllByTestId('result-count')[0]!.textContent).toBe(String(usedCars));
    // The search now on screen leaves the list; the one before it joins.
    await waitFor(() => {
      const now = within(screen.getByRole('navigation', { name: 'Recent searches' })).getAllByRole('link');
      expect(now.map((a) => a.textContent)).toEqual(['All cars', 'Kia']);
    });
  });

  it('shows no list without history', async () => {
    render(<SearchApp {...props()} />);
    await act(async () => {});
    expect(screen.queryByRole('navigation', { name: 'Recent searches' })).toBeNull();
  });
});

describe('Fleet Enquiry', () => {
  it("'Get In Touch' sends event 19 once (not also through the page's listener): the dataLayer always, the sink when the dealer has one", async () => {
    const { initEventClicks } = await import('../src/lib/event-clicks');
    for (const sink of [true, false]) {
      const fetchMock = vi.fn<typeof fetch>(async () => new Response('{"ok":true}', { status: 200 }));
      vi.stubGlobal('fetch', fetchMock);
      const w = window as { dataLayer?: { event_id: number }[] };
      delete w.dataLayer;
      document.head.innerHTML = `<meta name="dealergen:events" data-api-base="https://api.example.com" data-sink="${sink}">`;
      const stop = initEventClicks(document);
      const { unmount } = render(<SearchApp {...props({ analytics: sink })} />);
      const link = screen.getByRole('link', { name: 'Get In Touch' });
      expect(link.getAttribute('href')).toBe('/contact-us/?enquiry=fleet');
      // Its own handler records it (lib/record-then-follow.ts, which holds a plain click): not the page's listener too.
      expect(link.getAttribute('data-event')).toBeNull();
      // jsdom cannot navigate: the click is taken first, so it is recorded without holding (record-then-follow.test.ts holds one).
      link.addEventListener('click', (e) => e.preventDefault());
      fireEvent.click(link);
      await waitFor(() => expect(w.dataLayer?.map((e) => e.event_id)).toEqual([19]));
      if (sink) {
        await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
        const [url, init] = fetchMock.mock.calls[0]!;
        expect(url).toBe('https://api.example.com/api/events');
        expect(JSON.parse(String(init?.body))).toMatchObject({ event_id: 19 });
        expect(init?.keepalive).toBe(true);
      } else {
        expect(fetchMock).not.toHaveBeenCalled();
      }
      stop();
      unmount();
      delete w.dataLayer;
      document.head.innerHTML = '';
    }
  });
});

