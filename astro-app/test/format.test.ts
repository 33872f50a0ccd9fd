import { describe, expect, it } from 'vitest';
import { badgeLine, carTypeLabel, formatKm, pluralise, suburbState, telHref, withTrailingSlash } from '../src/lib/format';

describe('formatKm', () => {
  it('groups thousands the Australian way', () => {
    expect(formatKm(12345)).toBe('12,345 km');
    expect(formatKm(0)).toBe('0 km');
    expect(formatKm(1234567.6)).toBe('1,234,568 km');
  });
});

describe('telHref', () => {
  it('keeps only digits and a leading plus', () => {
    expect(telHref('(07) 3000 1001')).toBe('tel:0730001001');
    expect(telHref(' +61 412 345 678 ')).toBe('tel:+61412345678');
  });
});

describe('withTrailingSlash', () => {
  it('adds a slash to internal page paths only', () => {
    expect(withTrailingSlash('/contact-us')).toBe('/contact-us/');
    expect(withTrailingSlash('/search?make=Kia#top')).toBe('/search/?make=Kia#top');
    expect(withTrailingSlash('/')).toBe('/');
    expect(withTrailingSlash('/brand/logo.svg')).toBe('/brand/logo.svg');
    expect(withTrailingSlash('https://example.com/a')).toBe('https://example.com/a');
    expect(withTrailingSlash('//cdn.example.com/a')).toBe('//cdn.example.com/a');
  });
});

describe('small labels', () => {
  it('pluralises counts', () => {
    expect(pluralise(1, 'car')).toBe('1 car');
    expect(pluralise(1200, 'car')).toBe('1,200 cars');
  });
  it('labels car types', () => {
    expect(carTypeLabel('demo')).toBe('Demo');
  });
  it('joins badge and series, skipping blanks', () => {
    expect(badgeLine({ badge: 'SR5', series: 'GUN126R' })).toBe('SR5 GUN126R');
    expect(badgeLine({ badge: null, series: ' ' })).toBe('');
  });
  it('joins suburb and state', () => {
    expect(suburbState('Newstead', 'QLD')).toBe('Newstead QLD');
  });
});
