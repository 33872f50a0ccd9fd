/**
 * The keyword box of the embedded engine: ranking, typo rules,
 * joined and split forms, soft AND, synonyms, intents, "did you mean",
 * suggestions, the model picker's counts and the shopper-clock tag. The
 * synonym and intent tables are the shipped data files
 * (src/lib/search/vocabulary/*.json), read here too.
 */
import { describe, expect, it } from 'vitest';
import { createEngine, decodeIndex, type Decoded } from '../src/lib/search/engine';
import { understand } from '../src/lib/search/intents';
import { QUALITY } from '../src/lib/search/keyword';
import { band, bandLabel, PRICE_BANDS } from '../src/lib/search/price-ranges';
import { planner } from '../src/lib/search/query-plan';
import { fetchSearchPages, fits, SEARCH_PAGES_URL, suggest, suggestPages } from '../src/lib/search/suggest';
import { distance, typoBudget, words } from '../src/lib/search/text';
import { EMPTY_STATE, type SearchState } from '../src/lib/search/types';
import synonymTable from '../src/lib/search/vocabulary/synonyms.json';
import { testIndex, type TestCar } from './helpers/search-index';

const STOCK: TestCar[] = [
  { make: 'Toyota', model: 'HiLux', badge: 'SR5 4x4 Double Cab', body: 'Ute', fuel: 'Diesel', drive: '4WD', year: 2019, price: 45990, km: 61000, colour: 'Glacier White', transmission: 'Automatic' },
  { make: 'Toyota', model: 'LandCruiser 300', badge: 'GR Sport', body: 'SUV', fuel: 'Diesel', drive: '4WD', year: 2022, price: 129990, km: 20000, seats: 7 },
  { make: 'Toyota', model: 'Corolla', badge: 'Ascent Sport', body: 'Hatch', fuel: 'Hybrid', drive: 'FWD', year: 2023, price: 31990, transmission: 'Automatic' },
  { make: 'Mazda', model: 'CX-5', badge: 'Maxx Sport', body: 'SUV', fuel: 'Petrol', drive: 'FWD', year: 2020, price: 28990, colour: 'Soul Red' },
  { make: 'Mazda', model: 'BT-50', badge: 'XT', body: 'Ute', fuel: 'Diesel', drive: '4WD', year: 2021, price: 39990, transmission: 'Manual' },
  { make: 'Hyundai', model: 'i30', badge: 'N Line', body: 'Hatch', fuel: 'Petrol', drive: 'FWD', year: 2022, price: 32990 },
  { make: 'Hyundai', model: 'i30', badge: 'Active', body: 'Hatch', fuel: 'Petrol', drive: 'FWD', year: 2018, price: 19990, km: 90000 },
  { make: 'Kia', model: 'Sportage', badge: 'S', body: 'SUV', fuel: 'Petrol', drive: 'FWD', year: 2021, price: 27990, seats: 5 },
  { make: 'Ford', model: 'Ranger', badge: 'XLT', body: 'Ute', fuel: 'Diesel', drive: '4WD', year: 2020, price: 48990, custom_rank: 5 },
  { make: 'Mitsubishi', model: 'Pajero Sport', badge: 'GLX', body: 'SUV', fuel: 'Diesel', drive: '4WD', year: 2019, price: 35990, seats: 7 },
  { make: 'Suzuki', model: 'Jimny', badge: 'Lite', body: 'SUV', fuel: 'Petrol', drive: '4WD', year: 2023, price: 29990, colour: 'Ranger Green' },
  { make: 'Isuzu', model: 'NLR', badge: '45-150', body: 'Cab Chassis', fuel: 'Diesel', drive: 'RWD', year: 2020, price: 69990 },
  { make: 'MG', model: 'ZS EV', badge: 'Excite', body: 'SUV', fuel: 'Electric', drive: 'FWD', year: 2023, price: 39990 },
  { make: 'Holden', model: 'Commodore', badge: 'SV6', body: 'Wagon', fuel: 'Petrol', drive: 'RWD', year: 2017, price: 16490 },
];

