/**
 * Puts axe-core into a page. Through the DevTools protocol, not a
 * <script> tag: the sites are served with their Content-Security-Policy
 * (workerd applies the site's _headers), which rightly refuses
 * an inline script it has no hash for.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function injectAxe(page) {
  await page.evaluate(AXE_SOURCE);
}
