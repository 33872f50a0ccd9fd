/**
 * The form library (src/lib/forms): field rules, the lead payload with the
 * car form defaults, what is kept on the device, idempotency keys, the
 * success page's words, the checkout rule (rules/vectors/checkout.json).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { leadAttributes } from '../src/lib/forms/attribution';
import { MAX_PAGES, VISIT_KEY, recordVisit } from '../src/lib/forms/visit';
import { mayReserve } from '../src/lib/forms/checkout';
import { IdempotencyKeys, fingerprint } from '../src/lib/forms/idempotency';
import { HONEYPOT_FIELD, TURNSTILE_FIELD, buildLeadPayload, carDefaults, kebab, vehicleDetails, type CarFacts } from '../src/lib/forms/payload';
import { MESSAGES, checkField, checkFields, isDateAhead, isRego, parseAmount, parseKms, type FieldRule } from '../src/lib/forms/rules';
import { LAST_LEAD_MAX_AGE_MS, loadCustomer, loadLastLead, saveCustomer, saveLastLead } from '../src/lib/forms/storage';
import { successUrl, successView } from '../src/lib/forms/success';
import { cardActions, type CardSettings } from '../src/lib/search/cards';

/** An in-memory Storage. */
function memory(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

const car: CarFacts = {
  id: '410033',
  slug: '2026-kia-sorento-gt-line-410033',
  name: '2026 Kia Sorento GT-Line',
  year: 2026,
  make: 'Kia',
  model: 'Sorento',
  badge: 'GT-Line',
  km: 32,
  car_type: 'new',
  status: 'in_stock',
  stocknum: 'BMG10849',
  tag: null,
  location_id: 'bmg-newstead',
};

describe('field rules', () => {
  const rule = (r: Partial<FieldRule> & Pick<FieldRule, 'rule'>): FieldRule => ({ name: 'f', required: true, ...r });

  it('postcode: required, exactly 4 digits (docs/behaviour/content.md §5)', () => {
    expect(checkField(rule({ rule: 'postcode' }), '')).toBe(MESSAGES.postcode_missing);
    for (const bad of ['400', '40000', '40O6', '4 006']) expect(checkField(rule({ rule: 'postcode' }), bad), bad).toBe('Invalid postcode. Please enter a 4-digit number.');
    expect(checkField(rule({ rule: 'postcode' }), ' 4006 ')).toBeUndefined();
    expect(checkField(rule({ rule: 'postcode', required: false }), '')).toBeUndefined();
  });

  it('terms: required where shown, with the spec’s words', () => {
    expect(checkField(rule({ rule: 'terms' }), false)).toBe('*You must agree to the terms of use before submitting.');
    expect(checkField(rule({ rule: 'terms' }), true)).toBeUndefined();
  });

  it('offer amount: required, whole dollars, "$25,000" reads as 25000', () => {
    const offer = rule({ name: 'offer_amount', rule: 'money', missing: 'offer_missing' });
    expect(checkField(offer, '')).toBe('Please enter your offer amount.');
    expect(checkField(offer, 'lots')).toBe('Please enter your offer as an amount in dollars.');
    expect(checkField(offer, '25000.50')).toBe(MESSAGES.offer_invalid);
    expect(checkField(offer, '0')).toBe(MESSAGES.offer_invalid);
    // Other amounts (the finance budget) keep the site's own words.
    expect(checkField(rule({ name: 'vehiclePriceBudget', rule: 'money' }), 'lots')).toBe(MESSAGES.amount_invalid);
    expect(parseAmount('$25,000')).toBe(25000);
    expect(parseAmount('25 000')).toBe(25000);
  });

  it('category select: one of its choices, required', () => {
    const cat = rule({ rule: 'choice', choices: ['General Enquiry', 'Career Enquiry'], missing: 'category_missing' });
    expect(checkField(cat, '')).toBe('Please choose an enquiry category.');
    expect(checkField(cat, 'Hacking')).toBe('Please choose an enquiry category.');
    expect(checkField(cat, 'Career Enquiry')).toBeUndefined();
  });

  it('rego: optional; letters, digits, spaces and dashes up to 12', () => {
    const rego = rule({ rule: 'rego', required: false });
    expect(checkField(rego, '')).toBeUndefined();
    expect(checkField(rego, 'abc-123')).toBeUndefined();
    expect(checkField(rego, 'ABC#12')).toBe(MESSAGES.rego_invalid);
    expect(isRego(' - ')).toBe(false);
  });

  it('kilometres, dates, times and years', () => {
    expect(parseKms('85,000 km')).toBe(85000);
    expect(parseKms('3000000')).toBeNull();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    expect(checkField(rule({ rule: 'date' }), '2027-02-29')).toBe(MESSAGES.date_invalid);
    expect(checkField(rule({ rule: 'date' }), day(7))).toBeUndefined();
    expect(checkField(rule({ rule: 'date' }), day(0))).toBeUndefined();
    // From today on, within a year: the worker's rule.
    expect(checkField(rule({ rule: 'date' }), day(-3))).toBe(MESSAGES.date_invalid);
    expect(checkField(rule({ rule: 'date' }), day(400))).toBe(MESSAGES.date_invalid);
    expect(isDateAhead('2026-11-18', Date.UTC(2026, 10, 18))).toBe(true);
    expect(isDateAhead('2027-11-20', Date.UTC(2026, 10, 18))).toBe(false);
    expect(checkField(rule({ rule: 'time' }), '9:30')).toBe(MESSAGES.time_invalid);
    expect(checkField(rule({ rule: 'year' }), '1899')).toBe(MESSAGES.year_invalid);
    expect(checkField(rule({ rule: 'year' }), '2018')).toBeUndefined();
  });

  it('reports every field at once, in the form’s order', () => {
    const errors = checkFields(
      [
        { name: 'name', rule: 'name', required: true },
        { name: 'email', rule: 'email', required: true },
        { name: 'postcode', rule: 'postcode', required: true },
      ],
      { name: '', email: 'x', postcode: '1' },
    );
    expect(Object.keys(errors)).toEqual(['name', 'email', 'postcode']);
  });
});

describe('lead payload (docs/behaviour/car-page.md §3 Lead payload, Car form defaults)', () => {
  const attributes = { visited_pages: ['/search/', '/cars/a/'], linked_query_params: { utm_source: 'google' } };
  const ctx = { category: 'enquiry', subcategory: 'Vehicle Enquiry', url: 'https://site.example/cars/a/', userAgent: 'UA/1', attributes };

  it('the car form defaults: the car, its dealer, make slug, stock number (the opt-in is the form’s own box)', () => {
    expect(carDefaults(car, 'brisbane-motor-group')).toEqual({
      car_id: '410033',
      dealership_slug: 'brisbane-motor-group',
      manufacturer_slug: 'kia',
      make: 'Kia',
      model: 'Sorento',
      car_type: 'new',
      vehicle_status: 'in_stock',
      location_id: 'bmg-newstead',
      stock_number: 'BMG10849',
    });
    expect(vehicleDetails(car)).toEqual({ vehicleStatus: 'in_stock', vehicleMake: 'Kia', vehicleModel: 'Sorento', vehicleYear: 2026, vehicleKilometers: 32, vehicleGrade: 'GT-Line' });
  });

  it('manufacturer slugs follow the generator’s kebab rule (rules/vectors/slugs.json)', () => {
    const v = JSON.parse(fs.readFileSync(`${__dirname}/../../rules/vectors/slugs.json`, 'utf8')) as { kebab: { input: string; slug: string }[] };
    for (const c of v.kebab) expect(kebab(c.input), c.input).toBe(c.slug);
  });

  it('every field of the contract, trimmed and typed as the worker reads it', () => {
    const rules: FieldRule[] = [
      { name: 'name', rule: 'name', required: true },
      { name: 'email', rule: 'email', required: true },
      { name: 'phone', rule: 'phone', required: true },
      { name: 'offer_amount', rule: 'money', required: true },
      { name: 'kms', rule: 'kms', required: false },
      { name: 'rego', rule: 'rego', required: false },
      { name: 'postcode', rule: 'postcode', required: false },
      { name: 'message', rule: 'message', required: false },
      { name: 'opt_in_finance', rule: 'checkbox', required: false },
      { name: 'adjustmentAnswers[accident]', rule: 'choice', required: false },
      { name: 'terms_conditions', rule: 'terms', required: true },
    ];
    const body = buildLeadPayload(
      rules,
      {
        name: ' Sam ',
        email: 'sam@example.com.au ',
        phone: '+61 412 345 678',
        offer_amount: '$25,000',
        kms: '85,000',
        rego: 'abc 123',
        postcode: '',
        message: ' Hi ',
        opt_in_finance: false,
        'adjustmentAnswers[accident]': 'no',
        terms_conditions: true,
      },
      { ...ctx, defaults: carDefaults(car, 'bmg'), hiddenText: 'Please send photos for this car', honeypot: '', captchaToken: 'tok', extra: { form_completed: true } },
    );
    expect(body).toEqual({
      ...carDefaults(car, 'bmg'),
      name: 'Sam',
      email: 'sam@example.com.au',
      phone: '0412345678',
      offer_amount: 25000,
      kms: 85000,
      rego: 'ABC123',
      message: 'Please send photos for this car\n\nHi',
      opt_in_finance: false,
      adjustmentAnswers: { accident: 'no' },
      terms_conditions: true,
      form_completed: true,
      category: 'enquiry',
      subcategory: 'Vehicle Enquiry',
      source: 'Website',
      url: 'https://site.example/cars/a/',
      user_agent: 'UA/1',
      lead_attributes: attributes,
      [HONEYPOT_FIELD]: '',
      [TURNSTILE_FIELD]: 'tok',
    });
  });

  it('an unticked or absent terms box is left out (a dealer without the box sends none)', () => {
    const body = buildLeadPayload([{ name: 'terms_conditions', rule: 'terms', required: false }], { terms_conditions: false }, ctx);
    expect('terms_conditions' in body).toBe(false);
  });
});

describe('what is kept on the device', () => {
  it('customer details only when name, e-mail and phone are all present (docs/behaviour/content.md §4)', () => {
    const store = memory();
    expect(saveCustomer({ name: 'Sam', email: 'sam@example.com.au', phone: '' }, store)).toBe(false);
    expect(loadCustomer(store)).toBeNull();
    expect(saveCustomer({ name: 'Sam', email: 'sam@example.com.au', phone: '0412 345 678', postcode: '4006', message: 'not kept' } as never, store)).toBe(true);
    expect(loadCustomer(store)).toEqual({ name: 'Sam', email: 'sam@example.com.au', phone: '0412 345 678', postcode: '4006' });
  });

  it('the last lead for the success page, for a day', () => {
    const store = memory();
    saveLastLead({ category: 'offer', car: { name: 'A car', slug: 'a', car_type: 'used' } }, 1000, store);
    expect(loadLastLead(1000 + LAST_LEAD_MAX_AGE_MS, store)?.car?.slug).toBe('a');
    expect(loadLastLead(1001 + LAST_LEAD_MAX_AGE_MS, store)).toBeNull();
  });

  it('the visit (recorded by every page, read by the forms): pages in order (a reload counts once), the landing link’s parameters, bounded', () => {
    const store = memory();
    recordVisit({ pathname: '/', search: '?utm_source=google&gclid=abc' }, store);
    recordVisit({ pathname: '/', search: '?utm_source=google&gclid=abc' }, store);
    recordVisit({ pathname: '/search/', search: '?utm_source=other' }, store);
    expect(leadAttributes(store)).toEqual({ visited_pages: ['/?utm_source=google&gclid=abc', '/search/?utm_source=other'], linked_query_params: { utm_source: 'google', gclid: 'abc' } });
    for (let i = 0; i < 40; i++) recordVisit({ pathname: `/cars/c-${i}/`, search: '' }, store);
    const pages = leadAttributes(store).visited_pages;
    expect(pages.length).toBe(MAX_PAGES);
    expect(pages.at(-1)).toBe('/cars/c-39/');
    store.setItem(VISIT_KEY, '{broken');
    expect(leadAttributes(store)).toEqual({ visited_pages: [], linked_query_params: {} });
  });
});

describe('idempotency keys', () => {
  it('a resend of the same details reuses the key; changed details take a new one', () => {
    let n = 0;
    const keys = new IdempotencyKeys(() => `k${++n}`);
    const a = { name: 'Sam', message: 'Hi', lead_attributes: { visited_pages: ['/'] } };
    expect(keys.keyFor(a)).toBe('k1');
    expect(keys.keyFor({ ...a, 'cf-turnstile-response': 'new token' })).toBe('k1');
    expect(keys.keyFor({ message: 'Hi', lead_attributes: { visited_pages: ['/'] }, name: 'Sam' })).toBe('k1');
    expect(keys.keyFor({ ...a, message: 'Hi there' })).toBe('k2');
    expect(keys.keyFor(a)).toBe('k3');
    expect(fingerprint({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
  });
});

describe('the success page', () => {
  it('links with the category and car type', () => {
    expect(successUrl('/success/', { category: 'test_drive', car_type: 'used' })).toBe('/success/?category=test_drive&car_type=used');
    expect(successUrl('/thank-you/', { category: 'general', car_type: '' })).toBe('/thank-you/?category=general');
  });

  it('says what was sent; the car only when the kept lead is this category', () => {
    const last = { category: 'offer', car: { name: '2023 Kia Rio', slug: 'kia-rio', car_type: 'used' }, at: 0 };
    expect(successView('?category=offer&car_type=used', last)).toEqual({
      title: 'Thank you for your submission!',
      text: "We'll be in touch with you about your offer shortly.",
      car: { name: '2023 Kia Rio', slug: 'kia-rio' },
      carType: 'used',
    });
    expect(successView('?category=test_drive', last).car).toBeUndefined();
    expect(successView('?category=<b>&car_type=boat', null)).toEqual({ title: 'Thank you for your enquiry', text: "We'll be in touch with you shortly." });
  });
});

describe('checkout (rules/vectors/checkout.json)', () => {
  interface V {
    cases: { name: string; rules: { enabled: boolean; car_types: string[]; makes: string[] }; car: { car_type: string; make: string; status: string; reserved: boolean }; may_reserve: boolean }[];
  }
  const v = JSON.parse(fs.readFileSync(`${__dirname}/../../rules/vectors/checkout.json`, 'utf8')) as V;

  it('mayReserve gives every case the Rust rule’s answer', () => {
    expect(v.cases.length).toBeGreaterThanOrEqual(8);
    for (const c of v.cases) expect(mayReserve({ enabled: c.rules.enabled, carTypes: c.rules.car_types, makes: c.rules.makes }, c.car), c.name).toBe(c.may_reserve);
  });

  it('cards offer Reserve and Buy Online only for cars with a checkout page, Trade In only with the trade-in pages', () => {
    const settings: CardSettings = { buttons: ['reserve', 'buy_online', 'trade_in'], checkout: true, checkoutDeposit: 200, checkoutPath: 'checkout', checkoutMakes: ['Kia'], tradeIn: true };
    const hit = { objectID: '1', slug: 'kia-1', status: 'in_stock' as const, phone: '', car_type: 'used' as const, make: 'Kia', reserved: false, price: 18990 };
    expect(cardActions(hit, settings).map((a) => a.href)).toEqual(['/cars/kia-1/checkout/', '/cars/kia-1/checkout/', '/cars/trade-in/?car_id=1']);
    expect(cardActions({ ...hit, make: 'Mazda' }, settings).map((a) => a.kind)).toEqual(['trade_in']);
    // A reserved car: neither a checkout nor a valuation.
    expect(cardActions({ ...hit, reserved: true }, settings).map((a) => a.kind)).toEqual([]);
    expect(cardActions(hit, { ...settings, tradeIn: false }).map((a) => a.kind)).toEqual(['reserve', 'buy_online']);
  });
});
