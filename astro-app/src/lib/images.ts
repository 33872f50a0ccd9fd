/**
 * Car photo addresses (docs/behaviour/content.md §7): the image host's width and quality
 * parameters from the dealer's `images.url_template`, a `srcset` of the
 * dealer's widths, and `sizes` that match the real layout so a phone never
 * downloads a desktop photo. The same rule as config/src/images.rs (the
 * build's checks), pinned by rules/vectors/images.json.
 */
import type { ImagesConfig } from '../types/site';

type Part = { text: string } | { name: 'url' | 'base' | 'ext' | 'width' | 'quality' };
const NAMES = new Set(['url', 'base', 'ext', 'width', 'quality']);
// Control characters are exactly what this refuses.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\s"'<>`\\\u0000-\u001f\u007f]/;

/** The template's parts, or null when it would not check (then photos are used as they are). */
function parse(template: string): Part[] | null {
  if (UNSAFE.test(template)) return null;
  const parts: Part[] = [];
  let rest = template;
  while (rest !== '') {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    if (open < 0 && close < 0) {
      parts.push({ text: rest });
      break;
    }
    if (open < 0 || close < 0 || close < open) return null;
    if (open > 0) parts.push({ text: rest.slice(0, open) });
    const name = rest.slice(open + 1, close);
    if (!NAMES.has(name)) return null;
    parts.push({ name: name as 'url' });
    rest = rest.slice(close + 1);
  }
  const names = parts.map((p) => ('name' in p ? p.name : ''));
  if (!names.includes('width') || !(names.includes('url') || names.includes('base'))) return null;
  return parts;
}

function resizable(url: string): boolean {
  const path = url.split(/[?#]/)[0] ?? url;
  return url !== '' && !url.startsWith('data:') && !path.toLowerCase().endsWith('.svg');
}

/** ["/a/photo", "jpg"] of "/a/photo.jpg?v=1", or null without an extension. */
function splitExt(url: string): [string, string] | null {
  const path = url.split(/[?#]/)[0] ?? url;
  const nameStart = path.lastIndexOf('/') + 1;
  const dot = path.lastIndexOf('.');
  if (dot <= nameStart || dot === path.length - 1) return null;
  return [path.slice(0, dot), path.slice(dot + 1)];
}

/** `url` resized to `width` at `quality`, or `url` itself (no template, a vector drawing, no extension for `{base}`). */
export function photoUrl(template: string | null | undefined, url: string, width: number, quality: number): string {
  const parts = template ? parse(template) : null;
  if (!parts || !resizable(url)) return url;
  const split = splitExt(url);
  if (!split && parts.some((p) => 'name' in p && (p.name === 'base' || p.name === 'ext'))) return url;
  let out = '';
  let afterUrl = false;
  for (const p of parts) {
    if ('text' in p) {
      // "{url}?w=..." on an address that already has a query string.
      out += afterUrl && p.text.startsWith('?') && url.includes('?') ? `&${p.text.slice(1)}` : p.text;
      afterUrl = false;
      continue;
    }
    out += p.name === 'url' ? url : p.name === 'base' ? (split?.[0] ?? url) : p.name === 'ext' ? (split?.[1] ?? '') : String(p.name === 'width' ? width : quality);
    afterUrl = p.name === 'url';
  }
  return out;
}

/** "a-480.jpg 480w, a-960.jpg 960w", or null when the photo is used as it is. */
export function srcset(template: string | null | undefined, url: string, widths: readonly number[], quality: number): string | null {
  const first = widths[0];
  if (first === undefined || photoUrl(template, url, first, quality) === url) return null;
  return widths.map((w) => `${photoUrl(template, url, w, quality)} ${w}w`).join(', ');
}

/**
 * `sizes` of each place a car photo appears, from the layout in
 * styles/global.css and car-page.css (container 1200 px with 1 rem padding;
 * breakpoints 576, 992, 1200): the width the photo is drawn at.
 */
export const SIZES = {
  /** Car page photo strip: a slide is 92% of the column; the column is 3/5 of the page from 992 px. */
  gallery: '(min-width: 1200px) 632px, (min-width: 992px) calc(55vw - 30px), calc(92vw - 30px)',
  /** Search result cards: 1, 2, 2 (next to the filters), then 3 columns. */
  card: '(min-width: 1200px) 288px, (min-width: 992px) calc(50vw - 160px), (min-width: 576px) calc(50vw - 24px), calc(100vw - 32px)',
  /** Similar cars: a grid of columns at least 160 px wide (two on phones, up to six). */
  similar: '(min-width: 576px) 200px, calc(50vw - 24px)',
  /** Watchlist rows. */
  thumb: '160px',
  /** The checkout page's car: 2/5 of the page from 768 px (forms.css .checkout-layout), else the page. */
  checkout: '(min-width: 1200px) 458px, (min-width: 768px) calc(40vw - 22px), calc(100vw - 32px)',
  /** The photo viewer: the whole screen. */
  viewer: '100vw',
} as const;

export interface PhotoAttrs {
  src: string;
  srcset?: string;
  sizes?: string;
}

/** `src` at the dealer's width (the fallback), and `srcset`/`sizes` when the photo can be resized. */
export function photoAttrs(url: string, images: ImagesConfig, sizes: string): PhotoAttrs {
  const set = srcset(images.url_template, url, images.srcset_widths, images.quality);
  const src = photoUrl(images.url_template, url, images.width, images.quality);
  return set ? { src, srcset: set, sizes } : { src };
}

/** A small copy (the smallest srcset width): thumbnails in JSON files and lists. */
export function thumbUrl(url: string, images: ImagesConfig): string {
  const w = images.srcset_widths[0] ?? images.width;
  return photoUrl(images.url_template, url, w, images.quality);
}

/** No photo, or a photo that failed to load: the not-found placeholder (docs/behaviour/content.md §4, §8). */
export const NO_PHOTO = '/images/no-photo.svg';

/** `photoAttrs` with React's prop names (srcSet). */
export function photoProps(url: string, images: ImagesConfig, sizes: string): { src: string; srcSet?: string; sizes?: string } {
  const { src, srcset: srcSet, sizes: s } = photoAttrs(url, images, sizes);
  return srcSet ? { src, srcSet, sizes: s } : { src };
}
