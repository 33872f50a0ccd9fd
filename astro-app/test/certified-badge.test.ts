import { describe, expect, it } from 'vitest';
import { certifiedImage, certifiedTitle } from '../src/lib/search/present';

// cards.certified_badge_image: a card whose tag is the certified badge shows the programme's image.
describe('certified badge image', () => {
  const rules = { certified_badge_make: 'Toyota', certified_badge_image: '/images/badges/certified-pre-owned.svg' };
  it('is the image for the certified tag, with the words as its text', () => {
    expect(certifiedTitle(' Toyota ')).toBe('Toyota Certified Pre-Owned');
    expect(certifiedImage('Toyota Certified Pre-Owned', rules)).toBe('/images/badges/certified-pre-owned.svg');
  });
  it('is none for another tag, without an image or without a make', () => {
    expect(certifiedImage('Hybrid', rules)).toBeNull();
    expect(certifiedImage('Kia Certified Pre-Owned', rules)).toBeNull();
    expect(certifiedImage('Toyota Certified Pre-Owned', { ...rules, certified_badge_image: null })).toBeNull();
    expect(certifiedImage('Toyota Certified Pre-Owned', { ...rules, certified_badge_make: null })).toBeNull();
    expect(certifiedImage(null, rules)).toBeNull();
    expect(certifiedImage('Toyota Certified Pre-Owned', undefined)).toBeNull();
  });
});
