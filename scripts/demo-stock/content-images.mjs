#!/usr/bin/env node
/**
 * Placeholder images of the dealer content blocks (deterministic SVG, no
 * dependencies), written under astro-app/public/images/:
 *   promotions/<name>.svg  1920 x 540 slides of the promotions slider
 *   popup/<name>.svg       1200 x 800 popup images (shown at most 600 px wide)
 *   blog/<name>.svg        750 x 500 blog tiles (shown 375 px wide)
 *   locations/<id>.svg     600 x 300 location photos (shown 150 px high)
 *   offers/<name>.svg      800 x 600 offer images
 *   payments/<key>.svg     the payments strip's badges (every payment method
 *                          the dealer YAML accepts; plain text badges, no
 *                          brand artwork)
 *
 *   node scripts/demo-stock/content-images.mjs
 *
 * The demo dealers' YAML refers to these files; the output is committed and
 * byte-identical on every run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.join(root, 'astro-app/public/images');
const FONT = "system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif";
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function write(rel, svg) {
  const file = path.join(out, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, svg);
}

/** A wide banner: a colour field, a road and a headline. */
function banner(w, h, title, sub, [bg, accent]) {
  // Sized to the width too: a long title must fit a 4:3 tile.
  const big = Math.round(Math.min(h * 0.16, (w * 0.88) / Math.max(8, title.length * 0.62)));
  const small = Math.round(Math.min(h * 0.07, big * 0.45));
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-labelledby="t">
<title id="t">${esc(title)}</title>
<rect width="${w}" height="${h}" fill="${bg}"/>
<path d="M0 ${h * 0.78}L${w} ${h * 0.6}V${h}H0z" fill="${accent}" opacity=".85"/>
<circle cx="${w * 0.82}" cy="${h * 0.3}" r="${h * 0.22}" fill="#fff" opacity=".12"/>
<text x="${w * 0.06}" y="${h * 0.42}" font-family="${FONT}" font-size="${big}" font-weight="800" fill="#fff">${esc(title)}</text>
<text x="${w * 0.06}" y="${h * 0.42 + small * 1.8}" font-family="${FONT}" font-size="${small}" fill="#fff" opacity=".9">${esc(sub)}</text>
</svg>
`;
}

const promotions = [
  ['summer-sale', 'Summer Sale', 'Drive away deals on in-stock cars', ['#12355b', '#d7263d']],
  ['service-special', 'Service Special', 'Log-book servicing from $199', ['#0f4c3a', '#f2a541']],
  ['hybrid-month', 'Hybrid Month', 'Test drive a hybrid this month', ['#eb0a1e', '#1a1a1a']],
  ['christmas', 'Christmas Trade-in Bonus', 'An extra $1,000 for your trade', ['#1d5c2e', '#b3202a']],
];
for (const [name, title, sub, colours] of promotions) write(`promotions/${name}.svg`, banner(1920, 540, title, sub, colours));

write('popup/summer-sale.svg', banner(1200, 800, 'Summer Sale', 'Ends 24 December', ['#12355b', '#d7263d']));
write('popup/service.svg', banner(1200, 800, 'Book a Service', 'Free wash with every service', ['#eb0a1e', '#1a1a1a']));

const blog = [
  ['hybrid-guide', 'Hybrid guide', ['#2f6f4e', '#a7d3b8']],
  ['towing-tips', 'Towing tips', ['#5b2a86', '#c7b3e0']],
  ['first-car', 'Buying a first car', ['#1e5fa8', '#b6d2f0']],
  ['service-faq', 'Service FAQ', ['#8a4b0f', '#f0c99a']],
];
for (const [name, title, colours] of blog) write(`blog/${name}.svg`, banner(750, 500, title, 'Read the article', colours));

const offers = [
  ['finance-offer', 'Low-rate finance', ['#12355b', '#3d7cc9']],
  ['service-offer', 'Service offer', ['#0f4c3a', '#5fa98b']],
  ['bonus-offer', 'Bonus accessories', ['#6b1d2f', '#d7263d']],
];
for (const [name, title, colours] of offers) write(`offers/${name}.svg`, banner(800, 600, title, 'Conditions apply', colours));

/** A showroom front. */
function showroom(id, name, colour) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 300" width="600" height="300" role="img" aria-labelledby="t">
<title id="t">${esc(name)}</title>
<rect width="600" height="300" fill="#dfe8f1"/>
<rect y="230" width="600" height="70" fill="#9aa5b1"/>
<rect x="70" y="80" width="460" height="150" fill="#f7f9fc" stroke="#7d8b99" stroke-width="4"/>
<rect x="70" y="62" width="460" height="36" fill="${colour}"/>
<text x="300" y="87" text-anchor="middle" font-family="${FONT}" font-size="20" font-weight="700" fill="#fff">${esc(name.toUpperCase())}</text>
<path d="M100 120h120v110H100zM240 120h120v110H240zM380 120h120v110H380z" fill="#cfe3f5" stroke="#7d8b99" stroke-width="3"/>
</svg>
`;
}
const locations = [
  ['bmg-newstead', 'Newstead', '#12355b'],
  ['bmg-eagle-farm', 'Eagle Farm', '#12355b'],
  ['bmg-car-buying', 'Car Buying Centre', '#d7263d'],
  ['pac-osborne-park-nissan', 'Osborne Park Nissan', '#0f4c3a'],
  ['sct-maroochydore', 'Maroochydore', '#eb0a1e'],
];
for (const [id, name, colour] of locations) write(`locations/${id}.svg`, showroom(id, name, colour));

/** Every payment method of the YAML (config PaymentMethod): a neutral text badge. */
const payments = [
  ['mastercard', 'Mastercard'],
  ['visa', 'VISA'],
  ['maestro', 'Maestro'],
  ['amex', 'AMEX'],
  ['google_pay', 'G Pay'],
  ['apple_pay', 'Apple Pay'],
  ['eftpos', 'eftpos'],
];
for (const [key, text] of payments) {
  const size = text.length > 7 ? 15 : 18;
  write(
    `payments/${key}.svg`,
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 60" width="96" height="60" aria-hidden="true">
<rect x="1" y="1" width="94" height="58" rx="8" fill="#fff" stroke="#6b7785" stroke-width="2"/>
<text x="48" y="36" text-anchor="middle" font-family="${FONT}" font-size="${size}" font-weight="700" fill="#1b1b1b">${esc(text)}</text>
</svg>
`,
  );
}
console.log('content images written under astro-app/public/images/');
