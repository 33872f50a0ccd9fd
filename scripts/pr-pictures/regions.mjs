/**
 * Where two screenshots of one page differ, and the pictures with those
 * regions outlined. `compareInBrowser` runs inside Chromium (page.evaluate):
 * the canvas decodes and encodes the PNGs, so no image library ships with
 * the project for this.
 */

/** Channel difference below which two pixels count as the same (antialiasing). */
export const TOLERANCE = 24;
/** Rows of difference closer than this are one region. */
export const GAP = 24;
/** Outline colour, width and room left around the change (px, at the screenshot's scale). */
export const OUTLINE = { colour: '#e0007a', width: 4, pad: 8 };

/**
 * Regions (`{ x, y, width, height }`) of the rows where `a` and `b`
 * (RGBA bytes, `width` wide, `ha` and `hb` rows tall) differ; rows only one
 * of them has differ whole. Consecutive differing rows, and rows at most
 * `gap` apart, form one region spanning their leftmost to rightmost
 * difference. Pure, and self-contained: it travels to the browser as its
 * source text, so it names nothing outside itself (TOLERANCE and GAP come
 * in as arguments).
 */
export function diffRegions(a, b, width, ha, hb, { tolerance, gap }) {
  const height = Math.max(ha, hb);
  const regions = [];
  let open = null;
  for (let y = 0; y < height; y++) {
    let x0 = -1;
    let x1 = -1;
    if (y >= ha || y >= hb) {
      x0 = 0;
      x1 = width - 1;
    } else {
      const row = y * width * 4;
      for (let x = 0; x < width; x++) {
        const i = row + x * 4;
        if (
          Math.abs(a[i] - b[i]) > tolerance ||
          Math.abs(a[i + 1] - b[i + 1]) > tolerance ||
          Math.abs(a[i + 2] - b[i + 2]) > tolerance
        ) {
          if (x0 < 0) x0 = x;
          x1 = x;
        }
      }
    }
    if (x0 < 0) continue;
    if (open && y - open.y1 <= gap) {
      open.x0 = Math.min(open.x0, x0);
      open.x1 = Math.max(open.x1, x1);
      open.y1 = y;
    } else {
      if (open) regions.push(open);
      open = { x0, x1, y0: y, y1: y };
    }
  }
  if (open) regions.push(open);
  return regions.map((r) => ({ x: r.x0, y: r.y0, width: r.x1 - r.x0 + 1, height: r.y1 - r.y0 + 1 }));
}

/**
 * In the browser: `{ regions, before, after, beforeCrop, afterCrop }` for
 * two PNG data URLs (either may be null: a page added or removed). The
 * full pictures come back with the regions outlined, and crops of at most
 * `window` rows around the first region (the part a contact sheet shows),
 * all as PNG data URLs.
 */
export async function compareInBrowser({ beforeUrl, afterUrl, window, outline, diffSource, tolerance, gap }) {
  // The pure function travels as source text (page.evaluate passes data, not functions).
  const diffRegions = new Function(`return (${diffSource})`)();
  const load = async (url) => {
    if (!url) return null;
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    return { canvas, ctx, width: canvas.width, height: canvas.height };
  };
  const [a, b] = await Promise.all([load(beforeUrl), load(afterUrl)]);
  const only = a ?? b;
  let regions;
  if (a && b) {
    const width = Math.min(a.width, b.width);
    const da = a.ctx.getImageData(0, 0, width, a.height).data;
    const db = b.ctx.getImageData(0, 0, width, b.height).data;
    regions = diffRegions(da, db, width, a.height, b.height, { tolerance, gap });
  } else {
    regions = [{ x: 0, y: 0, width: only.width, height: only.height }];
  }
  const draw = (pic) => {
    if (!pic) return null;
    pic.ctx.strokeStyle = outline.colour;
    pic.ctx.lineWidth = outline.width;
    // Stroked around the region with room to spare, kept inside the picture.
    const half = outline.width / 2;
    for (const r of regions) {
      if (r.y >= pic.height) continue;
      const x0 = Math.max(r.x - outline.pad, half);
      const y0 = Math.max(r.y - outline.pad, half);
      const x1 = Math.min(r.x + r.width + outline.pad, pic.width - half);
      const y1 = Math.min(r.y + r.height + outline.pad, pic.height - half);
      pic.ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
    }
    return pic;
  };
  draw(a);
  draw(b);
  // The crop starts a little above the first region, so its context shows.
  const top = regions.length ? Math.max(0, regions[0].y - Math.round(window / 6)) : 0;
  const crop = (pic) => {
    if (!pic) return null;
    const y = Math.min(top, Math.max(0, pic.height - 1));
    const h = Math.min(window, pic.height - y);
    const c = document.createElement('canvas');
    c.width = pic.width;
    c.height = h;
    c.getContext('2d').drawImage(pic.canvas, 0, y, pic.width, h, 0, 0, pic.width, h);
    return c.toDataURL('image/png');
  };
  return {
    regions,
    before: a && a.canvas.toDataURL('image/png'),
    after: b && b.canvas.toDataURL('image/png'),
    beforeCrop: crop(a),
    afterCrop: crop(b),
  };
}
