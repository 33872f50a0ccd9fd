/**
 * Dealer-supplied rich text (offer descriptions and disclaimers, dealer
 * comments, content pages) reaches a page only as the generator's
 * sanitised `*_html` fields (generator/src/pipeline/rich_text.rs): a component
 * prints those unescaped (`set:html`) and nothing else a dealer or a feed
 * wrote. The formatting itself is checked on a built car page
 * (generator/tests/integration/build.rs) and by the generator's unit tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import siteJson from './fixtures/site/src/data/site.json';
import carsJson from './fixtures/site/src/data/cars.json';

const src = new URL('../src/', import.meta.url).pathname;
const astroFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? astroFiles(p) : e.name.endsWith('.astro') ? [p] : [];
  });
const files = astroFiles(src).map((f) => ({ file: path.relative(src, f), text: fs.readFileSync(f, 'utf8') }));

/** Generated markup that is not dealer text: JSON-LD and the theme's CSS, built by our own code. */
const OWN_MARKUP = /^(jsonLdText|themeCss)\(/;
/** Components that print their `html` prop: each caller must pass a `*_html` field. */
const PRINTS_HTML_PROP = ['content/Collapsible.astro', 'company/ContentBody.astro'];
const htmlField = /^[\w.?]+_html$/;

describe('rich text is printed only from sanitised *_html fields', () => {
  it('every set:html prints a *_html field, the html prop of a component whose callers pass one, or our own markup', () => {
    const found: string[] = [];
    for (const { file, text } of files) {
      for (const m of text.matchAll(/set:html=\{((?:[^{}]|\{[^{}]*\})*)\}/g)) {
        const expr = (m[1] ?? '').trim();
        found.push(expr);
        const ok = htmlField.test(expr) || OWN_MARKUP.test(expr) || (expr === 'html' && PRINTS_HTML_PROP.some((c) => file.endsWith(c)));
        expect(ok, `${file}: set:html={${expr}}`).toBe(true);
      }
    }
    expect(found).toContain('car.comments_html');
  });

  it('callers of the components that print their html prop pass a *_html field', () => {
    let calls = 0;
    for (const { file, text } of files) {
      for (const name of ['Collapsible', 'ContentBody']) {
        const imported = new RegExp(`import ${name} from '[^']*(content/Collapsible|company/ContentBody)\\.astro'`).test(text);
        if (!imported) continue;
        for (const m of text.matchAll(new RegExp(`<${name}\\b[^>]*?\\bhtml=\\{([^}]*)\\}`, 'gs'))) {
          calls += 1;
          const expr = (m[1] ?? '').trim();
          expect(htmlField.test(expr), `${file}: <${name} html={${expr}}>`).toBe(true);
        }
      }
    }
    expect(calls).toBeGreaterThanOrEqual(4);
  });

  it('the fixture carries the sanitised fields beside the text the collapse rules read', () => {
    const offers = siteJson.content.offers.items;
    expect(offers.length).toBeGreaterThan(0);
    for (const o of offers) {
      expect(o.description_html).toContain((o.description.split('\n')[0] ?? '').slice(0, 20).replace(/&/g, '&amp;'));
      expect(o.disclaimer_html === '').toBe(o.disclaimer === '');
    }
    for (const c of carsJson) expect(c.comments_html === '').toBe(c.comment_paragraphs.length === 0);
  });
});