const state = (s: Partial<SearchState>): SearchState => ({ ...EMPTY_STATE, refinementList: {}, range: {}, ...s });

function setup(cars: TestCar[] = STOCK, synonyms: string[][] = [], now = () => Date.now()) {
  const decoded = decodeIndex(testIndex(cars));
  const engine = createEngine(decoded, { hitsPerPage: 50, priceAscExcludesZero: false, sortOptions: [], strict: true, newArrivalText: 'New Arrival', now });
  const kw = planner(decoded, synonyms);
  const search = (query: string, extra: Partial<SearchState> = {}) => engine.search(state({ query, ...extra }), kw);
  const names = (query: string, extra: Partial<SearchState> = {}) => search(query, extra).hits.map((h) => `${h.make} ${h.model}${h.badge ? ` ${h.badge}` : ''}`);
  return { decoded, engine, kw, search, names };
}

const { search, names, kw } = setup();

describe('text rules', () => {
  it('splits words on anything but letters and digits, in lower case without accents', () => {
    expect(words('GT-Line 4x4 Citroën')).toEqual(['gt', 'line', '4x4', 'citroen']);
  });
  it('allows 1 typo, 2 from 8 letters, none for 3 letters or fewer or words with a digit', () => {
    expect([typoBudget('kia'), typoBudget('kiaa'), typoBudget('hyundai'), typoBudget('landcruiser')]).toEqual([0, 1, 1, 2]);
    expect([typoBudget('4wd'), typoBudget('4x4'), typoBudget('cx50'), typoBudget('2019')]).toEqual([0, 0, 0, 0]);
  });
  it('counts a swap of neighbours as one edit and stops past the budget', () => {
    expect(distance('hyundia', 'hyundai', 2)).toBe(1);
    expect(distance('toyta', 'toyota', 2)).toBe(1);
    expect(distance('kluga', 'kluger', 1)).toBe(2);
    expect(distance('abcdefgh', 'zzzzzzzz', 2)).toBe(3);
  });
});

describe('ranking', () => {
  it('weighs the model above the badge, above the colour (field weights)', () => {
    // "sport": Pajero Sport's model; GR/Ascent/Maxx Sport badges; no prefix match (Sportage) when the word exists.
    expect(names('sport')).toEqual(['Mitsubishi Pajero Sport GLX', 'Toyota LandCruiser 300 GR Sport', 'Toyota Corolla Ascent Sport', 'Mazda CX-5 Maxx Sport']);
    // "ranger": Ford Ranger's model above the Jimny's "Ranger Green" colour.
    expect(names('ranger')).toEqual(['Ford Ranger XLT', 'Suzuki Jimny Lite']);
  });
  it('scores an exact word above a prefix above a typo', () => {
    expect(QUALITY.exact).toBeGreaterThan(QUALITY.prefix);
    expect(QUALITY.prefix).toBeGreaterThan(QUALITY.fuzzy);
    const toyota = (q: string) => kw(q).score().score[0]!;
    expect(toyota('toyota')).toBeCloseTo(10 * QUALITY.exact);
    expect(toyota('toyo')).toBeCloseTo(10 * QUALITY.prefix);
    expect(toyota('toyta')).toBeCloseTo(10 * QUALITY.fuzzy);
  });
  it('breaks score ties by custom_rank, then feed order; without a keyword relevance is custom_rank', () => {
    // Every ute scores the same for "ute": the Ranger (custom_rank 5) first, then the feed order.
    expect(names('ute')).toEqual(['Ford Ranger XLT', 'Toyota HiLux SR5 4x4 Double Cab', 'Mazda BT-50 XT']);
    expect(names('')[0]).toBe('Ford Ranger XLT');
  });
  it('sorts keyword hits by the chosen order when not by relevance', () => {
    const { engine } = setup();
    const e = createEngine(engine.decoded, { hitsPerPage: 50, priceAscExcludesZero: false, sortOptions: [{ key: 'price_asc', label: 'Price', value: 'p' }], strict: true });
    const prices = e.search(state({ query: 'ute' }), kw).hits.map((h) => h.price);
    expect(prices).toEqual([39990, 45990, 48990]);
  });
});

