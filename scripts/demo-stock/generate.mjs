#!/usr/bin/env node
// Deterministic demo stock feeds for the three demo dealers.
//
//   node scripts/demo-stock/generate.mjs [--as-of 2026-11-20] [--out dealers/stock]
//   (--as-of defaults to DEMO_AS_OF in as-of.mjs, which the tests build and browse at)
//
// No npm dependencies. All randomness comes from a seeded mulberry32 PRNG and
// every date is relative to --as-of (00:00:00 UTC of that day), never to the
// clock, so the output is byte-identical on every run. Exits 1 if any image
// URL in the feeds (or a make / dealer logo) is missing under
// astro-app/public; run placeholders.mjs first.

import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BODY_DEFAULTS, BODY_SLUGS, CARAVANS, DEALERS, FUEL, MAKES, MODELS, TRANS,
  colourVariant, slugify,
} from './catalogue.mjs';
import { DEMO_AS_OF } from './as-of.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const PUBLIC = join(ROOT, 'astro-app', 'public');
const DAY = 86400;
const MAX_FEED_BYTES = 1_500_000;

/* ------------------------------------------------------------------ args */

function parseArgs(argv) {
  const out = { asOf: DEMO_AS_OF, out: join(ROOT, 'dealers', 'stock') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [k, inline] = a.includes('=') ? a.split(/=(.*)/s) : [a, undefined];
    const val = () => (inline !== undefined ? inline : argv[++i]);
    if (k === '--as-of') out.asOf = val();
    else if (k === '--out') out.out = resolve(val());
    else if (k === '-h' || k === '--help') {
      console.log('usage: node scripts/demo-stock/generate.mjs [--as-of YYYY-MM-DD] [--out DIR]');
      process.exit(0);
    } else {
      console.error(`unknown argument: ${a}`);
      process.exit(2);
    }
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(out.asOf || '') || Number.isNaN(Date.parse(`${out.asOf}T00:00:00Z`))) {
    console.error(`--as-of must be a date like 2026-11-20, got ${JSON.stringify(out.asOf)}`);
    process.exit(2);
  }
  return out;
}

/* ------------------------------------------------------------------ PRNG */

function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashString(s) {
  let h = 2166136261 >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h;
}

class Rng {
  constructor(seed) { this.next = mulberry32(seed); }
  float(a = 0, b = 1) { return a + (b - a) * this.next(); }
  int(a, b) { return a + Math.floor(this.next() * (b - a + 1)); }
  chance(p) { return this.next() < p; }
  pick(arr) { return arr[Math.floor(this.next() * arr.length)]; }
  weighted(map) {
    const entries = Object.entries(map);
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [k, w] of entries) { if ((r -= w) < 0) return k; }
    return entries[entries.length - 1][0];
  }
  sample(arr, n) {
    const a = arr.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a.slice(0, n);
  }
}

/* ----------------------------------------------------------------- helpers */

const round = (x, step) => Math.round(x / step) * step;
const round1 = (x) => Math.round(x * 10) / 10;
const round2 = (x) => Math.round(x * 100) / 100;
const isoSec = (unix) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const isoDate = (unix) => new Date(unix * 1000).toISOString().slice(0, 10);

/** Price ending in 990 / 490 like a dealer would advertise. */
function dealerPrice(x) {
  if (x < 1000) return Math.max(0, Math.round(x));
  return Math.floor(x / 500) * 500 - 10; // 12,180 -> 11,990; 12,730 -> 12,490
}

const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const VIN_TRANSLIT = { A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8, J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9, S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9 };
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const VIN_YEAR = 'ABCDEFGHJKLMNPRSTVWXY123456789';

function makeVin(rng, wmi, year) {
  const chars = wmi.split('');
  for (let i = 3; i < 8; i++) chars.push(rng.pick(VIN_CHARS));
  chars.push('0'); // check digit placeholder
  chars.push(VIN_YEAR[(year - 2010 + 30) % 30]);
  chars.push(rng.pick(VIN_CHARS.slice(0, 23)));
  for (let i = 11; i < 17; i++) chars.push(String(rng.int(0, 9)));
  let sum = 0;
  chars.forEach((c, i) => { sum += (/\d/.test(c) ? Number(c) : VIN_TRANSLIT[c]) * VIN_WEIGHTS[i]; });
  const check = sum % 11;
  chars[8] = check === 10 ? 'X' : String(check);
  return chars.join('');
}

function makeNvic(rng) {
  const L = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  return `${rng.int(0, 9)}${rng.pick(L)}${rng.pick(L)}${rng.int(0, 9)}${rng.int(0, 9)}${rng.pick(L)}`;
}

function makeRego(rng, state) {
  const L = 'ABCDEFGHJKLMNPRSTUVWXYZ';
  if (state === 'WA') return `1${rng.pick(L)}${rng.pick(L)}${rng.pick(L)}${rng.int(100, 999)}`;
  if (rng.chance(0.5)) return `${rng.int(100, 999)}${rng.pick(L)}${rng.pick(L)}${rng.pick(L)}`;
  return `${rng.int(100, 999)}${rng.pick(L)}${rng.pick(L)}${rng.int(1, 9)}`;
}

const COLOURS = {
  Toyota: ['Glacier White', 'Frosted White', 'Silver Pearl', 'Graphite', 'Eclipse Black', 'Saturn Blue', 'Feverish Red', 'Eclectic Green', 'Crystal Pearl', 'Bronze Mica'],
  Kia: ['Clear White', 'Snow White Pearl', 'Steel Grey', 'Gravity Grey', 'Aurora Black', 'Fusion Black', 'Yacht Blue', 'Runway Red', 'Experience Green'],
  MG: ['Dover White', 'Dynamic Red', 'Battersea Blue', 'Pebble Black', 'Cosmic Silver', 'Clipper Blue', 'Hampstead Green'],
  Hyundai: ['Atlas White', 'Abyss Black', 'Amazon Grey', 'Shimmering Silver', 'Intense Blue', 'Ultimate Red', 'Digital Teal'],
  Mazda: ['Snowflake White Pearl', 'Jet Black', 'Machine Grey', 'Sonic Silver', 'Deep Crystal Blue', 'Soul Red Crystal', 'Zircon Sand'],
  Nissan: ['Ivory Pearl', 'Diamond Black', 'Gun Metallic', 'Brilliant Silver', 'Ocean Blue', 'Burnt Copper', 'Forest Green'],
  Subaru: ['Crystal White', 'Crystal Black Silica', 'Magnetite Grey', 'Ice Silver', 'Horizon Blue', 'Pure Red', 'Autumn Green'],
  Suzuki: ['Pure White Pearl', 'Super Black Pearl', 'Premium Silver', 'Frontier Blue', 'Burning Red', 'Kinetic Yellow', 'Jungle Green'],
  Ford: ['Arctic White', 'Shadow Black', 'Aluminium Silver', 'Meteor Grey', 'Blue Lightning', 'True Red', 'Cyber Orange'],
  Isuzu: ['Splash White', 'Mineral White', 'Obsidian Grey', 'Mercury Silver', 'Cobalt Blue', 'Venetian Red'],
  _: ['White', 'Silver', 'Grey', 'Black', 'Blue', 'Red', 'Green', 'Bronze'],
};
const INTERIORS = ['Black Cloth', 'Black Leather-accented', 'Grey Cloth', 'Black/Grey Cloth', 'Tan Leather', 'Black Synthetic Leather', 'Charcoal Cloth'];

