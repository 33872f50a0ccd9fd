/**
 * The stock search island. Astro renders it on the server with the first
 * page of results computed at build time (complete HTML before any
 * JavaScript); once hydrated it takes over: URL state, filters, sliders,
 * sorting and paging over the embedded index or the hosted service. All
 * search logic lives in lib/search; this file only wires it to the page.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { chipsOf, withIntents } from '../../lib/search/chips';
import { createClient } from '../../lib/search/client';
import { displayCount, facetEntries, worthShowing } from '../../lib/search/facet-lists';
import { facetTitle } from '../../lib/search/labels';
import { fetchSearchPages, popularFor, suggest, suggestPages, type SearchPageLink, type Suggestion } from '../../lib/search/suggest';
import { historyLabel, loadHistory, recordSearch, stateOfPath, type HistoryEntry } from '../../lib/search/history';
import { layoutResults, tileActive, tileFits } from '../../lib/search/promo';
import { keptStats, sliderBounds } from '../../lib/search/range';
import { EMPTY_STATE, type FacetStatsValue, type Hit, type RangeRefinement, type SearchClient, type SearchResponse, type SearchState } from '../../lib/search/types';
import { parseSearchState, SCROLL_FLAG, toggleRefinement, withFilters } from '../../lib/search/url';
import { PLAIN_SEARCH, searchHref, stateOfAddress, type SearchBase } from '../../lib/search/addresses';
import type { CardSettings } from '../../lib/search/cards';
import { COMPARE_LIMIT, loadCompared, loadFavourites, onSavedChange, setCompared, toggleCompared, toggleFavourite, type Compared, type Favourite } from '../../lib/search/saved';
import type { ImagesConfig, Search } from '../../types/site';
import { photoProps, SIZES } from '../../lib/images';
import { formatCount, pluralise, telHref } from '../../lib/format';
import { pageLinks } from '../../lib/pagination';
import { recordThenFollow } from '../../lib/record-then-follow';
import { CheckboxList, Dropdown, FoldedList, MakeCards } from './Facets';
import { KeywordBox } from './KeywordBox';
import { SavedBar } from './SavedBar';
import { RangeSlider } from './RangeSlider';
import { ResultCard, type Toggles } from './ResultCard';
import { searchDocumentTitle, shownLandingTitle } from './titles';

export const KEYWORD_DEBOUNCE_MS = 300;
/** Analytics event of the Fleet Enquiry 'Get In Touch' button (docs/behaviour/search.md §5, §7). */
export const EVENT_FLEET_ENQUIRY = 19;

/** Popular searches: reporting and the list, a chunk loaded only when the keyword box is used. */
const loadPopular = () => import('../../lib/search/popular');

export interface IslandConfig {
  search: Omit<Search, 'landing_pages'>;
  cards: CardSettings;
  features: {
    favourites: boolean;
    compare: boolean;
    watchlist: boolean;
    /** `site.features.analytics`: events go to `${apiBase}/api/events`. */
    analytics?: boolean;
    /** `site.features.subscriptions`: adds the '/ week' subscription price slider. */
    subscriptions?: boolean;
  };
  /** `site.api_base` ("" = same origin). */
  apiBase?: string;
  /** `site.images`: the cards' photo sizes from the image host; photos as they are without it. */
  images?: ImagesConfig;
  /** Make slugs with a logo in /images/makes/. */
  logos: string[];
}

interface Props {
  config: IslandConfig;
  initialState: SearchState;
  initial: SearchResponse;
  /**
   * The promo tiles (ids) whose dates and daily window were open when the
   * stock was judged: the page shows these until the browser's clock takes
   * over after hydration. The outcome, not the instant, so the page's cache
   * key moves only when a tile opens or closes (lib/build-data.ts, `clock`).
   */
  tilesOpen: string[];
  /** Landing page title, e.g. "Used cars for sale"; empty on /search/. */
  title: string;
  /** For `document.title` ("… | {siteName}") when the search changes it. */
  siteName?: string;
  /**
   * The landing page this page was built as ('toyota/corolla'; none on
   * /search/): a search of exactly its filters keeps its address,
   * /search/toyota/corolla/page/2/, which also works without JavaScript.
   */
  landingPath?: string;
}

