/**
 * The home page's "Show me N cars" form (components/search/ShowMe.astro):
 * each change of the condition or the make asks the search client (the
 * search page's, created on the first change) how many cars match and
 * shows it in the button; a later answer never overwrites a newer
 * choice's. Submitting opens /search/ with those filters, scrolled to the
 * top (SCROLL_FLAG, read by the search page).
 */
import { createClient } from './client';
import type { SearchClient, SearchState } from './types';
import { EMPTY_STATE } from './types';
import { SCROLL_FLAG, serialiseSearchState } from './url';
import { pluralise } from '../format';
import type { Search } from '../../types/site';

export interface ShowMeOptions {
  /** The search client (tests); the site's own by default. */
  client?: (search: Search) => Promise<SearchClient>;
  navigate?: (href: string) => void;
}

/** The search the form's choices make: the condition and the make, each when chosen. */
export function showMeState(carType: string, make: string): SearchState {
  const refinementList: Record<string, string[]> = {};
  if (carType) refinementList['car_type'] = [carType];
  if (make) refinementList['make'] = [make];
  return { ...EMPTY_STATE, refinementList, range: {} };
}

/** The button's words: "Show me 1,234 cars", "Show me 1 car". */
export const showMeLabel = (count: number) => `Show me ${pluralise(count, 'car')}`;

/** Wires every `form[data-show-me]` of `doc`. */
export function wireShowMe(doc: Document, options: ShowMeOptions = {}): void {
  const win = doc.defaultView;
  const navigate = options.navigate ?? ((href: string) => win?.location.assign(href));
  for (const form of doc.querySelectorAll<HTMLFormElement>('form[data-show-me]')) {
    let search: Search;
    try {
      search = JSON.parse(form.dataset['showMe'] ?? '') as Search;
    } catch {
      continue; // Without its settings the form stays the plain GET it is.
    }
    const select = (attr: string) => form.querySelector<HTMLSelectElement>(`select[data-show-me-attr="${attr}"]`);
    const button = form.querySelector<HTMLButtonElement>('[data-show-me-button]');
    const state = () => showMeState(select('car_type')?.value ?? '', select('make')?.value ?? '');
    let client: Promise<SearchClient> | undefined;
    let asked = 0;
    const update = () => {
      const mine = ++asked;
      client ??= (options.client ?? createClient)(search);
      client
        .then((c) => c.search(state()))
        .then((r) => {
          if (mine === asked && button) button.textContent = showMeLabel(r.nbHits);
        })
        .catch((error: unknown) => console.warn('count failed', error));
    };
    select('car_type')?.addEventListener('change', update);
    select('make')?.addEventListener('change', update);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      win?.sessionStorage.setItem(SCROLL_FLAG, '1');
      navigate(`/search/${serialiseSearchState(state())}`);
    });
    // A form the browser restored (Back to the home page) keeps its choices: count them.
    if (Object.keys(state().refinementList).length > 0) update();
    form.dataset['wired'] = '';
  }
}