describe('typo tolerance', () => {
  it('finds misspelt makes and models in the stock vocabulary', () => {
    expect(names('toyta').every((n) => n.startsWith('Toyota'))).toBe(true);
    expect(search('toyta').nbHits).toBe(3);
    expect(search('hyundia').nbHits).toBe(2);
    expect(names('landcruser')).toEqual(['Toyota LandCruiser 300 GR Sport']);
    // Two typos from 8 letters on ("landcrusr": two letters missing).
    expect(names('landcrusr')).toEqual(['Toyota LandCruiser 300 GR Sport']);
    expect(search('corola').nbHits).toBe(1);
  });
  it('never for short words, numbers or model codes', () => {
    expect(search('kai').nbHits).toBe(0); // not Kia
    expect(search('toyt').nbHits).toBe(0); // 2 edits from toyota, 4 letters
    const fwdOnly = setup([{ make: 'Kia', model: 'Rio', drive: 'FWD' }, { make: 'Kia', model: 'Stinger', badge: '4x2' }]);
    expect(fwdOnly.search('4wd').nbHits).toBe(0);
    expect(fwdOnly.search('4x4').nbHits).toBe(0);
    expect(search('cx3').nbHits).toBe(0); // not CX-5
    expect(search('bt60').nbHits).toBe(0); // not BT-50
  });
});

describe('joined and split forms', () => {
  it('match both ways', () => {
    for (const q of ['cx5', 'cx-5', 'cx 5', 'CX5']) expect(names(q), q).toEqual(['Mazda CX-5 Maxx Sport']);
    for (const q of ['bt50', 'bt-50', 'bt 50']) expect(names(q), q).toEqual(['Mazda BT-50 XT']);
    for (const q of ['landcruiser', 'land cruiser', 'land cruiser 300', 'landcruiser300']) expect(names(q), q).toEqual(['Toyota LandCruiser 300 GR Sport']);
    for (const q of ['i30n', 'i30 n', 'i30 N Line']) expect(names(q), q).toEqual(['Hyundai i30 N Line']);
    const split = setup([{ make: 'Toyota', model: 'Land Cruiser', badge: 'GXL' }, { make: 'Toyota', model: 'Camry' }]);
    expect(split.search('landcruiser').nbHits).toBe(1);
    expect(split.search('land cruiser').nbHits).toBe(1);
  });
});

describe('soft AND', () => {
  it('ignores a word that matches nothing, and says so', () => {
    const r = search('toyota xyzzy');
    expect(r.nbHits).toBe(3);
    expect(r.query?.unmatched).toEqual(['xyzzy']);
  });
  it('puts the cars covering every word first, and only those when some do', () => {
    expect(names('diesel ute')).toEqual(['Ford Ranger XLT', 'Toyota HiLux SR5 4x4 Double Cab', 'Mazda BT-50 XT']);
  });
  it('falls back to the cars covering the most words when none has all', () => {
    const r = search('corolla ranger');
    // The Jimny is "Ranger Green": it covers "ranger" too, below the Ranger itself.
    expect(r.hits.map((h) => h.model)).toEqual(['Ranger', 'Corolla', 'Jimny']);
    expect(r.query?.ignored).toEqual([]);
  });
  it('reports a word the filtered cars do not have as left out', () => {
    const r = search('toyota ranger', { refinementList: { make: ['Toyota'] } });
    expect(r.nbHits).toBe(3);
    expect(r.query?.ignored).toEqual(['ranger']);
  });
  it('finds nothing, with a "did you mean", when no word matches', () => {
    const r = search('hyndaii');
    expect(r.nbHits).toBe(0);
    expect(r.query?.unmatched).toEqual(['hyndaii']);
    expect(r.query?.didYouMean).toBe('hyundai');
    expect(search('qqqqq').query?.didYouMean).toBeUndefined();
  });
  it('leaves out filler words', () => {
    expect(search('a ute for me').nbHits).toBe(3);
    expect(search('a ute for me').query?.unmatched).toEqual([]);
  });
});