/* --------------------------------------------------------------- equipment */

const EQUIP_COMMON = ['Anti-lock Braking System (ABS)', 'Electronic Stability Control', 'Reversing Camera', 'Bluetooth Audio & Phone Connectivity', 'Cruise Control', 'Power Windows', 'Remote Central Locking', 'Air Conditioning', 'Autonomous Emergency Braking', 'Lane Keep Assist', 'Apple CarPlay', 'Android Auto', 'Multi-function Steering Wheel', 'Driver & Passenger Airbags', 'Side Curtain Airbags', 'Tyre Pressure Monitoring'];
const EQUIP_UPPER = ['Dual-zone Climate Control', 'Satellite Navigation', 'Heated Front Seats', 'Power Driver Seat', 'Leather-accented Seats', 'Head-up Display', '360 Degree Camera', 'Wireless Phone Charger', 'Blind Spot Monitor', 'Rear Cross Traffic Alert', 'Adaptive Cruise Control', 'LED Headlights', 'Keyless Entry & Start', 'Power Tailgate', 'Premium Sound System', 'Panoramic Sunroof', 'Ventilated Front Seats', 'Digital Instrument Cluster'];
const EQUIP_BODY = {
  Ute: ['Tub Liner', 'Tow Bar', 'Side Steps', 'Downhill Assist Control', 'Rear Differential Lock', 'Tie-down Points'],
  Van: ['Cargo Barrier', 'Dual Sliding Doors', 'Rear Barn Doors', 'Cargo Floor Lining', 'Load Area Lighting'],
  'Cab Chassis': ['Alloy Tray', 'Exhaust Brake', 'Driver Air-suspension Seat', 'Reverse Beeper', 'Heavy-duty Tow Hitch'],
  SUV: ['Roof Rails', 'Hill Start Assist', 'Rear Parking Sensors', '60/40 Split Folding Rear Seat'],
  Wagon: ['Roof Rails', 'Third-row Seating', 'Rear Air Conditioning', 'Power Sliding Doors'],
  Hatch: ['Rear Spoiler', '60/40 Split Folding Rear Seat', 'Rear Parking Sensors'],
  Sedan: ['Rear Parking Sensors', 'Boot Release', 'Rear Air Vents'],
};
const EQUIP_FUEL = {
  Hybrid: ['Hybrid Synergy Drive', 'EV Drive Mode', 'Regenerative Braking'],
  Electric: ['DC Fast Charging (CCS2)', 'Heat Pump', 'Vehicle-to-Load (V2L)', 'Regenerative Braking', 'Charging Cable'],
};
const EQUIP_CARAVAN = ['Queen Bed with Innerspring Mattress', 'Ensuite with Separate Shower', '3-way Fridge', 'Diesel Heater', 'Solar Panel 2 x 160W', '100Ah Lithium Battery', 'Grey Water Tank', '2 x 95L Fresh Water Tanks', 'Roll-out Awning', 'Microwave', '4-burner Cooktop', 'Front Tunnel Boot', 'Reverse Camera Provision', 'Independent Coil Suspension', 'Stone Guard', 'TV Antenna & 24" TV'];

/* ----------------------------------------------------------------- comments */

function comments(rng, c, dealer, loc) {
  if (rng.chance(0.09)) return '';
  const p = [];
  const what = `${c.year} ${c.make} ${c.model}${c.badge ? ' ' + c.badge : ''}`;
  if (c.item_type === 'caravan') {
    p.push(`${c.car_type === 'new' ? 'Brand new' : 'Well kept pre-loved'} ${what} caravan in ${c.colour.toLowerCase()}, sleeping ${c.sleeps} with a tare of ${c.tare_weight.toLocaleString('en-AU')} kg and an ATM of ${c.aggregate_trailer_mass.toLocaleString('en-AU')} kg.`);
    p.push(`Ready for the big lap: ${c.standardEquipment.slice(0, 4).join(', ')} and more.`);
    if (rng.chance(0.6)) p.push(`Our caravan team will run you through every system at handover and can fit a weight-distribution hitch and brake controller to your tow vehicle while you wait.`);
    p.push(`Inspect it at ${loc.name}, ${loc.street}, ${loc.city}, or call ${loc.phone}.`);
    return p.join('|');
  }
  if (c.car_type === 'new') {
    p.push(`Brand new ${what} in ${c.colour}, ${c.status === 'coming_soon' ? 'arriving soon at' : 'in stock now at'} ${loc.name}.`);
    p.push(`Comes with ${c.make}'s ${MAKES[c.make].warranty}-year new vehicle warranty${c.make === 'Toyota' ? ' and capped price servicing' : ''}.`);
    if (c.price_type === 'Drive Away') p.push('The advertised price is drive away: registration, CTP insurance, stamp duty and dealer delivery are all included. No hidden extras.');
    if (rng.chance(0.5)) p.push(`Highlights include ${c.standardEquipment.slice(-3).join(', ')}.`);
    if (rng.chance(0.45)) p.push(`Ask our team about fleet and ABN holder pricing, finance pre-approval and a fair price for your trade-in. We are open seven days at ${loc.city}.`);
  } else if (c.car_type === 'demo') {
    p.push(`Save on this ex-demonstrator ${what}: just ${c.km.toLocaleString('en-AU')} km, driven only by our sales team, and still covered by the balance of the factory warranty.`);
    p.push(`Finished in ${c.colour} with a ${c.interior_colour.toLowerCase()} interior.`);
    if (rng.chance(0.6)) p.push(`It has had its pre-delivery inspection, a full detail and a fresh set of floor mats. Book a test drive at ${loc.name} today.`);
  } else {
    const opener = rng.pick([
      `Here is a genuinely tidy ${what} with ${c.km.toLocaleString('en-AU')} km on the clock.`,
      `Just traded in: ${what}, ${c.colour}, ${c.km.toLocaleString('en-AU')} km.`,
      `This ${c.year} ${c.model} has been looked after by its previous owner and it shows.`,
      `Looking for a reliable ${c.simple_body.toLowerCase()}? This ${what} ticks the boxes.`,
    ]);
    p.push(opener);
    const hist = rng.pick(['Full service history with logbook stamps.', 'Serviced on time by the previous owner; logbook in the glovebox.', 'Two keys, owner\'s manuals and a service history are included.', 'One owner from new.', 'New tyres fitted and a fresh service completed before sale.']);
    p.push(hist);
    if (c.certified && c.make === 'Toyota') p.push('Toyota Certified Pre-Owned: 90 point inspection, a 1-year extra warranty and 12 months Toyota roadside assist.');
    p.push(rng.pick([
      'Every used car we sell passes our multi-point inspection and comes with 12 months roadside assist and our 48 hour money back guarantee.',
      'Trade-ins are welcome and we can arrange finance to suit your budget, subject to approval.',
      `Come and see it at ${loc.name}, or call ${loc.phone} for a video walk-around.`,
    ]));
    if (rng.chance(0.35)) p.push(`Features include ${c.standardEquipment.slice(0, 5).join(', ')}. ${dealer.name} is a licensed motor dealer; all used vehicles come with a clear title and a PPSR check.`);
  }
  return p.join('|');
}

