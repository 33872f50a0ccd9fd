/**
 * Car photo addresses (rules/vectors/images.json, shared with
 * config/src/images.rs): the image host's width and quality parameters,
 * srcset, and sizes that match the layout.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { photoAttrs, photoUrl, SIZES, srcset, thumbUrl } from '../src/lib/images';

const vectors = JSON.parse(fs.readFileSync(`${__dirname}/../../rules/vectors/images.json`, 'utf8')) as {
  photo_url: { why: string; template: string | null; url: string; width: number; quality: number; expect: string }[];
  srcset: { template: string | null; url: string; widths: number[]; quality: number; expect: string | null }[];
};

describe('shared image vectors', () => {
  it('builds every photo address as the vectors say', () => {
    expect(vectors.photo_url.length).toBeGreaterThanOrEqual(10);
    for (const c of vectors.photo_url) expect(photoUrl(c.template, c.url, c.width, c.quality), c.why).toBe(c.expect);
  });

  it('builds every srcset as the vectors say', () => {
    expect(vectors.srcset.some((c) => c.expect === null) && vectors.srcset.some((c) => c.expect !== null)).toBe(true);
    for (const c of vectors.srcset) expect(srcset(c.template, c.url, c.widths, c.quality)).toBe(c.expect);
  });
});

describe('photo attributes', () => {
  const images = { url_template: '{url}?w={width}&q={quality}', width: 640, quality: 75, srcset_widths: [480, 960] };

  it('falls back to the default width (640) at the dealer quality (75) and offers the srcset widths', () => {
    expect(photoAttrs('https://cdn.example/1.jpg', images, SIZES.card)).toEqual({
      src: 'https://cdn.example/1.jpg?w=640&q=75',
      srcset: 'https://cdn.example/1.jpg?w=480&q=75 480w, https://cdn.example/1.jpg?w=960&q=75 960w',
      sizes: SIZES.card,
    });
  });

  it('leaves photos alone without a template, and never gives sizes without a srcset', () => {
    expect(photoAttrs('/a.jpg', { ...images, url_template: null }, SIZES.card)).toEqual({ src: '/a.jpg' });
    expect(photoAttrs('/no-photo.svg', images, SIZES.card)).toEqual({ src: '/no-photo.svg' });
  });

  it('thumbnails use the smallest width', () => {
    expect(thumbUrl('https://cdn.example/1.jpg', images)).toBe('https://cdn.example/1.jpg?w=480&q=75');
    expect(thumbUrl('https://cdn.example/1.jpg', { ...images, srcset_widths: [] })).toBe('https://cdn.example/1.jpg?w=640&q=75');
  });

  it('sizes name a width for every breakpoint, ending with a default', () => {
    for (const s of Object.values(SIZES)) expect(s.split(',').at(-1)!.trim()).not.toMatch(/^\(/);
    // The card grid's breakpoints (styles/global.css): 576, 992, 1200.
    for (const bp of ['576px', '992px', '1200px']) expect(SIZES.card).toContain(`(min-width: ${bp})`);
  });
});