describe('synonyms', () => {
  it('4x4, 4wd and four wheel drive find the same cars', () => {
    const fourWd = STOCK.filter((c) => c.drive === '4WD').length;
    for (const q of ['4x4', '4wd', 'four wheel drive', '4 wheel drive']) expect(search(q).nbHits, q).toBe(fourWd);
  });
  it('ute, utility and pick up; a tray (one way) is a ute or a cab chassis, a ute never a truck', () => {
    expect(search('utility').nbHits).toBe(3);
    expect(search('pickup').nbHits).toBe(3);
    expect(names('tray back').sort()).toEqual(['Ford Ranger XLT', 'Isuzu NLR 45-150', 'Mazda BT-50 XT', 'Toyota HiLux SR5 4x4 Double Cab']);
    expect(names('ute')).not.toContain('Isuzu NLR 45-150');
  });
  it('auto, manual, ev/electric', () => {
    expect(search('auto').nbHits).toBe(2);
    expect(names('manual')).toEqual(['Mazda BT-50 XT']);
    expect(names('ev')).toEqual(['MG ZS EV Excite']);
    expect(names('electric')).toEqual(['MG ZS EV Excite']);
  });
  it('adds the dealer groups from the YAML (runabout / hatch only where the dealer maps them)', () => {
    expect(search('runabout').nbHits).toBe(0);
    const mapped = setup(STOCK, [['runabout', 'hatch']]);
    expect(mapped.search('runabout').nbHits).toBe(STOCK.filter((c) => c.body === 'Hatch').length);
  });
  it("body and drive words as the trade uses them: a wagon is also an SUV (the trade's 4D wagon), after the wagons; an estate is a wagon", () => {
    const suvs = STOCK.filter((c) => c.body === 'SUV').length;
    const wagon = search('wagon');
    expect(wagon.nbHits).toBe(1 + suvs);
    expect(wagon.hits[0]?.model).toBe('Commodore');
    expect(names('estate')).toEqual(['Holden Commodore SV6']);
    // 2WD (or 4x2) is front or rear wheel drive; 4x4 never.
    const twoWd = STOCK.filter((c) => c.drive === 'RWD' || c.drive === 'FWD').length;
    expect(search('2wd').nbHits).toBe(twoWd);
    expect(search('4x2').nbHits).toBe(0);
    // Dual, double, twin and crew cab are one thing.
    for (const q of ['dual cab', 'twin cab', 'double cab', 'crew cab']) expect(names(q), q).toEqual(['Toyota HiLux SR5 4x4 Double Cab']);
    // A work ute is a ute; a tradie's vehicle a ute, a cab chassis or a van.
    expect(names('work ute').sort()).toEqual(names('ute').sort());
    expect(names('tradie').sort()).toEqual(['Ford Ranger XLT', 'Isuzu NLR 45-150', 'Mazda BT-50 XT', 'Toyota HiLux SR5 4x4 Double Cab']);
  });
  it('come from the shared table', () => {
    expect(synonymTable.groups.some((g) => g.includes('4x4') && g.includes('four wheel drive'))).toBe(true);
    expect(synonymTable.one_way.tray).toEqual(['ute', 'cab chassis']);
  });
});

