/**
 * Search in shoppers' words, round 2: vague budgets ("cheap", "under 25
 * grand"), kilometres said in words ("low kms", "near new"), colour
 * families ("white ute") and several conditions in one search, each
 * becoming a filter the shopper sees as a removable chip
 * (docs/behaviour/search.md, "Words that become filters").
 */
import { describe, expect, it } from 'vitest';
import { chipsOf, withIntents } from '../src/lib/search/chips';
import { createEngine, decodeIndex } from '../src/lib/search/engine';
import { understand } from '../src/lib/search/intents';
import { CHEAP_AT_LEAST, cheapLimit, planner } from '../src/lib/search/query-plan';
import { EMPTY_STATE, type SearchState } from '../src/lib/search/types';
import table from '../src/lib/search/vocabulary/intents.json';
import { testIndex, type TestCar } from './helpers/search-index';

const years = new Set([2018, 2019, 2020, 2021, 2022, 2023]);
const families = new Set(['White', 'Silver/Grey', 'Red', 'Black']);

describe('the words understood', () => {
  const cases: Array<[string, string, Array<[string, number | undefined, number | undefined]>]> = [
    ['ute under 40k with low kms', 'ute with', [['price', undefined, 40000], ['km', undefined, 40000]]],
    ['low mileage suv', 'suv', [['km', undefined, 40000]]],
    ['suv low klms', 'suv', [['km', undefined, 40000]]],
    ['low odo hilux', 'hilux', [['km', undefined, 40000]]],
    ['low miles wagon', 'wagon', [['km', undefined, 40000]]],
    ['lower kilometres', '', [['km', undefined, 40000]]],
    ['near new corolla', 'corolla', [['km', undefined, 15000]]],
    ['as new ranger', 'ranger', [['km', undefined, 15000]]],
    ['under 25 grand', '', [['price', undefined, 25000]]],
    ['hatch $25k', 'hatch', [['price', undefined, 25000]]],
    ['25k hatch', 'hatch', [['price', undefined, 25000]]],
    ['under 60000 odo', '', [['km', undefined, 60000]]],
    ['under 60 thousand kms', '', [['km', undefined, 60000]]],
    ['cheaper than 20k', '', [['price', undefined, 20000]]],
    // "low" alone is a word (a "low rider"), not a limit.
    ['low rider', 'low rider', []],
  ];
  it.each(cases)('%s', (query, rest, want) => {
    const u = understand(query, { years, families });
    expect(u.rest).toBe(rest);
    expect(u.intents.map((i) => [i.attr, i.min, i.max])).toEqual(want);
  });

  it.each([['cheap diesel', 'diesel'], ['bargain ute', 'ute'], ['affordable suv', 'suv'], ['suv on a budget', 'suv'], ['cheapest hatch', 'hatch']])(
    '"%s" is a cheap price limit the engine works out, the rest the words',
    (query, rest) => {
      const u = understand(query, { years, families });
      expect(u.rest).toBe(rest);
      expect(u.intents).toHaveLength(1);
      expect(u.intents[0]).toMatchObject({ attr: 'price', cheap: true, min: undefined, max: undefined });
    },
  );

  it('a colour word is its family when the stock has cars of it, and a word otherwise', () => {
    expect(understand('white ute', { years, families })).toEqual({ rest: 'ute', intents: [{ attr: 'colour_family', value: 'White', text: 'white', min: undefined, max: undefined }] });
    expect(understand('silver hatch', { years, families }).intents.map((i) => i.value)).toEqual(['Silver/Grey']);
    expect(understand('Gray SUV', { years, families }).intents.map((i) => i.value)).toEqual(['Silver/Grey']);
    // No green car: "green" stays a word (the search says it matched nothing), no empty page.
    expect(understand('green ute', { years, families })).toEqual({ rest: 'green ute', intents: [] });
    expect(understand('white ute', { years })).toEqual({ rest: 'white ute', intents: [] });
  });

  it('every colour word names one family: the words of its name and the table’s others', () => {
    const words = Object.entries(table.colour_families).flatMap(([family, more]) => [...family.toLowerCase().split('/'), ...more]);
    expect(new Set(words).size).toBe(words.length);
    for (const [word, family] of [['orange', 'Yellow/Orange'], ['copper', 'Brown/Bronze'], ['gold', 'Beige/Gold'], ['navy', 'Blue']]) {
      expect(understand(`${word} car`, { years, families: new Set([family!]) }).intents.map((i) => i.value)).toEqual([family]);
    }
  });
});

