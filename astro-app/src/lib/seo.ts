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

type SeoSite = Pick<SiteData, 'name' | 'base_url' | 'locations'>;

/**
 * The AutoDealer selling the car: its location (name, phone, address, page),
 * part of the dealer. Its phone is the car's (`car.location`, as the
 * generator decided it), left out where that is masked
 * (`car.location.phone_masked`): the page carries no unmasked number, and
 * the location's page, linked as the seller's url, has it.
 */
export function sellerJsonLd(car: Car, site: SeoSite): Record<string, unknown> {
  const loc = site.locations.find((l) => l.id === car.location.id);
  if (!loc) return { '@type': 'AutoDealer', name: site.name, url: `${site.base_url}/` };
  return {
    '@type': 'AutoDealer',
    name: loc.name,
    ...(car.location.phone_masked ? {} : { telephone: car.location.phone }),
    url: `${site.base_url}/contact-us/${loc.slug}/`,
    address: {
      '@type': 'PostalAddress',
      streetAddress: loc.address.street,
      addressLocality: loc.address.suburb,
      addressRegion: loc.address.state,
      postalCode: loc.address.postcode,
      addressCountry: 'AU',
    },
    parentOrganization: { '@type': 'Organization', name: site.name, url: `${site.base_url}/` },
  };
}

/**
 * A schema.org Car with an Offer (AUD, availability; the price left out
 * when the dealer shows none), the odometer in km (unitCode KMT), the VIN,
 * the stock number as sku and the car's location as the selling AutoDealer.
 */
export function carJsonLd(car: Car, site: SeoSite): Record<string, unknown> {
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
      itemCondition: CONDITION[car.car_type],
      seller: sellerJsonLd(car, site),
    },
  };
  if (car.images.length > 0) data['image'] = car.images.map((src) => new URL(src, `${site.base_url}/`).href);
  if (car.vin) data['vehicleIdentificationNumber'] = car.vin;
  if (car.stocknum) data['sku'] = car.stocknum;
  if (car.body) data['bodyType'] = car.body;
  if (car.fuel) data['fuelType'] = car.fuel;
  if (car.transmission) data['vehicleTransmission'] = car.transmission;
  if (car.colour) data['color'] = car.colour;
  // Google's vehicle listing reads the trim as vehicleConfiguration, the
  // drive as one of schema.org's drive values (the feed's own word where
  // it is none of them), and the seats.
  if (car.badge) data['vehicleConfiguration'] = car.badge;
  if (car.drive) data['driveWheelConfiguration'] = DRIVE[car.drive.trim().toUpperCase()] ?? car.drive;
  if (car.seats) data['vehicleSeatingCapacity'] = car.seats;
  return data;
}

/** The feed's drive words as schema.org's DriveWheelConfigurationValue. */
const DRIVE: Record<string, string> = {
  FWD: 'https://schema.org/FrontWheelDriveConfiguration',
  RWD: 'https://schema.org/RearWheelDriveConfiguration',
  AWD: 'https://schema.org/AllWheelDriveConfiguration',
  '4WD': 'https://schema.org/FourWheelDriveConfiguration',
  '4X4': 'https://schema.org/FourWheelDriveConfiguration',
};

/** JSON for an inline <script type="application/ld+json">: "<" escaped so text cannot close the element. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