/* ----------------------------------------------------------------- finance */

function amortised(principal, ratePct, years, perYear, balloon) {
  const r = ratePct / 100 / perYear;
  const n = years * perYear;
  const pv = principal - balloon / Math.pow(1 + r, n);
  return (pv * r) / (1 - Math.pow(1 + r, -n));
}

const DISCLAIMER_MANUAL = (price, rate, comp, deposit, balloon, provider) =>
  `Indicative repayment based on a 5 year secured consumer loan for the purchase price of $${price.toLocaleString('en-AU')} with a deposit of $${deposit.toLocaleString('en-AU')} (10.0%) and a final payment of $${balloon.toLocaleString('en-AU')} (30.0%) at ${rate.toFixed(2)}% p.a.${comp != null ? `, comparison rate ${comp.toFixed(2)}% p.a.` : '.'} Comparison rate based on a $30,000 secured loan over 5 years. WARNING: This comparison rate is true only for the examples given and may not include all fees and charges. Different terms, fees or other loan amounts might result in a different comparison rate. Approved applicants only. Fees, charges and lending criteria apply.${provider ? ` Credit provided by ${provider}.` : ''}`;

function financeFor(rng, c, dealer) {
  if (!rng.chance(0.52)) return null;
  const age = Number(c._asOfYear) - c.year;
  let provider;
  if (dealer.slug === 'perth-auto-collective') {
    if (c.make === 'Nissan' && c.car_type !== 'used') provider = rng.chance(0.7) ? 'Nissan Finance' : 'Manual';
    else if (c.item_type === 'caravan') provider = rng.chance(0.6) ? 'Powertorque' : 'Manual';
    else if (c.car_type === 'used') provider = rng.weighted({ Taurus: 5, Manual: 3, AusLoans: 2 });
    else provider = 'Manual';
  } else if (dealer.slug === 'brisbane-motor-group') {
    provider = c.car_type === 'used' ? rng.weighted({ Manual: 5, Taurus: 3, '360 Finance': 2 }) : rng.weighted({ Manual: 7, Angle: 2, '360 Finance': 1 });
  } else {
    provider = c.car_type === 'used' ? rng.weighted({ Manual: 6, Taurus: 3, 'Car Clarity': 1 }) : 'Manual';
  }
  const base = c.car_type === 'new' ? 6.99 : c.car_type === 'demo' ? 7.49 : 8.99 + Math.min(age, 12) * 0.35;
  const rate = round2(round(base + rng.float(-0.5, 1.5), 0.05));
  const comp = rng.chance(0.06) ? null : round2(rate + rng.float(0.25, 1.2));
  const price = c.price > 0 ? c.price : 30000;
  const deposit = Math.round(price * 0.1);
  const balloon = Math.round(price * 0.3);
  const week = Math.ceil(amortised(price - deposit, rate, 5, 52, balloon));
  const month = Math.ceil(amortised(price - deposit, rate, 5, 12, balloon));
  const entry = {
    interestRate: rng.chance(0.03) ? null : rate,
    comparisonRate: comp,
    paymentWeek: week,
    paymentMonth: month,
    deposit,
    termYears: 5,
    balloon,
    disclaimer: DISCLAIMER_MANUAL(price, rate, comp, deposit, balloon, provider === 'Manual' ? null : provider),
  };
  if (provider === 'Nissan Finance') {
    if (rng.chance(0.5)) entry.paymentWeek = null;
    entry.financeProvider = 'Nissan Financial Services';
  }
  if (provider === 'Taurus') { entry.term = 60; }
  if (provider === 'Angle') { entry.establishmentFees = 395; entry.financeProvider = 'Angle Auto Finance'; }
  if (provider === 'Manual' && rng.chance(0.05)) entry.paymentWeek = null;
  if (rng.chance(0.3)) entry.totalPayable = Math.round(entry.paymentMonth * 60 + balloon);
  return { [provider]: entry };
}

/**
 * brisbane-motor-group is the dealer the e2e tests browse, and its YAML lists
 * every finance provider: these cars get fixed finance_lenders so the tests
 * find a car for each display case of docs/behaviour/car-page.md §5 (each provider shown, and
 * hidden by each of its conditions). No rng is drawn, so the rest of the feed
 * is unchanged; a case without a car stops the generator.
 */
