// @vitest-environment jsdom
/**
 * The search island's keyword understanding: suggestions as an
 * ARIA combobox chosen with the keyboard, typed limits turned into chips
 * that can be removed, notes about unmatched and left-out words with a
 * "did you mean", the folded facets of the spec that show only when the
 * stock carries them, the dealer's model picker switch, and the compare
 * list's limit and bar.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { engineFor } from '../src/lib/search/client';
import { planner } from '../src/lib/search/query-plan';
import { COMPARE_KEY, COMPARE_LIMIT, FAVOURITES_KEY } from '../src/lib/search/saved';
import { EMPTY_STATE, type SearchClient, type SearchState } from '../src/lib/search/types';
import type { SearchIndex, SiteData } from '../src/types/site';

const data = `${__dirname}/fixtures/site/src/data/`;
const site = JSON.parse(fs.readFileSync(`${data}site.json`, 'utf8')) as SiteData;
const index = JSON.parse(fs.readFileSync(`${data}search-index.json`, 'utf8')) as SearchIndex;
const engine = engineFor(index, site.search, 2_000_000_000, true);
const kw = planner(engine.decoded, site.search.synonyms);

const calls: SearchState[] = [];
let prepared = 0;
vi.mock('../src/lib/search/client', async (original) => {
  const real = await original<typeof import('../src/lib/search/client')>();
  return {
    ...real,
    createClient: async (): Promise<SearchClient> => ({
      async search(s) {
        calls.push(s);
        return engine.search(s, s.query ? kw : undefined);
      },
      prepareKeyword() {
        prepared++;
      },
    }),
  };
});
const { default: SearchApp } = await import('../src/islands/search/SearchApp');
const { KeywordBox } = await import('../src/islands/search/KeywordBox');
const { landing_pages: _l, ...search } = site.search;
const props = (over: { search?: Partial<typeof search>; features?: Partial<{ favourites: boolean; compare: boolean }> } = {}) => ({
  config: {
    search: { ...search, ...over.search },
    cards: { buttons: site.cards.buttons, checkout: true, checkoutDeposit: 200, checkoutPath: 'checkout', checkoutHoldHours: 48, usedGuarantee: site.cards.used_car_guarantee },
    features: { favourites: true, compare: true, watchlist: false, ...over.features },
    logos: [],
  },
  initialState: EMPTY_STATE,
  initial: engine.search(EMPTY_STATE),
  tilesOpen: [] as string[],
  title: '',
});

beforeEach(() => {
  calls.length = 0;
  prepared = 0;
  localStorage.clear();
  history.replaceState(null, '', '/search/');
  // The keyword box asks for the site's search pages at its first focus
  // (none here; the test of that group answers with its own).
  vi.stubGlobal('fetch', async (url: string) => new Response(url === '/search-pages.json' ? '[]' : '', { status: url === '/search-pages.json' ? 200 : 404 }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const box = () => screen.getByRole('combobox', { name: 'Keyword' });
const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

async function typeInBox(text: string) {
  const input = box();
  await act(async () => {
    input.focus();
    fireEvent.focus(input);
  });
  await settle();
  fireEvent.change(input, { target: { value: text } });
  await settle();
  return input;
}

describe('keyword suggestions (ARIA combobox)', () => {
  it('offer makes and models as you type, chosen with the arrow keys and Enter', async () => {
    render(<SearchApp {...props()} />);
    await settle();
    const input = await typeInBox('toy');
    expect(prepared).toBeGreaterThan(0);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    const list = screen.getByRole('listbox', { name: 'Suggestions' });
    expect(input.getAttribute('aria-controls')).toBe(list.id);
    const options = within(list).getAllByRole('option');
    expect(options[0]!.textContent).toMatch(/^Toyota, make/);
    expect(options.some((o) => /^Toyota HiLux/.test(o.textContent ?? ''))).toBe(true);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    const second = within(list).getAllByRole('option')[1]!;
    expect(second.getAttribute('aria-selected')).toBe('true');
    expect(input.getAttribute('aria-activedescendant')).toBe(second.id);
    const chosen = second.textContent!.split(',')[0]!;
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect((input as HTMLInputElement).value).toBe(chosen);
    // Chosen means searched at once, without waiting for the keyword debounce.
    expect(calls.at(-1)?.query).toBe(chosen);
    expect(decodeURIComponent(location.search)).toContain(`query=${chosen}`);
  });

  it("offer the site's search pages in a group of their own, after the keyword suggestions, fetched at the box's first focus", async () => {
    const pages = site.search.landing_pages.map(({ path, title, count }) => ({ path, title, count }));
    const asked: string[] = [];
    let fail = true;
    vi.stubGlobal('fetch', async (url: string) => {
      if (url !== '/search-pages.json') return new Response('', { status: 404 });
      asked.push(url);
      return fail ? new Response('', { status: 503 }) : new Response(JSON.stringify(pages), { headers: { 'Content-Type': 'application/json' } });
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    onTestFinished(() => {
      vi.unstubAllGlobals();
      warn.mockRestore();
    });
    render(<SearchApp {...props()} />);
    await settle();
    // Not in the page's props, and not asked for before the box is used.
    expect(asked).toEqual([]);
    // A failed download leaves the group out and is asked again at the next focus.
    fireEvent.focus(box());
    await settle();
    expect(asked).toEqual(['/search-pages.json']);
    fireEvent.blur(box());
    fail = false;
    const input = await typeInBox('toy');
    expect(asked).toEqual(['/search-pages.json', '/search-pages.json']);
    const list = screen.getByRole('listbox', { name: 'Suggestions' });
    const group = within(list).getByRole('group', { name: 'Search pages' });
    const inGroup = within(group).getAllByRole('option');
    expect(inGroup.map((o) => o.textContent)).toEqual(['Toyota cars, page (9 cars)', 'Toyota Corolla, page (3 cars)', 'Toyota HiLux, page (3 cars)']);
    // One arrow-key order: the group's options come after the keyword suggestions.
    const all = within(list).getAllByRole('option');
    expect(all.slice(-3)).toEqual(inGroup);
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(input.getAttribute('aria-activedescendant')).toBe(inGroup[2]!.id);
  });

  it('a search page is chosen with the arrow keys and Enter: the box goes to it', () => {
    const onPage = vi.fn();
    const onSubmit = vi.fn();
    const pages = [{ query: 'Used cars', count: 17, kind: 'page' as const, path: 'used-cars' }];
    const words = [{ query: 'Ute', count: 9, kind: 'word' as const }];
    render(<KeywordBox value="u" placeholder="" suggestions={words} pages={pages} onType={() => {}} onSubmit={onSubmit} onPage={onPage} />);
    const input = screen.getByRole('combobox');
    fireEvent.change(input, { target: { value: 'us' } });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(screen.getByRole('option', { name: /Used cars/ }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPage).toHaveBeenCalledWith('used-cars');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('Escape closes the list, then clears the box', async () => {
    render(<SearchApp {...props()} />);
    await settle();
    const input = await typeInBox('maz');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect((input as HTMLInputElement).value).toBe('maz');
    fireEvent.keyDown(input, { key: 'Escape' });
    await settle();
    expect((input as HTMLInputElement).value).toBe('');
  });
});

describe('typed limits become chips', () => {
  it('"toyota under 30k" searches Toyotas up to $30,000, the limit a removable chip and the URL a range', async () => {
    render(<SearchApp {...props()} />);
    await settle();
    const input = await typeInBox('toyota under 30k');
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    await settle();
    expect((input as HTMLInputElement).value).toBe('toyota');
    const url = decodeURIComponent(location.search);
    expect(url).toContain('query=toyota');
    expect(url).toContain('range[price]=:30000');
    const chips = screen.getByRole('list', { name: 'Active filters' });
    const chip = within(chips).getByRole('button', { name: 'Remove Price: up to $30,000' });
    const cards = () => screen.getAllByRole('article').map((a) => a.textContent ?? '');
    expect(cards().every((t) => t.includes('Toyota'))).toBe(true);
    fireEvent.click(chip);
    await settle();
    expect(decodeURIComponent(location.search)).not.toContain('range[price]');
    expect(screen.queryByRole('list', { name: 'Active filters' })).toBeNull();
    // The removed chip's place: nothing left, so the results heading.
    expect(document.activeElement?.id).toBe('search-results');
  });

  it('lists ticked facets as chips too; removing one moves focus to the next chip', async () => {
    history.replaceState(null, '', '/search/?refinementList[make][0]=Toyota&refinementList[make][1]=Mazda');
    render(<SearchApp {...props()} />);
    await settle();
    const chips = screen.getByRole('list', { name: 'Active filters' });
    fireEvent.click(within(chips).getByRole('button', { name: 'Remove Make: Toyota' }));
    await settle();
    expect(document.activeElement?.textContent).toMatch(/^Make: Mazda/);
  });
});

describe('notes about the keyword', () => {
  it('say which word matched nothing and offer a "did you mean"', async () => {
    render(<SearchApp {...props()} />);
    await settle();
    const input = await typeInBox('toyota qwxz');
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(screen.getByTestId('query-notes').textContent).toContain('No match for ‘qwxz’: searched without it.');
    fireEvent.change(input, { target: { value: 'hilixx' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    const notes = screen.getByTestId('query-notes');
    const fix = within(notes).getByRole('button', { name: 'hilux' });
    fireEvent.click(fix);
    await settle();
    expect(calls.at(-1)?.query).toBe('hilux');
    expect(screen.getAllByRole('article').length).toBeGreaterThan(0);
  });
});

describe('facets of docs/behaviour/search.md §3', () => {
  it('fold the ones the stock carries (features, seats, certified...) and leave out single-value ones', async () => {
    render(<SearchApp {...props()} />);
    await settle();
    const filters = screen.getByRole('complementary', { name: 'Filters' });
    const folded = [...filters.querySelectorAll('details.facet--folded')].map((d) => d.getAttribute('data-attr'));
    expect(folded).toEqual(expect.arrayContaining(['badge', 'drive', 'year', 'seats', 'certified', 'filtered_features', 'categories', 'price_range', 'status']));
    // Every fixture car is a "car" at one dealership: no widget tells them apart.
    expect(folded).not.toContain('item_type');
    expect(folded).not.toContain('dealership_name');
    const features = filters.querySelector('details[data-attr="filtered_features"]')!;
    fireEvent.click(within(features as HTMLElement).getByRole('checkbox', { name: /Tow Bar/ }));
    await settle();
    expect(decodeURIComponent(location.search)).toContain('refinementList[filtered_features][0]=Tow Bar');
    expect(screen.getAllByRole('article').every((a) => /Ute|HiLux|BT-50|Ranger/.test(a.textContent ?? ''))).toBe(true);
  });

  it("offers the per-make model picker unless the dealer switches it off", () => {
    const { unmount } = render(<SearchApp {...props()} />);
    expect(screen.getAllByRole('button', { name: /^Models ?of / }).length).toBeGreaterThan(0);
    unmount();
    render(<SearchApp {...props({ search: { model_picker: false } })} />);
    expect(screen.queryAllByRole('button', { name: /^Models ?of / })).toEqual([]);
  });

  it('model picker: with one model ticked the make keeps its other models, and the other makes stay listed with their own', async () => {
    render(<SearchApp {...props()} />);
    await settle();
    const toyota = screen.getByRole('button', { name: /^Models ?of Toyota/, expanded: false });
    fireEvent.click(toyota);
    // Open, the same name: aria-expanded says it is open.
    expect(screen.getByRole('button', { name: /^Models ?of Toyota/, expanded: true })).toBe(toyota);
    fireEvent.click(screen.getByRole('checkbox', { name: /^HiLux/ }));
    await settle();
    expect(screen.getByRole('checkbox', { name: /^Corolla/ })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: /^RAV4/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Models ?of Mazda/ }));
    expect(screen.getByRole('checkbox', { name: /^CX-5/ })).toBeTruthy();
  });
});

describe('favourites and compare on the cards', () => {
  it('keep favourites as records and stop the compare list at its limit, saying so', async () => {
    render(<SearchApp {...props()} />);
    await settle();
    const favButtons = screen.getAllByRole('button', { name: /^Favourite ?\d/ });
    fireEvent.click(favButtons[0]!);
    const stored = JSON.parse(localStorage.getItem(FAVOURITES_KEY) ?? '[]');
    expect(stored).toHaveLength(1);
    expect(Object.keys(stored[0]).sort()).toEqual(['id', 'make', 'model', 'name', 'primary_image_url', 'slug']);
    expect(screen.getByRole('link', { name: 'Favourites (1)' }).getAttribute('href')).toBe('/favourites/');
    const compare = screen.getAllByRole('button', { name: /^Compare ?\d/ });
    for (const b of compare.slice(0, COMPARE_LIMIT + 1)) fireEvent.click(b);
    await settle();
    expect(JSON.parse(localStorage.getItem(COMPARE_KEY) ?? '[]')).toHaveLength(COMPARE_LIMIT);
    expect(compare[COMPARE_LIMIT]!.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByTestId('saved-bar').textContent).toContain(`Compare holds ${COMPARE_LIMIT} cars`);
    const link = screen.getByRole('link', { name: 'Compare now' });
    expect(link.getAttribute('href')).toMatch(/^\/compare\/\?cars=[^,]+(,[^,]+){3}$/);
    fireEvent.click(screen.getByRole('button', { name: /^Clear ?the compare list/ }));
    expect(JSON.parse(localStorage.getItem(COMPARE_KEY) ?? '[]')).toEqual([]);
  });

  it('hide the compare and favourite parts where the dealer does not offer them', async () => {
    render(<SearchApp {...props({ features: { favourites: false, compare: false } })} />);
    await settle();
    expect(screen.queryAllByRole('button', { name: /^(Favourite|Compare) ?\d/ })).toEqual([]);
    expect(screen.queryByTestId('saved-bar')).toBeNull();
  });

  it('say the deposit is refundable and show the used-car guarantee', () => {
    render(<SearchApp {...props()} />);
    const text = screen.getAllByRole('article').map((a) => a.textContent ?? '').join('\n');
    expect(text).toContain('$200 deposit, 100% refundable: we hold the car for 48 hours.');
    expect(text).toContain(site.cards.used_car_guarantee!);
  });
});

it('every facet waits for the planner, never loaded for a search without a keyword', async () => {
  render(<SearchApp {...props()} />);
  await settle();
  await waitFor(() => expect(calls.length).toBeGreaterThan(0));
  expect(calls.every((c) => c.query === '')).toBe(true);
  expect(prepared).toBe(0);
});
