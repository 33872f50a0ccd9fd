/**
 * The photo strip loads its first two photos with the page; the rest only
 * once the shopper scrolls the strip (issue 9: a car with 20 photos must not
 * cost a phone 20 downloads up front). Deferred photos carry their address
 * in `data-src` / `data-srcset` (components/CarImage.astro `deferred`);
 * the strip's first scroll gives them back, and the browser's lazy loading
 * then fetches each as it comes near.
 */

/** Gives every deferred photo under `root` its real address. */
export function revealDeferred(root: ParentNode): number {
  let n = 0;
  for (const img of root.querySelectorAll<HTMLImageElement>('img[data-deferred]')) {
    const { src, srcset } = img.dataset;
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
