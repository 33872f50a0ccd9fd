/**
 * The car page's one up-front script (kept to a couple of KB): it wires
 * the toggles, tabs, dialogs, sticky bars, share buttons and photo
 * fallback, and only listens for the rest: the photo viewer and the
 * opening-hours check are loaded on first use (a click on a photo, the
 * mobile footer appearing).
 */
import { initDialogs } from './dialogs';
import { initDisclosures } from './disclosure';
import { installPhotoFallback } from './photo-fallback';
import { copyLink, openShareWindow } from './share';
import { initSticky } from './sticky';
import { initTabs } from './tabs';

export function initCarPage(win: Window): void {
  const doc = win.document;
  installPhotoFallback(doc);
  initDisclosures(doc);
  initTabs(doc);
  initDialogs(doc);

  const bar = doc.querySelector<HTMLElement>('[data-sticky-bar]');
  const footer = doc.querySelector<HTMLElement>('[data-mobile-footer]');
  if (bar || footer) {
    let timer: ReturnType<typeof setInterval> | undefined;
    initSticky(win, { bar, footer }, { bar: !!bar, footer: !!footer }, (el) => {
      void import('./call-now').then(({ updateCallNow }) => {
        updateCallNow(el, new Date());
        // Opening and closing times pass while the page is open.
        timer ??= setInterval(() => updateCallNow(el, new Date()), 60_000);
      });
    });
  }

  let viewer: Promise<import('./viewer').PhotoViewer | null> | null = null;
  doc.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    const open = target?.closest?.<HTMLElement>('[data-viewer-open]');
    if (open) {
      event.preventDefault();
      viewer ??= import('./viewer').then(({ PhotoViewer, galleryPhotos }) => {
        const dialog = doc.querySelector<HTMLDialogElement>('dialog[data-viewer]');
        const gallery = open.closest('[data-gallery]');
        return dialog && gallery ? new PhotoViewer(dialog, galleryPhotos(gallery)) : null;
      });
      void viewer.then((v) => v?.open(Number(open.dataset['viewerOpen'] ?? 0), open));
      return;
    }
    // Synchronous: browsers allow a window or the clipboard only straight from the click.
    const popup = target?.closest?.<HTMLAnchorElement>('a[data-share-popup]');
    if (popup && openShareWindow(win, popup.href)) event.preventDefault();
    const copy = target?.closest?.<HTMLElement>('[data-copy-link]');
    if (copy) void copyLink(copy);
  });
}
