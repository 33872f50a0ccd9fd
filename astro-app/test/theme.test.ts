import { describe, expect, it } from 'vitest';
import { SYSTEM_FONT_STACK, themeCss } from '../src/lib/theme';
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
      `:root{--c-primary:#0b3d91;--c-on-primary:#fff;--c-accent:#c8102e;--c-bg:#ffffff;--c-text:#1a1a1a;--font:Arial, ${SYSTEM_FONT_STACK}}`,
    );
  });

  it('cannot break out of the declaration or the style element', () => {
    const css = themeCss({ ...theme, primary: 'red;}</style><script>x</script>', font_family: '' });
    expect(css).not.toMatch(/<|>|red;/);
    expect(css).toContain(`--font:${SYSTEM_FONT_STACK}`);
  });
});
