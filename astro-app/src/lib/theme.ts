/** Turns the dealer theme into CSS custom properties (pure, unit-tested). */

import type { Theme } from '../types/site';

/** System fonts only: the sites never download web fonts. */
export const SYSTEM_FONT_STACK =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

/**
 * Drops characters that could end the declaration or the <style> element.
 * Theme values come from dealer YAML, which is trusted, but a stray ";" or
 * "}" should break one colour, not the whole stylesheet.
 */
function cssValue(value: string): string {
  return value.replace(/[;{}<>\\]/g, '').trim();
}

/** ":root{--c-primary:#0b3d91;...}" for an inline <style>. */
export function themeCss(theme: Theme): string {
  const font = cssValue(theme.font_family);
  const vars: [string, string][] = [
    ['--c-primary', cssValue(theme.primary)],
    ['--c-on-primary', cssValue(theme.on_primary)],
    ['--c-accent', cssValue(theme.accent)],
    ['--c-bg', cssValue(theme.background)],
    ['--c-text', cssValue(theme.text)],
    ['--font', font === '' ? SYSTEM_FONT_STACK : `${font}, ${SYSTEM_FONT_STACK}`],
  ];
  return `:root{${vars.map(([k, v]) => `${k}:${v}`).join(';')}}`;
}
