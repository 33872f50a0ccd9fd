#!/usr/bin/env node
// Demo car photos as real-size JPEGs, so the demo sites exercise what real
// stock does to a page: a 1280x960 photo of about 200 KB (what an image host
// returns without parameters) and the sizes the pages ask for through the
// demo dealers' `images.url_template: "{base}-{width}.{ext}"`.
//
//   node scripts/demo-stock/photos.mjs          (idempotent: skips when up to date)
//   node scripts/demo-stock/photos.mjs --force
//
// Writes astro-app/public/images/photos/<body>-<1..6>.jpg and
// <body>-<1..6>-<480|640|960|1280>.jpg: the body silhouettes of
// placeholders.mjs in six colours, over a seeded grain so they compress like
// photographs rather than flat drawings. Deterministic (seeded PRNG, fixed
// encoder settings). Generated, not committed: ~48 photos x 5 files is
// about 20 MB, too much for the repository; scripts/setup.sh and
// scripts/test.sh run this first (the folder is in .gitignore).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BODY_SLUGS, COLOUR_VARIANTS } from './catalogue.mjs';
import { stockSvg } from './placeholders.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const OUT = join(ROOT, 'astro-app', 'public', 'images', 'photos');
const require = createRequire(import.meta.url);
const sharp = require('sharp');

/** What the image host returns without parameters: full size, high quality. */
export const ORIGINAL = { width: 1280, height: 960, quality: 88 };
/**
 * The widths the demo dealers' srcset asks for: images.srcset_widths' default,
 * read from the dealer schema the generator writes (one list, in
 * config/src/model/detail.rs); it holds the 640 px fallback too.
 */
export const WIDTHS = JSON.parse(readFileSync(join(ROOT, 'dealers', 'dealer.schema.json'), 'utf8')).$defs.ImagesConfig.properties.srcset_widths.default;
export const QUALITY = 75;

const STAMP = join(OUT, '.stamp');

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Film-like grain: per-pixel noise plus a softer blotch pattern, seeded. */
function addGrain(pixels, width, height, seed) {
  const rnd = mulberry32(seed);
  const cell = 24;
  const cols = Math.ceil(width / cell) + 1;
  const rows = Math.ceil(height / cell) + 1;
  const blotch = Float32Array.from({ length: cols * rows }, () => (rnd() - 0.5) * 18);
  for (let y = 0; y < height; y++) {
    const cy = y / cell;
    const y0 = Math.floor(cy);
    const fy = cy - y0;
    for (let x = 0; x < width; x++) {
      const cx = x / cell;
      const x0 = Math.floor(cx);
      const fx = cx - x0;
      const b =
        blotch[y0 * cols + x0] * (1 - fx) * (1 - fy) +
        blotch[y0 * cols + x0 + 1] * fx * (1 - fy) +
        blotch[(y0 + 1) * cols + x0] * (1 - fx) * fy +
        blotch[(y0 + 1) * cols + x0 + 1] * fx * fy;
      const i = (y * width + x) * 3;
      const grain = (rnd() - 0.5) * 16;
      for (let c = 0; c < 3; c++) {
        const v = pixels[i + c] + b + grain;
        pixels[i + c] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  }
}

function photoNames() {
  const out = [];
  for (const slug of Object.values(BODY_SLUGS)) COLOUR_VARIANTS.forEach((_, i) => out.push({ slug, variant: i, name: `${slug}-${i + 1}` }));
  return out;
}

/** The file names a photo needs: the original and each width. */
export function photoFiles(name) {
  return [`${name}.jpg`, ...WIDTHS.map((w) => `${name}-${w}.jpg`)];
}

function fingerprint() {
  const h = createHash('sha256');
  for (const f of ['photos.mjs', 'placeholders.mjs', 'catalogue.mjs']) h.update(readFileSync(join(HERE, f)));
  h.update(JSON.stringify(sharp.versions));
  h.update(JSON.stringify(WIDTHS));
  return h.digest('hex').slice(0, 16);
}

function upToDate(stamp) {
  if (!existsSync(STAMP) || readFileSync(STAMP, 'utf8').trim() !== stamp) return false;
  return photoNames().every(({ name }) => photoFiles(name).every((f) => existsSync(join(OUT, f))));
}

async function main() {
  const force = process.argv.includes('--force');
  const stamp = fingerprint();
  if (!force && upToDate(stamp)) {
    console.log(`demo photos up to date in ${OUT.slice(ROOT.length + 1)}`);
    return;
  }
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const sizes = { original: [], 640: [] };
  let n = 0;
  for (const { slug, variant, name } of photoNames()) {
    const svg = Buffer.from(stockSvg(slug, variant, n + 1));
    const { width, height } = ORIGINAL;
    const raw = await sharp(svg, { density: 160 }).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    const pixels = new Float32Array(raw);
    addGrain(pixels, width, height, 0x9e3779b1 ^ (n * 7919));
    const grained = Buffer.from(Uint8ClampedArray.from(pixels));
    const base = sharp(grained, { raw: { width, height, channels: 3 } });
    const original = await base.clone().jpeg({ quality: ORIGINAL.quality, mozjpeg: false }).toBuffer();
    writeFileSync(join(OUT, `${name}.jpg`), original);
    sizes.original.push(original.length);
    for (const w of WIDTHS) {
      const buf = await base.clone().resize(w, Math.round((w * height) / width)).jpeg({ quality: QUALITY, mozjpeg: false }).toBuffer();
      writeFileSync(join(OUT, `${name}-${w}.jpg`), buf);
      if (w === 640) sizes[640].push(buf.length);
    }
    n++;
  }
  writeFileSync(STAMP, `${stamp}\n`);
  const avg = (xs) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length / 1024);
  const files = readdirSync(OUT).filter((f) => f.endsWith('.jpg')).length;
  console.log(`wrote ${files} JPEG files for ${n} demo photos to ${OUT.slice(ROOT.length + 1)}: originals ${ORIGINAL.width}x${ORIGINAL.height} ~${avg(sizes.original)} KB, 640 px q${QUALITY} ~${avg(sizes[640])} KB`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
