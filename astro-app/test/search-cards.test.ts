// The search cards' Trade In button follows the car page's rule
// (rules/vectors/trade-in.json, read by the Rust side too).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cardActions, mayValueTradeIn, type CardSettings } from '@app/lib/search/cards';

interface V {
  cases: { name: string; offered: boolean; car: { status: string; reserved: boolean; price: number }; may_value: boolean }[];
}
const v = JSON.parse(fs.readFileSync(`${__dirname}/../../rules/vectors/trade-in.json`, 'utf8')) as V;

describe('trade-in valuation (rules/vectors/trade-in.json)', () => {
  it('mayValueTradeIn gives every case the Rust rule’s answer', () => {
    expect(v.cases.length).toBeGreaterThanOrEqual(8);
    for (const c of v.cases) expect(mayValueTradeIn(c.offered, c.car), c.name).toBe(c.may_value);
  });

  it('a card offers Trade In exactly where the rule allows', () => {
    const settings: CardSettings = { buttons: ['trade_in'], checkout: false, checkoutDeposit: 0, checkoutPath: 'checkout', tradeIn: true };
    for (const c of v.cases) {
      const status = c.car.status as 'in_stock' | 'coming_soon' | 'sold';
      const hit = { objectID: '9', slug: 'car-9', phone: '', ...c.car, status };
      const kinds = cardActions(hit, { ...settings, tradeIn: c.offered }).map((a) => a.kind);
      expect(kinds.includes('trade_in'), c.name).toBe(c.may_value);
    }
  });
});

describe('button labels (cards.labels)', () => {
  const car = { objectID: '7', slug: 'kia-7', status: 'in_stock' as const, phone: '(07) 3000 0001', price: 18990 };
  const settings: CardSettings = { buttons: ['enquire', 'finance', 'reserve', 'view_details'], checkout: true, checkoutDeposit: 200, checkoutPath: 'checkout' };

  it('keep the platform’s wording by default', () => {
    expect(cardActions(car, settings).map((a) => a.label)).toEqual(['Enquire', 'Get Finance', 'Reserve Now $200', 'View Details']);
  });

  // "002" in this name is the old platform's content spec; the labels are docs/behaviour/spec-rows.md C22.
  it('take the dealer’s wording kind by kind (002: "Reserve Car Now", "Finance Enquiry"), the links unchanged', () => {
    const labelled = cardActions(car, { ...settings, labels: { reserve: 'Reserve Car Now', finance: 'Finance Enquiry' } });
    expect(labelled.map((a) => a.label)).toEqual(['Enquire', 'Finance Enquiry', 'Reserve Car Now', 'View Details']);
    expect(labelled.map((a) => a.href)).toEqual(cardActions(car, settings).map((a) => a.href));
  });
});
