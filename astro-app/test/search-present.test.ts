/**
 * The card rules for raw hosted hits against the cases the Rust generator
 * is also checked against (generator/tests/integration/build.rs
 * card_rule_cases_shared_with_the_browser_match_present).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hitFromHosted } from '../src/lib/search/hosted';
import { dollars } from '../src/lib/format';
import { priceText, tagBanner, wasPriceText, type RawCar } from '../src/lib/search/present';
import type { HitRules } from '../src/types/site';

interface Case {
  name: string;
  rules?: Partial<HitRules>;
  car: RawCar;
  tag_banner: string | null;
  price_text: string;
  was_price_text: string | null;
}
const shared = JSON.parse(fs.readFileSync(new URL('../../rules/vectors/present-cases.json', import.meta.url), 'utf8')) as {
  now: string;
  default_rules: HitRules;
  cases: Case[];
};
const now = Date.parse(shared.now);
// The generator fills these in for every feed car; the cases leave them out.
const base: RawCar = { status: 'in_stock', make: 'Kia' };

describe('card rules shared with the generator', () => {
  it('has cases', () => expect(shared.cases.length).toBeGreaterThan(20));

  it.each(shared.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const rules = { ...shared.default_rules, ...c.rules };
    const car = { ...base, ...c.car };
    expect(tagBanner(car, rules, now)).toBe(c.tag_banner);
    expect(priceText(car, rules)).toBe(c.price_text);
    expect(wasPriceText(car)).toBe(c.was_price_text);
    // The hosted hit mapping applies the same rules ("" where the generator writes null).
    const hit = hitFromHosted({ objectID: '1', ...car } as Record<string, unknown>, rules, now);
    expect(hit.tag_banner).toBe(c.tag_banner ?? '');
    expect(hit.price_text).toBe(c.price_text);
    expect(hit.was_price_text).toBe(c.was_price_text ?? '');
  });
});

describe('browser-only details', () => {
  const rules = shared.default_rules;
  it('reads unix seconds too (hosted records often hold them)', () => {
    expect(tagBanner({ ...base, created_at: now / 1000 - 86_400 }, rules, now)).toBe('New Arrival');
    expect(tagBanner({ ...base, created_at: now / 1000 - 9 * 86_400 }, rules, now)).toBeNull();
  });

  it('keeps a record that already carries the generator fields', () => {
    const hit = hitFromHosted({ objectID: '1', status: 'in_stock', price: 100, price_text: '$99 / week', tag_banner: 'Hot' }, rules, now);
    expect([hit.price_text, hit.tag_banner]).toEqual(['$99 / week', 'Hot']);
  });

  it('formats dollars like the generator', () => {
    expect(dollars(0)).toBe('$0');
    expect(dollars(999.5)).toBe('$1,000');
    expect(dollars(-1234.4)).toBe('-$1,234');
  });
});
