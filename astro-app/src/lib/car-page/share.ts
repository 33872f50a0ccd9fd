/**
 * The share bar (docs/behaviour/car-page.md §2): Facebook, X (hideable), WhatsApp, e-mail,
 * SMS and copy link. The links work as plain links; with JavaScript the
 * social ones open in a 550 x 400 window, and Copy link puts the car's
 * address on the clipboard and says "Copied" for 1.5 seconds.
 */

export const SHARE_WINDOW = { width: 550, height: 400 } as const;
export const COPIED_MS = 1500;

export interface ShareLink {
  kind: 'facebook' | 'x' | 'whatsapp' | 'email' | 'sms';
  label: string;
  href: string;
  /** Opens in the 550 x 400 share window. */
  popup: boolean;
}

/** The share links of a page at `url` titled `title`, X left out when the dealer hides it. */
export function shareLinks(url: string, title: string, opts: { hideX: boolean }): ShareLink[] {
  const u = encodeURIComponent(url);
  const text = encodeURIComponent(title);
  const both = encodeURIComponent(`${title} ${url}`);
  const links: ShareLink[] = [
    { kind: 'facebook', label: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}`, popup: true },
    { kind: 'x', label: 'X', href: `https://x.com/intent/tweet?url=${u}&text=${text}`, popup: true },
    { kind: 'whatsapp', label: 'WhatsApp', href: `https://wa.me/?text=${both}`, popup: true },
    { kind: 'email', label: 'E-mail', href: `mailto:?subject=${text}&body=${both}`, popup: false },
    { kind: 'sms', label: 'SMS', href: `sms:?&body=${both}`, popup: false },
  ];
  return opts.hideX ? links.filter((l) => l.kind !== 'x') : links;
}

/** window.open features: 550 x 400, centred on the current window. */
export function shareWindowFeatures(win: Pick<Window, 'screenX' | 'screenY' | 'outerWidth' | 'outerHeight'>): string {
  const left = Math.max(0, Math.round(win.screenX + (win.outerWidth - SHARE_WINDOW.width) / 2));
  const top = Math.max(0, Math.round(win.screenY + (win.outerHeight - SHARE_WINDOW.height) / 2));
  return `width=${SHARE_WINDOW.width},height=${SHARE_WINDOW.height},left=${left},top=${top},resizable=yes,scrollbars=yes`;
}

/** Opens `href` in the share window; false when the browser blocked it (the link then opens as usual). */
export function openShareWindow(win: Window, href: string): boolean {
  const w = win.open(href, 'dealergen-share', shareWindowFeatures(win));
  if (!w) return false;
  // The shared site must not reach back into the dealer's page.
  try {
    w.opener = null;
  } catch {
    /* cross-origin already */
  }
  return true;
}

/** Puts `text` on the clipboard (the Clipboard API, or a selected textarea in older browsers). */
export async function copyText(doc: Document, text: string): Promise<boolean> {
  const clipboard = doc.defaultView?.navigator.clipboard;
  if (clipboard?.writeText) {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      /* permission refused: try the old way */
    }
  }
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  doc.body.append(area);
  area.select();
  let ok: boolean;
  try {
    ok = doc.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

const timers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();

/**
 * Copy link: copies the button's `data-url`, then its label says "Copied"
 * (or that it failed) for 1.5 s; a status region next to it tells screen
 * readers. A second click restarts the 1.5 s.
 */
export async function copyLink(button: HTMLElement): Promise<boolean> {
  const doc = button.ownerDocument;
  const url = button.dataset['url'] ?? doc.location.href;
  const ok = await copyText(doc, url);
  const label = button.querySelector<HTMLElement>('[data-label]') ?? button;
  const status = doc.getElementById(button.getAttribute('aria-describedby') ?? '');
  const idle = button.dataset['idle'] ?? 'Copy link';
  const said = ok ? 'Copied' : 'Copy failed';
  label.textContent = said;
  if (status) status.textContent = ok ? 'Link copied' : 'The link could not be copied';
  clearTimeout(timers.get(button));
  timers.set(
    button,
    setTimeout(() => {
      label.textContent = idle;
      if (status) status.textContent = '';
    }, COPIED_MS),
  );
  return ok;
}
