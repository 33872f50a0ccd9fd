#!/usr/bin/env node
// Deterministic SVG placeholder images for the demo stock.
//
//   node scripts/demo-stock/placeholders.mjs
//
// Writes into astro-app/public/images/:
//   stock/<body>-<1..6>.svg   vehicle silhouettes, 8 body types x 6 colours (800x600)
//   no-photo.svg              "Photos coming soon" / "New arrival" placeholder
//   makes/<make-slug>.svg     text-badge logo for every make in catalogue.mjs
//   brand/<dealer-slug>.svg   wordmark for each demo dealer
// Every file is checked to stay under 3 KB. No npm dependencies.

import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BODY_SLUGS, COLOUR_VARIANTS, DEALERS, MAKES, allMakes, slugify } from './catalogue.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const OUT = join(ROOT, 'astro-app', 'public', 'images');
const MAX_BYTES = 3 * 1024;

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/* Silhouettes in an 800x600 box: body path(s), window paths, wheel centres
 * and radius, optional extra details drawn in the line colour. Front faces left. */
const SHAPES = {
  sedan: {
    label: 'Sedan',
    body: 'M100 405V352q2-22 34-27l104-18q52-50 100-62 30-8 86-8h70q44 0 80 28l56 46 62 12q24 6 27 34v50z',
    windows: ['M262 306l78-52q14-8 44-8h40v60z', 'M440 246h54q34 0 60 22l42 38H440z'],
    wheels: [222, 590], r: 50, cy: 405,
    details: 'M432 246v74M110 352h18M690 350h16',
  },
  hatch: {
    label: 'Hatch',
    body: 'M130 405V350q2-20 36-26l98-16q52-56 104-68l220-4q30 2 42 32l28 68q8 18 8 40v29z',
    windows: ['M282 306l74-54q14-10 44-10h44v64z', 'M460 242h118q20 0 26 20l16 44H460z'],
    wheels: [238, 568], r: 50, cy: 405,
    details: 'M452 242v80M140 350h18',
  },
  suv: {
    label: 'SUV',
    body: 'M110 408V332q2-30 40-36l80-12 68-74q12-14 40-14h292q34 0 46 34l18 70q6 20 6 50v58z',
    windows: ['M246 282l64-66q8-8 26-8h118v74z', 'M470 208h148q22 0 30 22l14 52H470z'],
    wheels: [228, 584], r: 56, cy: 408,
    details: 'M462 208v88M300 194h300M120 330h18',
  },
  ute: {
    label: 'Ute',
    body: 'M100 408V330q2-26 40-30l78-8 60-74q10-12 36-12h168q16 0 16 16v80h212v106z',
    windows: ['M234 288l54-64q6-6 22-6h72v70z', 'M394 218h66q10 0 10 12v58h-76z'],
    wheels: [226, 602], r: 54, cy: 408,
    details: 'M498 300v-14h210v14M386 218v84M110 330h18',
  },
  van: {
    label: 'Van',
    body: 'M100 408V300q4-30 40-50l90-70q14-12 44-12h414q22 0 22 22v218z',
    windows: ['M150 270l84-70q10-8 28-8h70v78z', 'M360 192h110v78H360z'],
    wheels: [222, 604], r: 50, cy: 408,
    details: 'M346 190v200M490 190v200M700 200v180',
  },
  wagon: {
    label: 'Wagon',
    body: 'M96 405V350q2-20 34-24l100-14q56-52 108-64l302-8q32 0 44 28l20 60q8 16 8 40v37z',
    windows: ['M250 306l82-50q16-8 46-8h76v58z', 'M470 248l158-2q22 0 30 22l12 38H470z'],
    wheels: [216, 600], r: 50, cy: 405,
    details: 'M462 248v78M106 350h18',
  },
  'cab-chassis': {
    label: 'Cab chassis truck',
    body: 'M90 412V252q0-62 60-66h152q20 0 20 20v206zM322 352h398v36H322z',
    windows: ['M110 262l8-48q4-12 22-12h162v60z'],
    wheels: [200, 566, 646], r: 52, cy: 412,
    details: 'M336 282h384v66H336z',
    detailFill: true,
  },
  caravan: {
    label: 'Caravan',
    body: 'M180 400V252q0-54 54-62l456-4q30 0 30 30v184z',
    windows: ['M250 240h112v60q0 8-8 8h-96q-8 0-8-8z', 'M540 240h112v60q0 8-8 8h-96q-8 0-8-8z'],
    wheels: [430, 530], r: 42, cy: 408,
    details: 'M180 384L84 398M392 232h74v160h-74zM180 330h540',
    jockey: true,
  },
};

/** The silhouette of a body type in one colour variant (0..5), 800x600 (also drawn into the demo JPEG photos by photos.mjs). */
export function stockSvg(slug, variant, n) {
  const s = SHAPES[slug];
  const c = COLOUR_VARIANTS[variant];
  const id = `g${n}`;
  const wheels = s.wheels
    .map((x) => `<circle cx="${x}" cy="${s.cy}" r="${s.r}" fill="#1d2127"/><circle cx="${x}" cy="${s.cy}" r="${Math.round(s.r * 0.48)}" fill="#c9ced6" stroke="#8b929c" stroke-width="4"/>`)
    .join('');
  const jockey = s.jockey ? `<circle cx="94" cy="420" r="14" fill="#1d2127"/><path d="M94 398v8" stroke="${c.line}" stroke-width="6"/>` : '';
  const details = s.detailFill
    ? `<path d="${s.details}" fill="${c.paint}" stroke="${c.line}" stroke-width="5" opacity=".9"/>`
    : `<path d="${s.details}" fill="none" stroke="${c.line}" stroke-width="4" stroke-linecap="round" opacity=".55"/>`;
  const title = `${s.label} placeholder photo, ${c.name}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" width="800" height="600" role="img" aria-labelledby="t">
<title id="t">${esc(title)}</title>
<defs><linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${c.bg2}"/><stop offset="1" stop-color="${c.bg}"/></linearGradient></defs>
<rect width="800" height="600" fill="url(#${id})"/>
<rect y="462" width="800" height="138" fill="${c.bg}"/>
<ellipse cx="410" cy="468" rx="330" ry="18" fill="#000" opacity=".12"/>
<path d="${s.body}" fill="${c.paint}" stroke="${c.line}" stroke-width="5" stroke-linejoin="round"/>
${details}
${s.windows.map((w) => `<path d="${w}" fill="#34414f" opacity=".85"/>`).join('')}
${jockey}${wheels}
</svg>
`;
}

