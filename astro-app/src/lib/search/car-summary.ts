/**
 * What the compare and favourites pages show of a car, served per car as
 * /cars/{slug}.json at build time (a few hundred bytes each, fetched only
 * for the cars being compared): prices, the card facts and every
 * specification row the car page lists. A car sold and gone since has no
 * file (404): the pages say it is no longer listed.
 */
import type { Car, SpecRow } from '../../types/site';

export interface CarSummary {
  id: string;
  slug: string;
  name: string;
  year: number;
  make: string;
  model: string;
  badge: string;
  car_type: Car['car_type'];
  status: Car['status'];
  in_stock: boolean;
  price: number;
  price_text: string;
  was_price_text: string;
  price_type: string;
  km: number;
  image: string;
  tag_banner: string;
  location: string;
  specs: SpecRow[];
}

export function carSummary(car: Car): CarSummary {
  return {
    id: car.id,
    slug: car.slug,
    name: car.name,
    year: car.year,
    make: car.make,
    model: car.model,
    badge: car.badge ?? '',
    car_type: car.car_type,
    status: car.status,
    in_stock: car.in_stock,
    price: car.price,
    price_text: car.price_text,
    was_price_text: car.was_price_text ?? '',
    price_type: car.price_type ?? '',
    km: car.km,
    image: car.images[0] ?? '',
    tag_banner: car.tag_banner ?? '',
    location: [car.location.name, car.location.suburb && `${car.location.suburb} ${car.location.state}`.trim()].filter(Boolean).join(', '),
    specs: car.specs,
  };
}

/** One row of the comparison: a label and each car's value ('' when it has none). */
export interface CompareRow {
  label: string;
  values: string[];
  /** The cars do not all have the same value (the row is marked). */
  differs: boolean;
}

/**
 * The rows of a side-by-side comparison: the price first, then condition
 * and odometer, then every specification label any of the cars has, in the
 * order they first appear, then where each car is.
 */
export function compareRows(cars: readonly CarSummary[], conditionLabel: (t: Car['car_type']) => string, km: (n: number) => string): CompareRow[] {
  const rows: Array<{ label: string; values: string[] }> = [
    { label: 'Price', values: cars.map((c) => [c.price_text, c.price_type].filter(Boolean).join(' ')) },
    { label: 'Was', values: cars.map((c) => c.was_price_text) },
    { label: 'Condition', values: cars.map((c) => conditionLabel(c.car_type)) },
    { label: 'Odometer', values: cars.map((c) => km(c.km)) },
  ];
  const skip = new Set(['Odometer', 'Condition', 'Price']);
  const labels: string[] = [];
  for (const c of cars) for (const s of c.specs) if (!skip.has(s.label) && !labels.includes(s.label)) labels.push(s.label);
  for (const label of labels) rows.push({ label, values: cars.map((c) => c.specs.find((s) => s.label === label)?.value ?? '') });
  rows.push({ label: 'Location', values: cars.map((c) => c.location) });
  return rows
    .filter((r) => r.values.some(Boolean))
    .map((r) => ({ ...r, differs: cars.length > 1 && new Set(r.values).size > 1 }));
}
