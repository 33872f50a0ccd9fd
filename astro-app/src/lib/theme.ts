/** Turns the dealer theme into CSS custom properties (pure, unit-tested). */

import type { Theme } from '../types/site';

/** System fonts only: the sites never download web fonts. */
export const SYSTEM_FONT_STACK =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

/** The light grey of panels (--c-surface in global.css); links must stay readable on it. */
const SURFACE = '#f4f6f8';

/**
 * Drops characters that could end the declaration or the <style> element.
 * Theme values come from dealer YAML, which is trusted, but a stray ";" or
 * "}" should break one colour, not the whole stylesheet.
 */
function cssValue(value: string): string {
  return value.replace(/[;{}<>\\]/g, '').trim();
}

type Rgb = [number, number, number];

/** "#0b3d91" or "#fff" -> [11, 61, 145]; null for anything else (named colours, rgb()...). */
export function parseHex(color: string): Rgb | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m?.[1]) return null;
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** White or near-black, whichever reads better on `background`. */
export function textOn(background: string): string {
  const bg = parseHex(background);
  if (!bg) return '#ffffff';
  return contrast(bg, [255, 255, 255]) >= contrast(bg, [17, 17, 17]) ? '#ffffff' : '#111111';
}

/**
 * `color` darkened just enough to reach `ratio` against `background`
 * (brand colours are kept when they already pass). Non-hex colours are
 * returned unchanged.
 */
export function readableOn(color: string, background: string, ratio = 4.5): string {
  const fg = parseHex(color);
  const bg = parseHex(background);
  if (!fg || !bg) return color;
  let rgb: Rgb = fg;
  for (let i = 0; i < 40 && contrast(rgb, bg) < ratio; i++) rgb = rgb.map((v) => v * 0.92) as Rgb;
  return toHex(rgb);
}

/**
 * "html:root{--c-primary:#0b3d91;...}" for an inline <style>. The extra type
 * selector outranks the defaults in global.css, whose bundled <link> may come
 * after this <style> in the head. Derived colours keep text readable whatever
 * the brand colours are: --c-link (primary, darkened if needed to read on
 * panels), --c-accent-text (accent as text on white) and --c-on-accent.
 */
export function themeCss(theme: Theme): string {
  const font = cssValue(theme.font_family);
  const primary = cssValue(theme.primary);
  const accent = cssValue(theme.accent);
  const vars: [string, string][] = [
    ['--c-primary', primary],
    ['--c-on-primary', cssValue(theme.on_primary)],
    ['--c-accent', accent],
    ['--c-on-accent', textOn(accent)],
    ['--c-accent-text', readableOn(accent, '#ffffff')],
    ['--c-link', readableOn(primary, SURFACE)],
    ['--c-bg', cssValue(theme.background)],
    ['--c-text', cssValue(theme.text)],
    ['--font', font === '' ? SYSTEM_FONT_STACK : `${font}, ${SYSTEM_FONT_STACK}`],
  ];
  return `html:root{${vars.map(([k, v]) => `${k}:${v}`).join(';')}}`;
}
