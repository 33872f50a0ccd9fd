/**
 * What the filter panel and the active-filter chips call an attribute and
 * its values: "Availability: Coming soon", "Seats: 7 or more", "Price: up
 * to $25,000", "Price range: $20,000 – $30,000".
 */
import { carTypeLabel, dollars, formatKm } from '../format';
import { bandLabel } from './price-ranges';
import type { RangeRefinement } from './types';

/** Titles of the facets (filter panel legends and chip names). */
export const FACET_TITLES: Record<string, string> = {
  car_type: 'Condition',
  make: 'Make',
  model: 'Model',
  make_model: 'Model',
  badge: 'Badge',
  body: 'Body type',
  fuel: 'Fuel',
  transmission: 'Transmission',
  drive: 'Drive',
  colour: 'Colour',
  colour_family: 'Colour',
  city: 'City',
  location_name: 'Dealership',
  state: 'State',
  year: 'Year',
  status: 'Availability',
  item_type: 'Type',
  seats: 'Seats',
  tag: 'Tag',
  certified: 'Certified',
  dealership_slug: 'Dealer',
  dealership_name: 'Dealer',
  categories: 'Category',
  filtered_features: 'Features',
  price_range: 'Price range',
  weekly_price_range: 'Weekly price',
  price: 'Price',
  km: 'Kilometres',
  subscription_price: 'Subscription',
};

const STATUS: Record<string, string> = { in_stock: 'In stock', coming_soon: 'Coming soon', sold: 'Recently sold' };


export const facetTitle = (attr: string): string => FACET_TITLES[attr] ?? attr;

/** A facet value as shown. */
export function valueLabel(attr: string, value: string): string {
  switch (attr) {
    case 'car_type':
      return value === 'new' || value === 'used' || value === 'demo' ? carTypeLabel(value) : value;
    case 'status':
      return STATUS[value] ?? value;
    case 'certified':
      return value === 'true' ? 'Certified pre-owned' : value;
    case 'seats':
      return `${value} seats`;
    case 'item_type':
      return value.charAt(0).toUpperCase() + value.slice(1);
    case 'make_model':
      return value.replace('|', ' ');
    case 'price_range':
      return bandLabel(value);
    case 'weekly_price_range':
      return bandLabel(value, true);
    default:
      return value;
  }
}

function amount(attr: string, v: number): string {
  if (attr === 'price') return dollars(v);
  if (attr === 'subscription_price') return `${dollars(v)} / week`;
  if (attr === 'km') return formatKm(v);
  return String(v);
}

/** A range as a chip says it: "up to $25,000", "from 2020", "2018 – 2021", "2019", "7 or more". */
export function rangeText(attr: string, r: RangeRefinement): string {
  const { min, max } = r;
  if (min !== undefined && max !== undefined) return min === max ? amount(attr, min) : `${amount(attr, min)} – ${amount(attr, max)}`;
  if (min !== undefined) return attr === 'seats' ? `${min} or more` : `from ${amount(attr, min)}`;
  if (max !== undefined) return `up to ${amount(attr, max)}`;
  return 'any';
}