describe('intents', () => {
  const years = new Set([2019, 2020, 2021]);
  const cases: Array<[string, string, Array<[string, number | undefined, number | undefined]>]> = [
    ['under 30k', '', [['price', undefined, 30000]]],
    ['Petrol wagon below $25,000', 'Petrol wagon', [['price', undefined, 25000]]],
    ['less than 40000', '', [['price', undefined, 40000]]],
    ['max 25 grand', '', [['price', undefined, 25000]]],
    ['between 20k and 30k suv', 'suv', [['price', 20000, 30000]]],
    ['from $20,000 to $35,000', '', [['price', 20000, 35000]]],
    ['ranger 30k', 'ranger', [['price', undefined, 30000]]],
    ['2019 hilux', 'hilux', [['year', 2019, 2019]]],
    ['hilux 2003', 'hilux 2003', []],
    ['2018-2021 corolla', 'corolla', [['year', 2018, 2021]]],
    ['2020 onwards', '', [['year', 2020, undefined]]],
    ['2020+ rav4', 'rav4', [['year', 2020, undefined]]],
    ['after 2018', '', [['year', 2019, undefined]]],
    ['before 2015', '', [['year', undefined, 2014]]],
    ['under 50,000 km', '', [['km', undefined, 50000]]],
    ["under 60 k's", '', [['km', undefined, 60000]]],
    ['ranger 50000km', 'ranger', [['km', undefined, 50000]]],
    ['cx-5 under 40k under 60k kms', 'cx-5', [['price', undefined, 40000], ['km', undefined, 60000]]],
    ['7 seater', '', [['seats', 7, undefined]]],
    // Numbers as words, and needs that are a number of seats.
    ['seven seater', '', [['seats', 7, undefined]]],
    ['eight seats suv', 'suv', [['seats', 8, undefined]]],
    ['people mover', '', [['seats', 7, undefined]]],
    ['kia people movers', 'kia', [['seats', 7, undefined]]],
    ['8 seat people mover', '', [['seats', 8, undefined], ['seats', 7, undefined]]],
    ['suv under twenty thousand', 'suv', [['price', undefined, 20000]]],
    ['twenty five grand', '', [['price', undefined, 25000]]],
    ['under one hundred thousand', '', [['price', undefined, 100000]]],
    ['between twenty and thirty thousand', '', [['price', 20000, 30000]]],
    ['20 to 30k', '', [['price', 20000, 30000]]],
    ['$15,000 - 20k', '', [['price', 15000, 20000]]],
    ['two door', 'two door', []],
    ['one owner', 'one owner', []],
    ['i30 n', 'i30 n', []],
    ['land cruiser 300', 'land cruiser 300', []],
  ];
  it.each(cases)('%s', (query, rest, want) => {
    const u = understand(query, { years });
    expect(u.rest).toBe(rest);
    expect(u.intents.map((i) => [i.attr, i.min, i.max])).toEqual(want);
  });
  it('keep the words as typed for the chip', () => {
    expect(understand('Hilux Under $30,000', { years }).intents[0]?.text).toBe('Under $30,000');
  });
  it('filter the search like ranges and are reported', () => {
    const r = search('diesel under 40k');
    expect(r.hits.map((h) => h.price).every((p) => p <= 40000)).toBe(true);
    expect(r.nbHits).toBe(2);
    expect(r.query?.intents).toEqual([{ attr: 'price', max: 40000, min: undefined, text: 'under 40k' }]);
    expect(names('7 seater').sort()).toEqual(['Mitsubishi Pajero Sport GLX', 'Toyota LandCruiser 300 GR Sport']);
    expect(names('2019 hilux')).toEqual(['Toyota HiLux SR5 4x4 Double Cab']);
  });
  it('seats from words: "seven seater" and "people mover" find the 7-seaters; "8 seat people mover" the 8-seaters, of which there are none', () => {
    const sevens = ['Mitsubishi Pajero Sport GLX', 'Toyota LandCruiser 300 GR Sport'];
    expect(names('seven seater').sort()).toEqual(sevens);
    expect(names('people mover').sort()).toEqual(sevens);
    expect(search('8 seat people mover').nbHits).toBe(0);
  });
  it('a budget lists priced cars only: a car without a price (0) is within no price range, typed or from the URL', () => {
    const unpriced: TestCar = { make: 'Nissan', model: 'Pathfinder', badge: 'Ti', body: 'SUV', fuel: 'Petrol', drive: '4WD', year: 2026, price: 0 };
    const withUnpriced = setup([...STOCK, unpriced]);
    expect(withUnpriced.names('suv under 30k')).not.toContain('Nissan Pathfinder Ti');
    expect(withUnpriced.names('suv under 30k').length).toBeGreaterThan(0);
    expect(withUnpriced.names('', { range: { price: { max: 30000 } } })).not.toContain('Nissan Pathfinder Ti');
    expect(withUnpriced.names('', { range: { price: { min: 0, max: 30000 } } })).not.toContain('Nissan Pathfinder Ti');
    // Without a budget it is listed as before.
    expect(withUnpriced.names('pathfinder')).toEqual(['Nissan Pathfinder Ti']);
  });
  it('narrow the URL range rather than replace it', () => {
    expect(search('under 40k', { range: { price: { min: 30000 } } }).hits.map((h) => h.price).sort()).toEqual([31990, 32990, 35990, 39990, 39990]);
  });
  it('a year the stock lacks is an ignored word, not an empty page', () => {
    const r = search('hilux 2003');
    expect(r.nbHits).toBe(1);
    expect(r.query?.unmatched).toEqual(['2003']);
  });
});

