// @vitest-environment jsdom
/**
 * The search island for keyboard and screen-reader users: focus
 * after paging and after "Clear all filters", the skip link, the count in
 * the live region, a landing page's title only while it is true, one
 * history entry per sort interaction, and one Tab stop per card toolbar, and the toggles as Tab stops.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { engineFor } from '../src/lib/search/client';
import { EMPTY_STATE, type SearchClient, type SearchState } from '../src/lib/search/types';
import type { CardButton, SearchIndex, SiteData } from '../src/types/site';

const data = `${__dirname}/fixtures/site/src/data/`;
const site = JSON.parse(fs.readFileSync(`${data}site.json`, 'utf8')) as SiteData;
const index = JSON.parse(fs.readFileSync(`${data}search-index.json`, 'utf8')) as SearchIndex;
const engine = engineFor(index, site.search, 2_000_000_000);

vi.mock('../src/lib/search/client', async (original) => {
  const real = await original<typeof import('../src/lib/search/client')>();
  return { ...real, createClient: async (): Promise<SearchClient> => ({ search: async (s) => engine.search(s) }) };
});
const { default: SearchApp } = await import('../src/islands/search/SearchApp');
const { landing_pages: _l, ...search } = site.search;
const BUTTONS: CardButton[] = ['enquire', 'test_drive', 'finance', 'view_details'];
const USED: SearchState = { ...EMPTY_STATE, refinementList: { car_type: ['used'] }, range: {} };
const props = (initialState: SearchState = EMPTY_STATE, title = '') => ({
  config: {
    search,
    cards: { buttons: BUTTONS, checkout: false, checkoutDeposit: 0, checkoutPath: 'checkout' },
    features: { favourites: true, compare: true, watchlist: false },
    logos: [],
  },
  initialState,
  initial: engine.search(initialState),
  tilesOpen: [] as string[],
  title,
  siteName: 'Fixture Motors',
});
const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const status = () => screen.getByRole('status');
const heading = () => screen.getByRole('heading', { level: 1 }).textContent;

beforeEach(() => {
  history.replaceState(null, '', '/search/');
  document.title = 'Cars for sale | Fixture Motors';
  // jsdom has no layout: scrolling is a no-op here.
  Element.prototype.scrollIntoView = () => {};
});
afterEach(cleanup);

describe('focus', () => {
  it('after changing page, focus is on the results heading, not the page link left behind', async () => {
    const total = engine.search(EMPTY_STATE).nbPages;
    expect(total).toBeGreaterThan(1);
    render(<SearchApp {...props()} />);
    await settle();
    const link = within(screen.getByRole('navigation', { name: 'Pages' })).getByRole('link', { name: /^Page\s*2$/ });
    link.focus();
    fireEvent.click(link);
    await settle();
    const results = screen.getByRole('heading', { level: 2, name: 'Results' });
    expect(document.activeElement).toBe(results);
    expect(results.tabIndex).toBe(-1);
    expect(status().textContent).toContain(`(page 2 of ${total})`);
  });

  it('"Clear all filters" puts focus on the results heading instead of dropping it to the page', async () => {
    render(<SearchApp {...props()} />);
    await settle();
    fireEvent.click(screen.getByRole('checkbox', { name: /^Used \(/ }));
    await settle();
    const clear = screen.getByRole('button', { name: 'Clear all filters' });
    clear.focus();
    fireEvent.click(clear);
    await settle();
    expect(screen.queryByRole('button', { name: 'Clear all filters' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Results' }));
  });

  it('the skip link, first in the filters, jumps to the results heading', async () => {
    render(<SearchApp {...props()} />);
    await settle();
    const filters = screen.getByRole('complementary', { name: 'Filters' });
    const skip = within(filters).getAllByRole('link')[0]!;
    expect(skip.textContent).toBe('Skip to results');
    expect(skip.getAttribute('href')).toBe('#search-results');
    fireEvent.click(skip);
    expect(document.activeElement?.id).toBe('search-results');
  });
});

describe('announcements', () => {
  it('on /search/ the new count is in the live region (not only in the h1)', async () => {
    render(<SearchApp {...props()} />);
    await settle();
    const used = engine.search(USED).nbHits;
    fireEvent.click(screen.getByRole('checkbox', { name: /^Used \(/ }));
    await settle();
    expect(heading()).toBe(`${used} ${used === 1 ? 'car' : 'cars'} for sale`);
    expect(status().textContent).toMatch(new RegExp(`^${used} cars?\\. Showing 1–`));
  });
});

describe('landing page title', () => {
  it('says "Used cars for sale" only while Used is the condition ticked; h1 and document title follow', async () => {
    render(<SearchApp {...props(USED, 'Used cars for sale')} />);
    await settle();
    expect(heading()).toBe('Used cars for sale');
    expect(document.title).toBe('Used cars for sale | Fixture Motors');
    fireEvent.click(screen.getByRole('checkbox', { name: /^Used \(/ }));
    await settle();
    const all = engine.search(EMPTY_STATE).nbHits;
    expect(heading()).toBe(`${all} cars for sale`);
    expect(document.title).toBe('Cars for sale | Fixture Motors');
    // Another condition on top of Used: not "used cars" either.
    fireEvent.click(screen.getByRole('checkbox', { name: /^Used \(/ }));
    await settle();
    expect(heading()).toBe('Used cars for sale');
    fireEvent.click(screen.getByRole('checkbox', { name: /^New \(/ }));
    await settle();
    expect(heading()).toMatch(/^\d+ cars for sale$/);
  });

  it('keeps the title when a filter on another attribute narrows the used cars', async () => {
    render(<SearchApp {...props(USED, 'Used cars for sale')} />);
    await settle();
    const make = within(screen.getByRole('group', { name: 'Make' })).getAllByRole('checkbox')[0]!;
    fireEvent.click(make);
    await settle();
    expect(heading()).toBe('Used cars for sale');
  });
});

describe('sort select', () => {
  it('arrowing through the options is one history entry; a later sort after leaving the select is another', async () => {
    render(<SearchApp {...props()} />);
    await settle();
    const sort = screen.getByLabelText('Sort by') as HTMLSelectElement;
    const before = history.length;
    sort.focus();
    for (const o of site.search.sort_options.slice(1, 4)) {
      fireEvent.change(sort, { target: { value: o.value } });
      await settle();
    }
    expect(history.length).toBe(before + 1);
    expect(location.search).toContain(`sortBy=${site.search.sort_options[3]!.value}`);
    fireEvent.blur(sort);
    fireEvent.change(sort, { target: { value: site.search.sort_options[1]!.value } });
    await settle();
    expect(history.length).toBe(before + 2);
  });
});

describe('result cards', () => {
  it("a card is its title, one toolbar of the dealer's buttons, and each toggle as a Tab stop of its own", async () => {
    render(<SearchApp {...props()} />);
    await settle();
    const card = document.querySelector('article.car-card') as HTMLElement;
    const tabbable = [...card.querySelectorAll<HTMLElement>('a[href], button')].filter((el) => el.tabIndex >= 0);
    // Favourite and Compare are found with Tab, not only with the arrow keys (issue 39 finding 9).
    expect(tabbable.map((el) => el.firstChild?.textContent)).toEqual([expect.stringMatching(/^\d{4}$/), 'Enquire', 'Favourite', 'Compare']);
    const toolbar = within(card).getByRole('toolbar');
    expect(toolbar.getAttribute('aria-label')).toMatch(/: actions$/);
    expect(toolbar.querySelector('.toggle')).toBeNull();
    const items = [...toolbar.querySelectorAll<HTMLElement>('.car-card__cta')];
    expect(items.map((el) => el.firstChild?.textContent)).toEqual(['Enquire', 'Book a Test Drive', 'Get Finance', 'View Details']);
    items[0]!.focus();
    for (let i = 1; i < items.length; i++) {
      fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
      expect(document.activeElement).toBe(items[i]);
    }
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(items[0]); // wraps
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(items.at(-1));
    // Tab comes back to the item last used.
    expect(items.filter((el) => el.tabIndex === 0)).toEqual([items.at(-1)]);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(document.activeElement).toBe(items[0]);
    // The arrow keys on a toggle move nothing (it is no toolbar item).
    const favourite = within(card).getByRole('button', { name: /^Favourite/ });
    favourite.focus();
    fireEvent.keyDown(favourite, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(favourite);
  });

  it('the server HTML keeps every action in the Tab order (nothing out of reach before the island runs)', async () => {
    const { renderToString } = await import('react-dom/server');
    const html = renderToString(<SearchApp {...props()} />);
    expect(html).not.toMatch(/car-card__cta[^>]*tabindex/i);
  });
});
