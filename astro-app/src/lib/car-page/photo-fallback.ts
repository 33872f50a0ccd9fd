/**
 * A car photo that fails to load shows the not-found placeholder (docs/behaviour/content.md
 * §4, §8) instead of a broken image. One capturing listener catches every
 * photo's error event (they do not bubble); photos that failed before it
 * was installed are found by their state.
 */

const PHOTO = 'img[data-photo]';
/** lib/images.ts NO_PHOTO, not imported: this module loads up front and that one is bigger. */
const NO_PHOTO = '/images/no-photo.svg';

function replace(img: HTMLImageElement): void {
  if (img.dataset['failed'] !== undefined) return;
  img.dataset['failed'] = '';
  img.removeAttribute('srcset');
  img.src = NO_PHOTO;
}

export function installPhotoFallback(doc: Document): () => void {
  const onError = (event: Event) => {
    const t = event.target;
    if (t instanceof HTMLImageElement && t.matches(PHOTO)) replace(t);
  };
  doc.addEventListener('error', onError, true);
  for (const img of doc.querySelectorAll<HTMLImageElement>(PHOTO)) {
    // complete with no size: already failed (a lazy photo not loaded yet is not complete).
    if (img.complete && img.naturalWidth === 0 && img.getAttribute('src')) replace(img);
  }
  return () => doc.removeEventListener('error', onError, true);
}
