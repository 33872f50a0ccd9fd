/** Structured data (schema.org JSON-LD) for search engines; pure, unit-tested. */

import type { Car, SiteData } from '../types/site';

const AVAILABILITY: Record<Car['status'], string> = {
  in_stock: 'https://schema.org/InStock',
  coming_soon: 'https://schema.org/PreOrder',
  sold: 'https://schema.org/SoldOut',
};

const CONDITION: Record<Car['car_type'], string> = {
  new: 'https://schema.org/NewCondition',
  demo: 'https://schema.org/UsedCondition',
  used: 'https://schema.org/UsedCondition',
};

/** A schema.org Car with an Offer; the price is left out when the dealer shows none. */
export function carJsonLd(car: Car, site: Pick<SiteData, 'name' | 'base_url'>): Record<string, unknown> {
  const url = `${site.base_url}/cars/${car.slug}/`;
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Car',
    name: car.name,
    url,
    brand: { '@type': 'Brand', name: car.make },
    model: car.model,
    vehicleModelDate: String(car.year),
    mileageFromOdometer: { '@type': 'QuantitativeValue', value: car.km, unitCode: 'KMT' },
    itemCondition: CONDITION[car.car_type],
    offers: {
      '@type': 'Offer',
      url,
      availability: AVAILABILITY[car.status],
      priceCurrency: 'AUD',
      ...(car.price > 10 ? { price: car.price } : {}),
      seller: { '@type': 'AutoDealer', name: site.name },
    },
  };
  if (car.images.length > 0) data['image'] = car.images.map((src) => new URL(src, `${site.base_url}/`).href);
  if (car.vin) data['vehicleIdentificationNumber'] = car.vin;
  if (car.body) data['bodyType'] = car.body;
  if (car.fuel) data['fuelType'] = car.fuel;
  if (car.transmission) data['vehicleTransmission'] = car.transmission;
  if (car.colour) data['color'] = car.colour;
  return data;
}

/** JSON for an inline <script type="application/ld+json">: "<" escaped so text cannot close the element. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
