#!/usr/bin/env node
/**
 * Every car page's structured data against Google's vehicle listing
 * documentation (developers.google.com/search/docs/appearance/structured-data/vehicle-listing,
 * with its feed specification for when a property applies), on the built
 * demo dealers: the schema.org `Car` in each page's JSON-LD must carry each
 * required property, and each recommended one wherever the page itself
 * shows the value, with the value the page shows (the Details grid, the
 * price, the photos), and its seller the location's `AutoDealer` with an
 * address and, where the location has sales hours, its opening hours.
 * Each recommended property must be met on some page of the demo stock:
 * a property no demo car exercises fails the check instead of passing it
 * untested. Exits 1 on any finding (a gate of scripts/test.sh).
 *
 *   node scripts/structured-data-check.mjs [sites/<slug>/dist ...]   (default: the three demo dealers)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEMO = ['brisbane-motor-group', 'perth-auto-collective', 'sunshine-coast-toyota'];
const dists = process.argv.slice(2).length ? process.argv.slice(2).map((d) => path.resolve(d)) : DEMO.map((d) => path.join(root, 'sites', d, 'dist'));

/**
 * Recommended properties and what the page shows for each: a row of the
 * Details grid, or a fact of the facts line under the title (transmission,
 * fuel, body: the car's plain words, `car.transmission` and so on);
 * `value` turns the property into the text the page shows (undefined:
 * only its presence is compared, for a value Google reads as schema.org's
 * own, the drive).
 */
const row = (label) => (car) => car.specs.find((r) => r.label === label)?.value;
const fact = (key) => (car) => car[key] ?? undefined;
const RECOMMENDED = [
  { property: 'vehicleConfiguration', shown: row('Badge'), what: 'Badge' },
  { property: 'color', shown: row('Colour'), what: 'Colour' },
  { property: 'vehicleInteriorColor', shown: row('Interior'), what: 'Interior' },
  { property: 'bodyType', shown: fact('body'), what: 'body fact' },
  { property: 'fuelType', shown: fact('fuel'), what: 'fuel fact' },
  { property: 'vehicleTransmission', shown: fact('transmission'), what: 'transmission fact' },
  { property: 'driveWheelConfiguration', shown: row('Drive'), what: 'Drive', value: () => undefined },
  { property: 'vehicleEngine', shown: row('Engine'), what: 'Engine', value: (v) => v?.name },
  { property: 'numberOfDoors', shown: row('Doors'), what: 'Doors', value: (v) => String(v) },
  { property: 'vehicleSeatingCapacity', shown: row('Seats'), what: 'Seats', value: (v) => String(v) },
];

const findings = [];
const met = new Map(RECOMMENDED.map((r) => [r.property, 0]));
let pages = 0;
let withHours = 0;

/** The page's JSON-LD documents. */
function jsonLd(html) {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
}

for (const dist of dists) {
  const dealer = path.basename(path.dirname(dist));
  const data = path.join(dist, '..', 'src', 'data');
  const cars = JSON.parse(fs.readFileSync(path.join(data, 'cars.json'), 'utf8'));
  const site = JSON.parse(fs.readFileSync(path.join(data, 'site.json'), 'utf8'));
  for (const car of cars) {
    const file = path.join(dist, 'cars', car.slug, 'index.html');
    if (!fs.existsSync(file)) continue;
    pages++;
    const where = `${dealer} /cars/${car.slug}/`;
    const say = (what) => findings.push(`${where}: ${what}`);
    const docs = jsonLd(fs.readFileSync(file, 'utf8'));
    const ld = docs.find((d) => d['@type'] === 'Car');
    if (!ld) {
      say('no schema.org Car in the JSON-LD');
      continue;
    }
    // Required (Google), each where it applies to this car.
    const required = [
      ['name', ld.name === car.name],
      ['brand.name', ld.brand?.name === car.make],
      ['model', ld.model === car.model],
      ['vehicleModelDate', ld.vehicleModelDate === String(car.year)],
      ['itemCondition', /^https:\/\/schema\.org\/(New|Used)Condition$/.test(ld.itemCondition ?? '')],
      ['offers.priceCurrency', ld.offers?.priceCurrency === 'AUD'],
      ['offers.availability', /^https:\/\/schema\.org\/(InStock|PreOrder|SoldOut)$/.test(ld.offers?.availability ?? '')],
      ['offers.price', car.price > 10 ? ld.offers?.price === car.price : !('price' in (ld.offers ?? {}))],
      ['image', car.images.length > 0 ? Array.isArray(ld.image) && ld.image.length === car.images.length && ld.image.every((u) => u.startsWith('https://')) : !('image' in ld)],
      ['vehicleIdentificationNumber', car.vin ? ld.vehicleIdentificationNumber === car.vin : !('vehicleIdentificationNumber' in ld)],
      // The feed specification: mileage is required for a used car.
      ['mileageFromOdometer', car.car_type === 'new' || (ld.mileageFromOdometer?.value === car.km && ld.mileageFromOdometer?.unitCode === 'KMT')],
    ];
    for (const [property, ok] of required) if (!ok) say(`required ${property} missing or not the page's value: ${JSON.stringify(property.split('.').reduce((o, k) => o?.[k], ld))}`);
    for (const r of RECOMMENDED) {
      const shown = r.shown(car);
      const got = ld[r.property];
      if (shown === undefined) {
        if (got !== undefined) say(`${r.property} ${JSON.stringify(got)} where the page shows no ${r.what}`);
        continue;
      }
      if (got === undefined) {
        say(`recommended ${r.property} missing: the page shows ${r.what} "${shown}"`);
        continue;
      }
      const value = r.value ? r.value(got) : got;
      if (value !== undefined && value !== shown) say(`${r.property} ${JSON.stringify(got)} is not the page's ${r.what} "${shown}"`);
      else met.set(r.property, met.get(r.property) + 1);
    }
    const seller = ld.offers?.seller;
    const location = site.locations.find((l) => l.id === car.location.id);
    if (seller?.['@type'] !== 'AutoDealer' || !seller.name || !seller.address?.postalCode || seller.address.addressCountry !== 'AU') {
      say(`the seller is not an AutoDealer with its address: ${JSON.stringify(seller)}`);
    } else if (location?.hours.some((h) => h.department === 'sales' && h.week.some(Boolean))) {
      const hours = seller.openingHoursSpecification;
      if (!Array.isArray(hours) || hours.length === 0 || !hours.every((h) => h['@type'] === 'OpeningHoursSpecification' && /^\d\d:\d\d$/.test(h.opens) && /^\d\d:\d\d$/.test(h.closes) && h.dayOfWeek.length > 0)) {
        say(`the seller ${seller.name} has sales hours but no opening hours: ${JSON.stringify(hours)}`);
      } else withHours++;
    }
  }
}

for (const [property, n] of met) if (n === 0) findings.push(`no demo car page exercises ${property}: give a demo stock car the value (the check would otherwise pass untested)`);
if (withHours === 0) findings.push('no demo car page has a seller with opening hours');
for (const f of findings.slice(0, 60)) console.log(f);
if (findings.length > 60) console.log(`… and ${findings.length - 60} more`);
const counts = [...met].map(([p, n]) => `${p} ${n}`).join(', ');
console.log(`${findings.length === 0 ? 'ok  ' : 'FAILED'} structured data (Google's vehicle listing): ${findings.length} finding(s) on ${pages} car pages of ${dists.length} dealer(s); recommended properties met: ${counts}; sellers with opening hours ${withHours}`);
process.exit(findings.length === 0 ? 0 : 1);
