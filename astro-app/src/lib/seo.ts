/** Structured data (schema.org JSON-LD) for search engines; pure, unit-tested. */

import type { Car, SiteData } from '../types/site';
import { clockTime } from './hours/schedule';

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
    ...openingHoursJsonLd(loc),
  };
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * The sales department's hours as schema.org opening hours (the hours the
 * location's page shows): days with the same hours in one entry, Monday
 * first; closed days left out, as Google reads them. A Saturday that is
 * by appointment every second week is left out too (it is not reliably
 * open). The coming one-off days (holidays) are special opening hours:
 * closed as 00:00–00:00, Google's way of saying it.
 */
export function openingHoursJsonLd(loc: SeoSite['locations'][number]): Record<string, unknown> {
  const sales = loc.hours.find((h) => h.department === 'sales');
  const out: Record<string, unknown> = {};
  if (sales) {
    const groups = new Map<string, { opens: string; closes: string; days: string[] }>();
    for (const day of [1, 2, 3, 4, 5, 6, 0]) {
      const open = sales.week[day];
      if (!open || (day === 6 && sales.appointment_saturdays_from)) continue;
      const [opens, closes] = [clockTime(open[0]), clockTime(open[1])];
      const key = `${opens}-${closes}`;
      const group = groups.get(key) ?? { opens, closes, days: [] };
      group.days.push(`https://schema.org/${WEEKDAYS[day]}`);
      groups.set(key, group);
    }
    if (groups.size > 0) {
      out['openingHoursSpecification'] = [...groups.values()].map((g) => ({ '@type': 'OpeningHoursSpecification', dayOfWeek: g.days, opens: g.opens, closes: g.closes }));
    }
  }
  const special = loc.special_hours.filter((d) => d.department === 'sales' || d.department === 'all');
  if (special.length > 0) {
    out['specialOpeningHoursSpecification'] = special.map((d) => ({
      '@type': 'OpeningHoursSpecification',
      validFrom: d.date,
      validThrough: d.date,
      opens: d.minutes ? clockTime(d.minutes[0]) : '00:00',
      closes: d.minutes ? clockTime(d.minutes[1]) : '00:00',
    }));
  }
  return out;
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
  // The interior, engine and doors as the page's Details grid shows them
  // (the generator's spec rows; their labels are held to the built pages
  // by scripts/structured-data-check.mjs).
  const spec = (label: string) => car.specs.find((r) => r.label === label)?.value;
  const interior = spec('Interior');
  if (interior) data['vehicleInteriorColor'] = interior;
  const engine = spec('Engine');
  if (engine) {
    const litres = /^(\d+(?:\.\d+)?)\s*L$/i.exec(engine.trim());
    data['vehicleEngine'] = {
      '@type': 'EngineSpecification',
      name: engine,
      ...(litres ? { engineDisplacement: { '@type': 'QuantitativeValue', value: Number(litres[1]), unitCode: 'LTR' } } : {}),
    };
  }
  const doors = Number(spec('Doors'));
  if (Number.isInteger(doors) && doors > 0) data['numberOfDoors'] = doors;
  return data;
}

/** The feed's drive words as schema.org's DriveWheelConfigurationValue. */
const DRIVE: Record<string, string> = {
  FWD: 'https://schema.org/FrontWheelDriveConfiguration',
  RWD: 'https://schema.org/RearWheelDriveConfiguration',
  AWD: 'https://schema.org/AllWheelDriveConfiguration',
  '4WD': 'https://schema.org/FourWheelDriveConfiguration',
  '4X4': 'https://schema.org/FourWheelDriveConfiguration',
  'FRONT WHEEL DRIVE': 'https://schema.org/FrontWheelDriveConfiguration',
  'REAR WHEEL DRIVE': 'https://schema.org/RearWheelDriveConfiguration',
  'ALL WHEEL DRIVE': 'https://schema.org/AllWheelDriveConfiguration',
  'FOUR WHEEL DRIVE': 'https://schema.org/FourWheelDriveConfiguration',
};

/** JSON for an inline <script type="application/ld+json">: "<" escaped so text cannot close the element. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
