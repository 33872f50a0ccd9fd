/**
 * The Reserved badge (docs/behaviour/search.md §4: Reserved is the car's tag once a
 * shopper has reserved it), from the edge (`GET /api/cars/{slug}/status`)
 * rather than the last build: a car reserved online shows Reserved on the
 * dealer's site at once. No React: a tiny module watches the page for
 * `[data-reserved-slug]` badges (the car page's, and the search cards',
 * which the search island re-renders) and asks the edge about each car only
 * when its badge scrolls into view, once per car per page.
 *
 * Only cars the dealer reserves online carry a badge (Car.checkout): the
 * others cannot become reserved through the edge. A reserved car's Reserve
 * buttons (`[data-reserve-for]`) are hidden with it.
 */
import { api } from '../api';

export interface CarStatus {
  reserved: boolean;
  pending: boolean;
}

/** The car's status, or null when the edge does not answer (the page then shows what the build knew). */
export async function carStatus(apiBase: string, slug: string, fetchImpl?: typeof fetch): Promise<CarStatus | null> {
  const r = await api<{ reserved?: unknown; pending?: unknown }>(apiBase, `/api/cars/${encodeURIComponent(slug)}/status`, { method: 'GET', fetchImpl });
  if (!r.ok) return null;
  return { reserved: r.data.reserved === true, pending: r.data.pending === true };
}

/** Shows the car's badges and hides its Reserve buttons when it is reserved. */
export function applyStatus(root: ParentNode, slug: string, status: CarStatus | null): void {
  if (!status?.reserved) return;
  const esc = typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(slug) : slug.replace(/["\\]/g, '\\$&');
  root.querySelectorAll<HTMLElement>(`[data-reserved-slug="${esc}"]`).forEach((el) => (el.hidden = false));
  root.querySelectorAll<HTMLElement>(`[data-reserve-for="${esc}"]`).forEach((el) => (el.hidden = true));
}

/** Watches `doc` for badges, now and as islands add them. */
export function watchReserved(doc: Document = document, fetchImpl?: typeof fetch): void {
  const asked = new Map<string, Promise<CarStatus | null>>();
  const seen = new WeakSet<Element>();
  const check = (badge: HTMLElement) => {
    const slug = badge.dataset['reservedSlug'];
    if (!slug) return;
    let status = asked.get(slug);
    if (!status) {
      status = carStatus(badge.dataset['apiBase'] ?? '', slug, fetchImpl);
      asked.set(slug, status);
    }
    void status.then((s) => applyStatus(doc, slug, s));
  };
  // A hidden badge has no box of its own: its parent (the title area, the
  // card's photo) is what scrolls into view.
  const badges = new Map<Element, HTMLElement>();
  const io =
    typeof IntersectionObserver === 'undefined'
      ? null
      : new IntersectionObserver(
          (entries) => {
            for (const e of entries) {
              const badge = badges.get(e.target);
              if (!e.isIntersecting || !badge) continue;
              io?.unobserve(e.target);
              badges.delete(e.target);
              check(badge);
            }
          },
          { rootMargin: '200px' },
        );
  const scan = () => {
    doc.querySelectorAll<HTMLElement>('[data-reserved-slug]').forEach((badge) => {
      if (seen.has(badge)) return;
      seen.add(badge);
      const box = badge.parentElement;
      if (!io || !box) return check(badge);
      badges.set(box, badge);
      io.observe(box);
    });
  };
  scan();
  new MutationObserver(scan).observe(doc.body, { childList: true, subtree: true });
}
