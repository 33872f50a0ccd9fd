import { describe, expect, it } from 'vitest';
import { SYSTEM_FONT_STACK, contrast, parseHex, readableOn, textOn, themeCss } from '../src/lib/theme';
import type { Theme } from '../src/types/site';

const theme: Theme = {
  primary: '#0b3d91',
  on_primary: '#fff',
  accent: '#c8102e',
  background: '#ffffff',
  text: '#1a1a1a',
  logo: '/brand/logo.svg',
  font_family: 'Arial',
};

describe('themeCss', () => {
  it('writes the theme as custom properties with the system font stack behind the dealer font', () => {
    expect(themeCss(theme)).toBe(
      'html:root{--c-primary:#0b3d91;--c-on-primary:#fff;--c-accent:#c8102e;--c-on-accent:#ffffff;' +
        '--c-accent-text:#c8102e;--c-link:#0b3d91;--c-bg:#ffffff;--c-text:#1a1a1a;' +
        `--font:Arial, ${SYSTEM_FONT_STACK}}`,
    );
  });

  it('cannot break out of the declaration or the style element', () => {
    const css = themeCss({ ...theme, primary: 'red;}</style><script>x</script>', font_family: '' });
    expect(css).not.toMatch(/<|>|red;/);
    expect(css).toContain(`--font:${SYSTEM_FONT_STACK}`);
  });
});

describe('derived colours', () => {
  it('parses hex colours', () => {
    expect(parseHex('#fff')).toEqual([255, 255, 255]);
    expect(parseHex('#0B3D91')).toEqual([11, 61, 145]);
    expect(parseHex('red')).toBeNull();
  });

  it('puts dark text on light accents and white on dark ones', () => {
    expect(textOn('#f2a541')).toBe('#111111');
    expect(textOn('#1a1a1a')).toBe('#ffffff');
    expect(textOn('#c8102e')).toBe('#ffffff');
    expect(textOn('orange')).toBe('#ffffff');
  });

  it('darkens a brand colour only as far as needed for 4.5:1', () => {
    expect(readableOn('#0b3d91', '#ffffff')).toBe('#0b3d91');
    const link = readableOn('#eb0a1e', '#f4f6f8');
    expect(link).not.toBe('#eb0a1e');
    expect(contrast(parseHex(link)!, parseHex('#f4f6f8')!)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(parseHex(readableOn('#f2a541', '#ffffff'))!, [255, 255, 255])).toBeGreaterThanOrEqual(4.5);
  });
});