function financeCoverage(cars, dealer, asOf, asOfYear) {
  if (dealer.slug !== 'brisbane-motor-group') return;
  const listed = (c) => c.show_on_dealer_website !== false;
  const inStock = (c) => listed(c) && (c.status === 'in_stock' || c.status === 'coming_soon');
  const soldShown = (c) => listed(c) && c.status === 'sold' && asOf - c.sold_date_timestamp <= 3 * DAY;
  const priced = (c) => inStock(c) && c.price > 500 && c.make !== 'Suzuki';
  const recent = (c) => c.year > asOfYear - 12;
  const taken = new Set();
  const entry = (c, provider, over) => {
    const price = c.price > 0 ? c.price : 30000;
    const rate = c.car_type === 'used' ? 9.49 : 6.99;
    const comp = round2(rate + 0.78);
    const deposit = Math.round(price * 0.1);
    const balloon = Math.round(price * 0.3);
    const base = {
      interestRate: rate,
      comparisonRate: comp,
      paymentWeek: Math.ceil(amortised(price - deposit, rate, 5, 52, balloon)),
      paymentMonth: Math.ceil(amortised(price - deposit, rate, 5, 12, balloon)),
      deposit,
      termYears: 5,
      balloon,
      disclaimer: DISCLAIMER_MANUAL(price, rate, comp, deposit, balloon, provider === 'Manual' ? null : provider),
    };
    const out = { ...base, ...over };
    for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
    return out;
  };
  const give = (what, pred, provider, over = {}) => {
    const car = cars.find((c) => !taken.has(c.id) && pred(c));
    if (!car) throw new Error(`finance coverage for ${dealer.slug}: no car for "${what}"`);
    taken.add(car.id);
    car.finance_lenders = { [provider]: entry(car, provider, over) };
  };
  give('Manual: shown', (c) => priced(c) && recent(c) && c.car_type === 'used', 'Manual');
  give('Manual: no weekly payment', (c) => priced(c) && recent(c), 'Manual', { paymentWeek: null });
  give('Manual: comparison rate null', (c) => priced(c) && recent(c), 'Manual', { comparisonRate: null });
  give('Manual: interest rate null', (c) => priced(c) && recent(c), 'Manual', { interestRate: null });
  give('Taurus: under 12 years old', (c) => priced(c) && recent(c) && c.car_type === 'used', 'Taurus', { termYears: undefined, term: 60 });
  give('Taurus: 12 years old or more', (c) => priced(c) && !recent(c), 'Taurus', { termYears: undefined, term: 60 });
  give('360 Finance: an unpriced car in stock', (c) => inStock(c) && !(c.price > 0) && !c.preorder, '360 Finance', { paymentWeek: null, paymentMonth: null });
  give('AusLoans: shown', (c) => priced(c) && recent(c), 'AusLoans');
  give('Angle: shown with its fee', (c) => priced(c) && c.car_type !== 'used', 'Angle', { establishmentFees: 395, financeProvider: 'Angle Auto Finance' });
  give('Powertorque: shown', (c) => priced(c) && c.location_id === 'bmg-capalaba', 'Powertorque', { financeProvider: 'Powertorque Finance' });
  give('Powertorque: no weekly payment', (c) => priced(c) && c.location_id === 'bmg-capalaba', 'Powertorque', { paymentWeek: null });
  give('Nissan Finance: monthly', (c) => priced(c) && c.make === 'Nissan', 'Nissan Finance', { paymentWeek: null, financeProvider: 'Nissan Financial Services' });
  give('Nissan Finance: no monthly payment', (c) => priced(c) && c.make === 'Nissan', 'Nissan Finance', { paymentMonth: null });
  give('Car Clarity: shown', (c) => priced(c) && recent(c), 'Car Clarity');
  give('Suzuki: a complete Manual entry', (c) => inStock(c) && c.make === 'Suzuki' && c.price > 500, 'Manual');
  give('a sold car with a Manual entry', soldShown, 'Manual');
  // A car whose feed already carries the quote service's figures
  // (`youxQuote`): its page shows them and asks nothing.
  const quoted = cars.find((c) => !taken.has(c.id) && priced(c) && c.status === 'in_stock' && !c.finance_lenders && recent(c));
  if (!quoted) throw new Error(`finance coverage for ${dealer.slug}: no car for "a quote in the feed"`);
  taken.add(quoted.id);
  quoted.youxQuote = { weeklyRepaymentAmount: 111.4, comparisonRate: 9.35, advertisedRate: 8.65 };
}

/* ------------------------------------------------------------- make a car */

function pickGradeSpec(model, grade) {
  const [badge, price, over = {}] = grade;
  const merged = { ...model, ...over };
  const def = BODY_DEFAULTS[merged.simple_body] || {};
  const spec = { ...def };
  for (const [k, v] of Object.entries(model)) if (v !== undefined) spec[k] = v;
  for (const [k, v] of Object.entries(over)) if (v !== undefined) spec[k] = v;
  if (over.simple_body && BODY_DEFAULTS[over.simple_body] && !('body' in over)) spec.body = BODY_DEFAULTS[over.simple_body].body;
  spec.badge = badge === model.model ? null : badge; // base grades are often blank in feeds
  spec.newPrice = price;
  delete spec.grades;
  return spec;
}

/** Deterministic +-pct jitter of a spec number, stable per model+grade. */
function jitter(value, key, pct) {
  if (value == null) return null;
  const r = mulberry32(hashString(key))();
  return value * (1 + (r * 2 - 1) * pct);
}