// Prices and km chosen so that each rule has cars on both sides of it.
const STOCK: TestCar[] = [
  { make: 'Toyota', model: 'HiLux', badge: 'SR5', body: 'Ute', fuel: 'Diesel', year: 2021, price: 45990, km: 30000, colour: 'Glacier White', colour_family: 'White' },
  { make: 'Toyota', model: 'HiLux', badge: 'Workmate', body: 'Ute', fuel: 'Diesel', year: 2019, price: 32990, km: 88000, colour: 'Crystal White Pearl', colour_family: 'White' },
  { make: 'Mazda', model: 'BT-50', badge: 'XT', body: 'Ute', fuel: 'Diesel', year: 2022, price: 38990, km: 21000, colour: 'Arctic White', colour_family: 'White' },
  { make: 'Ford', model: 'Ranger', badge: 'XL', body: 'Ute', fuel: 'Diesel', year: 2022, price: 36990, km: 52000, colour: 'Gun Metallic', colour_family: 'Silver/Grey' },
  { make: 'Isuzu', model: 'D-Max', badge: 'SX', body: 'Ute', fuel: 'Diesel', year: 2023, price: 39990, km: 9000, colour: 'Eclipse Black', colour_family: 'Black' },
  { make: 'Mitsubishi', model: 'Triton', badge: 'GLX', body: 'Ute', fuel: 'Diesel', year: 2020, price: 27990, km: 61000, colour: 'Silver Pearl', colour_family: 'Silver/Grey' },
  { make: 'Toyota', model: 'LandCruiser', badge: 'GX', body: 'SUV', fuel: 'Diesel', year: 2023, price: 89990, km: 5000, colour: 'Glacier White', colour_family: 'White' },
  { make: 'Toyota', model: 'Prado', badge: 'GXL', body: 'SUV', fuel: 'Diesel', year: 2022, price: 72990, km: 25000, colour: 'Graphite', colour_family: 'Silver/Grey' },
  { make: 'Kia', model: 'Sorento', badge: 'Sport', body: 'SUV', fuel: 'Diesel', year: 2021, price: 48990, km: 40000, colour: 'Soul Red', colour_family: 'Red' },
  { make: 'Hyundai', model: 'Santa Fe', badge: 'Active', body: 'SUV', fuel: 'Diesel', year: 2020, price: 41990, km: 70000, colour: 'Nebula' },
  { make: 'Hyundai', model: 'i30', badge: 'Active', body: 'Hatch', fuel: 'Petrol', year: 2018, price: 17990, km: 90000, colour: 'Polar White', colour_family: 'White' },
  { make: 'Kia', model: 'Picanto', badge: 'S', body: 'Hatch', fuel: 'Petrol', year: 2022, price: 15990, km: 12000, colour: 'Clear White', colour_family: 'White' },
  { make: 'Toyota', model: 'Corolla', badge: 'Ascent', body: 'Hatch', fuel: 'Hybrid', year: 2023, price: 31990, km: 0 },
];

const state = (s: Partial<SearchState>): SearchState => ({ ...EMPTY_STATE, refinementList: {}, range: {}, ...s });
const decoded = decodeIndex(testIndex(STOCK));
const engine = createEngine(decoded, { hitsPerPage: 50, priceAscExcludesZero: false, sortOptions: [], strict: true, newArrivalText: 'New Arrival' });
const kw = planner(decoded);
const search = (query: string, extra: Partial<SearchState> = {}) => engine.search(state({ query, ...extra }), kw);
const carOf = (h: { objectID: string }) => STOCK[Number(h.objectID) - 1]!;

