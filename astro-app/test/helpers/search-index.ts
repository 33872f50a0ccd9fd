/**
 * A search index (the generator's layout, version 2) built from a few
 * hand-written cars, for keyword tests that need makes and models the
 * fixture dealer does not stock. generator/tests/integration/build.rs pins the real
 * layout; this mirrors it for the columns the engine reads.
 */
import type { SearchIndex } from '../../src/types/site';

export interface TestCar {
  make: string;
  model: string;
  badge?: string;
  series?: string;
  year?: number;
  car_type?: 'new' | 'used' | 'demo';
  status?: 'in_stock' | 'coming_soon' | 'sold';
  body?: string;
  fuel?: string;
  transmission?: string;
  drive?: string;
  colour?: string;
  /** The generator's colour family of `colour` ("white"). */
  colour_family?: string;
  tag?: string;
  tag_banner?: string;
  price?: number;
  km?: number;
  seats?: number;
  custom_rank?: number;
  created_at?: number;
  subscription_price?: number;
  certified?: boolean;
  features?: string[];
  categories?: string[];
  stocknum?: string;
  city?: string;
}

export function testIndex(cars: TestCar[]): SearchIndex {
  const dict = (get: (c: TestCar) => string | undefined) => {
    const raw = cars.map((c) => (get(c) ?? '').trim());
    const values = [...new Set(raw.filter(Boolean))].sort();
    return { values, codes: raw.map((v) => (v ? values.indexOf(v) : -1)) };
  };
  const set = (get: (c: TestCar) => string[] | undefined) => {
    const values = [...new Set(cars.flatMap((c) => get(c) ?? []))].sort();
    return { values, masks: cars.map((c) => (get(c) ?? []).reduce((m, v) => m | (1 << values.indexOf(v)), 0)) };
  };
  const cities = [...new Set(cars.map((c) => c.city ?? 'Newstead'))].sort();
  const num = (get: (c: TestCar) => number | undefined) => cars.map((c) => get(c) ?? 0);
  return {
    version: 2,
    count: cars.length,
    text: {
      make: dict((c) => c.make),
      model: dict((c) => c.model),
      badge: dict((c) => c.badge),
      series: dict((c) => c.series),
      car_type: dict((c) => c.car_type ?? 'used'),
      status: dict((c) => c.status ?? 'in_stock'),
      body: dict((c) => c.body),
      fuel: dict((c) => c.fuel),
      transmission: dict((c) => c.transmission),
      drive: dict((c) => c.drive),
      colour: dict((c) => c.colour),
      colour_family: dict((c) => c.colour_family),
      tag: dict((c) => c.tag),
      tag_banner: dict((c) => c.tag_banner),
      item_type: dict(() => 'car'),
      dealership_slug: dict(() => 'test-dealer'),
      dealership_name: dict(() => 'Test Dealer'),
    },
    numbers: {
      year: num((c) => c.year ?? 2022),
      price: num((c) => c.price ?? 30000),
      km: num((c) => c.km ?? 20000),
      seats: num((c) => c.seats),
      custom_rank: num((c) => c.custom_rank),
      created_at: num((c) => c.created_at ?? 1_700_000_000),
      subscription_price: num((c) => c.subscription_price),
      certified: num((c) => (c.certified ? 1 : 0)),
      photos_count: num(() => 4),
      location: cars.map((c) => cities.indexOf(c.city ?? 'Newstead')),
    },
    strings: {
      id: cars.map((_, i) => String(i + 1)),
      slug: cars.map((c, i) => `${c.make}-${c.model}-${i + 1}`.toLowerCase().replace(/[^a-z0-9]+/g, '-')),
      name: cars.map((c) => `${c.year ?? 2022} ${c.make} ${c.model} ${c.badge ?? ''}`.trim()),
      stocknum: cars.map((c, i) => c.stocknum ?? `T${1000 + i}`),
      image: cars.map(() => '/x.jpg'),
    },
    sets: { filtered_features: set((c) => c.features), categories: set((c) => c.categories) },
    locations: cities.map((city) => ({ id: city, name: `Test ${city}`, city, state: 'QLD', phone: '' })),
    facets: {},
    facets_stats: {},
  };
}
