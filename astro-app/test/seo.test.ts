import { describe, expect, it } from 'vitest';
import cars from './fixtures/site/src/data/cars.json';
import siteJson from './fixtures/site/src/data/site.json';
import { carJsonLd, jsonLdText, openingHoursJsonLd } from '../src/lib/seo';
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
    expect(carJsonLd({ ...car, drive: 'Front Wheel Drive' }, site)['driveWheelConfiguration']).toBe('https://schema.org/FrontWheelDriveConfiguration');
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

  it('gives the interior, the engine (its displacement in litres) and the doors as the Details grid shows them', () => {
    const base = all.find((c) => c.status === 'in_stock')!;
    const specs = [...base.specs, { label: 'Interior', value: 'Black Leather' }, { label: 'Engine', value: '2.4L' }, { label: 'Doors', value: '4' }];
    const data = carJsonLd({ ...base, specs }, site);
    expect(data['vehicleInteriorColor']).toBe('Black Leather');
    expect(data['vehicleEngine']).toEqual({ '@type': 'EngineSpecification', name: '2.4L', engineDisplacement: { '@type': 'QuantitativeValue', value: 2.4, unitCode: 'LTR' } });
    expect(data['numberOfDoors']).toBe(4);
    const odd = carJsonLd({ ...base, specs: [...base.specs, { label: 'Engine', value: 'V8 petrol' }, { label: 'Doors', value: 'two' }] }, site);
    expect(odd['vehicleEngine']).toEqual({ '@type': 'EngineSpecification', name: 'V8 petrol' });
    expect(odd).not.toHaveProperty('numberOfDoors');
    const bare = carJsonLd({ ...base, specs: base.specs.filter((r) => !['Interior', 'Engine', 'Doors'].includes(r.label)) }, site);
    expect(['vehicleInteriorColor', 'vehicleEngine', 'numberOfDoors'].filter((k) => k in bare)).toEqual([]);
  });

  it('gives the seller its sales hours, days of the same hours together, closed days left out, and its coming one-off days', () => {
    const loc = site.locations.find((l) => l.hours.some((h) => h.department === 'sales'))!;
    const sales = loc.hours.find((h) => h.department === 'sales')!;
    const car = { ...all.find((c) => c.status === 'in_stock')!, location: { ...all[0]!.location, id: loc.id } };
    const seller = (carJsonLd(car, site)['offers'] as Record<string, Record<string, unknown>>)['seller']!;
    expect(seller['openingHoursSpecification']).toEqual(openingHoursJsonLd(loc)['openingHoursSpecification']);
    const week = (week: ([number, number] | null)[], appointment: string | null = null) =>
      openingHoursJsonLd({ ...loc, special_hours: [], hours: [{ ...sales, week, appointment_saturdays_from: appointment }] });
    const day = (d: string) => `https://schema.org/${d}`;
    const weekdays = [510, 1050] as [number, number];
    expect(week([null, weekdays, weekdays, weekdays, weekdays, weekdays, [510, 960]])).toEqual({
      openingHoursSpecification: [
        { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'].map(day), opens: '08:30', closes: '17:30' },
        { '@type': 'OpeningHoursSpecification', dayOfWeek: [day('Saturday')], opens: '08:30', closes: '16:00' },
      ],
    });
    // Every second Saturday by appointment: not reliably open, left out.
    expect(week([null, weekdays, weekdays, weekdays, weekdays, weekdays, [510, 960]], '2025-06-14')['openingHoursSpecification']).toHaveLength(1);
    expect(week([null, null, null, null, null, null, null])).toEqual({});
    const special = openingHoursJsonLd({
      ...loc,
      special_hours: [
        { date: '2026-12-25', department: 'all', label: 'Christmas Day', text: 'Closed', minutes: null },
        { date: '2026-12-31', department: 'sales', label: "New Year's Eve", text: '9:00am - 1:00pm', minutes: [540, 780] },
        { date: '2026-12-30', department: 'service', label: 'Stocktake', text: 'Closed', minutes: null },
      ],
    })['specialOpeningHoursSpecification'];
    expect(special).toEqual([
      { '@type': 'OpeningHoursSpecification', validFrom: '2026-12-25', validThrough: '2026-12-25', opens: '00:00', closes: '00:00' },
      { '@type': 'OpeningHoursSpecification', validFrom: '2026-12-31', validThrough: '2026-12-31', opens: '09:00', closes: '13:00' },
    ]);
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