describe('the words as filters', () => {
  it('"ute under 40k with low kms": every condition holds in every result', () => {
    const r = search('ute under 40k with low kms');
    const cars = r.hits.map(carOf);
    expect(cars.length).toBeGreaterThan(0);
    for (const c of cars) {
      expect(c.body).toBe('Ute');
      expect(c.price).toBeLessThanOrEqual(40000);
      expect(c.km).toBeLessThanOrEqual(40000);
    }
    // The BT-50 and the D-Max: the only utes within both limits.
    expect(cars.map((c) => c.model).sort()).toEqual(['BT-50', 'D-Max']);
  });

  it('"cheap diesel": the lower-priced quarter of the diesels, at least five, as a price limit', () => {
    const r = search('cheap diesel');
    const diesels = STOCK.filter((c) => c.fuel === 'Diesel').map((c) => c.price!).sort((a, b) => a - b);
    const limit = diesels[Math.max(Math.ceil(diesels.length / 4), CHEAP_AT_LEAST) - 1]!;
    expect(r.query?.intents[0]).toMatchObject({ attr: 'price', cheap: true, max: limit });
    const cars = r.hits.map(carOf);
    expect(cars).toHaveLength(CHEAP_AT_LEAST);
    for (const c of cars) {
      expect(c.fuel).toBe('Diesel');
      expect(c.price).toBeLessThanOrEqual(limit);
    }
    // No new $45,000+ SUV among them.
    expect(cars.some((c) => c.price! >= 45000)).toBe(false);
    expect(r.query?.notes).toEqual([`“cheap”: up to $${limit.toLocaleString('en-AU')}, the lower-priced quarter of what matches.`]);
  });

  it('cheapLimit: the lower-priced quarter, at least five, all when fewer', () => {
    const prices = Array.from({ length: 40 }, (_, i) => (40 - i) * 1000);
    expect(cheapLimit(prices)).toBe(10000);
    expect(cheapLimit(prices.slice(0, 12))).toBe(33000);
    expect(cheapLimit([3000, 1000])).toBe(3000);
    expect(cheapLimit([])).toBeUndefined();
  });

  it('"cheap" where fewer than five match keeps them all', () => {
    const r = search('cheap hatch');
    expect(r.hits.map(carOf).map((c) => c.model).sort()).toEqual(['Corolla', 'Picanto', 'i30']);
  });

  it('"white ute": the white utes, whatever the maker calls white; a colour no family claims is in none', () => {
    const r = search('white ute');
    expect(r.hits.map(carOf).map((c) => c.colour).sort()).toEqual(['Arctic White', 'Crystal White Pearl', 'Glacier White']);
    expect(r.facets.colour_family).toMatchObject({ White: 3 });
    const silver = search('silver ute');
    expect(silver.hits.map(carOf).map((c) => c.colour).sort()).toEqual(['Gun Metallic', 'Silver Pearl']);
  });

  it('each becomes a chip the shopper can remove, and the query keeps its other words', () => {
    const typed = state({ query: 'white ute under 40k' });
    const r = engine.search(typed, kw);
    const moved = withIntents(typed, r.query)!;
    expect(moved.query).toBe('ute');
    expect(moved.refinementList).toEqual({ colour_family: ['White'] });
    expect(moved.range).toEqual({ price: { min: undefined, max: 40000 } });
    const chips = chipsOf(moved);
    expect(chips.map((c) => c.label)).toEqual(['Colour: White', 'Price: up to $40,000']);
    // Removing the colour chip keeps the price; the search widens to every ute within it.
    const without = chips[0]!.without;
    expect(without.refinementList).toEqual({});
    expect(engine.search(without, kw).hits.map(carOf).every((c) => c.body === 'Ute' && c.price! <= 40000)).toBe(true);
    expect(engine.search(without, kw).nbHits).toBeGreaterThan(engine.search(moved, kw).nbHits);
  });

  it('a cheap limit moves into the price range like a typed one; one with nothing priced to compare goes without a chip', () => {
    const typed = state({ query: 'cheap diesel' });
    const moved = withIntents(typed, engine.search(typed, kw).query)!;
    expect(moved.query).toBe('diesel');
    expect(chipsOf(moved).map((c) => c.label)).toEqual(['Price: up to $39,990']);
    const none = withIntents(state({ query: 'cheap' }), { rest: '', intents: [{ attr: 'price', cheap: true, text: 'cheap' }], unmatched: [], ignored: [] })!;
    expect(none.range).toEqual({});
    expect(chipsOf(none)).toEqual([]);
  });
});
