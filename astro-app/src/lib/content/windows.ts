/**
 * Content with a start and an expiry (offers, promotions, the popup) shows
 * only inside its window, judged at view time: a promotion that expires
 * disappears without a rebuild (docs/behaviour/content.md §4). The generator writes the
 * window as unix seconds (the dealer's local moments resolved in its time
 * zone) into `data-starts-at` / `data-expires-at`; pages render what was
 * active when the site was built, and this module corrects that at view time.
 */

export interface Window {
  starts_at: number | null;
  expires_at: number | null;
}

/** Whether the window is open at `nowSeconds` (start and expiry included). */
export function inWindow(w: Window, nowSeconds: number): boolean {
  return (w.starts_at === null || nowSeconds >= w.starts_at) && (w.expires_at === null || nowSeconds <= w.expires_at);
}

const attr = (el: Element, name: string): number | null => {
  const v = el.getAttribute(name);
  return v === null || v === '' ? null : Number(v);
};

/**
 * Shows or hides every `[data-window]` element of `root` for `nowMs`; a
 * `[data-window-empty]` element shows when every windowed sibling in its
 * `[data-window-list]` is hidden. Returns how many are shown.
 */
export function applyWindows(root: ParentNode, nowMs: number): number {
  const now = Math.floor(nowMs / 1000);
  let shown = 0;
  for (const el of root.querySelectorAll<HTMLElement>('[data-window]')) {
    const open = inWindow({ starts_at: attr(el, 'data-starts-at'), expires_at: attr(el, 'data-expires-at') }, now);
    el.hidden = !open;
    if (open) shown++;
  }
  for (const list of root.querySelectorAll<HTMLElement>('[data-window-list]')) {
    const any = [...list.querySelectorAll<HTMLElement>('[data-window]')].some((el) => !el.hidden);
    for (const empty of list.querySelectorAll<HTMLElement>('[data-window-empty]')) empty.hidden = any;
  }
  return shown;
}