function noPhotoSvg() {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" width="800" height="600" role="img" aria-labelledby="t">
<title id="t">Photos coming soon</title>
<rect width="800" height="600" fill="#eef1f5"/>
<rect x="24" y="24" width="752" height="552" rx="18" fill="none" stroke="#c5ccd6" stroke-width="4" stroke-dasharray="14 12"/>
<g fill="none" stroke="#7b8794" stroke-width="12" stroke-linejoin="round">
<path d="M300 214h46l22-34h64l22 34h46q20 0 20 20v120q0 20-20 20H300q-20 0-20-20V234q0-20 20-20z"/>
<circle cx="400" cy="294" r="48"/>
</g>
<text x="400" y="448" text-anchor="middle" font-family="system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif" font-size="44" font-weight="700" fill="#3b4450">Photos coming soon</text>
<text x="400" y="500" text-anchor="middle" font-family="system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif" font-size="28" font-weight="600" letter-spacing="4" fill="#7b8794">NEW ARRIVAL</text>
</svg>
`;
}

/** Relative luminance check: white text unless the badge colour is light. */
function textOn(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.6 ? '#111' : '#fff';
}

function makeSvg(make) {
  const colour = (MAKES[make] && MAKES[make].colour) || '#333333';
  const label = make.toUpperCase();
  const size = label.length <= 3 ? 44 : label.length <= 6 ? 34 : label.length <= 8 ? 27 : 22;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 120" width="240" height="120" role="img" aria-labelledby="t">
<title id="t">${esc(make)}</title>
<rect x="4" y="4" width="232" height="112" rx="56" fill="${colour}"/>
<rect x="12" y="12" width="216" height="96" rx="48" fill="none" stroke="${textOn(colour)}" stroke-opacity=".35" stroke-width="3"/>
<text x="120" y="${60 + Math.round(size * 0.36)}" text-anchor="middle" font-family="system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif" font-size="${size}" font-weight="800" letter-spacing="2" fill="${textOn(colour)}">${esc(label)}</text>
</svg>
`;
}

function brandSvg(dealer) {
  const w = dealer.wordmark;
  const font = "system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 520 120" width="520" height="120" role="img" aria-labelledby="t">
<title id="t">${esc(dealer.name)}</title>
<rect x="6" y="10" width="100" height="100" rx="22" fill="${w.primary}"/>
<path d="M24 78q4-14 18-18l14-4 12-14q4-4 10-4h10q8 0 10 8l4 16v16z" fill="#fff"/>
<circle cx="44" cy="80" r="8" fill="${w.accent}"/><circle cx="82" cy="80" r="8" fill="${w.accent}"/>
<path d="M20 94h76" stroke="${w.accent}" stroke-width="5" stroke-linecap="round"/>
<text x="124" y="58" font-family="${font}" font-size="36" font-weight="800" letter-spacing="1" fill="${w.primary}">${esc(w.line1)}</text>
<text x="126" y="96" font-family="${font}" font-size="26" font-weight="600" letter-spacing="6" fill="${w.accent}">${esc(w.line2)}</text>
</svg>
`;
}

function write(rel, content, written) {
  const file = join(OUT, rel);
  mkdirSync(dirname(file), { recursive: true });
  const bytes = Buffer.byteLength(content);
  if (bytes >= MAX_BYTES) throw new Error(`${rel} is ${bytes} bytes (limit ${MAX_BYTES})`);
  writeFileSync(file, content);
  written.push([rel, bytes]);
}

function main() {
  const written = [];
  // Start from clean generated folders so renamed makes do not leave stale files.
  for (const dir of ['stock', 'makes', 'brand']) {
    const p = join(OUT, dir);
    try { for (const f of readdirSync(p)) if (f.endsWith('.svg')) rmSync(join(p, f)); } catch { /* first run */ }
  }
  for (const slug of Object.values(BODY_SLUGS)) {
    if (!SHAPES[slug]) throw new Error(`no silhouette for body ${slug}`);
    COLOUR_VARIANTS.forEach((_, i) => write(`stock/${slug}-${i + 1}.svg`, stockSvg(slug, i, i + 1), written));
  }
  write('no-photo.svg', noPhotoSvg(), written);
  for (const make of allMakes()) write(`makes/${slugify(make)}.svg`, makeSvg(make), written);
  for (const dealer of DEALERS) write(`brand/${dealer.slug}.svg`, brandSvg(dealer), written);
  const max = written.reduce((a, b) => (b[1] > a[1] ? b : a));
  console.log(`wrote ${written.length} SVG files to ${OUT.slice(ROOT.length + 1)} (largest ${max[0]}, ${max[1]} bytes)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
