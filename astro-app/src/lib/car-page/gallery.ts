/**
 * The photo strip loads its first two photos with the page; the rest only
 * once the shopper scrolls the strip (a car with 20 photos must not
 * cost a phone 20 downloads up front). Deferred photos carry their address
 * in `data-src` / `data-srcset` / `data-sizes` (components/CarImage.astro
 * `deferred`: HTML allows `sizes` only beside a `srcset`);
 * the strip's first scroll gives them back, and the browser's lazy loading
 * then fetches each as it comes near.
 */

/** Gives every deferred photo under `root` its real address. */
export function revealDeferred(root: ParentNode): number {
  let n = 0;
  for (const img of root.querySelectorAll<HTMLImageElement>('img[data-deferred]')) {
    const { src, srcset, sizes } = img.dataset;
    if (sizes) img.sizes = sizes;
    if (srcset) img.srcset = srcset;
    if (src) img.src = src;
    img.removeAttribute('data-deferred');
    n++;
  }
  return n;
}

/** Reveals the strip's deferred photos on its first scroll. */
export function deferGalleryPhotos(doc: Document): void {
  for (const track of doc.querySelectorAll<HTMLElement>('.gallery__track')) {
    if (!track.querySelector('img[data-deferred]')) continue;
    track.addEventListener('scroll', () => revealDeferred(track), { once: true, passive: true });
  }
}

/** The strip's photo links (each opens the viewer at its photo). */
function photoLinks(track: ParentNode): HTMLElement[] {
  return [...track.querySelectorAll<HTMLElement>('[data-viewer-open]')];
}

/**
 * Makes photo `index` the strip's one Tab stop (a roving tabindex); with
 * `focus`, focuses it and scrolls it into the strip's view, the page not
 * moved up or down.
 */
export function rovePhoto(track: ParentNode, index: number, focus: boolean): HTMLElement | null {
  const links = photoLinks(track);
  const to = links[Math.min(Math.max(index, 0), links.length - 1)];
  if (!to) return null;
  for (const link of links) link.tabIndex = link === to ? 0 : -1;
  if (focus) {
    to.focus({ preventScroll: true });
    to.scrollIntoView({ block: 'nearest', inline: 'start' });
  }
  return to;
}

/** The photo that the arrow keys, Home and End go to from photo `i` of `n`; undefined for other keys. */
export function stripStep(key: string, i: number, n: number): number | undefined {
  const to: Record<string, number> = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: n - 1 };
  return key in to ? Math.min(Math.max(to[key]!, 0), n - 1) : undefined;
}

/**
 * The strip from the keyboard: its Tab stop is one photo; ArrowLeft and
 * ArrowRight move focus to the previous and next photo, Home and End to the
 * first and last (the strip scrolls with it, so the focused photo is the one
 * shown and Enter opens it). Scrolled by a swipe or the scroll bar, the Tab
 * stop follows the photo in view.
 */
export function initGalleryKeys(doc: Document): void {
  for (const track of doc.querySelectorAll<HTMLElement>('.gallery__track')) {
    if (photoLinks(track).length < 2) continue;
    track.addEventListener('keydown', (event) => {
      const links = photoLinks(track);
      const i = links.indexOf(event.target as HTMLElement);
      const to = i < 0 || event.altKey || event.ctrlKey || event.metaKey ? undefined : stripStep(event.key, i, links.length);
      if (to === undefined) return;
      event.preventDefault();
      rovePhoto(track, to, true);
    });
    track.addEventListener('scrollend', () => {
      if (track.contains(doc.activeElement)) return;
      const left = track.getBoundingClientRect().left;
      const links = photoLinks(track);
      const shown = links.findIndex((l) => l.getBoundingClientRect().right - left > 1);
      if (shown >= 0) rovePhoto(track, shown, false);
    });
  }
}