/** The results heading: the skip link's target, and where focus goes after paging or clearing. */
export const RESULTS_ID = 'search-results';

const RANGES: Array<[string, string]> = [
  ['price', 'Price'],
  ['km', 'Kilometres'],
  ['year', 'Year'],
];
/**
 * The facets a shopper reaches for less, folded under their titles; each
 * shown only when the dealer's stock carries it (lib/search/facet-lists
 * worthShowing): badge, drive, year, seats, state, availability, item
 * type, tag, certified, features, categories, price bands, dealership.
 */
const FOLDED = ['badge', 'drive', 'year', 'seats', 'state', 'status', 'item_type', 'tag', 'certified', 'filtered_features', 'categories', 'price_range', 'weekly_price_range', 'dealership_name'];

/** Dealers offering subscriptions filter on the weekly price too, right after the price. */
const SUBSCRIPTION_RANGES: Array<[string, string]> = [RANGES[0]!, ['subscription_price', 'Subscription price'], ...RANGES.slice(1)];

/** ‘xyz’, ‘abc’ */
const quoteAll = (words: string[]) => words.map((w) => `‘${w}’`).join(', ');

export default function SearchApp({ config, initialState, initial, tilesOpen, title, siteName = '', landingPath }: Props) {
  // The static pages whose addresses a search may take (lib/search/addresses searchHref).
  const [base] = useState<SearchBase>(() => (landingPath ? { path: landingPath, refinements: initialState.refinementList } : PLAIN_SEARCH));
  const hrefOf = useCallback((s: SearchState) => searchHref(s, base), [base]);
  const [state, setState] = useState(initialState);
  const [response, setResponse] = useState(initial);
  // The sliders' last meaningful statistics: a search with no results has none (keptStats).
  const sliderStats = useRef<Record<string, FacetStatsValue>>({});
  const [status, setStatus] = useState<'idle' | 'loading' | 'error'>('idle');
  const [keyword, setKeyword] = useState(initialState.query);
  // The shopper's clock, once hydrated; until then the build's outcome (tilesOpen).
  const [now, setNow] = useState<number | undefined>(undefined);
  // Read from the device after hydration: the server renders every toggle unpressed.
  const [favourites, setFavourites] = useState<Favourite[]>([]);
  const [compared, setComparedList] = useState<Compared[]>([]);
  const [savedNotice, setSavedNotice] = useState('');
  const [filtersOpen, setFiltersOpen] = useState(false);
  /** Closes the phone's filter panel, focus to `to` (its toggle, or the results). */
  const closeFilters = (to: HTMLElement | null | undefined) => {
    setFiltersOpen(false);
    to?.focus();
  };
  // Read from the device after hydration (the server has no history): starts empty.
  const [recent, setRecent] = useState<HistoryEntry[]>([]);
  const client = useRef<Promise<SearchClient> | undefined>(undefined);
  const seq = useRef(0);
  const keywordTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The dealer's popular searches, asked for once the keyword box gets focus.
  const [popular, setPopular] = useState<Suggestion[]>([]);
  const popularAsked = useRef(false);
  // The site's search pages, offered among the suggestions: fetched once the keyword box gets focus.
  const [searchPages, setSearchPages] = useState<SearchPageLink[]>([]);
  const searchPagesAsked = useRef(false);
  const reported = useRef(false);
  // Popular searches come with the embedded engine (each is checked against the stock here).
  const popularOn = !config.search.hosted;
  // A keyword search (or its report) still waiting when the island goes must not run afterwards.
  useEffect(
    () => () => {
      clearTimeout(keywordTimer.current);
      if (reported.current) void loadPopular().then((m) => m.cancelReports());
    },
    [],
  );
  const top = useRef<HTMLDivElement>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  // Set while the sort select keeps focus after a change: arrowing through its
  // options is one history entry, not one per key press.
  const sortEntry = useRef(false);
  // The whole stock's facet counts, for the keyword suggestions (fetched when the box gets focus).
  const [wholeFacets, setWholeFacets] = useState<SearchResponse['facets'] | undefined>(undefined);
  // After a chip is removed: which chip to focus next (the one now in its place).
  const chipFocus = useRef<number | null>(null);
  const chipList = useRef<HTMLUListElement>(null);

  const run = useCallback(
    /** `report`: a keyword search the shopper submitted or paused on, counted for the popular searches. */
    /** `notes`: what the words moved out of the query meant ("cheap": up to which price), shown with the moved search's results. */
    function run(next: SearchState, report?: 'submit' | 'pause', notes?: string[]): void {
      const mine = ++seq.current;
      setStatus('loading');
      client.current ??= createClient(config.search as Search);
      client.current
        .then((c) => c.search(next))
        .then((r) => {
          if (mine !== seq.current) return;
          if (report && popularOn && next.query.trim()) {
            reported.current = true;
            void loadPopular().then((m) => m.reportSearch(config.apiBase ?? '', next.query, r.nbHits, report === 'submit'));
          }
          // Limits typed in the box ("under 30k") become the URL's ranges and
          // chips; the box keeps the words. The same search, said plainly.
          const moved = withIntents(next, r.query);
          if (moved) {
            setState(moved);
            setKeyword(moved.query);
            history.replaceState(null, '', hrefOf(moved));
            run(moved, undefined, r.query?.notes);
            return;
          }
          if (notes && r.query) r.query.notes = notes;
          setResponse(r);
          setStatus('idle');
          setRecent(recordSearch(window.localStorage, { refinements: next.refinementList, path: hrefOf(next) }));
        })
        .catch((error: unknown) => {
          // The previous hits, count and facets stay on screen (docs/behaviour/search.md §4).
          console.warn('search failed', error);
          client.current = undefined;
          if (mine === seq.current) setStatus('error');
        });
    },
    [config.search, config.apiBase, popularOn, hrefOf],
  );

  const go = useCallback(
    (next: SearchState, opts: { scroll?: boolean; focusResults?: boolean; replace?: boolean; report?: 'submit' | 'pause' } = {}) => {
      setState(next);
      setKeyword(next.query);
      if (opts.replace) history.replaceState(null, '', hrefOf(next));
      else history.pushState(null, '', hrefOf(next));
      run(next, opts.report);
      if (opts.scroll) top.current?.scrollIntoView({ block: 'start' });
      // The control that was used (a page link, "Clear all filters") may be gone
      // or off screen: focus goes to the results, whose new count the status announces.
      if (opts.focusResults) resultsHeading.current?.focus({ preventScroll: opts.scroll === true });
    },
    [run, hrefOf],
  );

  useEffect(() => {
    setNow(Date.now());
    const syncSaved = () => {
      setFavourites(loadFavourites(localStorage));
      setComparedList(loadCompared(localStorage));
    };
    syncSaved();
    const offSaved = onSavedChange(syncSaved);
    setRecent(loadHistory(window.localStorage));
    if (sessionStorage.getItem(SCROLL_FLAG)) {
      sessionStorage.removeItem(SCROLL_FLAG);
      window.scrollTo(0, 0);
    }
    // React runs this effect after hydration, but a tap that lands first
    // (a slow phone, a quick shopper) has already started its own search:
    // React flushes this effect before rendering that tap's update, and a
    // search started here would then be the latest and show the static
    // page's results under the tapped page or filter. So only when no
    // search has started yet.
    if (seq.current > 0) {
      // The shopper's search loads the index: nothing to warm.
    } else if (location.search) {
      // A shared link or a reload with filters: the URL wins over the static page.
      const fromUrl = parseSearchState(location.search);
      setState(fromUrl);
      setKeyword(fromUrl.query);
      run(fromUrl);
    } else {
      // Warm the index (and the cache) so the first tap answers at once.
      run(initialState);
    }
    const onPop = () => {
      const s = stateOfAddress(location.pathname, location.search, base) ?? initialState;
      setState(s);
      setKeyword(s.query);
      run(s);
      // Back or Forward shows other results: focus goes to them, scrolled to as
      // after paging, not left on a control the shopper may no longer see (the
      // Sort select, off screen). After the browser has restored the entry's
      // old scroll position (a frame later), which would take them away again.
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          top.current?.scrollIntoView({ block: 'start' });
          resultsHeading.current?.focus({ preventScroll: true });
        }),
      );
    };
    addEventListener('popstate', onPop);
    return () => {
      removeEventListener('popstate', onPop);
      offSaved();
    };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration: the URL, the saved lists, Back and Forward
  }, []);

  const toggle = (attr: string, value: string) => go(toggleRefinement(state, attr, value));
  const select = (attr: string, value: string) => {
    const refinementList = { ...state.refinementList };
    if (value) refinementList[attr] = [value];
    else delete refinementList[attr];
    go(withFilters(state, { refinementList }));
  };
  const commitRange = (attr: string, r: RangeRefinement | undefined) => {
    const range = { ...state.range };
    if (r) range[attr] = r;
    else delete range[attr];
    go(withFilters(state, { range }));
  };
  const onKeyword = (value: string) => {
    setKeyword(value);
    clearTimeout(keywordTimer.current);
    keywordTimer.current = setTimeout(() => go(withFilters(state, { query: value.trim() }), { report: 'pause' }), KEYWORD_DEBOUNCE_MS);
  };
  /** A suggestion chosen, Enter, or "did you mean": search now. */
  const searchNow = (value: string) => {
    clearTimeout(keywordTimer.current);
    setKeyword(value);
    go(withFilters(state, { query: value.trim() }), { report: 'submit' });
  };
  const onKeywordFocus = () => {
    client.current ??= createClient(config.search as Search);
    if (!searchPagesAsked.current) {
      searchPagesAsked.current = true;
      fetchSearchPages()
        .then(setSearchPages)
        .catch((error: unknown) => {
          // Asked again at the next focus; the other suggestions do not wait for these.
          searchPagesAsked.current = false;
          console.warn('search pages unavailable', error);
        });
    }
    if (popularOn && !popularAsked.current) {
      popularAsked.current = true;
      const c = client.current;
      loadPopular()
        .then((m) => m.popularSuggestions(config.apiBase ?? '', (query) => c.then((x) => x.search({ ...EMPTY_STATE, query }))))
        .then(setPopular)
        .catch((error: unknown) => console.warn('popular searches unavailable', error));
    }
    client.current
      .then((c) => {
        c.prepareKeyword?.();
        return wholeFacets ? undefined : c.search(EMPTY_STATE).then((r) => setWholeFacets(r.facets));
      })
      .catch((error: unknown) => console.warn('suggestions unavailable', error));
  };
  const removeChip = (index: number, without: SearchState) => {
    chipFocus.current = index;
    go(without);
  };
  const onToggleList = (list: 'favourite' | 'compared', hit: Hit) => {
    if (list === 'favourite') {
      setFavourites(
        toggleFavourite(localStorage, { id: hit.objectID, name: hit.name || `${hit.year} ${hit.make} ${hit.model}`, slug: hit.slug, make: hit.make, model: hit.model, primary_image_url: hit.image }),
      );
      return;
    }
    const r = toggleCompared(localStorage, { id: hit.objectID, slug: hit.slug });
    setComparedList(r.list);
    setSavedNotice(r.full ? `Compare holds ${COMPARE_LIMIT} cars: remove one to add another.` : '');
  };

  const s = config.search;
  const facets = response.facets;
  const chips = chipsOf(state);
  const info = response.query;
  const colour = facets.colour_family ? 'colour_family' : 'colour';
  const refined = (attr: string) => state.refinementList[attr] ?? [];
  // A built page lists a refined facet's other values without counts until the index answers (lib/search/static-page.ts).
  const entriesOf = (attr: string) => facetEntries(attr, facets[attr], refined(attr), response.uncounted?.[attr]);
  const count = displayCount(response.nbHits, facets, s.stock_count_override);
  const carTypes = refined('car_type');
  const tiles = s.promo_tiles.filter((t) => (now === undefined ? tilesOpen.includes(t.id) && tileFits(t, carTypes) : tileActive(t, now, carTypes)));
  const items = layoutResults(response.hits, tiles, s.cta_card_position);
  const toggles: Toggles = {
    favourites: config.features.favourites,
    compare: config.features.compare,
    watchlist: config.features.watchlist,
    strict: s.strict_compare,
    apiBase: config.apiBase ?? '',
    analytics: config.features.analytics === true,
    favourite: new Set(favourites.map((f) => f.id)),
    compared: new Set(compared.map((c) => c.id)),
    onToggle: onToggleList,
  };
  const back = hrefOf(state);
  const page = response.page + 1;
  const from = response.nbHits === 0 ? 0 : response.page * response.hitsPerPage + 1;
  const to = Math.min(response.nbHits, from + response.hitsPerPage - 1);
  const anyFilter = state.query || Object.keys(state.refinementList).length > 0 || Object.keys(state.range).length > 0;
  // A landing page's title only while its filters are the ones applied (titles.ts).
  const landingTitle = shownLandingTitle(title, initialState.refinementList, state);
  const pages = pageLinks(page, response.nbPages);
  // A weekly slider over cars none of which has a weekly price would be 0 to 0: left out.
  const ranges = config.features.subscriptions && (response.facets_stats.subscription_price?.max ?? 0) > 0 ? SUBSCRIPTION_RANGES : RANGES;
  // The search on screen is not worth a link back to itself.
  const pastSearches = recent.filter((e) => e.path !== back);

  useEffect(() => {
    // A removed chip's place goes to the next chip, or to the results when none is left.
    const at = chipFocus.current;
    if (at === null) return;
    chipFocus.current = null;
    const buttons = chipList.current?.querySelectorAll('button');
    const next = buttons?.[Math.min(at, buttons.length - 1)];
    if (next) next.focus();
    else resultsHeading.current?.focus();
  }, [state]);

  useEffect(() => {
    // Without the site's name the server's title stays (it would lose the name).
    if (siteName) document.title = searchDocumentTitle(landingTitle, page, siteName);
  }, [landingTitle, page, siteName]);

  const noun = count === 1 ? 'car' : 'cars';
  return (
    <div className="search" ref={top}>
      <div className="search__head">
        {landingTitle ? (
          <h1 className="search__title">{landingTitle}</h1>
        ) : (
          <h1 className="search__title">
            <span data-testid="result-count">{formatCount(count)}</span> {noun} for sale
          </h1>
        )}
        {/* The live region: every search's new count is announced from here
            (under the count heading the count is shown by the h1, so it is only read out). */}
        <p className="search__range" role="status">
          {landingTitle ? (
            <>
              <span data-testid="result-count">{formatCount(count)}</span> {noun}.{' '}
            </>
          ) : (
            <span className="visually-hidden">
              {pluralise(count, 'car')}.{' '}
            </span>
          )}
          {response.nbHits > 0 && `Showing ${formatCount(from)}–${formatCount(to)}`}
          {response.nbPages > 1 && ` (page ${page} of ${response.nbPages})`}
          {status === 'loading' && <span className="search__busy"> Updating…</span>}
          {status === 'error' && <span className="search__error"> Search is not available right now; showing the last results.</span>}
          {savedNotice && <span className="visually-hidden"> {savedNotice}</span>}
        </p>
      </div>
      <div className="search__layout">
        <aside
          className={`search__filters${filtersOpen ? ' search__filters--open' : ''}`}
          aria-label="Filters"
          // The phone's open panel: Escape closes it, back to its toggle.
          onKeyDown={(e) => e.key === 'Escape' && filtersOpen && closeFilters(e.currentTarget.querySelector<HTMLElement>('.search__filters-toggle'))}
        >
          {/* Past the filters in one key press (they are 40-odd Tab stops on a desktop). */}
          <a
            className="skip-results"
            href={`#${RESULTS_ID}`}
            onClick={(e) => {
              e.preventDefault();
              resultsHeading.current?.focus();
            }}
          >
            Skip to results
          </a>
          <button type="button" className="button button--outline search__filters-toggle" aria-expanded={filtersOpen} onClick={() => setFiltersOpen(!filtersOpen)}>
            {/* One name open or closed: aria-expanded says which. */}
            Filter results
          </button>
          <div className="search__filters-body">
            {pastSearches.length > 0 && (
              <nav className="recent-searches" aria-labelledby="recent-searches-heading">
                <h2 id="recent-searches-heading" className="recent-searches__title">
                  Recent searches
                </h2>
                <ul>
                  {pastSearches.map((e) => (
                    <li key={e.path}>
                      <a
                        href={e.path}
                        onClick={(event) => {
                          event.preventDefault();
                          go(stateOfPath(e.path, e.refinements), { scroll: true, focusResults: true });
                        }}
                      >
                        {historyLabel(e)}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            )}
            <div className="facet">
              <label htmlFor="search-keyword">Keyword</label>
              <KeywordBox
                value={keyword}
                placeholder={s.keyword_placeholder}
                suggestions={wholeFacets ? suggest(keyword, wholeFacets) : []}
                pages={suggestPages(keyword, searchPages)}
                popular={popularFor(keyword, popular)}
                onPage={(path) => window.location.assign(`/search/${path}/`)}
                onType={onKeyword}
                onSubmit={searchNow}
                onFocus={onKeywordFocus}
              />
            </div>
            <CheckboxList attr="car_type" title="Condition" entries={entriesOf('car_type')} onToggle={toggle} />
            <MakeCards
              makes={entriesOf('make')}
              makeModel={facets.make_model}
              refinedModels={refined('model')}
              picker={s.model_picker}
              popular={s.popular_makes_count}
              logos={new Set(config.logos)}
              onToggle={toggle}
            />
            {ranges.map(([attr, label]) => (
              <RangeSlider key={attr} attr={attr} label={label} bounds={sliderBounds(keptStats(attr, response.facets_stats[attr], sliderStats.current), attr)} value={state.range[attr]} onCommit={commitRange} />
            ))}
            <Dropdown attr="body" title="Body type" entries={entriesOf('body')} onSelect={select} />
            <Dropdown attr="fuel" title="Fuel" entries={entriesOf('fuel')} onSelect={select} />
            <Dropdown attr="transmission" title="Transmission" entries={entriesOf('transmission')} onSelect={select} />
            {/* The families (the embedded index's); a hosted index without them keeps its colours. */}
            <Dropdown attr={colour} title="Colour" entries={entriesOf(colour)} onSelect={select} />
            <CheckboxList attr="city" title="City" entries={entriesOf('city')} onToggle={toggle} />
            <CheckboxList attr="location_name" title="Dealership" entries={entriesOf('location_name')} onToggle={toggle} />
            {FOLDED.map((attr) => {
              const entries = entriesOf(attr);
              return worthShowing(entries, response.nbHits) ? <FoldedList key={attr} attr={attr} title={facetTitle(attr)} entries={entries} onToggle={toggle} /> : null;
            })}
            {anyFilter && (
              <button type="button" className="link-button" onClick={() => go({ ...state, query: '', refinementList: {}, range: {}, page: 1 }, { focusResults: true })}>
                Clear all filters
              </button>
            )}
            {/* The phone's panel ends with the way to its results (hidden beside the results on a desktop). */}
            <button
              type="button"
              className="button button--primary search__filters-done"
              onClick={() => closeFilters(resultsHeading.current)}
            >
              Show {pluralise(count, 'car')}
            </button>
          </div>
        </aside>
        <div className="search__results">
          <div className="search__bar">
            <h2 id={RESULTS_ID} className="search__results-heading" tabIndex={-1} ref={resultsHeading}>
              Results
            </h2>
            <div className="search__sort">
              <label htmlFor="search-sort">Sort by</label>
              <select
                id="search-sort"
                value={state.sortBy || s.sort_options[0]?.value || ''}
                onChange={(e) => {
                  go(withFilters(state, { sortBy: e.currentTarget.value === s.sort_options[0]?.value ? '' : e.currentTarget.value }), { replace: sortEntry.current });
                  sortEntry.current = true;
                }}
                onBlur={() => {
                  sortEntry.current = false;
                }}
              >
                {s.sort_options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {chips.length > 0 && (
            <ul className="chips" aria-label="Active filters" ref={chipList}>
              {chips.map((c, i) => (
                <li key={c.key}>
                  <button type="button" className="chip" aria-label={`Remove ${c.label}`} onClick={() => removeChip(i, c.without)}>
                    {c.label}
                    <span aria-hidden="true" className="chip__x">
                      ×
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {info && (info.unmatched.length > 0 || info.ignored.length > 0 || info.didYouMean || info.notes) && (
            <div className="search__notes" data-testid="query-notes">
              {info.notes?.map((note) => (
                <p key={note}>{note}</p>
              ))}
              {info.unmatched.length > 0 && (
                <p>
                  No match for {quoteAll(info.unmatched)}
                  {response.nbHits > 0 ? ': searched without it.' : '.'}
                </p>
              )}
              {info.ignored.length > 0 && <p>No car matches every word: showing cars without {quoteAll(info.ignored)}.</p>}
              {info.didYouMean && (
                <p>
                  Did you mean{' '}
                  <button type="button" className="link-button" onClick={() => searchNow(info.didYouMean!)}>
                    {info.didYouMean}
                  </button>
                  ?
                </p>
              )}
            </div>
          )}
          {response.nbHits === 0 ? (
            <p className="search__empty">No cars match these filters. Try removing one, or <a href="/contact-us/">ask us to find one for you</a>.</p>
          ) : (
            <ul className="card-grid card-grid--cars">
              {items.map((item, i) =>
                item.kind === 'car' ? (
                  <li key={item.hit.objectID}>
                    {/* Only the first card's photo is eager and high priority: the second is below the fold on phones. */}
                    <ResultCard hit={item.hit} eager={i === 0} settings={config.cards} rules={config.search.hit_rules} toggles={toggles} images={config.images} />
                  </li>
                ) : item.kind === 'promo' ? (
                  <li key={`promo-${item.tile.id}-${i}`} className="promo-tile">
                    <a href={item.tile.href}>
                      <img {...(config.images ? photoProps(item.tile.image, config.images, SIZES.card) : { src: item.tile.image })} alt={item.tile.alt} width={640} height={480} loading="lazy" decoding="async" />
                    </a>
                  </li>
                ) : (
                  <li key="cta" className="cta-card">
                    <h2>Can't find what you're looking for?</h2>
                    {s.cta_card.kind === 'call_dealer' ? (
                      <>
                        <p>Call us and we'll find it for you.</p>
                        <a className="button" href={telHref(s.cta_card.phone)}>
                          Call {s.cta_card.phone}
                        </a>
                      </>
                    ) : (
                      <>
                        <p>Tell us what you want and we'll find it for you.</p>
                        <a className="button" href="/contact-us/">
                          Find Me Something Similar
                        </a>
                      </>
                    )}
                  </li>
                ),
              )}
            </ul>
          )}
          {response.nbPages > 1 && (
            <nav className="pagination" aria-label="Pages">
              <ul>
                {pages.map((link, i) =>
                  link.kind === 'gap' ? (
                    <li key={`gap-${i}`} className="pagination__gap" aria-hidden="true">
                      …
                    </li>
                  ) : (
                    <li key={link.n}>
                      <a
                        href={hrefOf({ ...state, page: link.n })}
                        aria-current={link.current ? 'page' : undefined}
                        onClick={(e) => {
                          e.preventDefault();
                          go({ ...state, page: link.n }, { scroll: true, focusResults: true });
                        }}
                      >
                        <span className="visually-hidden">Page </span>
                        {link.n}
                      </a>
                    </li>
                  ),
                )}
              </ul>
            </nav>
          )}
        </div>
      </div>
      <SavedBar
        compare={config.features.compare}
        favourites={config.features.favourites}
        compared={compared}
        favouriteCount={favourites.length}
        notice={savedNotice}
        onClear={() => {
          setComparedList(setCompared(localStorage, []));
          setSavedNotice('');
        }}
      />
      <section className="fleet-enquiry" aria-labelledby="fleet-heading">
        <h2 id="fleet-heading">Fleet Enquiry</h2>
        <p>Buying for a business? Our fleet team looks after orders of every size.</p>
        <a
          className="button button--outline"
          href="/contact-us/?enquiry=fleet"
          // The page is left at once: the click waits for its event to be recorded.
          onClick={recordThenFollow(EVENT_FLEET_ENQUIRY)}
        >
          Get In Touch
        </a>
      </section>
    </div>
  );
}
