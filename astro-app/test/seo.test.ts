import { describe, expect, it } from 'vitest';
import cars from './fixtures/site/src/data/cars.json';
import site from './fixtures/site/src/data/site.json';
import { carJsonLd, jsonLdText } from '../src/lib/seo';
import type { Car } from '../src/types/site';

const all = cars as Car[];

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
