import { describe, expect, it } from 'vitest';
import { collapse, DISCLAIMER_LIMIT } from '../src/lib/finance/disclaimer';
import { financeEnquiryHref, readFinanceRequest } from '../src/lib/finance/links';

describe('the disclaimer collapses to 197 characters (docs/behaviour/car-page.md §4)', () => {
  it('shows 197 characters and keeps the rest for Show More', () => {
    expect(DISCLAIMER_LIMIT).toBe(197);
    const text = 'x'.repeat(197) + 'REST of it';
    expect(collapse(text)).toEqual({ head: 'x'.repeat(197), rest: 'REST of it' });
    expect(collapse('x'.repeat(197))).toEqual({ head: 'x'.repeat(197), rest: '' });
    expect(collapse('  short  ')).toEqual({ head: 'short', rest: '' });
  });
  it('never cuts inside a character', () => {
    const text = 'é'.repeat(196) + '🚗🚗';
    const { head, rest } = collapse(text);
    expect(Array.from(head)).toHaveLength(197);
    expect(head.endsWith('🚗')).toBe(true);
    expect(rest).toBe('🚗');
  });
});

describe('finance enquiry links (docs/behaviour/car-page.md §2)', () => {
  it('carry preferredDealership, vehiclePriceBudget, car_id and car_type to #finance-form', () => {
    expect(financeEnquiryHref('/finance/', { locationId: 'bmg-newstead', price: 30990.4, id: '410073', carType: 'used' })).toBe(
      '/finance/?preferredDealership=bmg-newstead&vehiclePriceBudget=30990&car_id=410073&car_type=used#finance-form',
    );
    expect(financeEnquiryHref('/finance/', { locationId: 'x', price: 0, id: '1', carType: 'new' })).toBe('/finance/?preferredDealership=x&car_id=1&car_type=new#finance-form');
  });
  it('without a vehicle: the finance page', () => {
    expect(financeEnquiryHref('/apply-for-finance/', null)).toBe('/apply-for-finance/');
  });
  it('are read back by the finance page', () => {
    const href = financeEnquiryHref('/finance/', { locationId: 'bmg-newstead', price: 30990, id: '410073', carType: 'used' });
    expect(readFinanceRequest(href.slice(href.indexOf('?'), href.indexOf('#')))).toEqual({
      preferredDealership: 'bmg-newstead',
      vehiclePriceBudget: 30990,
      carId: '410073',
      carType: 'used',
    });
    expect(readFinanceRequest('?vehiclePriceBudget=lots&car_id=')).toEqual({ preferredDealership: null, vehiclePriceBudget: null, carId: null, carType: null });
  });
});