function buildVariant(rng, spec, key) {
  const [litres, cyl, induction, torque] = spec.eng || [null, null, null, null];
  const isEv = spec.fuel === 'Electric';
  const v = {
    cylinders: cyl ?? null,
    enginesize: litres ? Math.round(litres * 1000) - (hashString(key) % 15) : null,
    enginesize_litres: litres ?? null,
    induction: isEv ? null : induction ?? null,
    geartype: TRANS[spec.trans] ? TRANS[spec.trans][2] : null,
    fuelconsumptioncombined: isEv ? null : spec.cons != null ? round1(jitter(spec.fuel === 'Hybrid' ? spec.cons * 0.72 : spec.cons, key + 'c', 0.08)) : null,
    fuelcapacity: spec.cap != null ? Math.round(jitter(spec.cap, key + 'f', 0.05)) : null,
    grossvehiclemass: spec.gvm != null ? Math.round(jitter(spec.gvm, key + 'g', 0.04) / 5) * 5 : null,
    vehiclelength: spec.len != null ? Math.round(jitter(spec.len, key + 'l', 0.01)) : null,
    vehicleheight: spec.hgt != null ? Math.round(jitter(spec.hgt, key + 'h', 0.015)) : null,
    vehiclewidth: spec.wid != null ? Math.round(jitter(spec.wid, key + 'w', 0.01)) : null,
    towingcapacitybraked: spec.tow != null ? round(jitter(spec.tow, key + 't', 0.03), 50) : null,
    torque: torque || null,
    ancaprating: ['Cab Chassis'].includes(spec.simple_body) ? null : 5,
    bodyconfiguration: spec.conf ?? null,
  };
  if (rng.chance(0.06)) v.torque = null;
  if (rng.chance(0.05)) v.towingcapacitybraked = null;
  if (rng.chance(0.04)) v.fuelcapacity = null;
  if (v.ancaprating && rng.chance(0.12)) v.ancaprating = rng.chance(0.5) ? null : 4;
  return v;
}

function equipment(rng, spec, tier) {
  const list = rng.sample(EQUIP_COMMON, rng.int(7, 11));
  const upper = rng.sample(EQUIP_UPPER, Math.round(tier * rng.int(3, 9)));
  const body = rng.sample(EQUIP_BODY[spec.simple_body] || [], rng.int(1, 3));
  const fuel = EQUIP_FUEL[spec.fuel === 'PHEV' ? 'Hybrid' : spec.fuel] ? rng.sample(EQUIP_FUEL[spec.fuel === 'PHEV' ? 'Hybrid' : spec.fuel], 2) : [];
  return [...list, ...upper, ...body, ...fuel];
}

/** Real-size JPEG photos (photos.mjs): the full-size file, as an image host returns it without parameters. */
function imagesFor(rng, bodySlug, colour, count) {
  const start = colourVariant(colour) - 1;
  const urls = [];
  for (let i = 0; i < count; i++) urls.push(`/images/photos/${bodySlug}-${((start + i) % 6) + 1}.jpg`);
  return urls;
}

/** The small size of a photo (photos.mjs writes <name>-480.jpg). */
const thumbOf = (url) => url.replace(/\.jpg$/, '-480.jpg');

function photoCount(rng, status) {
  if (status === 'coming_soon') return rng.chance(0.55) ? 0 : rng.chance(0.3) ? rng.int(1, 2) : rng.int(3, 8);
  const r = rng.next();
  if (r < 0.012) return 0;
  if (r < 0.04) return rng.int(1, 2);
  if (r < 0.08) return rng.int(3, 7);
  if (r < 0.9) return rng.int(8, 18);
  return rng.int(19, 24);
}

function locationObject(loc) {
  const slug = slugify(loc.name.replace(/\s+(Sales|Service|Parts)$/i, ''));
  return {
    id: loc.id,
    name: loc.name,
    slug,
    phone: loc.phone,
    address: { street: loc.street, city: loc.city, state: loc.state, postcode: loc.postcode },
    distribution_locations: (loc.distribution ?? []).map((name) => ({ name })),
  };
}

function statusFor(rng) {
  const r = rng.next();
  if (r < 0.105) return 'sold';
  if (r < 0.175) return 'coming_soon';
  return 'in_stock';
}

/** Days before as-of that a sold car was sold: a third inside the 3-day window. */
function soldDaysAgo(rng) {
  return rng.chance(0.4) ? rng.float(0.15, 3.4) : rng.float(3.6, 30);
}

function createdDaysAgo(rng, status, carType) {
  if (status === 'coming_soon') return rng.float(0.2, 20);
  const r = rng.next();
  if (r < 0.12) return rng.float(0.1, 7.9);
  if (r < 0.16) return rng.float(7.9, 9.5); // straddles the 8-day new-arrival window
  return carType === 'used' ? rng.float(9.5, 140) : rng.float(9.5, 220);
}

function usedKm(rng, age) {
  const perYear = rng.float(9000, 21000);
  return Math.max(1200, Math.round((age + rng.float(-0.3, 0.5)) * perYear / 10) * 10);
}