describe('suggestions', () => {
  const facets = setup().engine.search(state({})).facets;
  it('offer makes, then models, then body and fuel words of the stock, with counts', () => {
    expect(suggest('toy', facets)).toEqual([
      { query: 'Toyota', count: 3, kind: 'make' },
      { query: 'Toyota Corolla', count: 1, kind: 'model' },
      { query: 'Toyota HiLux', count: 1, kind: 'model' },
      { query: 'Toyota LandCruiser 300', count: 1, kind: 'model' },
    ]);
    expect(suggest('landcr', facets).map((s) => s.query)).toEqual(['Toyota LandCruiser 300']);
    expect(suggest('dies', facets)).toEqual([{ query: 'Diesel', count: 6, kind: 'word' }]);
    expect(suggest('zz', facets)).toEqual([]);
    expect(suggest('m', facets, 3)).toHaveLength(3);
  });
  it("offer the site's search pages that fit, most cars first, named without 'for sale'", () => {
    const pages = [
      { path: 'used-cars', title: 'Used cars for sale', count: 17 },
      { path: 'new-used-and-demo-cars', title: 'New, used and demo cars for sale', count: 26 },
      { path: 'toyota', title: 'Toyota cars for sale', count: 9 },
      { path: 'toyota/hilux', title: 'Toyota HiLux for sale', count: 3 },
      { path: 'toyota/rav4', title: 'Toyota RAV4 for sale', count: 3 },
      { path: 'toyota/yaris', title: 'Toyota Yaris for sale', count: 0 },
      { path: 'suv', title: 'SUV cars for sale', count: 11 },
    ];
    expect(suggestPages('used', pages)).toEqual([
      { query: 'New, used and demo cars', count: 26, kind: 'page', path: 'new-used-and-demo-cars' },
      { query: 'Used cars', count: 17, kind: 'page', path: 'used-cars' },
    ]);
    expect(suggestPages('toy', pages).map((p) => p.path)).toEqual(['toyota', 'toyota/hilux', 'toyota/rav4']);
    expect(suggestPages('toy', pages, 2)).toHaveLength(2);
    expect(suggestPages('hilux', pages).map((p) => p.query)).toEqual(['Toyota HiLux']);
    // "cars" and "for sale" are in every title: they fit nothing; a page without cars is never offered.
    expect(suggestPages('cars', pages)).toEqual([]);
    expect(suggestPages('sale', pages)).toEqual([]);
    expect(suggestPages('yaris', pages)).toEqual([]);
    expect(suggestPages('toy', undefined)).toEqual([]);
  });
  it('are fetched from /search-pages.json, and a failed or malformed download is an error, not a list', async () => {
    const pages = [{ path: 'used-cars', title: 'Used cars for sale', count: 17 }];
    const answer = (status: number, body: unknown) => async (url: RequestInfo | URL) => {
      expect(url).toBe(SEARCH_PAGES_URL);
      return new Response(JSON.stringify(body), { status });
    };
    expect(await fetchSearchPages(answer(200, pages) as typeof fetch)).toEqual(pages);
    await expect(fetchSearchPages(answer(404, pages) as typeof fetch)).rejects.toThrow(/404/);
    await expect(fetchSearchPages(answer(200, { pages }) as typeof fetch)).rejects.toThrow(/not a list/);
    await expect(fetchSearchPages(answer(200, [{ path: 'x', title: 'X' }]) as typeof fetch)).rejects.toThrow(/not a list/);
  });
  it('fit by word prefixes or the joined-up text', () => {
    expect(fits('Toyota HiLux', 'toy hi')).toBe(true);
    expect(fits('Toyota LandCruiser 300', 'landcruiser 3')).toBe(true);
    expect(fits('Toyota HiLux', 'hilux toyota x')).toBe(false);
  });
});

