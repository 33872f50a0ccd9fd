import { describe, expect, it } from 'vitest';
import cars from './fixtures/site/src/data/cars.json';
import siteJson from './fixtures/site/src/data/site.json';
import { carJsonLd, jsonLdText } from '../src/lib/seo';
import type { Car, SiteData } from '../src/types/site';

const all = cars as Car[];
const site = siteJson as unknown as SiteData;

describe('carJsonLd', () => {
  it('describes an in-stock car with its price and absolute image URLs', () => {
    const car = all.find((c) => c.status === 'in_stock' && c.images.length > 0 && c.price > 10)!;
    const data = carJsonLd(car, site);
    expect(data).toMatchObject({
      '@type': 'Car',
      name: car.name,
      url: `${site.base_url}/cars/${car.slug}/`,
      offers: { price: car.price, priceCurrency: 'AUD', availability: 'https://schema.org/InStock' },
    });
    expect((data['image'] as string[])[0]).toMatch(/^https:\/\//);
  });

  it('gives the trim as vehicleConfiguration, the drive as schema.org’s value and the seats (Google’s vehicle listing)', () => {
    const car = { ...all.find((c) => c.badge)!, drive: 'AWD', seats: 7 };
    const data = carJsonLd(car, site);
    expect(data['vehicleConfiguration']).toBe(car.badge);
    expect(data['driveWheelConfiguration']).toBe('https://schema.org/AllWheelDriveConfiguration');
    expect(data['vehicleSeatingCapacity']).toBe(7);
    expect(carJsonLd({ ...car, drive: '4x4' }, site)['driveWheelConfiguration']).toBe('https://schema.org/FourWheelDriveConfiguration');
    expect(carJsonLd({ ...car, drive: 'Part-time 4WD' }, site)['driveWheelConfiguration']).toBe('Part-time 4WD');
    const bare = carJsonLd({ ...car, badge: null, drive: null, seats: null }, site);
    expect(['vehicleConfiguration', 'driveWheelConfiguration', 'vehicleSeatingCapacity'].filter((k) => k in bare)).toEqual([]);
  });

  it('gives the odometer in km, the VIN, the stock number as sku, and the location as the seller', () => {
    const car = all.find((c) => c.status === 'in_stock' && c.vin && c.stocknum)!;
    const data = carJsonLd(car, site);
    expect(data['mileageFromOdometer']).toEqual({ '@type': 'QuantitativeValue', value: car.km, unitCode: 'KMT' });
    expect(data['vehicleIdentificationNumber']).toBe(car.vin);
    expect(data['sku']).toBe(car.stocknum);
    const location = site.locations.find((l) => l.id === car.location.id)!;
    expect((data['offers'] as Record<string, unknown>)['seller']).toMatchObject({
      '@type': 'AutoDealer',
      name: location.name,
      telephone: location.phone,
      url: `${site.base_url}/contact-us/${location.slug}/`,
      address: { '@type': 'PostalAddress', streetAddress: location.address.street, postalCode: location.address.postcode, addressCountry: 'AU' },
      parentOrganization: { name: site.name },
    });
  });

  it('leaves the seller’s phone out where the car’s number is masked (the page carries no unmasked number)', () => {
    const car = all.find((c) => c.status === 'in_stock')!;
    const real = site.locations.find((l) => l.id === car.location.id)!.phone;
    // The generator decides it (car.location.phone_masked, from features.phone_reveal); the flag itself is not read.
    const shown = { ...car, location: { ...car.location, phone: real, phone_masked: false } };
    const masked = { ...car, location: { ...car.location, phone: '(07) 3555 XXXX', phone_masked: true } };
    const revealOn = { ...site, features: { ...site.features, phone_reveal: true } };
    const seller = (c: Car) => (carJsonLd(c, revealOn)['offers'] as Record<string, Record<string, unknown>>)['seller']!;
    expect(seller(shown)['telephone']).toBe(real);
    expect(seller(masked)).not.toHaveProperty('telephone');
    expect(jsonLdText(carJsonLd(masked, site))).not.toContain(real);
    expect(seller(masked)['url']).toMatch(/\/contact-us\/.+\/$/);
  });

  it('marks sold cars sold out and leaves out a missing price', () => {
    const sold = all.find((c) => c.status === 'sold')!;
    expect(carJsonLd(sold, site)['offers']).toMatchObject({ availability: 'https://schema.org/SoldOut' });
    const noPrice = all.find((c) => c.price === 0)!;
    expect(carJsonLd(noPrice, site)['offers']).not.toHaveProperty('price');
  });
});

describe('jsonLdText', () => {
  it('cannot close the script element', () => {
    expect(jsonLdText({ name: '</script><script>alert(1)</script>' })).not.toContain('</script>');
  });
});
