// Astro's island style moved into <head> after the build (integrations/valid-html.ts).
import { describe, expect, it } from 'vitest';
import { ISLAND_STYLE, moveIslandStyle } from '@app/integrations/valid-html';

describe('the island style in <head>', () => {
  const page = (head: string, body: string) => `<!DOCTYPE html><html><head><title>x</title>${head}</head><body>${body}</body></html>`;

  it('moves it from <body> to the end of <head>, once, unchanged', () => {
    const built = page('', `<main><h2>Cars</h2>${ISLAND_STYLE}<astro-island></astro-island>${ISLAND_STYLE}</main>`);
    expect(moveIslandStyle(built)).toBe(page(ISLAND_STYLE, '<main><h2>Cars</h2><astro-island></astro-island></main>'));
  });

  it('leaves a page already moved, or without islands, as it is', () => {
    const moved = page(ISLAND_STYLE, '<main><astro-island></astro-island></main>');
    expect(moveIslandStyle(moved)).toBe(moved);
    const none = page('', '<main><p>No islands</p></main>');
    expect(moveIslandStyle(none)).toBe(none);
  });
});