describe('facets and hits at the shopper clock', () => {
  it('model picker: the models of a make stay listed with one ticked, and other makes with a make ticked', () => {
    const { engine } = setup();
    const mm = (s: Partial<SearchState>) => engine.search(state(s)).facets.make_model ?? {};
    const ticked = mm({ refinementList: { make: ['Toyota'], model: ['HiLux'] } });
    expect(ticked['Toyota|Corolla']).toBe(1);
    expect(ticked['Toyota|LandCruiser 300']).toBe(1);
    expect(ticked['Mazda|CX-5']).toBe(1);
    // Other filters still narrow the picker: only diesel models remain.
    const diesel = mm({ refinementList: { make: ['Toyota'], fuel: ['Diesel'] } });
    expect(diesel['Toyota|Corolla']).toBeUndefined();
    expect(diesel['Mazda|BT-50']).toBe(1);
  });
  it('price bands are a facet of their own', () => {
    expect(band(0, PRICE_BANDS)).toBe('');
    expect(band(9999, PRICE_BANDS)).toBe('0-10000');
    expect(band(45990, PRICE_BANDS)).toBe('40000-50000');
    expect(band(129990, PRICE_BANDS)).toBe('100000+');
    expect(bandLabel('0-10000')).toBe('Under $10,000');
    expect(bandLabel('40000-50000')).toBe('$40,000 – $50,000');
    expect(bandLabel('100000+')).toBe('$100,000 and over');
    expect(bandLabel('150-200', true)).toBe('$150 – $200 / week');
    const { engine } = setup();
    expect(engine.search(state({})).facets.price_range?.['40000-50000']).toBe(2);
    expect(engine.search(state({ refinementList: { price_range: ['100000+'] } })).hits.map((h) => h.model)).toEqual(['LandCruiser 300']);
  });
  it('New Arrival is judged at the shopper clock (8 days), below any other banner', () => {
    const day = 86_400;
    const listed = 1_800_000_000;
    const cars: TestCar[] = [
      { make: 'Kia', model: 'Rio', created_at: listed },
      { make: 'Kia', model: 'Picanto', created_at: listed, tag_banner: 'Reserved' },
      { make: 'Kia', model: 'Cerato', created_at: listed, status: 'sold', tag_banner: 'SOLD' },
    ];
    const at = (days: number) => setup(cars, [], () => (listed + days * day) * 1000).engine.search(state({})).hits.map((h) => h.tag_banner);
    expect(at(2)).toEqual(['New Arrival', 'Reserved', 'SOLD']);
    expect(at(7.9)).toEqual(['New Arrival', 'Reserved', 'SOLD']);
    expect(at(8)).toEqual(['', 'Reserved', 'SOLD']);
    expect(at(-1)).toEqual(['', 'Reserved', 'SOLD']);
  });
});

/** The engine's vocabulary is the stock's own: nothing extra is read from the index. */
it('builds the vocabulary from the decoded columns', () => {
  const d: Decoded = decodeIndex(testIndex([{ make: 'Kia', model: 'EV6', badge: 'GT-Line' }]));
  const r = createEngine(d, { hitsPerPage: 5, priceAscExcludesZero: false, sortOptions: [] }).search(state({ query: 'gtline' }), planner(d));
  expect(r.nbHits).toBe(1);
});
