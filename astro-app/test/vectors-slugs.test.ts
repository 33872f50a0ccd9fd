/**
 * Car slugs (rules/vectors/slugs.json, `car_slugs`): the generator only
 * writes cars whose slug passes rules/src/slug.rs, and the site puts that
 * slug into its URLs as it is: the car page link and the worker's views
 * call keep every valid slug verbatim, so the worker sees the very slug it
 * was given in the build's car list. (The `kebab` slugs are the generator's
 * alone; the site receives them as data.)
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cardActions } from '../src/lib/search/cards';
import { viewsPath } from '../src/lib/views';

const vectors = JSON.parse(fs.readFileSync(`${__dirname}/../../rules/vectors/slugs.json`, 'utf8')) as {
  car_slugs: { slug: string; valid: boolean }[];
};

describe('shared car slug vectors', () => {
  const valid = vectors.car_slugs.filter((c) => c.valid).map((c) => c.slug);

  it('has valid and invalid cases', () => {
    expect(valid.length).toBeGreaterThanOrEqual(3);
    expect(vectors.car_slugs.some((c) => !c.valid)).toBe(true);
  });

  it('the views call carries a valid slug unchanged', () => {
    for (const slug of valid) {
      const path = viewsPath(slug, {});
      expect(path).toBe(`/api/cars/${slug}/view.json`);
      expect(new URL(path, 'https://dealer.example').pathname).toBe(path);
    }
  });

  it('the car page link carries a valid slug unchanged', () => {
    const settings = { buttons: ['view_details' as const], checkout: false, checkoutDeposit: 0, checkoutPath: 'checkout' };
    for (const slug of valid) {
      const [action] = cardActions({ objectID: '1', slug, status: 'in_stock', phone: '' }, settings);
      expect(new URL(action!.href, 'https://dealer.example').pathname).toBe(`/cars/${slug}/`);
    }
  });
});