function buildCar(ctx) {
  const { rng, dealer, loc, asOf, asOfYear, carType, spec, year, serial } = ctx;
  const isCaravan = spec.simple_body === 'Caravan';
  const make = spec.make;
  const status = ctx.forceStatus || statusFor(rng);
  const id = ctx.id;
  const age = asOfYear - year;
  const colour = rng.pick(isCaravan ? ['White', 'Silver', 'White/Grey', 'Black/White', 'White/Blue'] : COLOURS[make] || COLOURS._);

  // km
  let km;
  if (isCaravan) km = 0;
  else if (carType === 'new') km = rng.int(5, 50);
  else if (carType === 'demo') km = rng.int(500, 9000);
  else km = usedKm(rng, Math.max(age, 0.4));

  // price
  let price;
  if (carType === 'new') price = spec.newPrice + (rng.chance(0.3) ? rng.pick([-1000, -500, 500, 1000, 1500]) : 0);
  else if (carType === 'demo') price = dealerPrice(spec.newPrice * rng.float(0.9, 0.96));
  else {
    const dep = Math.pow(isCaravan ? 0.91 : 0.9, Math.max(age, 0.5)) * (1 - Math.min(km, 300000) / 2_000_000);
    price = dealerPrice(spec.newPrice * 0.95 * dep * rng.float(0.92, 1.08));
    if (price < 3990) price = 3990;
  }
  let preorder = false;
  if (ctx.preorder) { preorder = true; price = 0; }
  else if (rng.chance(0.02)) price = 0; // "enquire for price"

  let before_price = null;
  const rb = rng.next();
  if (price > 0 && rb < 0.2) before_price = price + round(price * rng.float(0.03, 0.1), 500);
  else if (price > 0 && rb < 0.23) before_price = price; // equal: must not show a was-price
  else if (price > 0 && rb < 0.25) before_price = Math.max(0, price - 1000); // lower: must not show
  else if (rb < 0.45) before_price = 0;

  let price_type;
  if (carType === 'new' || carType === 'demo') price_type = rng.chance(0.95) ? 'Drive Away' : null;
  else { const r = rng.next(); price_type = r < 0.4 ? 'Excl. Govt. Charges' : r < 0.8 ? 'Drive Away' : null; }

  // dates
  const createdAgo = createdDaysAgo(rng, status, carType);
  const created = Math.round(asOf - createdAgo * DAY - rng.int(0, 3600));
  let sold_date_timestamp = null;
  if (status === 'sold') sold_date_timestamp = Math.round(asOf - soldDaysAgo(rng) * DAY);
  const updatedFloor = Math.max(created, sold_date_timestamp || 0);
  const updated = Math.min(asOf - 60, Math.round(updatedFloor + rng.float(0, Math.max(1, asOf - updatedFloor))));
  const buildMonth = carType === 'used' ? rng.int(1, 12) : rng.int(1, Math.max(1, Math.min(10, new Date(asOf * 1000).getUTCMonth() + 1)));
  const buildUnix = Date.UTC(year, buildMonth - 1, 1) / 1000;
  const complianceUnix = buildUnix + rng.int(20, 75) * DAY;

  const photos_count = photoCount(rng, status);
  const bodySlug = BODY_SLUGS[spec.simple_body];
  const urls = imagesFor(rng, bodySlug, colour, photos_count);

  const name = `${year} ${make} ${spec.model}${spec.badge ? ' ' + spec.badge : ''}`;
  const slug = slugify(`${year}-${make}-${spec.model}-${spec.badge || ''}-${id}`);
  const locObj = locationObject(loc);
  const trans = isCaravan ? null : TRANS[spec.trans];
  const fuelSimple = isCaravan ? null : spec.fuel === 'PHEV' ? 'Hybrid' : spec.fuel === 'Premium' ? 'Petrol' : spec.fuel;

  const car = {
    id,
    slug,
    name,
    make,
    model: spec.model,
    badge: spec.badge || null,
    series: spec.series || null,
    year,
    car_type: carType,
    item_type: isCaravan ? 'caravan' : 'car',
    status,
    sold: status === 'sold',
    sold_date_timestamp,
    show_on_dealer_website: !rng.chance(0.025),
    tag: null,
    reserved: false,
    certified: false,
    preorder,
    price,
    before_price,
    offer_price: null,
    price_type,
    subscription_price: null,
    km,
    colour,
    interior_colour: isCaravan ? rng.pick(['Latte', 'Charcoal', 'Ivory']) : rng.pick(INTERIORS),
    simple_fuel: fuelSimple,
    fuel: isCaravan ? null : FUEL[spec.fuel],
    simple_body: spec.simple_body,
    body: isCaravan ? 'Caravan' : spec.body,
    simple_transmission: trans ? trans[0] : null,
    trans: trans ? trans[1] : null,
    drive: isCaravan ? null : spec.drive,
    seats: isCaravan ? null : spec.seats,
    doors: isCaravan ? 1 : spec.doors,
    engine_size: isCaravan ? null : spec.eng && spec.eng[0] ? `${spec.eng[0].toFixed(1)}L` : null,
    stocknum: `${dealer.prefix}${String(serial).padStart(5, '0')}`,
    vin: makeVin(rng, rng.pick(MAKES[make].wmi), year),
    nvic: isCaravan ? null : rng.chance(0.93) ? makeNvic(rng) : null,
    regplate: null,
    rego_expiry: null,
    build_date: isoDate(buildUnix),
    compliance_date: isoDate(complianceUnix),
    created_at: isoSec(created),
    updated_at: isoSec(updated),
    photos_count,
    images: urls.map((url) => ({ url })),
    primary_image_url: urls[0] || null,
    thumbnails: urls.map(thumbOf),
    dealercomments: '',
    dealership_slug: dealer.slug,
    dealership_id: dealer.id,
    location_id: loc.id,
    location_name: loc.name,
    city: loc.city,
    state: loc.state,
    location: locObj,
    variant: null,
    standardEquipment: [],
    finance_lenders: null,
    autograb_data: null,
    payment_processors: rng.chance(0.3) ? ['stripe'] : [],
  };

  if (carType === 'used') {
    car.regplate = makeRego(rng, loc.state);
    const ex = asOf + Math.round(rng.float(-75, 360)) * DAY;
    car.rego_expiry = isoDate(ex);
    if (rng.chance(0.04)) { car.regplate = null; car.rego_expiry = null; }
  }

  if (isCaravan) {
    car.body_length = spec.body_length;
    car.body_width = spec.body_width;
    car.tare_weight = spec.tare_weight;
    car.axle_type = spec.axle_type;
    car.sleeps = spec.sleeps;
    car.aggregate_trailer_mass = spec.aggregate_trailer_mass;
    car.variant = {
      cylinders: null, enginesize: null, enginesize_litres: null, induction: null, geartype: null,
      fuelconsumptioncombined: null, fuelcapacity: null, grossvehiclemass: spec.aggregate_trailer_mass,
      vehiclelength: Math.round(spec.body_length * 304.8), vehicleheight: rng.int(2950, 3150),
      vehiclewidth: Math.round(spec.body_width * 304.8), towingcapacitybraked: null, torque: null,
      ancaprating: null, bodyconfiguration: spec.axle_type === 'Tandem' ? 'Tandem Axle' : 'Single Axle',
    };
    car.standardEquipment = rng.sample(EQUIP_CARAVAN, rng.int(7, 13));
  } else {
    car.variant = buildVariant(rng, spec, `${make}|${spec.model}|${spec.badge}`);
    const tier = Math.min(1, Math.max(0, (spec.newPrice - 25000) / 60000));
    car.standardEquipment = equipment(rng, spec, tier);
  }

  // certified (one make only shows the badge; the feed flag may appear on others)
  if (carType === 'used' && dealer.certifiedMake === make && age <= 5 && km < 140000 && rng.chance(0.65)) car.certified = true;

  // tags (mostly null)
  if (car.simple_fuel === 'Electric' && rng.chance(0.5)) car.tag = 'Electric';
  else if (car.simple_fuel === 'Hybrid' && rng.chance(0.22)) car.tag = 'Hybrid';
  else if (carType === 'demo' && rng.chance(0.22)) car.tag = 'Test Drive Only';
  else if (carType === 'used' && age >= 8 && rng.chance(0.12)) car.tag = 'Clearance';
  else if (createdAgo < 8 && rng.chance(0.25)) car.tag = 'Just Arrived';
  else if (carType === 'new' && rng.chance(0.03)) car.tag = 'Clearance';

  if (status !== 'sold' && rng.chance(0.035)) car.reserved = true;
  if (price > 0 && carType !== 'used' && rng.chance(0.05)) car.offer_price = price - round(price * rng.float(0.02, 0.05), 500);
  if (carType === 'new' && !isCaravan && dealer.subscriptions && rng.chance(0.12)) car.subscription_price = round(spec.newPrice / 260 + rng.float(20, 60), 1);

  car.finance_lenders = financeFor(rng, { ...car, _asOfYear: asOfYear }, dealer);

  if (carType === 'used' && !isCaravan && price > 0 && rng.chance(0.45)) {
    const avg = round(price * rng.float(0.94, 1.12), 10);
    car.autograb_data = { state_average_market_price: round(avg * rng.float(0.97, 1.04), 10), average_market_price: avg };
  }

  car.dealercomments = comments(rng, car, dealer, loc);

  // unknown fields: the feed contract says they are ignored
  if (rng.chance(0.14)) car.legacy_feed_ref = `DMS-${dealer.prefix}-${rng.int(100000, 999999)}`;
  if (rng.chance(0.05)) car.feed_source = { system: 'EasyCars', exported_at: isoSec(asOf - rng.int(3600, 20000)) };

  return car;
}

