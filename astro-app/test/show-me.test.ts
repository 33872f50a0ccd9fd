// @vitest-environment jsdom
/**
 * The home page's "Show me N cars" without React (components/search/ShowMe.astro,
 * lib/search/show-me.ts): a choice counts the matching cars in the button,
 * an older answer never overwrites a newer choice's, and submitting opens
 * the search with those filters, at the top.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { engineFor } from '../src/lib/search/client';
import { showMeLabel, showMeState, wireShowMe } from '../src/lib/search/show-me';
import type { SearchClient, SearchState } from '../src/lib/search/types';
import { SCROLL_FLAG } from '../src/lib/search/url';
import type { SearchIndex, SiteData } from '../src/types/site';

const data = `${__dirname}/fixtures/site/src/data/`;
const site = JSON.parse(fs.readFileSync(`${data}site.json`, 'utf8')) as SiteData;
const index = JSON.parse(fs.readFileSync(`${data}search-index.json`, 'utf8')) as SearchIndex;
const engine = engineFor(index, site.search, 2_000_000_000);
const { landing_pages: _l, ...search } = site.search;

/** The form as ShowMe.astro writes it (the e2e suite site.mjs uses the built page's). */
function page(total: number) {
  const json = JSON.stringify(search).replace(/&/g, '&amp;').replace(/'/g, '&#39;');
  document.body.innerHTML = `<form class="show-me" action="/search/" data-show-me='${json}'>
    <select id="show-me-type" data-show-me-attr="car_type"><option value="">All</option><option value="used">Used</option><option value="new">New</option></select>
    <select id="show-me-make" data-show-me-attr="make"><option value="">All makes</option><option value="Toyota">Toyota</option><option value="Mazda">Mazda</option></select>
    <button type="submit" data-show-me-button>${showMeLabel(total)}</button></form>`;
  const form = document.querySelector('form')!;
  const choose = (id: string, value: string) => {
    const select = form.querySelector<HTMLSelectElement>(`#${id}`)!;
    select.value = value;
    select.dispatchEvent(new Event('change'));
  };
  return { form, button: form.querySelector('button')!, choose };
}

afterEach(() => {
  document.body.innerHTML = '';
  sessionStorage.clear();
});

describe('Show me N cars', () => {
  it('counts the chosen condition and make in the button, asking the client only once a choice is made', async () => {
    const created = vi.fn(async (): Promise<SearchClient> => ({ search: async (s: SearchState) => engine.search(s) }));
    const total = engine.search(showMeState('', '')).nbHits;
    const { form, button, choose } = page(total);
    wireShowMe(document, { client: created });
    expect(form.hasAttribute('data-wired')).toBe(true);
    expect(created).not.toHaveBeenCalled();
    expect(button.textContent).toBe(`Show me ${total} cars`);
    choose('show-me-make', 'Toyota');
    const toyotas = engine.search(showMeState('', 'Toyota')).nbHits;
    expect(toyotas).toBeGreaterThan(1);
    await vi.waitFor(() => expect(button.textContent).toBe(`Show me ${toyotas} cars`));
    choose('show-me-type', 'used');
    const used = engine.search(showMeState('used', 'Toyota')).nbHits;
    await vi.waitFor(() => expect(button.textContent).toBe(showMeLabel(used)));
    expect(created).toHaveBeenCalledTimes(1);
  });

  it("never shows an older choice's count over a newer one's", async () => {
    const answers: Array<() => void> = [];
    const client = async (): Promise<SearchClient> => ({
      search: (s: SearchState) => new Promise((done) => answers.push(() => done(engine.search(s)))),
    });
    const { button, choose } = page(10);
    wireShowMe(document, { client });
    choose('show-me-make', 'Toyota');
    choose('show-me-make', 'Mazda');
    await vi.waitFor(() => expect(answers.length).toBe(2));
    answers[1]!(); // Mazda's answer first
    const mazdas = engine.search(showMeState('', 'Mazda')).nbHits;
    await vi.waitFor(() => expect(button.textContent).toBe(showMeLabel(mazdas)));
    answers[0]!(); // then the older Toyota answer
    await new Promise((r) => setTimeout(r, 0));
    expect(button.textContent).toBe(showMeLabel(mazdas));
  });

  it('opens the search with the chosen filters, flagged to start at the top', () => {
    const navigate = vi.fn();
    const { form, choose } = page(10);
    wireShowMe(document, { client: async () => ({ search: async (s: SearchState) => engine.search(s) }), navigate });
    choose('show-me-type', 'new');
    choose('show-me-make', 'Mazda');
    form.dispatchEvent(new Event('submit', { cancelable: true }));
    expect(navigate).toHaveBeenCalledTimes(1);
    const href = decodeURIComponent(navigate.mock.calls[0]![0] as string);
    expect(href.startsWith('/search/?')).toBe(true);
    expect(href).toContain('refinementList[car_type][0]=new');
    expect(href).toContain('refinementList[make][0]=Mazda');
    expect(sessionStorage.getItem(SCROLL_FLAG)).toBe('1');
  });

  it('counts a choice the browser restored (Back to the home page) as soon as it is wired', async () => {
    const { button, form } = page(10);
    form.querySelector<HTMLSelectElement>('#show-me-make')!.value = 'Toyota';
    wireShowMe(document, { client: async () => ({ search: async (s: SearchState) => engine.search(s) }) });
    await vi.waitFor(() => expect(button.textContent).toBe(showMeLabel(engine.search(showMeState('', 'Toyota')).nbHits)));
  });

  it('one car is "car"', () => {
    expect(showMeLabel(1)).toBe('Show me 1 car');
    expect(showMeLabel(1234)).toBe('Show me 1,234 cars');
  });
});