/* ----------------------------------------------------------- per dealer */

function usedSpecs(make, allow) {
  // trucks only appear where a segment lists them explicitly
  return MODELS.filter((m) => m.make === make && (allow ? allow.includes(m.model) : !m.truck));
}

function generateDealer(dealer, asOf, asOfYear) {
  const rng = new Rng(hashString(`dealergen-demo-stock:${dealer.slug}`));
  const cars = [];
  let id = dealer.idBase;
  let serial = 10000 + rng.int(100, 900);
  const locById = Object.fromEntries(dealer.locations.map((l) => [l.id, l]));

  const push = (seg, carType, spec, year, extra = {}) => {
    id += rng.int(1, 37);
    serial += rng.int(1, 9);
    cars.push(buildCar({ rng, dealer, seg, loc: locById[seg.location], asOf, asOfYear, carType, spec, year, id, serial, ...extra }));
  };

  for (const seg of dealer.segments) {
    for (let i = 0; i < seg.n; i++) {
      const carType = rng.weighted(seg.types);
      if (seg.caravans) {
        const cv = rng.pick(CARAVANS);
        const [make, model, badge, newPrice, len, wid, tare, atm, axle, sleeps, from] = cv;
        const year = carType === 'new' ? asOfYear - (rng.chance(0.8) ? 0 : 1) : Math.max(from, asOfYear - rng.int(1, 9));
        const spec = {
          make, model, badge, newPrice, simple_body: 'Caravan', series: null,
          body_length: len, body_width: wid, tare_weight: tare, aggregate_trailer_mass: atm, axle_type: axle, sleeps,
        };
        push(seg, carType, spec, year);
        continue;
      }
      let models;
      if (carType === 'used') {
        const make = rng.weighted(seg.makes);
        models = usedSpecs(make, seg.models);
        if (!models.length) models = usedSpecs(make);
      } else {
        models = MODELS.filter((m) => seg.makes.includes(m.make) && m.isNew && (!seg.models || seg.models.includes(m.model)));
      }
      const model = rng.pick(models);
      const grade = rng.pick(model.grades);
      const spec = pickGradeSpec(model, grade);
      let year;
      if (carType === 'new') year = rng.chance(0.85) ? asOfYear : asOfYear - 1;
      else if (carType === 'demo') year = rng.chance(0.6) ? asOfYear : asOfYear - 1;
      else {
        const ageRaw = 1 + Math.floor(Math.pow(rng.next(), 1.35) * 13);
        year = Math.min(Math.max(asOfYear - ageRaw, model.from), model.to, asOfYear - 1);
      }
      if (spec.from > year && carType !== 'used') year = Math.max(year, spec.from);
      push(seg, carType, spec, year);
    }
  }

  // pre-order car: coming soon, price 0
  if (dealer.preorder) {
    const p = dealer.preorder;
    const model = MODELS.find((m) => m.make === p.make && m.model === p.model);
    const grade = model.grades[model.grades.length - 1];
    push({ location: p.location }, 'new', pickGradeSpec(model, grade), asOfYear + 1, { preorder: true, forceStatus: 'coming_soon' });
  }

  financeCoverage(cars, dealer, asOf, asOfYear);

  // a certified flag on another make (only one make shows the certified badge)
  if (dealer.certifiedMake) {
    const other = cars.find((c) => c.car_type === 'used' && c.make !== dealer.certifiedMake && c.status === 'in_stock');
    if (other) other.certified = true;
  }
  detailExtras(cars, dealer);
  return cars;
}

/**
 * What the car page needs beyond the search data, from a random stream of
 * its own so the rest of a feed stays as it was: a history report (`file`)
 * on about a third of the used cars, and at dealers that do not certify a
 * make themselves a couple of certified used Toyotas (the badge is shown
 * for any dealer), one of them a reserved hybrid whose card tag outranks
 * the certified one (the car page must still show the badge).
 */
function detailExtras(cars, dealer) {
  const rng = new Rng(hashString(`dealergen-demo-stock:detail:${dealer.slug}`));
  for (const c of cars) {
    if (c.car_type === 'used' && c.item_type !== 'caravan' && rng.chance(0.33)) {
      c.file = `https://reports.carhistory.example.com.au/${c.vin}.pdf`;
    }
  }
  if (!dealer.certifiedMake) {
    const toyotas = cars.filter((c) => c.make === 'Toyota' && c.car_type === 'used' && c.status === 'in_stock' && c.show_on_dealer_website && c.photos_count >= 3);
    const hybrid = toyotas.find((c) => c.simple_fuel === 'Hybrid');
    const plain = toyotas.find((c) => c !== hybrid);
    for (const c of [hybrid, plain]) if (c) c.certified = true;
    if (hybrid) {
      hybrid.tag = 'Hybrid';
      hybrid.reserved = true;
    }
  }
}

/* ------------------------------------------------------------ formatting */

function isFlat(o) {
  return o && typeof o === 'object' && !Array.isArray(o) && Object.values(o).every((v) => v === null || typeof v !== 'object');
}

/** Pretty JSON, but short arrays / flat objects on one line to keep files small. */
function pretty(v, ind = '') {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const inner = ind + '  ';
  if (Array.isArray(v)) {
    if (!v.length) return '[]';
    const allPrim = v.every((x) => x === null || typeof x !== 'object');
    if (allPrim || v.every(isFlat)) {
      const one = `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
      if (one.length + ind.length <= 110) return one;
      // pack several items per line, ~110 columns wide
      const lines = [];
      let line = '';
      for (const item of v.map((x) => JSON.stringify(x))) {
        if (line && inner.length + line.length + item.length + 2 > 110) { lines.push(line + ','); line = ''; }
        line += (line ? ', ' : '') + item;
      }
      lines.push(line);
      return `[\n${lines.map((l) => inner + l).join('\n')}\n${ind}]`;
    }
    return `[\n${v.map((x) => inner + pretty(x, inner)).join(',\n')}\n${ind}]`;
  }
  const keys = Object.keys(v);
  if (!keys.length) return '{}';
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${pretty(v[k], inner)}`).join(',\n')}\n${ind}}`;
}

/* ------------------------------------------------------------------ main */

function checkImages(feeds) {
  const missing = new Map(); // url -> [first user, count]
  const need = (url, what) => {
    if (missing.has(url)) { missing.get(url)[1]++; return; }
    if (!existsSync(join(PUBLIC, url))) missing.set(url, [what, 1]);
  };
  for (const { dealer, cars } of feeds) {
    need(`/images/brand/${dealer.slug}.svg`, 'dealer logo');
    for (const c of cars) {
      need(`/images/makes/${slugify(c.make)}.svg`, `make logo for ${c.make}`);
      for (const im of c.images) need(im.url, c.slug);
      for (const t of c.thumbnails) need(t, c.slug);
      if (c.primary_image_url) need(c.primary_image_url, c.slug);
    }
  }
  need('/images/no-photo.svg', 'no-photo placeholder');
  return [...missing].map(([url, [what, n]]) => `${url} (used by ${what}${n > 1 ? ` and ${n - 1} more` : ''})`);
}

function checkUnique(feeds) {
  const problems = [];
  const ids = new Set(); const slugs = new Set(); const stock = new Set(); const vins = new Set();
  for (const { cars } of feeds) {
    for (const c of cars) {
      if (ids.has(c.id)) problems.push(`duplicate id ${c.id}`);
      if (slugs.has(c.slug)) problems.push(`duplicate slug ${c.slug}`);
      if (stock.has(c.stocknum)) problems.push(`duplicate stocknum ${c.stocknum}`);
      if (vins.has(c.vin)) problems.push(`duplicate vin ${c.vin}`);
      if (!/^[A-HJ-NPR-Z0-9]{17}$/.test(c.vin)) problems.push(`bad vin ${c.vin}`);
      if (c.images.length !== c.photos_count) problems.push(`photos_count mismatch ${c.slug}`);
      ids.add(c.id); slugs.add(c.slug); stock.add(c.stocknum); vins.add(c.vin);
    }
  }
  return problems;
}

function countBy(cars, f) {
  const m = {};
  for (const c of cars) { const k = f(c); m[k] = (m[k] || 0) + 1; }
  return m;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const asOf = Date.parse(`${args.asOf}T00:00:00Z`) / 1000;
  const asOfYear = new Date(asOf * 1000).getUTCFullYear();

  const feeds = DEALERS.map((dealer) => ({ dealer, cars: generateDealer(dealer, asOf, asOfYear) }));

  const problems = checkUnique(feeds);
  const missing = checkImages(feeds);
  if (missing.length) {
    problems.push(`${missing.length} image file(s) missing under astro-app/public (run node scripts/demo-stock/placeholders.mjs first):`);
    for (const m of missing.slice(0, 20)) problems.push(`  ${m}`);
  }
  if (problems.length) {
    for (const p of problems.slice(0, 40)) console.error(`error: ${p}`);
    if (problems.length > 40) console.error(`error: ... and ${problems.length - 40} more`);
    process.exit(1);
  }

  mkdirSync(args.out, { recursive: true });
  console.log(`demo stock as of ${args.asOf} (00:00:00 UTC)\n`);
  const totals = { cars: 0 };
  for (const { dealer, cars } of feeds) {
    const file = join(args.out, `${dealer.slug}.json`);
    writeFileSync(file, pretty(cars) + '\n');
    const size = statSync(file).size;
    if (size > MAX_FEED_BYTES) console.warn(`warning: ${file} is ${size} bytes (> 1.5 MB)`);
    totals.cars += cars.length;
    const soldRecent = cars.filter((c) => c.status === 'sold' && asOf - c.sold_date_timestamp <= 3 * DAY).length;
    const newArrivals = cars.filter((c) => asOf - Date.parse(c.created_at) / 1000 <= 8 * DAY).length;
    const fewPhotos = cars.filter((c) => c.photos_count < 3).length;
    const visible = cars.filter((c) => c.show_on_dealer_website && (c.status !== 'sold' || asOf - c.sold_date_timestamp <= 3 * DAY)).length;
    console.log(`${dealer.slug}: ${cars.length} cars, ${(size / 1024).toFixed(0)} KiB -> ${file.slice(ROOT.length + 1)}`);
    console.log(`  status:    ${JSON.stringify(countBy(cars, (c) => c.status))}`);
    console.log(`  car_type:  ${JSON.stringify(countBy(cars, (c) => c.car_type))}`);
    console.log(`  location:  ${JSON.stringify(countBy(cars, (c) => c.location_id))}`);
    console.log(`  makes:     ${Object.keys(countBy(cars, (c) => c.make)).sort().join(', ')}`);
    console.log(`  tags:      ${JSON.stringify(countBy(cars.filter((c) => c.tag), (c) => c.tag))}`);
    console.log(`  sold <=3d: ${soldRecent}, created <=8d: ${newArrivals}, photos<3: ${fewPhotos}, hidden: ${cars.filter((c) => !c.show_on_dealer_website).length}, reserved: ${cars.filter((c) => c.reserved).length}, certified: ${cars.filter((c) => c.certified).length}, price 0: ${cars.filter((c) => c.price === 0).length}, with finance: ${cars.filter((c) => c.finance_lenders).length}`);
    console.log(`  visible with default rules (in stock/coming soon or sold <=3d, shown on site; before photo threshold): ${visible}\n`);
  }
  console.log(`total: ${totals.cars} cars; all image URLs exist under astro-app/public`);
}

main();
